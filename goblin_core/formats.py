"""What goblin knows about file formats before any plugin is installed.

This table lets the core name the extra that would read a file it cannot
read (``pip install "goblin-core[pdf]"``), and guess a type from an
extension when no sniffer recognises the content.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class KnownFormat:
    mime: str
    extensions: tuple[str, ...]
    description: str
    extra: str | None


_OOXML = "application/vnd.openxmlformats-officedocument"
_ODF = "application/vnd.oasis.opendocument"

KNOWN_FORMATS: tuple[KnownFormat, ...] = (
    KnownFormat("text/plain", ("txt", "text", "log"), "Plain text", None),
    KnownFormat("application/pdf", ("pdf",), "PDF", "pdf"),
    KnownFormat("application/postscript", ("ps", "eps", "epsf", "epsi"), "PostScript", "pdf"),
    KnownFormat(
        f"{_OOXML}.wordprocessingml.document",
        ("docx", "docm", "dotx", "dotm"),
        "Word (OOXML)",
        "office",
    ),
    KnownFormat(
        f"{_OOXML}.spreadsheetml.sheet", ("xlsx", "xlsm", "xltx", "xltm"), "Excel (OOXML)", "office"
    ),
    KnownFormat(
        "application/vnd.ms-excel.sheet.binary.macroenabled.12", ("xlsb",), "Excel binary", "office"
    ),
    KnownFormat(
        f"{_OOXML}.presentationml.presentation",
        ("pptx", "pptm", "ppsx", "potx"),
        "PowerPoint (OOXML)",
        "office",
    ),
    KnownFormat("application/msword", ("doc", "dot"), "Word 97-2003", "office"),
    KnownFormat("application/x-tika-ooxml-protected", (), "Encrypted Office document", "office"),
    KnownFormat("application/vnd.ms-excel", ("xls",), "Excel 97-2003", "office"),
    KnownFormat("application/vnd.ms-powerpoint", ("ppt", "pps"), "PowerPoint 97-2003", "office"),
    KnownFormat("application/vnd.ms-outlook", ("msg",), "Outlook message", "office"),
    KnownFormat("application/vnd.ms-visio.drawing", ("vsdx", "vsdm", "vstx"), "Visio drawing",
                "office"),
    KnownFormat("application/vnd.ms-xpsdocument", ("xps", "oxps"), "XPS document", "office"),
    # Single-file XML documents share the .xml extension: known by their content only.
    KnownFormat("application/vnd.ms-word2006ml", (), "Word XML document (Flat OPC)", "office"),
    KnownFormat("application/vnd.ms-powerpoint2006ml", (), "PowerPoint XML presentation "
                "(Flat OPC)", "office"),
    KnownFormat("application/vnd.ms-wordml", (), "Word 2003 XML", "office"),
    KnownFormat("application/vnd.ms-spreadsheetml", (), "Excel 2003 XML", "office"),
    KnownFormat(f"{_ODF}.text", ("odt", "ott"), "OpenDocument text", "office"),
    KnownFormat(f"{_ODF}.spreadsheet", ("ods", "ots"), "OpenDocument spreadsheet", "office"),
    KnownFormat(f"{_ODF}.presentation", ("odp", "otp"), "OpenDocument presentation", "office"),
    KnownFormat(f"{_ODF}.graphics", ("odg", "otg"), "OpenDocument drawing", "office"),
    KnownFormat(
        "application/vnd.oasis.opendocument.text-flat-xml", ("fodt",), "Flat ODF text", "office"
    ),
    KnownFormat(
        "application/vnd.oasis.opendocument.spreadsheet-flat-xml",
        ("fods",),
        "Flat ODF spreadsheet",
        "office",
    ),
    KnownFormat(
        "application/vnd.oasis.opendocument.presentation-flat-xml",
        ("fodp",),
        "Flat ODF presentation",
        "office",
    ),
    KnownFormat(
        "application/vnd.oasis.opendocument.graphics-flat-xml", ("fodg",), "Flat ODF drawing",
        "office",
    ),
    KnownFormat("application/rtf", ("rtf",), "Rich Text Format", "office"),
    KnownFormat("application/vnd.sun.xml.writer", ("sxw", "stw", "sxg"),
                "OpenOffice.org 1.x text", "office"),
    KnownFormat("application/vnd.sun.xml.calc", ("sxc", "stc"),
                "OpenOffice.org 1.x spreadsheet", "office"),
    KnownFormat("application/vnd.sun.xml.impress", ("sxi", "sti"),
                "OpenOffice.org 1.x presentation", "office"),
    KnownFormat("application/vnd.sun.xml.draw", ("sxd", "std"), "OpenOffice.org 1.x drawing",
                "office"),
    KnownFormat("application/epub+zip", ("epub",), "EPUB", "office"),
    KnownFormat("application/x-fictionbook+xml", ("fb2",), "FictionBook e-book", "office"),
    KnownFormat("text/csv", ("csv",), "CSV", "office"),
    KnownFormat("text/tab-separated-values", ("tsv", "tab"), "TSV", "office"),
    KnownFormat("text/html", ("html", "htm", "xhtml"), "HTML", "office"),
    KnownFormat("multipart/related", ("mht", "mhtml"), "MHTML web archive", "office"),
    KnownFormat("application/xml", ("xml",), "XML", "office"),
    KnownFormat("image/svg+xml", ("svg",), "SVG", "office"),
    KnownFormat("application/json", ("json",), "JSON", "office"),
    KnownFormat("application/x-ipynb+json", ("ipynb",), "Jupyter notebook", "office"),
    KnownFormat("application/x-ndjson", ("ndjson", "jsonl"), "Newline-delimited JSON", "office"),
    KnownFormat("text/markdown", ("md", "markdown"), "Markdown", "office"),
    KnownFormat("application/x-subrip", ("srt",), "SubRip subtitles", "office"),
    KnownFormat("text/vtt", ("vtt",), "WebVTT subtitles and captions", "office"),
    KnownFormat("text/x-ssa", ("ssa", "ass"), "SubStation Alpha subtitles", "office"),
    KnownFormat("text/calendar", ("ics",), "iCalendar", "office"),
    KnownFormat("text/vcard", ("vcf",), "vCard", "office"),
    KnownFormat("application/x-dbf", ("dbf",), "dBASE table", "office"),
    KnownFormat("application/vnd.wordperfect", ("wpd", "wp", "wp4", "wp5", "wp6", "wp7", "wpt"),
                "WordPerfect document", "office"),
    KnownFormat("message/rfc822", ("eml",), "E-mail message", "office"),
    KnownFormat("message/x-emlx", ("emlx",), "Apple Mail message", "office"),
    KnownFormat("application/mbox", ("mbox", "mbx"), "Mailbox (mbox)", "office"),
    # winmail.dat: .dat names anything, so known by its signature only
    KnownFormat("application/vnd.ms-tnef", (), "Outlook TNEF (winmail.dat)", "office"),
    KnownFormat("image/png", ("png",), "PNG image (OCR)", "ocr"),
    KnownFormat("image/jpeg", ("jpg", "jpeg", "jpe"), "JPEG image (OCR)", "ocr"),
    KnownFormat("image/tiff", ("tif", "tiff"), "TIFF image (OCR)", "ocr"),
    KnownFormat("image/gif", ("gif",), "GIF image (OCR)", "ocr"),
    KnownFormat("image/bmp", ("bmp",), "BMP image (OCR)", "ocr"),
    KnownFormat("image/x-portable-anymap", ("pnm", "pbm", "pgm", "ppm"),
                "Netpbm image: PBM, PGM, PPM (OCR)", "ocr"),
    KnownFormat("image/webp", ("webp",), "WebP image (OCR)", "ocr"),
    KnownFormat("image/heic", ("heic",), "HEIC image, as phones take them (OCR)", "ocr"),
    KnownFormat("image/heif", ("heif", "hif"), "HEIF image (OCR)", "ocr"),
    KnownFormat("image/avif", ("avif",), "AVIF image (OCR)", "ocr"),
    KnownFormat("image/jp2", ("jp2", "jpx", "jpf"), "JPEG 2000 image (OCR)", "ocr"),
    KnownFormat("image/x-jp2-codestream", ("j2k", "j2c", "jpc"), "JPEG 2000 codestream (OCR)",
                "ocr"),
    KnownFormat("image/vnd.djvu", ("djvu", "djv"), "DjVu document (scanned books)", "djvu"),
    KnownFormat("application/zip", ("zip",), "ZIP archive", "archives"),
    KnownFormat("application/x-tar", ("tar",), "tar archive", "archives"),
    KnownFormat("application/gzip", ("gz", "tgz"), "gzip", "archives"),
    KnownFormat("application/x-bzip2", ("bz2", "tbz2", "tbz"), "bzip2", "archives"),
    KnownFormat("application/x-xz", ("xz", "txz"), "xz", "archives"),
    KnownFormat("application/x-lzma", ("lzma",), "lzma", "archives"),
    KnownFormat("application/zstd", ("zst", "tzst"), "Zstandard", "archives"),
    KnownFormat("application/x-lz4", ("lz4",), "LZ4", "archives"),
    KnownFormat("application/x-compress", ("z",), "Unix compress (.Z)", "archives"),
    KnownFormat("application/x-lzip", ("lz",), "lzip", "archives"),
    KnownFormat("application/x-lzop", ("lzo", "tzo"), "lzop", "archives"),
    KnownFormat("application/x-rzip", ("rz",), "rzip", "archives"),
    KnownFormat("application/x-lrzip", ("lrz",), "lrzip", "archives"),
    KnownFormat("application/zpaq", ("zpaq",), "ZPAQ archive", "archives"),
    KnownFormat("application/x-7z-compressed", ("7z",), "7-Zip archive", "archives"),
    KnownFormat("application/vnd.rar", ("rar",), "RAR archive", "archives"),
    KnownFormat("application/vnd.ms-cab-compressed", ("cab",), "Cabinet archive", "archives"),
    KnownFormat("application/x-cpio", ("cpio",), "cpio archive", "archives"),
    KnownFormat("application/x-iso9660-image", ("iso",), "ISO 9660 image", "archives"),
    KnownFormat("application/x-arj", ("arj",), "ARJ archive", "archives"),
    KnownFormat("application/x-archive-volume", (), "later part of a split archive set "
                "(x.zip.002, x.z02: skipped, read through the first)", "archives"),
    KnownFormat("application/x-lzh-compressed", ("lha", "lzh"), "LHA archive", "archives"),
    KnownFormat("application/vnd.debian.binary-package", ("deb",), "Debian package", "archives"),
    KnownFormat("application/x-rpm", ("rpm",), "RPM package", "archives"),
    KnownFormat("application/x-xar", ("xar", "xip"), "xar archive (macOS installer packages)",
                "archives"),
    KnownFormat("application/warc", ("warc",), "WARC web archive (each capture a member)",
                "archives"),
)

BY_MIME: Mapping[str, KnownFormat] = {f.mime: f for f in KNOWN_FORMATS}
BY_EXTENSION: Mapping[str, KnownFormat] = {ext: f for f in KNOWN_FORMATS for ext in f.extensions}


def extra_for(mime: str) -> str | None:
    """The goblin extra whose plugin reads ``mime``, when goblin knows one."""
    known = BY_MIME.get(mime)
    if known is not None:
        return known.extra
    if mime.startswith("image/"):
        return "ocr"
    return None
