"""The built-in magic-byte sniffer: the common containers and media by signature."""

from __future__ import annotations

import re

from goblin_core.builtin.containers import zip_document_type
from goblin_core.builtin.text import looks_utf16, utf16_without_bom, without_stray_nuls
from goblin_core.engines import BaseEngine
from goblin_core.formats import BY_EXTENSION
from goblin_core.model import FileType
from goblin_core.source import Source

# (offset, signature, mime, ext)
_SIGNATURES: tuple[tuple[int, bytes, str, str], ...] = (
    (0, b"PK\x03\x04", "application/zip", "zip"),
    (0, b"PK\x05\x06", "application/zip", "zip"),
    (0, b"PK\x07\x08", "application/zip", "zip"),
    (0, b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "application/x-ole-storage", ""),
    (0, b"{\\rtf", "application/rtf", "rtf"),
    (0, b"%!PS", "application/postscript", "ps"),
    # an EPS file with a DOS header: the PostScript, then a TIFF or WMF preview
    (0, b"\xc5\xd0\xd3\xc6", "application/postscript", "eps"),
    (0, b"\x78\x9f\x3e\x22", "application/vnd.ms-tnef", "dat"),
    (0, b"7z\xbc\xaf\x27\x1c", "application/x-7z-compressed", "7z"),
    (0, b"Rar!\x1a\x07", "application/vnd.rar", "rar"),
    (0, b"\x1f\x8b", "application/gzip", "gz"),
    (0, b"BZh", "application/x-bzip2", "bz2"),
    (0, b"\xfd7zXZ\x00", "application/x-xz", "xz"),
    (0, b"\x28\xb5\x2f\xfd", "application/zstd", "zst"),
    (0, b"\x04\x22\x4d\x18", "application/x-lz4", "lz4"),
    (0, b"\x1f\x9d", "application/x-compress", "z"),
    (0, b"MSCF\x00\x00\x00\x00", "application/vnd.ms-cab-compressed", "cab"),
    (0, b"070701", "application/x-cpio", "cpio"),
    (0, b"070702", "application/x-cpio", "cpio"),
    (0, b"070707", "application/x-cpio", "cpio"),
    (0, b"\xc7\x71", "application/x-cpio", "cpio"),
    (0, b"!<arch>\ndebian", "application/vnd.debian.binary-package", "deb"),
    (0, b"\xed\xab\xee\xdb", "application/x-rpm", "rpm"),
    (0, b"\x60\xea", "application/x-arj", "arj"),
    (257, b"ustar", "application/x-tar", "tar"),
    (0, b"\x89PNG\r\n\x1a\n", "image/png", "png"),
    (0, b"\xff\xd8\xff", "image/jpeg", "jpg"),
    (0, b"II*\x00", "image/tiff", "tif"),
    (0, b"MM\x00*", "image/tiff", "tif"),
    (0, b"GIF87a", "image/gif", "gif"),
    (0, b"GIF89a", "image/gif", "gif"),
    # JPEG 2000: the JP2/JPX signature box, and a bare codestream's SOC and SIZ markers
    (0, b"\x00\x00\x00\x0cjP  \r\n\x87\n", "image/jp2", "jp2"),
    (0, b"\xff\x4f\xff\x51", "image/x-jp2-codestream", "j2k"),
    # DjVu: a one-page (DJVU) or multi-page (DJVM) document in an IFF85 container
    (0, b"AT&TFORM", "image/vnd.djvu", "djvu"),
)

# Signatures text may hold (a CSV of IDs or DDMMYY dates opening "070707", "custard" at
# byte 257), told apart by the header they open: a cpio header's fields are hex (newc)
# or octal (odc) digits, bzip2's block size digit is followed by its block or end magic,
# a tar header's magic by a NUL or GNU's blanks.
_CPIO_NEWC = re.compile(rb"[0-9A-Fa-f]{104}")
_CPIO_ODC = re.compile(rb"[0-7]{70}")
_BZIP2_MAGICS = (b"1AY&SY", b"\x17rE8P\x90")


