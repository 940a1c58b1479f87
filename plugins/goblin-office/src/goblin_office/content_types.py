"""A lost ``[Content_Types].xml`` rebuilt from an OOXML package's relationships.

A tool that rewrote a package's zip and dropped the member whose name has brackets (a
zip utility that took it for a pattern, a hand repair) leaves every part in place and
only their content types lost. The relationships still say what each part is: the
relationship type ``.../relationships/slide`` points at a slide, whose content type is
``...presentationml.slide+xml``. Libraries that pick a part's class by its content type
(python-pptx) then load the package as its writer meant it.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from urllib.parse import unquote
from xml.sax.saxutils import quoteattr

from goblin_core.errors import GoblinError
from goblin_office.containers import MEMBER_ERRORS
from goblin_office.safexml import attr, children, parse_xml

CONTENT_TYPES = "[Content_Types].xml"
PACKAGE_RELATIONSHIPS = "_rels/.rels"

_OFFICE = "application/vnd.openxmlformats-officedocument"
_PACKAGE = "application/vnd.openxmlformats-package"
#: The markup language and main part of each family, by the main part's folder.
_FAMILIES = {
    "word": ("wordprocessingml", "document.main"),
    "xl": ("spreadsheetml", "sheet.main"),
    "ppt": ("presentationml", "presentation.main"),
}
#: Relationship types (their last segment) whose parts are not of the family's markup.
_SHARED_TYPES = {
    "core-properties": f"{_PACKAGE}.core-properties+xml",
    "extended-properties": f"{_OFFICE}.extended-properties+xml",
    "custom-properties": f"{_OFFICE}.custom-properties+xml",
    # the strict standard's names of the two
    "extendedProperties": f"{_OFFICE}.extended-properties+xml",
    "customProperties": f"{_OFFICE}.custom-properties+xml",
    "theme": f"{_OFFICE}.theme+xml",
    "themeOverride": f"{_OFFICE}.themeOverride+xml",
    "chart": f"{_OFFICE}.drawingml.chart+xml",
    "chartUserShapes": f"{_OFFICE}.drawingml.chartshapes+xml",
    "drawing": f"{_OFFICE}.drawing+xml",
    "diagramData": f"{_OFFICE}.drawingml.diagramData+xml",
    "diagramLayout": f"{_OFFICE}.drawingml.diagramLayout+xml",
    "diagramColors": f"{_OFFICE}.drawingml.diagramColors+xml",
    "diagramQuickStyle": f"{_OFFICE}.drawingml.diagramStyle+xml",
    "vmlDrawing": f"{_OFFICE}.vmlDrawing",
    "customXmlProps": f"{_OFFICE}.customXmlProperties+xml",
}
#: Where the standard's relationship types live (transitional and strict); a type of
#: Microsoft's own extensions names no part of the family's markup language.
_STANDARD_TYPES = ("http://schemas.openxmlformats.org/officeDocument/2006/relationships/",
                   "http://purl.oclc.org/ooxml/officeDocument/relationships/")
#: Relationship types whose targets are typed by their extension alone.
_BY_EXTENSION_ONLY = frozenset({"image", "hyperlink", "oleObject", "package", "audio", "video",
                                "media", "thumbnail", "font", "attachedTemplate", "customXml"})
#: Content types by extension, for the parts no relationship types more precisely.
_DEFAULTS = {
    "rels": f"{_PACKAGE}.relationships+xml",
    "xml": "application/xml",
    "png": "image/png",
    "jpeg": "image/jpeg",
    "jpg": "image/jpeg",
    "gif": "image/gif",
    "bmp": "image/bmp",
    "tif": "image/tiff",
    "tiff": "image/tiff",
    "emf": "image/x-emf",
    "wmf": "image/x-wmf",
    "svg": "image/svg+xml",
    "bin": f"{_OFFICE}.oleObject",
    "vml": f"{_OFFICE}.vmlDrawing",
}


def with_rebuilt_content_types(data: bytes) -> bytes:
    """``data`` itself, or, when the OOXML package has relationships but no
    ``[Content_Types].xml``, a copy with one rebuilt from them (``rebuilt_content_types``).

    Anything unreadable leaves ``data`` as it is, for the reader to report as it would."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
            if CONTENT_TYPES in names or PACKAGE_RELATIONSHIPS not in names:
                return data
            relationships = {}
            for name in names:
                if name.endswith(".rels"):
                    try:
                        relationships[name] = archive.read(name)
                    except MEMBER_ERRORS:
                        continue  # a damaged part's relationships: it stays untyped
            types = rebuilt_content_types(names, relationships)
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as copy:
                copy.writestr(CONTENT_TYPES, types)
                for info in archive.infolist():
                    copy.writestr(info, archive.read(info))
    except (*MEMBER_ERRORS, GoblinError):
        return data
    return buffer.getvalue()


