"""Sniffers that refine the core's generic answers by looking inside containers.

The core's magic sniffer says "zip" or "OLE2" or "XML"; these look at a zip's
member names and ``[Content_Types].xml`` / ``mimetype``, an OLE2 directory's
stream names, and a flat ODF document's root, and answer with more
confidence. Content beats extension: a docx named .doc is a docx.
"""

from __future__ import annotations

import logging
import re
import zipfile
import zlib
from collections.abc import Iterator

import olefile

from goblin_core.builtin.containers import directory_is_small
from goblin_core.engines import BaseEngine
from goblin_core.model import FileType
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.containers import MEMBER_ERRORS
from goblin_office.pptrecords import ppt_document_starts
from goblin_office.wordsalvage import word97_fibs

log = logging.getLogger(__name__)

_ZIP_MAGIC = b"PK\x03\x04"
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_SMALL_MEMBER = 64 * 1024
_OOXML_EXT = {
    "docx": fmt.DOCX,
    "docm": fmt.DOCX,
    "dotx": fmt.DOCX,
    "dotm": fmt.DOCX,
    "xlsx": fmt.XLSX,
    "xlsm": fmt.XLSX,
    "xltx": fmt.XLSX,
    "xltm": fmt.XLSX,
    "xlsb": fmt.XLSB,
    "pptx": fmt.PPTX,
    "pptm": fmt.PPTX,
    "ppsx": fmt.PPTX,
    "potx": fmt.PPTX,
}
_FLAT_ROOT = re.compile(rb"<office:document\b[^>]*office:mimetype=\"([^\"]+)\"", re.S)
_XHTML_ROOT = re.compile(rb"<html\b", re.I)
_FLAT_OPC_ROOT = re.compile(
    rb"<(?:\w+:)?package\b[^>]*=\s*[\"']http://schemas\.microsoft\.com/office/2006/xmlPackage[\"']"
)
_WORD_2003_ROOT = re.compile(
    rb"<(?:\w+:)?wordDocument\b[^>]*=\s*[\"']http://schemas\.microsoft\.com/office/word/2003/wordml[\"']"
)
_SPREADSHEET_2003_ROOT = re.compile(
    rb"<(?:\w+:)?Workbook\b[^>]*=\s*[\"']urn:schemas-microsoft-com:office:spreadsheet[\"']"
)
_PROGID = re.compile(rb"<\?mso-application\s+progid=[\"']([\w.]+)[\"']")
_FICTIONBOOK_ROOT = re.compile(rb"<(?:\w+:)?FictionBook\b")


class ContainerSniffer(BaseEngine):
    """A zip that is docx/xlsx/pptx (and their macro, template, show variants), ODF or EPUB."""

    name = "office.zip_sniffer"
    priority = 50

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        if not head.startswith(_ZIP_MAGIC):
            return None
        if not directory_is_small(source):
            # a directory of millions of entries, or one too damaged to find: the
            # members at the front still tell the family
            return _truncated_guess(head, source)
        try:
            with zipfile.ZipFile(source.open()) as archive:
                return self._identify(archive)
        except MEMBER_ERRORS as exc:
            log.debug("%s: zip directory unreadable: %s", source.display_name, exc)
            return _truncated_guess(head, source)

    def _identify(self, archive: zipfile.ZipFile) -> FileType | None:
        names = set(archive.namelist())
        if "mimetype" in names and archive.getinfo("mimetype").file_size < 256:
            found = fmt.odf_format(_small_member(archive, "mimetype"))
            if found is not None:
                return FileType(found[0], found[1], 0.95)
        if "mimetype" in names or "META-INF/manifest.xml" in names:
            # a mimetype member that is damaged (or says nothing known): the package's
            # manifest and container still tell an ODF document or an EPUB
            declared = _declared_by_package(archive, names)
            if declared is not None:
                return declared
        if "[Content_Types].xml" in names:
            info = archive.getinfo("[Content_Types].xml")
            types = archive.read(info) if info.file_size < _SMALL_MEMBER else b""
            found = fmt.ooxml_format(names, types)
            if found is not None:
                return FileType(found[0], found[1], 0.95)
            if any(name.lower().endswith(".fdseq") for name in names):
                # XPS and OpenXPS alike name the fixed document sequence by this extension
                return FileType(fmt.XPS, "xps", 0.95)
        elif "_rels/.rels" in names:
            # a package whose [Content_Types].xml was lost (a tool that rewrote the zip
            # and dropped the name with brackets): its relationships and parts still tell
            # the family, and read as a zip it came out as a dump of its XML parts
            found = fmt.ooxml_format(names, b"") or fmt.ooxml_main_part_format(
                _small_member(archive, "_rels/.rels"))
            if found is not None:
                return FileType(found[0], found[1], 0.85)
        return None