def _header_follows(signature: bytes, head: bytes) -> bool:
    if signature in (b"070701", b"070702"):
        return _CPIO_NEWC.fullmatch(head, 6, 110) is not None
    if signature == b"070707":
        return _CPIO_ODC.fullmatch(head, 6, 76) is not None
    if signature == b"BZh":
        return head[3:4].isdigit() and head[3:4] != b"0" and head[4:10] in _BZIP2_MAGICS
    if signature == b"ustar":
        return head[262:263] == b"\x00" or head[262:265] == b"  \x00"
    return True


_OLE_BY_EXT = {"doc": "application/msword", "dot": "application/msword",
               "xls": "application/vnd.ms-excel", "ppt": "application/vnd.ms-powerpoint",
               "pps": "application/vnd.ms-powerpoint", "msg": "application/vnd.ms-outlook"}
# Comments before the first tag are taken possessively, as in every pattern here that
# skips them: "<!--a--><!--b-->" read as one comment or as two, each way tried again, made
# a head of fifty comments and no tag take for ever.
_HTML = re.compile(rb"^\s*(?:<!--.*?-->\s*)*+<(!doctype\s+html|html|head|body)[\s>]", re.I | re.S)
# A web page without its html, head or body tags: a table, a style sheet or a meta tag
# first, as web applications write the "Excel" (.xls) and "Word" (.doc) files they export,
# which Excel and Word open as web pages; it closes one of its elements further on.
_HTML_FRAGMENT = re.compile(
    rb"^\s*(?:<!--.*?-->\s*)*+<(?:table|meta|title|style|link|script|div|p|span|font|center"
    rb"|pre|h[1-6]|form|ul|ol|br|b|i|u|a|img|iframe)[\s/>]", re.I | re.S)
_HTML_CLOSING = re.compile(rb"</(?:table|title|style|script|div|p|span|font|center|pre|h[1-6]"
                           rb"|form|ul|ol|td|tr|li|b|i|u|a)\s*>", re.I)
#: HTML's elements for text, as a page's piece written without its html tag opens with one
_HTML_ELEMENTS = frozenset({
    "p", "div", "span", "table", "ul", "ol", "li", "dl", "h1", "h2", "h3", "h4", "h5", "h6",
    "b", "i", "u", "em", "strong", "a", "font", "center", "pre", "blockquote", "form",
    "section", "article", "header", "footer", "nav", "main", "aside", "figure", "br", "hr",
})
_MAIL_HEADER = re.compile(
    rb"^(Received|Return-Path|From|To|Subject|Date|Message-ID|MIME-Version|Delivered-To|X-[\w-]+):",
    re.I | re.M,
)
# A mailbox: the "From " separator line, the sender then the time and year the message
# arrived ("From ana@example.org Mon Jan  1 10:00:00 2024"), then the first message's
# header lines. A text opening "From now on..." is no mailbox.
_MBOX_SENDER = re.compile(rb"From \S")
_MBOX_TIME = re.compile(rb"[ \t]\d{1,2}:\d{2}")
_MBOX_HEADERS = re.compile(rb"(?:[\w-]+:[^\r\n]*\r?\n(?:[ \t][^\r\n]*\r?\n)*){2}")
# A mail opens with its header block: a field (any name), or the separator line a
# message saved from a mailbox keeps. Notes holding "Date:", "Subject:" and "To:" lines
# further down are no mail, and the mail reader finds no headers in them.
_MAIL_START = re.compile(rb"(?:From [^\r\n]*\r?\n)?[!-9;-~]+[ \t]*:")
# XML without its optional declaration (RSS and Atom feeds, DocBook, KML, exports): comments,
# processing instructions and a DOCTYPE, then the root element's start tag. A "<?php" block
# is PHP code, not an XML processing instruction.
_XML_ROOT = re.compile(
    r"(?:<!--.*?-->\s*|<\?(?![Pp][Hh][Pp]\b)[A-Za-z_:][^>]*\?>\s*"
    r"|<!DOCTYPE\s[^>\[]*(?:\[.*?\])?\s*>\s*)*+"
    r"<([A-Za-z_][\w.-]*(?::[\w.-]+)?)[\s/>]", re.S)
# PHP source: code between "<?php" (or the "<?=" echo tag) and "?>", around HTML or alone.
# Read as XML or HTML, the code would be a processing instruction and left out.
_PHP_OPEN = re.compile(r"<\?(?:php\b|=)", re.I)
_PHP_EXTENSIONS = frozenset({"php", "php3", "php4", "php5", "php7", "php8", "phps", "pht",
                             "phtml", "inc"})
