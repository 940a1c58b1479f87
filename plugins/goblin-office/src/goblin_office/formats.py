"""The MIME types goblin-office reads, and how a container's content names its format."""

from __future__ import annotations

import re
from collections.abc import Collection

_OOXML = "application/vnd.openxmlformats-officedocument"
_ODF = "application/vnd.oasis.opendocument"

DOCX = f"{_OOXML}.wordprocessingml.document"
XLSX = f"{_OOXML}.spreadsheetml.sheet"
XLSB = "application/vnd.ms-excel.sheet.binary.macroenabled.12"
PPTX = f"{_OOXML}.presentationml.presentation"
DOC = "application/msword"
XLS = "application/vnd.ms-excel"
PPT = "application/vnd.ms-powerpoint"
MSG = "application/vnd.ms-outlook"
ODT = f"{_ODF}.text"
ODS = f"{_ODF}.spreadsheet"
ODP = f"{_ODF}.presentation"
FODT = f"{_ODF}.text-flat-xml"
FODS = f"{_ODF}.spreadsheet-flat-xml"
FODP = f"{_ODF}.presentation-flat-xml"
ODG = f"{_ODF}.graphics"
FODG = f"{_ODF}.graphics-flat-xml"
# OpenOffice.org 1.x and StarOffice 6-7 (2002-2005): ODF's forerunner, the same package
# and nearly the same XML, under openoffice.org namespaces and with no office:text wrapper
_SUN = "application/vnd.sun.xml"
SXW = f"{_SUN}.writer"
SXC = f"{_SUN}.calc"
SXI = f"{_SUN}.impress"
SXD = f"{_SUN}.draw"
RTF = "application/rtf"
EPUB = "application/epub+zip"
#: FictionBook 2 e-books, shared-mime-info's name.
FICTIONBOOK = "application/x-fictionbook+xml"
CSV = "text/csv"
TSV = "text/tab-separated-values"
HTML = "text/html"
MHTML = "multipart/related"
XML = "application/xml"
SVG = "image/svg+xml"
JSON = "application/json"
#: Jupyter notebooks, the name Jupyter registers.
IPYNB = "application/x-ipynb+json"
NDJSON = "application/x-ndjson"
MARKDOWN = "text/markdown"
#: Subtitles: SubRip and SubStation Alpha (.ssa and .ass) by shared-mime-info's names,
#: WebVTT by IANA's.
SUBRIP = "application/x-subrip"
WEBVTT = "text/vtt"
SSA = "text/x-ssa"
ICS = "text/calendar"
VCF = "text/vcard"
DBF = "application/x-dbf"
WORDPERFECT = "application/vnd.wordperfect"
EML = "message/rfc822"
#: Apple Mail's message files: a byte count, the message, an XML property list; Tika's name.
EMLX = "message/x-emlx"
MBOX = "application/mbox"
#: Outlook's rich-text wrapper (winmail.dat): IANA's name; mailers label it application/ms-tnef.
TNEF = "application/vnd.ms-tnef"
#: Word and PowerPoint documents saved as one XML file (Flat OPC), Tika's names.
FLAT_WORD = "application/vnd.ms-word2006ml"
FLAT_POWERPOINT = "application/vnd.ms-powerpoint2006ml"
VSDX = "application/vnd.ms-visio.drawing"
XPS = "application/vnd.ms-xpsdocument"
#: Word and Excel 2003 XML ("XML Document", "XML Spreadsheet"), Tika's names.
WORD_2003 = "application/vnd.ms-wordml"
SPREADSHEETML_2003 = "application/vnd.ms-spreadsheetml"
#: Tika's name for an encrypted OOXML package whose inner format is not known yet.
OOXML_PROTECTED = "application/x-tika-ooxml-protected"

# main-part content type -> (mime, extension)
_MAIN_PARTS: dict[str, tuple[str, str]] = {
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml": (
        DOCX,
        "docx",
    ),
    "application/vnd.ms-word.document.macroenabled.main+xml": (DOCX, "docm"),
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml": (
        DOCX,
        "dotx",
    ),
    "application/vnd.ms-word.template.macroenabledtemplate.main+xml": (DOCX, "dotm"),
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml": (XLSX, "xlsx"),
    "application/vnd.ms-excel.sheet.macroenabled.main+xml": (XLSX, "xlsm"),
    "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml": (XLSX, "xltx"),
    "application/vnd.ms-excel.template.macroenabled.main+xml": (XLSX, "xltm"),
    "application/vnd.ms-excel.sheet.binary.macroenabled.main": (XLSB, "xlsb"),
    "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml": (
        PPTX,
        "pptx",
    ),
    "application/vnd.ms-powerpoint.presentation.macroenabled.main+xml": (PPTX, "pptm"),
    "application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml": (
        PPTX,
        "ppsx",
    ),
    "application/vnd.openxmlformats-officedocument.presentationml.template.main+xml": (
        PPTX,
        "potx",
    ),
    "application/vnd.ms-powerpoint.slideshow.macroenabled.main+xml": (PPTX, "ppsm"),
    "application/vnd.ms-visio.drawing.main+xml": (VSDX, "vsdx"),
    "application/vnd.ms-visio.drawing.macroenabled.main+xml": (VSDX, "vsdm"),
    "application/vnd.ms-visio.template.main+xml": (VSDX, "vstx"),
    "application/vnd.ms-powerpoint.template.macroenabled.main+xml": (PPTX, "potm"),
}