def rebuilt_content_types(names: list[str], relationships: dict[str, bytes]) -> bytes:
    """A ``[Content_Types].xml`` for the package members ``names``: each part a
    relationship points at typed by that relationship's type, the rest by extension.

    ``relationships`` holds the bytes of the package's ``.rels`` members by name.

    >>> def rels(target: str, kind: str) -> bytes:
    ...     return (f'<Relationships><Relationship Id="r" Target="{target}" Type="http://'
    ...             f'schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}"/>'
    ...             f'</Relationships>').encode()
    >>> types = rebuilt_content_types(
    ...     ["ppt/presentation.xml", "ppt/slides/slide1.xml"],
    ...     {"_rels/.rels": rels("ppt/presentation.xml", "officeDocument"),
    ...      "ppt/_rels/presentation.xml.rels": rels("slides/slide1.xml", "slide")})
    >>> (b'"/ppt/slides/slide1.xml" ContentType="application/vnd.openxmlformats-'
    ...  b'officedocument.presentationml.slide+xml"') in types
    True
    """
    members = set(names)
    family = _family(relationships.get(PACKAGE_RELATIONSHIPS, b""))
    overrides: dict[str, str] = {}
    for rels_name, body in sorted(relationships.items()):
        for kind, part in _typed_targets(rels_name, body):
            if part in members and part not in overrides:
                content_type = _content_type(kind, family, part)
                if content_type is not None:
                    overrides[part] = content_type
    extensions = sorted({posixpath.splitext(name)[1][1:].lower() for name in names
                         if not name.endswith("/")} & set(_DEFAULTS))
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
             '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">']
    lines += [f"<Default Extension={quoteattr(ext)} ContentType={quoteattr(_DEFAULTS[ext])}/>"
              for ext in extensions]
    lines += [f"<Override PartName={quoteattr('/' + part)} ContentType={quoteattr(kind)}/>"
              for part, kind in sorted(overrides.items())]
    lines.append("</Types>")
    return "".join(lines).encode("utf-8")


def _family(package_relationships: bytes) -> tuple[str, str, str] | None:
    """(main part, markup language, main part's content type name) of the package."""
    for kind, part in _typed_targets(PACKAGE_RELATIONSHIPS, package_relationships):
        if kind.rsplit("/", 1)[-1] == "officeDocument":
            known = _FAMILIES.get(part.split("/", 1)[0])
            if known is not None:
                return part, known[0], known[1]
    return None


def _content_type(kind: str, family: tuple[str, str, str] | None, part: str) -> str | None:
    standard, _, kind = kind.rpartition("/")
    if kind in _SHARED_TYPES:
        return _SHARED_TYPES[kind]
    if f"{standard}/" not in _STANDARD_TYPES or kind in _BY_EXTENSION_ONLY or family is None:
        return None
    main, markup, main_type = family
    if part == main:
        if part.endswith(".bin"):
            return "application/vnd.ms-excel.sheet.binary.macroEnabled.main"
        return f"{_OFFICE}.{markup}.{main_type}+xml"
    if not part.endswith(".xml"):
        return None
    return f"{_OFFICE}.{markup}.{kind}+xml"


def _typed_targets(rels_name: str, body: bytes) -> list[tuple[str, str]]:
    """(relationship type, part in the package) of each internal relationship in the
    ``.rels`` member ``rels_name``."""
    try:
        root = parse_xml(body, name=rels_name)
    except GoblinError:
        return []
    # "word/_rels/document.xml.rels" holds the relationships of "word/document.xml"
    folder = posixpath.dirname(posixpath.dirname(rels_name))
    found = []
    for relationship in children(root, "Relationship"):
        target = unquote(attr(relationship, "Target"))
        if not target or attr(relationship, "TargetMode") == "External":
            continue
        part = (target.lstrip("/") if target.startswith("/")
                else posixpath.normpath(posixpath.join(folder, target)))
        found.append((attr(relationship, "Type"), part))
    return found
