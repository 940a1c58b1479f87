"""The GOBLIN-NOTE v1 format: a signature line, a header, pages split by ``%%``."""

from __future__ import annotations

from collections.abc import Sequence

from goblin_core import CorruptDocument, FileType, Source
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument

NOTE_MIME = "application/x-goblin-note"
SIGNATURE = b"GOBLIN-NOTE v1\n"
PAGE_BREAK = "%%"


def render_note(pages: Sequence[str], **header: str) -> bytes:
    """Bytes of a GOBLIN-NOTE v1 file holding ``pages`` (handy in tests).

    >>> render_note(["hello"], title="Greeting").decode().splitlines()[:3]
    ['GOBLIN-NOTE v1', 'pages: 1', 'title: Greeting']
    """
    lines = ["GOBLIN-NOTE v1", f"pages: {len(pages)}"]
    lines += [f"{key}: {value}" for key, value in header.items()]
    body = f"\n{PAGE_BREAK}\n".join(pages)
    return ("\n".join(lines) + "\n\n" + body + "\n").encode("utf-8")


class NoteSniffer(BaseEngine):
    """Knows a GOBLIN-NOTE file by its first line, whatever the file is called."""

    name = "note.sniffer"
    formats = (NOTE_MIME,)
    priority = 50

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        if head.startswith(SIGNATURE):
            return FileType(NOTE_MIME, "gnote", 0.95)
        return None


class NoteParser(BaseEngine):
    """Reads GOBLIN-NOTE v1: each ``%%``-separated part of the body is a page."""

    name = "note.parser"
    formats = (NOTE_MIME,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        data = source.bytes()
        if not data.startswith(SIGNATURE):
            raise CorruptDocument(
                "not a GOBLIN-NOTE v1 file (the first line must be 'GOBLIN-NOTE v1'); "
                "check that the file is not damaged or misnamed",
                file=source.display_name,
            )
        try:
            text = data[len(SIGNATURE):].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CorruptDocument(
                f"GOBLIN-NOTE files are UTF-8, byte {exc.start + len(SIGNATURE)} is not; "
                "re-save the file as UTF-8",
                file=source.display_name,
            ) from exc
        header, _, body = text.partition("\n\n")
        metadata = _header(header, source.display_name)
        pages = [_strip_page(p) for p in body.split(f"\n{PAGE_BREAK}\n")]
        declared = metadata["pages"]
        if len(pages) != declared:
            raise CorruptDocument(
                f"the header declares {declared} page(s) but the body holds {len(pages)}: "
                "the file is truncated or damaged",
                file=source.display_name,
            )
        return TextDocument(pages, metadata=metadata)


def _header(header: str, name: str) -> dict[str, object]:
    metadata: dict[str, object] = {}
    for line in header.splitlines():
        key, sep, value = line.partition(":")
        if not sep or not key.strip():
            raise CorruptDocument(f"header line {line!r} is not 'key: value'", file=name)
        metadata[key.strip().lower()] = value.strip()
    declared = str(metadata.get("pages", ""))
    if not declared.isdigit() or int(declared) < 1:
        raise CorruptDocument(
            "the header has no valid 'pages:' line; the file is truncated or damaged", file=name
        )
    metadata["pages"] = int(declared)
    return metadata


def _strip_page(page: str) -> str:
    return page.strip("\n")
