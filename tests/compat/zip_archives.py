"""Stand-in engines and archive builders for the facade's tests (no plugin needed)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from goblin_core import hookimpl
from goblin_core.engines import BaseEngine, Member, TextDocument
from goblin_core.errors import CorruptDocument


class ZipMembers(BaseEngine):
    """A plain ZIP reader, so archive tests need no plugin."""

    name = "tests.zip"
    formats = ("application/zip",)
    priority = 0

    def members(self, source: Any, limits: Any, config: Any) -> Iterator[Member]:
        archive = zipfile.ZipFile(source.path())
        for info in archive.infolist():
            yield Member(info.filename, _opener(archive, info.filename), info.file_size,
                         info.compress_size, kind="dir" if info.is_dir() else "file")


def _opener(archive: zipfile.ZipFile, name: str) -> Callable[[], BinaryIO]:
    def open_member() -> BinaryIO:
        try:
            return archive.open(name)  # type: ignore[return-value]
        except (NotImplementedError, zipfile.BadZipFile) as exc:
            raise CorruptDocument(f"cannot read this member: {exc}") from exc

    return open_member


def damage_member(data: bytes, name: str) -> bytes:
    """A ZIP whose member ``name`` names a compression method nobody knows."""
    entry = data.index(b"PK\x01\x02")  # the central directory names each member
    while data[entry + 46:entry + 46 + len(name)] != name.encode():
        entry = data.index(b"PK\x01\x02", entry + 4)
    return data[:entry + 10] + b"\x63\x00" + data[entry + 12:]


class ZipPlugin:
    @hookimpl
    def goblin_register_archive_handlers(self, register: Callable[[Any], None]) -> None:
        register(ZipMembers())


DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


class DocxStandIn(BaseEngine):
    """Reads any DOCX as one page of fixed text: enough to make DOCX a document."""

    name = "tests.docx"
    formats = (DOCX_MIME,)
    priority = 0

    def open(self, source: Any, config: Any) -> TextDocument:
        return TextDocument(["texto do documento"])


class DocxPlugin:
    @hookimpl
    def goblin_register_parsers(self, register: Callable[[Any], None]) -> None:
        register(DocxStandIn())


def docx_bytes() -> bytes:
    """The smallest package goblin-core detects as a DOCX."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as package:
        package.writestr("[Content_Types].xml", "<Types/>")
        package.writestr("word/document.xml", "<w:document/>")
    return buffer.getvalue()
