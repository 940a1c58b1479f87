"""Zip-based documents (OOXML, OpenDocument, EPUB) told apart from plain zip archives.

Without this, goblin-core alone would call a .docx "application/zip" and send
it to an archive handler (or name the archives extra). Only the zip's central
directory is read, and only when it is small: the end-of-central-directory
record at the tail says how big the directory is before anything else is read.
"""

from __future__ import annotations

import logging
import struct
import zipfile
import zlib

from goblin_core.formats import BY_MIME
from goblin_core.model import FileType
from goblin_core.source import SNIFF_BYTES, Source

log = logging.getLogger(__name__)

_END_OF_DIRECTORY = b"PK\x05\x06"
_END_RECORD = 22
_LONGEST_COMMENT = 65_535
_MIMETYPE_MEMBER_MAX = 256

_OOXML = "application/vnd.openxmlformats-officedocument"
# Main part of each OOXML family, first match wins; a package with
# [Content_Types].xml and none of these is some other OPC package (XPS, VSDX).
_OOXML_MAIN_PARTS: tuple[tuple[str, str, str], ...] = (
    ("word/", f"{_OOXML}.wordprocessingml.document", "docx"),
    ("xl/workbook.bin", "application/vnd.ms-excel.sheet.binary.macroenabled.12", "xlsb"),
    ("xl/", f"{_OOXML}.spreadsheetml.sheet", "xlsx"),
    ("ppt/", f"{_OOXML}.presentationml.presentation", "pptx"),
)
CONFIDENCE = 0.85


def zip_document_type(source: Source) -> FileType | None:
    """The office or e-book type of a zip-based document, None for any other zip.

    >>> import io, zipfile
    >>> buffer = io.BytesIO()
    >>> with zipfile.ZipFile(buffer, "w") as z:
    ...     z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
    >>> zip_document_type(Source.from_bytes(buffer.getvalue(), "x.zip")).mime
    'application/vnd.oasis.opendocument.text'
    """
    if not directory_is_small(source):
        return None
    try:
        with zipfile.ZipFile(source.open()) as archive:
            return _ooxml_type(archive) or _declared_type(archive)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError,
            NotImplementedError) as exc:
        # a damaged deflated mimetype member fails with zlib.error, which is no OSError
        log.debug("%s: zip directory unreadable: %s", source.display_name, exc)
        return None


def directory_is_small(source: Source) -> bool:
    """True when the end record is found and the central directory fits in SNIFF_BYTES:
    reading a directory of millions of entries takes zipfile seconds and hundreds of
    megabytes (a 36 MB zip of 400,000 empty members: 14 s and 270 MB).

    A Zip64 end record's size stands in for the classic one's when that says 0xFFFFFFFF.
    """
    tail = source.tail(min(source.size, _END_RECORD + _LONGEST_COMMENT))
    at = tail.rfind(_END_OF_DIRECTORY)
    if at < 0 or at + _END_RECORD > len(tail):
        return False
    (directory_size,) = struct.unpack_from("<I", tail, at + 12)
    if directory_size == _ZIP64_MARK:
        found = _zip64_directory_size(source, tail, at)
        directory_size = _ZIP64_MARK if found is None else found
    return bool(directory_size <= SNIFF_BYTES)


_ZIP64_MARK = 0xFFFFFFFF
_ZIP64_LOCATOR = b"PK\x06\x07"
_ZIP64_LOCATOR_SIZE = 20
_ZIP64_END_RECORD = b"PK\x06\x06"
_ZIP64_END_RECORD_SIZE = 56


def _zip64_directory_size(source: Source, tail: bytes, end_at: int) -> int | None:
    """The directory size a Zip64 end record gives, found through the locator right
    before the classic end record; None when either is missing."""
    locator_at = end_at - _ZIP64_LOCATOR_SIZE
    if locator_at < 0 or tail[locator_at:locator_at + 4] != _ZIP64_LOCATOR:
        return None
    (record_offset,) = struct.unpack_from("<Q", tail, locator_at + 8)
    record = source.read(_ZIP64_END_RECORD_SIZE, record_offset)
    if len(record) < _ZIP64_END_RECORD_SIZE or not record.startswith(_ZIP64_END_RECORD):
        return None
    (size,) = struct.unpack_from("<Q", record, 40)
    return int(size)


def _ooxml_type(archive: zipfile.ZipFile) -> FileType | None:
    names = archive.namelist()
    if "[Content_Types].xml" not in names:
        return None
    for prefix, mime, ext in _OOXML_MAIN_PARTS:
        if any(name.startswith(prefix) for name in names):
            return FileType(mime, ext, CONFIDENCE)
    return None


def _declared_type(archive: zipfile.ZipFile) -> FileType | None:
    """ODF and EPUB name their type in a small ``mimetype`` member."""
    try:
        info = archive.getinfo("mimetype")
    except KeyError:
        return None
    if info.file_size > _MIMETYPE_MEMBER_MAX:
        return None
    declared = archive.read(info).strip().decode("ascii", "ignore").lower()
    # templates: ODF's "-template", OpenOffice.org 1.x's ".template" (and ".global", its
    # master documents)
    for suffix in ("-template", ".template", ".global"):
        declared = declared.removesuffix(suffix)
    known = BY_MIME.get(declared)
    if known is None:
        return None
    ext = known.extensions[0] if known.extensions else ""
    return FileType(known.mime, ext, CONFIDENCE)
