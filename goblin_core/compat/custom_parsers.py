"""GoblinTools' ``add_parser(extension, func)`` as a goblin plugin.

A user's parser function becomes a real goblin Parser, claimed by a sniffer
for its extension, so its text goes through the same pipeline (validation,
report, limits) as every built-in format.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from goblin_core.compat.logging_policy import goblintools_logger
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.hookspecs import hookimpl
from goblin_core.model import Document, FileType, Page, PageStatus
from goblin_core.registry import Registry, load_registry
from goblin_core.source import Source

log = goblintools_logger("parser")

PLUGIN_NAME = "goblintools-custom-parsers"


def normalise_extension(extension: str) -> str:
    """``".Custom"`` -> ``"custom"``.

    >>> normalise_extension(".TXT")
    'txt'
    """
    return extension.strip().lstrip(".").lower()


#: The path object a caller gave ``extract_from_file``, set while it is read:
#: GoblinTools hands its parsers the path as given, so a parser written for a
#: ``pathlib.Path`` gets one.
CALLERS_PATH: ContextVar[Any] = ContextVar("goblintools_callers_path", default=None)


def handed_path(path: str) -> Any:
    """``path`` as a custom parser receives it: the caller's own object when it names
    this file (a ``Path`` stays a ``Path``), else the string (folders, archive members)."""
    given = CALLERS_PATH.get()
    if isinstance(given, os.PathLike) and not isinstance(given, str):
        try:
            if Path(given) == Path(path):
                return given
        except TypeError:  # a PathLike giving bytes names no file here
            pass
    return path


def custom_mime(extension: str) -> str:
    return f"application/x-goblintools-{normalise_extension(extension)}"


class ExtensionSniffer(BaseEngine):
    """Claims files whose name ends with an extension a user gave a parser for.

    The user asked for that parser by extension, so here the extension beats
    the content, with full confidence.
    """

    name = "compat.extensions"
    priority = 1000

    def __init__(self, extensions: frozenset[str]) -> None:
        self.extensions = extensions

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        if source.extension in self.extensions:
            return FileType(custom_mime(source.extension), source.extension, 1.0)
        return None


class CallableParser(BaseEngine):
    """A user's ``func(path) -> str`` as a one-page goblin Parser."""

    priority = 1000

    def __init__(self, extension: str, func: Callable[[str], Any]) -> None:
        self.name = f"compat.parser.{extension}"
        self.formats = (custom_mime(extension),)
        self.func = func

    def open(self, source: Source, config: Config) -> TextDocument:
        extension = self.formats[0].rsplit("-", 1)[-1]
        return TextDocument([run_parser(self.func, extension, str(source.path()),
                                        source.display_name)])


def run_parser(func: Callable[[str], Any], extension: str, path: str, display_name: str) -> str:
    """A user's parser's text for ``path``; its failure as goblin's CorruptDocument."""
    try:
        text = func(handed_path(path))
    except Exception as exc:  # a user's parser may raise anything; report it as goblin's
        raise CorruptDocument(
            f"the custom parser for .{normalise_extension(extension)} failed: "
            f"{type(exc).__name__}: {exc}; fix the parser function or remove it",
            file=display_name,
        ) from exc
    return "" if text is None else str(text)


def empty_file_document(func: Callable[[str], Any], extension: str, path: str,
                        name: str) -> Document:
    """The Document of an empty file read by a user's parser.

    GoblinTools hands a file to the parser of its extension whatever its size,
    while goblin's detection stops at an empty file, so such a file skips it.
    """
    ext = normalise_extension(extension)
    text = run_parser(func, ext, path, name)
    status: PageStatus = "clean" if text.strip() else "empty"
    page = Page(number=1, text=text, engine=f"compat.parser.{ext}", status=status,
                confidence=1.0 if text.strip() else 0.0)
    return Document(name=name, mime=custom_mime(ext), pages=(page,), size=0)


class CustomParsersPlugin:
    """The hook implementations registering the user's parsers."""

    def __init__(self, parsers: Mapping[str, Callable[[str], Any]]) -> None:
        self.parsers = dict(parsers)

    @hookimpl
    def goblin_register_sniffers(self, register: Callable[[Any], None]) -> None:
        register(ExtensionSniffer(frozenset(self.parsers)))

    @hookimpl
    def goblin_register_parsers(self, register: Callable[[Any], None]) -> None:
        for extension, func in sorted(self.parsers.items()):
            register(CallableParser(extension, func))


def registry_with(parsers: Mapping[str, Callable[[str], Any]]) -> Registry:
    """The installed plugins plus the user's parsers, keyed by bare extension."""
    plugin = CustomParsersPlugin({normalise_extension(e): f for e, f in parsers.items()})
    return load_registry(extra_plugins=[(PLUGIN_NAME, plugin)])
