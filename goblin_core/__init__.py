"""goblin: trustworthy text from any pile of documents, page by page, with provenance.

>>> import goblin_core
>>> goblin_core.extract("Olá".encode(), name="a.txt").pages[0].status
'clean'
"""

from __future__ import annotations

import logging

from goblin_core.api import extract, extract_many
from goblin_core.config import Config
from goblin_core.deadline import time_left
from goblin_core.errors import (
    ConfigError,
    CorruptDocument,
    EmptyFile,
    EngineFailed,
    EngineUnavailable,
    ExtractionTimeout,
    FileTooLarge,
    GoblinError,
    MemoryLimitExceeded,
    OutputLimitReached,
    PasswordRequired,
    UnreadableFile,
    UnsafeArchive,
    UnsupportedFormat,
    WorkerCrashed,
)
from goblin_core.hookspecs import hookimpl
from goblin_core.model import (
    Attempt,
    Block,
    Document,
    FileType,
    ImageRegion,
    OCRResult,
    Page,
    PageContent,
    PageContext,
    Report,
    Table,
    Verdict,
)
from goblin_core.options import Option
from goblin_core.registry import Registry, default_registry, load_registry
from goblin_core.source import Source

# What goes wrong with a file is in its document's report: an application that wants
# goblin's log lines configures logging, and one that has not gets none on stderr.
logging.getLogger(__name__).addHandler(logging.NullHandler())

__all__ = [
    "Attempt",
    "Block",
    "Config",
    "ConfigError",
    "CorruptDocument",
    "Document",
    "EmptyFile",
    "EngineFailed",
    "EngineUnavailable",
    "ExtractionTimeout",
    "FileTooLarge",
    "FileType",
    "GoblinError",
    "ImageRegion",
    "MemoryLimitExceeded",
    "OCRResult",
    "Option",
    "OutputLimitReached",
    "Page",
    "PageContent",
    "PageContext",
    "PasswordRequired",
    "Registry",
    "Report",
    "Source",
    "Table",
    "UnreadableFile",
    "UnsafeArchive",
    "UnsupportedFormat",
    "Verdict",
    "WorkerCrashed",
    "default_registry",
    "extract",
    "extract_many",
    "hookimpl",
    "load_registry",
    "time_left",
]