_ROOT_ENTRY = re.compile(rb'full-path="/"[^>]*?media-type="([^"]+)"|media-type="([^"]+)"[^>]*?'
                         rb'full-path="/"')


def _small_member(archive: zipfile.ZipFile, member: str) -> bytes:
    """A member's first ``_SMALL_MEMBER`` bytes, or nothing when it does not inflate.
    Only those are inflated: a manifest of 1.5 GB of blanks, 1.5 MB deflated, took the
    sniffer 3 GB and half a minute, before any limit of the run applied."""
    try:
        with archive.open(member) as stream:
            return stream.read(_SMALL_MEMBER)
    except MEMBER_ERRORS:
        return b""


def _declared_by_package(archive: zipfile.ZipFile, names: set[str]) -> FileType | None:
    """ODF by the media type its manifest gives the package root, EPUB by its container."""
    if "META-INF/manifest.xml" in names:
        found = _ROOT_ENTRY.search(_small_member(archive, "META-INF/manifest.xml"))
        known = fmt.odf_format(found.group(1) or found.group(2)) if found else None
        if known is not None:
            return FileType(known[0], known[1], 0.9)
    if "META-INF/container.xml" in names and any(
            name.lower().endswith(".opf") for name in names):
        return FileType(fmt.EPUB, "epub", 0.9)
    return None


def _truncated_guess(head: bytes, source: Source) -> FileType | None:
    """A zip too damaged to list: the local headers at its front still tell the family.

    Writers order members differently (openpyxl puts ``docProps/`` first, some EPUB
    tools deflate ``mimetype``), so every member whose header lies in ``head`` counts.
    Answering docx, xlsx, pptx, vsdx, xps or an ODF kind routes a cut file to the parser
    that salvages what survived and says "truncated", where an archive handler would only
    fail to list it.
    """
    names: list[str] = []
    for name, method, data in _local_members(head):
        names.append(name)
        if name == "mimetype":
            found = fmt.odf_format(_member_bytes(method, data)[:80].strip())
            if found is not None:
                return FileType(found[0], found[1], 0.85)
    for prefix, mime, ext in (("word/", fmt.DOCX, "docx"), ("xl/", fmt.XLSX, "xlsx"),
                              ("ppt/", fmt.PPTX, "pptx"), ("visio/", fmt.VSDX, "vsdx")):
        if any(name.startswith(prefix) for name in names):
            if mime == fmt.XLSX and source.extension == "xlsb":
                return FileType(fmt.XLSB, "xlsb", 0.85)
            return FileType(mime, ext, 0.85)
    if any(name.lower().endswith(".fdseq") for name in names):
        return FileType(fmt.XPS, "xps", 0.85)
    known = _OOXML_EXT.get(source.extension)
    if known is not None and "[Content_Types].xml" in names:
        return FileType(known, source.extension, 0.85)
    return None


_LOCAL_HEADER = 30


def _local_members(head: bytes) -> Iterator[tuple[str, int, bytes]]:
    """(name, compression method, stored bytes) of each local header wholly in ``head``;
    the stored bytes stop at the end of ``head`` or at the next header."""
    offset = 0
    while head.startswith(_ZIP_MAGIC, offset) and offset + _LOCAL_HEADER <= len(head):
        method = int.from_bytes(head[offset + 8 : offset + 10], "little")
        size = int.from_bytes(head[offset + 18 : offset + 22], "little")
        name_length = int.from_bytes(head[offset + 26 : offset + 28], "little")
        extra_length = int.from_bytes(head[offset + 28 : offset + 30], "little")
        start = offset + _LOCAL_HEADER + name_length + extra_length
        if start > len(head):
            return
        name = head[offset + _LOCAL_HEADER : offset + _LOCAL_HEADER + name_length]
        # a size of 0 means a data descriptor follows: the next header bounds the data
        stop = start + size if size else head.find(_ZIP_MAGIC, start)
        yield name.decode("utf-8", "replace"), method, head[start : stop if stop > 0 else None]
        if not size:
            return
        offset = start + size