_XML_END = 512
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff", b"\xff\xfe", b"\xfe\xff")
_TEXTISH_MIMES = {"text/csv", "text/tab-separated-values", "text/html", "application/xml",
                  "application/json", "application/x-ndjson", "text/markdown", "text/calendar",
                  "text/vcard", "image/svg+xml", "message/rfc822", "multipart/related",
                  "application/mbox"}


# A WordPerfect Corporation file's product and file type (bytes 8-9): WordPerfect's
# documents (1, 10) and their templates (1, 11). The same header opens its graphics (WPG),
# macros and Presentations files, which are no documents.
_WORDPERFECT_DOCUMENTS = frozenset({b"\x01\x0a", b"\x01\x0b"})

# HEIF still images (phone photos: HEIC; AVIF) by the brands of their ISO BMFF "ftyp" box;
# the same box opens MP4 and QuickTime videos, whose brands are none of these.
_AVIF_BRANDS = frozenset({b"avif", b"avis"})
_HEIC_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx"})
_HEIF_BRANDS = frozenset({b"mif1", b"msf1", b"mif2"})


# Netpbm images (PBM, PGM, PPM; plain or raw): the magic number, then width and height
# (comment lines may come between). Scanners and image pipelines (ImageMagick, SANE's
# scanimage) write them; a line of text opening with P1 to P6 has no two sizes after it.
_NETPBM = re.compile(rb"P[1-6](?:\s++(?:#[^\r\n]*+[\r\n])?+)++[1-9]\d{0,5}"
                     rb"(?:\s++(?:#[^\r\n]*+[\r\n])?+)++[1-9]\d{0,5}\s")


def _heif_image_type(head: bytes) -> FileType | None:
    box_size = int.from_bytes(head[:4], "big")
    if not 16 <= box_size <= len(head) or box_size % 4:
        return None
    brands = {head[8:12]} | {head[i:i + 4] for i in range(16, box_size, 4)}
    if brands & _AVIF_BRANDS:
        return FileType("image/avif", "avif", 0.9)
    if brands & _HEIC_BRANDS:
        return FileType("image/heic", "heic", 0.9)
    if brands & _HEIF_BRANDS:
        return FileType("image/heif", "heif", 0.8)
    return None


# A PDF whose header line is damaged ($PDF-1.5) or gone: comment lines, then an object.
# The lines are taken possessively: a line such as "%xPDF-1.0" is both a header and a
# comment, and with backtracking each such line doubled the time to fail (40 of them,
# 400 bytes, held a file for ever).
_HEADLESS_PDF = re.compile(
    rb"(?:[^\r\n]{0,8}PDF-\d\.\d[^\r\n]*[\r\n]+|%[^\r\n]*[\r\n]+)*+\s*\d{1,10}\s+\d{1,5}\s+obj\b")