# a zip member that marks a family when [Content_Types].xml does not say
_MARKERS = (
    ("word/document.xml", DOCX, "docx"),
    ("xl/workbook.xml", XLSX, "xlsx"),
    ("xl/workbook.bin", XLSB, "xlsb"),
    ("ppt/presentation.xml", PPTX, "pptx"),
    ("visio/document.xml", VSDX, "vsdx"),
)

_ODF_MIMES: dict[str, tuple[str, str]] = {
    "application/vnd.oasis.opendocument.text": (ODT, "odt"),
    "application/vnd.oasis.opendocument.text-template": (ODT, "ott"),
    "application/vnd.oasis.opendocument.spreadsheet": (ODS, "ods"),
    "application/vnd.oasis.opendocument.spreadsheet-template": (ODS, "ots"),
    "application/vnd.oasis.opendocument.presentation": (ODP, "odp"),
    "application/vnd.oasis.opendocument.presentation-template": (ODP, "otp"),
    "application/vnd.oasis.opendocument.graphics": (ODG, "odg"),
    "application/vnd.oasis.opendocument.graphics-template": (ODG, "otg"),
    "application/epub+zip": (EPUB, "epub"),
    SXW: (SXW, "sxw"),
    f"{SXW}.template": (SXW, "stw"),
    f"{SXW}.global": (SXW, "sxg"),
    SXC: (SXC, "sxc"),
    f"{SXC}.template": (SXC, "stc"),
    SXI: (SXI, "sxi"),
    f"{SXI}.template": (SXI, "sti"),
    SXD: (SXD, "sxd"),
    f"{SXD}.template": (SXD, "std"),
}

_FLAT_ODF: dict[str, tuple[str, str]] = {
    "text": (FODT, "fodt"),
    "spreadsheet": (FODS, "fods"),
    "presentation": (FODP, "fodp"),
    "graphics": (FODG, "fodg"),
}

_OVERRIDE = re.compile(rb"<Override\b[^>]*>", re.I)
_PART_NAME = re.compile(rb'PartName="([^"]+)"', re.I)
_CONTENT_TYPE = re.compile(rb'ContentType="([^"]+)"', re.I)


def ooxml_format(names: Collection[str], content_types: bytes) -> tuple[str, str] | None:
    """(mime, ext) of an OOXML package from its member names and [Content_Types].xml."""
    for override in _OVERRIDE.findall(content_types):
        found = _CONTENT_TYPE.search(override)
        if found is None:
            continue
        main = _MAIN_PARTS.get(found.group(1).decode("ascii", "ignore").lower())
        if main is not None:
            return main
    for marker, mime, ext in _MARKERS:
        if marker in names:
            return mime, ext
    return None


#: The package relationship naming the main part, and the part it points at.
_MAIN_RELATIONSHIP = re.compile(
    rb'<Relationship\b(?=[^>]*\bType="[^"]*/officeDocument")[^>]*\bTarget="/?([^"]+)"')
_MAIN_PART_FOLDERS = (
    ("word/", DOCX, "docx"),
    ("xl/", XLSX, "xlsx"),
    ("ppt/", PPTX, "pptx"),
    ("visio/", VSDX, "vsdx"),
)


def ooxml_main_part_format(package_relationships: bytes) -> tuple[str, str] | None:
    """(mime, ext) of an OOXML package from the main part its ``_rels/.rels`` names.

    >>> ooxml_main_part_format(b'<Relationship Id="r1" Target="xl/book.xml" Type="http://'
    ...                        b'schemas.openxmlformats.org/officeDocument/2006/'
    ...                        b'relationships/officeDocument"/>')[1]
    'xlsx'
    """
    found = _MAIN_RELATIONSHIP.search(package_relationships)
    if found is None:
        return None
    target = found.group(1).decode("utf-8", "replace").lower()
    if target.startswith("xl/") and target.endswith(".bin"):
        return XLSB, "xlsb"
    for folder, mime, ext in _MAIN_PART_FOLDERS:
        if target.startswith(folder):
            return mime, ext
    return None


def odf_format(mimetype: bytes) -> tuple[str, str] | None:
    """(mime, ext) from the ``mimetype`` member of an ODF or EPUB container."""
    return _ODF_MIMES.get(mimetype.strip().decode("ascii", "ignore").lower())


def flat_odf_format(office_mimetype: str) -> tuple[str, str] | None:
    """(mime, ext) of a flat ODF document from its ``office:mimetype`` attribute."""
    kind = office_mimetype.rsplit(".", 1)[-1].removesuffix("-template")
    return _FLAT_ODF.get(kind)