def _member_bytes(method: int, data: bytes) -> bytes:
    """A small member's content: stored as is, or the deflated start of it."""
    if method == 0:
        return data
    if method != 8:
        return b""
    try:
        return zlib.decompressobj(-zlib.MAX_WBITS).decompress(data, 4096)
    except zlib.error:
        return b""


#: the start of a compound file searched for its text stream when its directory is lost:
#: Word, PowerPoint and LibreOffice write it within the first sectors
_STREAMS_SEARCHED = 1 << 16
_OLE_KINDS = frozenset({"doc", "dot", "xls", "xlt", "ppt", "pps", "pot", "msg", "vsd", "pub"})


class OLESniffer(BaseEngine):
    """An OLE2 file that is doc, xls, ppt, msg, or an encrypted OOXML package."""

    name = "office.ole_sniffer"
    priority = 50

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        if not head.startswith(_OLE_MAGIC):
            return None
        try:
            with olefile.OleFileIO(source.open()) as ole:
                streams = {"/".join(entry) for entry in ole.listdir(streams=True, storages=True)}
        # RecursionError: olefile walks a directory chained entry after entry one call
        # a level; the file is still an OLE file, for the engines to refuse clearly
        except (OSError, ValueError, IndexError, TypeError, RecursionError) as exc:
            log.debug("%s: OLE directory unreadable: %s", source.display_name, exc)
            return _cut_short_type(source)
        return _ole_type(streams, source.extension)


def _cut_short_type(source: Source) -> FileType | None:
    """A .doc or .ppt cut short: its directory (written last) is lost, but the stream its
    text is in, written first, still opens as it does (a FIB, a DocumentContainer). A file
    named as another kind of compound file may hold such a stream in an object: its name
    is believed."""
    head = source.head(_STREAMS_SEARCHED)
    for mime, names, starts in ((fmt.DOC, ("doc", "dot"), word97_fibs),
                                (fmt.PPT, ("ppt", "pps", "pot"), ppt_document_starts)):
        if source.extension not in _OLE_KINDS.difference(names) \
                and next(starts(head), None) is not None:
            return FileType(mime, names[0], 0.85)
    return None


def _ole_type(streams: set[str], extension: str) -> FileType | None:
    top = {s.split("/", 1)[0] for s in streams}
    if {"EncryptionInfo", "EncryptedPackage"} <= top:
        mime = _OOXML_EXT.get(extension, fmt.OOXML_PROTECTED)
        return FileType(mime, extension if mime != fmt.OOXML_PROTECTED else "", 0.9)
    if any(s.startswith("__substg1.0_") for s in top):
        return FileType(fmt.MSG, "msg", 0.95)
    if "WordDocument" in top:
        return FileType(fmt.DOC, "doc", 0.95)
    if top & {"Workbook", "Book", "WORKBOOK", "BOOK"}:
        return FileType(fmt.XLS, "xls", 0.95)
    if "PowerPoint Document" in top:
        return FileType(fmt.PPT, "ppt", 0.95)
    return None


class MarkupSniffer(BaseEngine):
    """Flat ODF, Flat OPC and Office 2003 XML documents, FictionBook e-books, and XHTML the
    core calls plain XML."""

    name = "office.markup_sniffer"
    priority = 50

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        sample = head[:4096]
        found = _FLAT_ROOT.search(sample)
        if found is not None:
            flat = fmt.flat_odf_format(found.group(1).decode("ascii", "ignore"))
            if flat is not None:
                return FileType(flat[0], flat[1], 0.9)
        if _FLAT_OPC_ROOT.search(sample) is not None:
            progid = _PROGID.search(sample)
            if progid is not None and progid.group(1).startswith(b"PowerPoint"):
                return FileType(fmt.FLAT_POWERPOINT, "xml", 0.9)
            return FileType(fmt.FLAT_WORD, "xml", 0.9)
        if _WORD_2003_ROOT.search(sample) is not None:
            return FileType(fmt.WORD_2003, "xml", 0.9)
        if _SPREADSHEET_2003_ROOT.search(sample) is not None:
            return FileType(fmt.SPREADSHEETML_2003, "xml", 0.9)
        if _FICTIONBOOK_ROOT.search(sample) is not None:
            return FileType(fmt.FICTIONBOOK, "fb2", 0.9)
        declared = sample.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<?xml")
        other = b"<office:document" in sample or b"<svg" in sample
        if declared and not other and _XHTML_ROOT.search(sample):
            return FileType(fmt.HTML, "xhtml", 0.65)
        return None