class MagicSniffer(BaseEngine):
    """Signatures of PDF, ZIP, OLE2, RTF, 7z, RAR, compressors, tar, images, HTML, XML, mail.

    A zip that is an OOXML, OpenDocument or EPUB document is answered as that type.
    """

    name = "goblin.magic"
    priority = 10

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        if head.startswith(b"%PDF-"):
            return FileType("application/pdf", "pdf", 0.9)
        for offset, signature, mime, ext in _SIGNATURES:
            if head[offset:offset + len(signature)] == signature and \
                    _header_follows(signature, head):
                return self._refine(mime, ext, source)
        # A PDF header after some junk still makes a PDF (PDFium looks for it in the first
        # 1024 bytes); checked after the signatures, so a zip or tar holding an
        # uncompressed PDF stays an archive. Past anything but blanks, the PDF's first
        # object must follow it: a note, page or mail that mentions "%PDF-1.7" is text.
        at = head.find(b"%PDF-", 0, 1024)
        if at >= 0 and (not head[:at].strip() or _HEADLESS_PDF.match(head, at)):
            return FileType("application/pdf", "pdf", 0.9)
        if _HEADLESS_PDF.match(head[:1024]):
            return FileType("application/pdf", "pdf", 0.6)
        if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
            return FileType("image/webp", "webp", 0.9)
        if head[:4] == b"\xffWPC" and head[8:10] in _WORDPERFECT_DOCUMENTS:
            return FileType("application/vnd.wordperfect", "wpd", 0.9)
        if head[4:8] == b"ftyp":
            still_image = _heif_image_type(head)
            if still_image is not None:
                return still_image
        if head[:2] == b"BM" and len(head) > 26 and head[6:10] == b"\x00\x00\x00\x00":
            return FileType("image/bmp", "bmp", 0.8)
        if _NETPBM.match(head):
            return FileType("image/x-portable-anymap", "pnm", 0.8)
        if source.read(5, 32769) == b"CD001":
            return FileType("application/x-iso9660-image", "iso", 0.9)
        if head[2:5] in (b"-lh", b"-lz") and head[6:7] == b"-":
            return FileType("application/x-lzh-compressed", "lzh", 0.8)
        return self._sniff_text(head, source)

    def _refine(self, mime: str, ext: str, source: Source) -> FileType:
        if mime == "application/zip":
            return zip_document_type(source) or FileType(mime, ext, 0.8)
        if mime == "application/x-ole-storage" and source.extension in _OLE_BY_EXT:
            return FileType(_OLE_BY_EXT[source.extension], source.extension, 0.5)
        return FileType(mime, ext, 0.8)

    def _sniff_text(self, head: bytes, source: Source) -> FileType | None:
        text = _decoded_head(head)
        if text is None:
            # a short mail whose part is sent in binary (a zip, Content-Transfer-Encoding:
            # binary) has that part in its head: its header block still says what it is
            block = _mail_header_block(head)
            if block is None:
                return None
            text = block.decode("latin-1")
        sample = text.lstrip("\ufeff").lstrip()
        # the whole head: a page may open with a licence or generator comment of
        # hundreds of bytes before its doctype (past 512 bytes it was read as XML, and
        # failed at its first <br>)
        lowered = sample.lower().encode("utf-8", "ignore")
        if _php_source(sample, source):
            return FileType("text/plain", "txt", 0.6)
        if _HTML.match(lowered):
            return FileType("text/html", "html", 0.7)
        if sample.startswith("<?xml"):
            known = BY_EXTENSION.get(source.extension)
            if known is not None and known.mime in _TEXTISH_MIMES | {"text/html"}:
                return FileType(known.mime, source.extension, 0.6)
            if "<svg" in sample[:2048]:
                return FileType("image/svg+xml", "svg", 0.6)
            return FileType("application/xml", "xml", 0.6)
        root = _xml_root(sample, source)
        if root is not None and root in _HTML_ELEMENTS and \
                BY_EXTENSION.get(source.extension) is None:
            # A piece of a web page (<p>..</p><p>..</p>) opens and closes with one element
            # as an XML file does, but holds several: read as XML, all but its first was lost.
            return FileType("text/html", "html", 0.5)
        if root is not None:
            return FileType("image/svg+xml", "svg", 0.5) if root.rpartition(":")[2] == "svg" \
                else FileType("application/xml", "xml", 0.5)
        if _web_page_fragment(sample, source):
            return FileType("text/html", "html", 0.6)
        encoded = sample[:4096].encode("utf-8", "ignore")
        # one message saved with its separator line is still the .eml it is named
        if source.extension != "eml" and _mailbox_start(encoded):
            return FileType("application/mbox", "mbox", 0.6)
        if _MAIL_START.match(encoded) and len(_MAIL_HEADER.findall(encoded)) >= 3:
            if b"multipart/related" in encoded.lower():
                return FileType("multipart/related", "mht", 0.6)
            return FileType("message/rfc822", "eml", 0.5)
        known = BY_EXTENSION.get(source.extension)
        if known is not None and known.mime in _TEXTISH_MIMES:
            return FileType(known.mime, source.extension, 0.4)
        return FileType("text/plain", "txt", 0.3)


def _web_page_fragment(sample: str, source: Source) -> bool:
    """Whether a file named as a binary format (a ``.xls``, a ``.doc``) is a web page
    opening with an element such as a table. A text format's file (``.md``, ``.txt``),
    or one whose name says nothing, that starts with a tag keeps to text."""
    known = BY_EXTENSION.get(source.extension)
    if known is None or known.mime.startswith("text/") or known.mime in _TEXTISH_MIMES:
        return False
    head = sample[:4096].encode("utf-8", "ignore")
    return _HTML_FRAGMENT.match(head) is not None and _HTML_CLOSING.search(head) is not None


