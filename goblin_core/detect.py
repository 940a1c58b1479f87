"""Step 1 of the pipeline: what is this file? Content beats extension."""

from __future__ import annotations

import logging
import math

from goblin_core.config import Config
from goblin_core.errors import EmptyFile
from goblin_core.formats import BY_EXTENSION
from goblin_core.model import FileType
from goblin_core.registry import Registry
from goblin_core.source import HEAD_BYTES, Source

log = logging.getLogger(__name__)

UNKNOWN = FileType("application/octet-stream", "", 0.0)


def detect(registry: Registry, config: Config, source: Source) -> FileType:
    """Ask every available sniffer; the most confident answer wins, ties by priority.

    An empty file is an EmptyFile (a CorruptDocument); the path of a FIFO, socket or
    device an OSError, as the pipeline refuses it. When no sniffer answers, the
    extension decides (with low confidence), else application/octet-stream.
    """
    source.refuse_special_file()
    head = source.head(HEAD_BYTES)
    if not head:
        raise EmptyFile("the file is empty (0 bytes): there is nothing to extract",
                        file=source.display_name)
    best: tuple[float, int, FileType] | None = None
    for entry in registry.ranked("sniffer", None, config):
        try:
            found = entry.engine.sniff(head, source)
        except Exception as exc:  # a sniffer's bug must not stop detection
            log.warning("sniffer %s failed on %s: %s", entry.name, source.display_name, exc)
            continue
        if not isinstance(found, FileType):
            if found is not None:
                log.warning("sniffer %s answered %r, not a FileType; ignored", entry.name, found)
            continue
        if not _well_formed(found):
            # A confidence of 7 (or NaN, which no comparison rejects) would outrank
            # every honest sniffer, whatever the file is.
            log.warning("sniffer %s answered %r: the MIME type must be a non-empty string and "
                        "the confidence a number in [0, 1]; ignored", entry.name, found)
            continue
        key = (found.confidence, config.engine_priority(entry.name, entry.priority), found)
        if best is None or key[:2] > best[:2]:
            best = key
    if best is not None:
        return best[2]
    known = BY_EXTENSION.get(source.extension)
    if known is not None:
        return FileType(known.mime, source.extension, 0.1)
    return UNKNOWN


def _well_formed(found: FileType) -> bool:
    confidence = found.confidence
    return (
        isinstance(found.mime, str)
        and "/" in found.mime
        and isinstance(confidence, (int, float))
        and not isinstance(confidence, bool)
        and math.isfinite(confidence)
        and 0.0 <= confidence <= 1.0
    )