_HEADER_FIELD = re.compile(rb"([A-Za-z][\w-]*)[ \t]*:")
_MAIL_FIELDS = frozenset({b"from", b"to", b"subject", b"date", b"received", b"message-id"})
# what a message that travelled has and a browser's or Office's saved page does not
_ROUTING_FIELDS = frozenset({
    b"received", b"to", b"cc", b"bcc", b"delivered-to", b"return-path", b"message-id",
    b"in-reply-to", b"references", b"reply-to",
})
_HEADER_SCAN = 16 * 1024


def _top_headers(head: bytes) -> dict[bytes, bytes] | None:
    """The header block ``head`` starts with, field names lowercased -> unfolded value;
    None when a line of it is not a header field (so it is no message at all)."""
    fields: dict[bytes, bytes] = {}
    name = b""
    for line in head[:_HEADER_SCAN].removeprefix(b"\xef\xbb\xbf").splitlines():
        if not line.strip():
            break
        if line[:1] in (b" ", b"\t") and name:
            fields[name] += b" " + line.strip()
            continue
        found = _HEADER_FIELD.match(line)
        if found is None:
            return None
        name = found.group(1).lower()
        fields[name] = line[found.end():].strip()
    return fields


#: Apple Mail's .emlx: the message's length in bytes on a line of its own, then the message
EMLX_COUNT = re.compile(rb"\A(\d{1,12})[ \t]*\r?\n")


def emlx_message(data: bytes) -> bytes | None:
    """The RFC 822 message inside an Apple Mail ``.emlx`` file (its byte count line and
    the property list after it taken off), or None when ``data`` is no such file.

    >>> emlx_message(b"18\\nSubject: x\\n\\nhello!<?xml version='1.0'?><plist/>")
    b'Subject: x\\n\\nhello!'
    """
    count = EMLX_COUNT.match(data)
    if count is None:
        return None
    start = count.end()
    return data[start:start + int(count.group(1))]


class MailSniffer(BaseEngine):
    """An e-mail the core calls a web archive because ``multipart/related`` is in its head,
    and Apple Mail's ``.emlx`` messages, which open with their length.

    An HTML mail with inline pictures is multipart/related, at the top or inside an
    alternative or mixed part; read as a web archive it loses its From, To, Subject,
    Date and attachments. A web archive (RFC 2557: a browser's or Office's "single file
    web page") is multipart/related at the top and carries no recipients or route, so a
    message with either is a mail.
    """

    name = "office.mail_sniffer"
    priority = 50

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        message = emlx_message(head)
        if message is not None:
            fields = _top_headers(message)
            if fields is not None and len(fields.keys() & _MAIL_FIELDS) >= 2:
                return FileType(fmt.EMLX, "emlx", 0.8)
            return None
        if b"multipart/related" not in head[:_HEADER_SCAN].lower():
            return None
        fields = _top_headers(head)
        if fields is None or len(fields) < 3 or not fields.keys() & _MAIL_FIELDS:
            return None
        related = fields.get(b"content-type", b"").lower().startswith(b"multipart/related")
        if related and not fields.keys() & _ROUTING_FIELDS:
            return None
        return FileType(fmt.EML, "eml", 0.7)


_CARD_BEGIN = re.compile(rb"(?:\xef\xbb\xbf)?\s*BEGIN:(VCALENDAR|VCARD)[ \t]*\r?\n", re.I)


class CalendarSniffer(BaseEngine):
    """iCalendar and vCard files by their BEGIN line, whatever their name.

    The core takes a calendar for a mail when three of its lines look like header
    fields: Google's and Plone's exports open with X-WR-CALNAME, X-WR-CALDESC and
    X-WR-TIMEZONE, and a calendar read as a mail comes out empty.
    """

    name = "office.calendar_sniffer"
    priority = 50

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        sample = head[:512]
        for bom, codec in ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
            if sample.startswith(bom):
                sample = sample[len(bom) :].decode(codec, "ignore").encode("utf-8")
        found = _CARD_BEGIN.match(sample)
        if found is None:
            return None
        if found.group(1).upper() == b"VCALENDAR":
            return FileType(fmt.ICS, "ics", 0.8)
        return FileType(fmt.VCF, "vcf", 0.8)