def _mailbox_start(head: bytes) -> bool:
    """Whether ``head`` opens with a mailbox's separator line and header lines. The line
    is looked at apart: one pattern over it and the headers took time cubic in its
    length (13 s for a line of 4 KB)."""
    end = head.find(b"\n")
    return end > 0 and _MBOX_SENDER.match(head) is not None and \
        _MBOX_TIME.search(head, 5, end) is not None and \
        _MBOX_HEADERS.match(head, end + 1) is not None


def _php_source(sample: str, source: Source) -> bool:
    """Whether the file is PHP source code: it opens with ``<?php``, or a PHP file's name
    holds a block of PHP code (a page template opens with its HTML)."""
    if sample[:5].lower() == "<?php":
        return True
    return source.extension in _PHP_EXTENSIONS and _PHP_OPEN.search(sample) is not None


def _xml_root(sample: str, source: Source) -> str | None:
    """The root element's name of an XML file that has no ``<?xml`` declaration: its head
    opens that element and its tail closes it. A text file that merely starts with a tag
    (Markdown's ``<details>``) keeps its own name's format."""
    known = BY_EXTENSION.get(source.extension)
    if known is not None and known.mime not in ("application/xml", "image/svg+xml"):
        return None
    found = _XML_ROOT.match(sample)
    if found is None:
        return None
    name = found.group(1)
    ending = source.tail(_XML_END).rstrip()
    # a comment after the root element is still well-formed XML
    while ending.endswith(b"-->") and b"<!--" in ending:
        ending = ending[:ending.rindex(b"<!--")].rstrip()
    closing = f"</{name}>".encode()
    if ending.endswith(closing) or re.search(rb"</" + re.escape(name.encode()) + rb"\s+>$",
                                             ending):
        return name
    return None


def _mail_header_block(head: bytes) -> bytes | None:
    """The header block a head opens with, up to its blank line, when it is one of a mail:
    text, opening with a header line, and holding at least three of them."""
    ends = [at for at in (head.find(b"\r\n\r\n"), head.find(b"\n\n")) if at > 0]
    if not ends:
        return None
    block = head[:min(ends)]
    if _decoded_head(block) is None or not _MAIL_HEADER.match(block):
        return None
    return block if len(_MAIL_HEADER.findall(block)) >= 3 else None


# Control codes text holds: tab, line ends, vertical tab, form feed, backspace (a saved
# man page's overstrikes), DOS's end-of-file mark and escape (a log's colours), as the
# text parser's binary check has them
_TEXT_CONTROLS = frozenset({8, 9, 10, 11, 12, 13, 26, 27})


def _controls(head: bytes) -> int:
    return sum(1 for b in head if b < 32 and b not in _TEXT_CONTROLS)


def _decoded_head(head: bytes) -> str | None:
    """The head as text when it looks like text in some encoding, else None."""
    for bom, codec in zip(_BOMS, ("utf-8", "utf-32-le", "utf-32-be", "utf-16-le", "utf-16-be"),
                          strict=True):
        if head.startswith(bom):
            return head[len(bom):].decode(codec, "ignore")
    if looks_utf16(head):
        return head.decode("utf-16-le" if head[1:2] == b"\x00" else "utf-16-be", "ignore")
    if b"\x00" in head or _controls(head) > max(2, len(head) // 100):
        # What the text parser reads besides 8-bit text: UTF-16 without a BOM in a script
        # whose bytes are control codes (Cyrillic, Greek, CJK), and text with stray NULs
        # (a log padded with zeros where a write stopped). Refused here, such a file with
        # no extension, or a rotated log's ".1", came out as application/octet-stream.
        utf16 = utf16_without_bom(head[: len(head) - len(head) % 2])
        if utf16 is not None:
            return head.decode(utf16, "ignore")
        text, dropped = without_stray_nuls(head.decode("latin-1"))
        if not dropped or not text.strip():
            return None
        head = text.encode("latin-1")
        if _controls(head) > max(2, len(head) // 100):
            return None
    try:
        return head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 4:
            return head[:exc.start].decode("utf-8")
        return head.decode("latin-1")
