"""Streams that inflate to gigabytes, found in a PDF's bytes before any reader opens it.

PDFium, pypdf, pdfminer and pdftotext inflate a stream whole when they need it: a page's
content, a form, a font, the object streams that hold the document's objects. Two
megabytes of Flate data can inflate to two gigabytes of spaces, which a reader holds in
memory at once and parses into several times as much, inside one call nothing can
interrupt. So before the PDF is opened, every Flate stream large enough to inflate past
``pdf.max_stream_size`` is inflated here, counting the bytes and keeping none, and a
document holding one that does is refused.

Deflate packs at most about 1032 bytes into one, so a stream smaller than the limit over
1032 cannot reach it and is only looked at to see whether it inflates to Flate again: on
ordinary PDFs only big fonts and content streams are inflated. An encrypted PDF's
streams are decrypted first, since PDFium opens most of them without a password. Images
and embedded files are left out: text extraction never decodes an image (page renders
for OCR have their own pixel limit), and embedded files are children under the archive
limits.
"""

from __future__ import annotations

import re
import zlib
from typing import Any

from goblin_core.errors import FileTooLarge
from goblin_core.source import Source
from goblin_pdf.pdf_bytes import OBJECT, ZLIB_HEADER, mapped, stream_dictionary, stream_end, streams

#: The most bytes one byte of Deflate data can inflate to (RFC 1951's longest match, 258
#: bytes, in under two bits), rounded up.
_DEFLATE_RATIO = 1032
_NOT_INFLATED = re.compile(rb"/Subtype\s*/Image\b|/Type\s*/EmbeddedFile\b")
_CHUNK = 1 << 20
#: Flate layers inside one another counted, at most
_MAX_LAYERS = 4
#: Encrypted streams shorter than this are not decrypted to be looked at: Flate inside
#: Flate holds gigabytes in a few hundred bytes, but not in fewer.
_MIN_ENCRYPTED = 128


def refuse_stream_bombs(source: Source, limit: int, password: str | None = None) -> None:
    """FileTooLarge when a stream of the PDF inflates past ``limit`` bytes (0: no check).
    An encrypted PDF's streams are decrypted with ``password`` (or none) to be counted."""
    if limit <= 0:
        return
    with source.open() as stream, mapped(stream) as data:
        found = _oversized(data, limit)
        if found is None and data.find(b"/Encrypt") >= 0:
            found = _oversized_encrypted(stream, data, limit, password)
    if found is not None:
        raise FileTooLarge(
            f"{found} inflates past pdf.max_stream_size ({limit:,} bytes): a decompression "
            "bomb, not opened; raise pdf.max_stream_size to read it",
            file=source.display_name,
        )


def _oversized(data: Any, limit: int) -> str | None:
    """Which stream inflates past ``limit`` ("object 12"), or None."""
    smallest = limit // _DEFLATE_RATIO
    for keyword, start in streams(data):
        end = stream_end(data, start)
        # Only Flate data inflates that far; its zlib header says so before any inflating.
        # A smaller stream cannot, unless what it inflates to is Flate again.
        if not ZLIB_HEADER.match(data, start) or (
                end - start <= smallest and not _nested(data, start, end)):
            continue
        dictionary = stream_dictionary(data, keyword)
        if _NOT_INFLATED.search(dictionary):
            continue
        if _inflates_past(data, start, end, limit):
            number = OBJECT.match(dictionary)
            return f"object {int(number[1])}" if number else f"the stream at byte {start:,}"
    return None


def _oversized_encrypted(stream: Any, data: Any, limit: int, password: str | None) -> str | None:
    """As ``_oversized``, for a PDF whose streams are encrypted: pypdf decrypts each one
    that could hold a bomb, without decoding it (an empty user password opens most
    encrypted PDFs, and the readers would inflate what it hides)."""
    from pypdf import PdfReader

    smallest = limit // _DEFLATE_RATIO
    try:
        stream.seek(0)
        reader = PdfReader(stream, strict=False)
        if not reader.is_encrypted or not reader.decrypt(password or ""):
            return None  # no reader opens it without the right password either
    except Exception:  # damaged, or encrypted some other way: PDFium gives the verdict
        return None
    for keyword, start in streams(data):
        # Encrypted, a layer of Flate inside is seen only once decrypted: a stream of a
        # few hundred bytes can hold one.
        if stream_end(data, start) - start < _MIN_ENCRYPTED:
            continue
        header = OBJECT.search(stream_dictionary(data, keyword))
        raw = _decrypted(reader, int(header[1])) if header else None
        if raw is None or not ZLIB_HEADER.match(raw) or (
                len(raw) <= smallest and not _nested(raw, 0, len(raw))):
            continue
        if _inflates_past(raw, 0, len(raw), limit):
            return f"object {int(header[1])}" if header else "a stream"
    return None


def _decrypted(reader: Any, number: int) -> bytes | None:
    """Object ``number``'s stream data, decrypted and still encoded; None for an image,
    an embedded file, or what pypdf cannot read."""
    try:
        found = reader.get_object(number)
        if found is None or found.get("/Subtype") == "/Image" or \
                found.get("/Type") == "/EmbeddedFile":
            return None
        raw = getattr(found, "_data", None)
    except Exception:  # a damaged object: the readers fail on it as pypdf did
        return None
    return raw if isinstance(raw, bytes) else None


def _inflates_past(data: Any, start: int, end: int, limit: int) -> bool:
    """Whether the Flate data in ``data[start:end]``, or a Flate layer inside it (its
    output starting with a zlib header), gives more than ``limit`` bytes; a chunk at a
    time is held."""
    layers = [_Layer()]

    def feed(level: int, chunk: bytes) -> bool:
        layer = layers[level]
        while chunk and layer.alive:
            try:
                out = layer.decoder.decompress(chunk, _CHUNK)
            except zlib.error:
                # damaged data: the readers stop where inflating fails, and so does the count
                layer.alive = False
                return False
            chunk = layer.decoder.unconsumed_tail
            if not layer.size and level + 1 < _MAX_LAYERS and ZLIB_HEADER.match(out):
                layers.append(_Layer())  # Flate again: what it gives counts too
            layer.size += len(out)
            if layer.size > limit:
                return True
            if level + 1 < len(layers) and feed(level + 1, out):
                return True
            if layer.decoder.eof or (not out and not chunk):
                break
        return False

    for at in range(start, end, _CHUNK):
        if feed(0, bytes(data[at:min(at + _CHUNK, end)])):
            return True
        if not layers[0].alive or layers[0].decoder.eof:
            break
    return False


def _nested(data: Any, start: int, end: int) -> bool:
    """Whether a stream's Flate data inflates to more Flate data (a few bytes tell)."""
    try:
        head = zlib.decompressobj().decompress(bytes(data[start:min(end, start + 512)]), 2)
    except zlib.error:
        return False
    return ZLIB_HEADER.match(head) is not None


class _Layer:
    """One Flate layer being inflated: its decoder and how much it gave so far."""

    def __init__(self) -> None:
        self.decoder = zlib.decompressobj()
        self.size = 0
        self.alive = True
