"""Word and PowerPoint documents saved as one XML file (Flat OPC: "Word XML Document").

Word 2007 and later save a ``.xml`` whose root ``pkg:package`` holds every part
of the package, XML parts inline and binary parts (images, embedded objects) in
base64. The parts are written back into an in-memory zip, which the docx or
pptx parser then reads like any package, under the same limits.
"""

from __future__ import annotations

import base64
import binascii
import io
import zipfile
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import quoteattr

from lxml import etree

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, ParsedDocument
from goblin_core.errors import CorruptDocument, FileTooLarge
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.presentation import PptxParser
from goblin_office.safexml import attr, children, local_name, parse_xml
from goblin_office.word import DocxParser
from goblin_office.xmltext import office_xml_root

_PKG = "http://schemas.microsoft.com/office/2006/xmlPackage"
_TYPES = "http://schemas.openxmlformats.org/package/2006/content-types"


def open_as_family(
    plain: Source, config: Config, parsers: Mapping[str, Sequence[Callable[[], Any]]]
) -> ParsedDocument:
    """Read a plain OOXML package with the parsers of its family (docx, xlsx, pptx), in
    order: one refusing it (calamine before a workbook it cannot hold) hands it to the
    next, as the format's own chain would."""
    try:
        with zipfile.ZipFile(plain.open()) as archive:
            names = set(archive.namelist())
            types = archive.read("[Content_Types].xml") if "[Content_Types].xml" in names else b""
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise CorruptDocument(f"the package is not a zip ({exc})", file=plain.display_name) from exc
    found = fmt.ooxml_format(names, types)
    if found is None or found[0] not in parsers:
        raise CorruptDocument(
            "the package is not a Word, Excel or PowerPoint file", file=plain.display_name
        )
    refusals: list[str] = []
    for make in parsers[found[0]]:
        parser = make()
        try:
            document: ParsedDocument = parser.open(plain, config)
        except CorruptDocument as exc:
            refusals.append(f"{parser.name}: {exc.message}")
            continue
        return document
    raise CorruptDocument("; ".join(refusals), file=plain.display_name)


def flat_package(source: Source, config: Config,
                 left_out: list[tuple[str, str]] | None = None) -> Source:
    """The parts of a Flat OPC document as a zip package, under the container limits; a
    binary part whose base64 is damaged (a picture, an embedded object) is left out, said
    in ``left_out``, rather than costing the document its text, and a file that is not
    well formed (cut short) is read leniently, its parts up to the damage kept."""
    root = _package_root(source, config, left_out)
    if local_name(root) != "package":
        raise CorruptDocument("the XML is not a Flat OPC package", file=source.display_name)
    max_member = int(config.get("limits", "max_member_size", 1 << 62))
    buffer = io.BytesIO()
    overrides = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for part in children(root, "part"):
            name = attr(part, "name").lstrip("/")
            if not name or name.endswith("/"):
                continue
            try:
                data = _part_bytes(part, source)
            except CorruptDocument as exc:
                if left_out is None:
                    raise
                left_out.append((exc.kind, f"{exc.message}; left out"))
                continue
            if len(data) > max_member:
                raise FileTooLarge(
                    f"part {name!r} holds {len(data):,} bytes, over limits.max_member_size",
                    file=source.display_name,
                )
            archive.writestr(name, data)
            overrides.append(
                f"<Override PartName={quoteattr('/' + name)} "
                f"ContentType={quoteattr(attr(part, 'contentType'))}/>"
            )
        archive.writestr(
            "[Content_Types].xml",
            f'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="{_TYPES}">'
            + "".join(overrides)
            + "</Types>",
        )
    return Source.from_bytes(
        buffer.getvalue(), source.display_name, depth=source.depth, parent=source.parent
    )


def _package_root(source: Source, config: Config, left_out: list[tuple[str, str]] | None) -> Any:
    """The ``pkg:package`` root; of a file that is not well formed, what libxml2 recovers of
    it, a ``Truncated`` warning in ``left_out`` when text after the damage is lost."""
    data, name = source.bytes(), source.display_name
    depth = int(config.get("limits", "max_xml_depth", 256))
    if left_out is None:
        return parse_xml(data, name=name, max_depth=depth)
    # a paragraph (Word's w:p, DrawingML's a:p) or a part still open at the end was
    # cut: the parts after it, a document's notes and headers among them, are lost
    return office_xml_root(data, name=name, max_depth=depth, enclosing=frozenset({"p", "part"}),
                           left_out=left_out)


def _part_bytes(part: Any, source: Source) -> bytes:
    for holder in part:
        name = local_name(holder)
        if name == "xmlData":
            content = [c for c in holder if isinstance(c.tag, str)]
            return (
                etree.tostring(content[0], encoding="UTF-8", xml_declaration=True)
                if content
                else b""
            )
        if name == "binaryData":
            try:
                return base64.b64decode("".join((holder.text or "").split()), validate=True)
            except (binascii.Error, ValueError) as exc:
                raise CorruptDocument(
                    f"part {attr(part, 'name')!r} is not valid base64 ({exc})",
                    file=source.display_name,
                ) from exc
    return b""


class FlatOpcParser(BaseEngine):
    """Flat OPC documents (Word and PowerPoint "XML" saves): read as the docx or pptx they hold."""

    name = "office.flat_opc"
    formats = (fmt.FLAT_WORD, fmt.FLAT_POWERPOINT)
    priority = 50

    def open(self, source: Source, config: Config) -> ParsedDocument:
        left_out: list[tuple[str, str]] = []
        # a docx's or pptx's reading, each with the warnings list of the base engine
        document: Any = open_as_family(
            flat_package(source, config, left_out),
            config,
            {fmt.DOCX: (DocxParser,), fmt.PPTX: (PptxParser,)},
        )
        if left_out:
            document.warnings = [*left_out, *document.warnings]
        return document
