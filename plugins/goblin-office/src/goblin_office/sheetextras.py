"""The second pass over a workbook: print headers and footers, and cell comments.

Cells come from python-calamine; what it does not read comes from here:
for OOXML the sheet XML's ``headerFooter`` and the comments parts (read under
the container limits with the hardened parser), for ODF the master pages and
``office:annotation`` elements, for BIFF the notes xlrd reads.
"""

from __future__ import annotations

import logging
import re
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import unescape

import xlrd

from goblin_core.config import Config
from goblin_core.errors import GoblinError, UnsafeArchive
from goblin_core.source import Source
from goblin_office.biff12 import bundle_sheets
from goblin_office.containers import open_container, open_member, read_member
from goblin_office.diagrams import related_graphics, shape_lines
from goblin_office.odffonts import symbol_fonts
from goblin_office.odftext import annotation_line, inline_text
from goblin_office.ooxml import PackageXml
from goblin_office.safexml import attr, children, descendants, local_name, parse_xml

log = logging.getLogger(__name__)


class _XlrdLog:
    """Where xlrd writes its warnings ("File is truncated, or OLE2 MSAT is corrupt"):
    to the debug log, not to standard output, where the extracted text goes."""

    def write(self, text: str) -> None:
        if text.strip():
            log.debug("xlrd: %s", text.strip())

    def flush(self) -> None:
        pass


XLRD_LOG = _XlrdLog()

_HF_ELEMENT = re.compile(
    rb"<(?:\w+:)?(odd|even|first)(Header|Footer)\b[^>/]*>(.*?)</(?:\w+:)?\1\2>", re.S
)
_HF_CODE = re.compile(r'&"[^"]*"|&K[0-9A-Fa-f]{6}|&K\d{2}[+-]\d{3}|&\d+|&[LCRBIUSEXYOHGKPNDTFZA]')
# the fixed text Excel writes into the legacy copy of a threaded comment
_THREADED_NOTICE = re.compile(
    r"^\[Threaded comment\]\s*Your version of Excel.*?Learn more: \S+\s*", re.S
)
# a sheet's state in xl/workbook.xml (and, spelt the same, in xl/workbook.bin) that keeps
# it out of view
_HIDDEN_STATES = frozenset({"hidden", "veryHidden"})
_CHUNK = 1 << 20
_OVERLAP = 64


@dataclass
class SheetExtras:
    """What the second pass found for one sheet."""

    headers: list[str] = field(default_factory=list)
    footers: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    # text of the shapes drawn over the sheet (text boxes, callouts), a line a paragraph,
    # and the titles of the charts drawn there
    shapes: list[str] = field(default_factory=list)
    # (row, column), 0-based -> the error an error cell shows (calamine reads them as empty)
    errors: dict[tuple[int, int], str] = field(default_factory=dict)


def header_footer_text(code: str) -> str:
    """Excel header/footer text without its formatting codes (&L, &C, &"Arial,Bold", &12...).

    >>> header_footer_text('&L&"Arial,Bold"Left&CCentre&R&P')
    'Left Centre'
    """
    text = code.replace("&&", "\x00")
    text = re.sub(r"&[LCR]", " ", text)
    text = _HF_CODE.sub("", text).replace("\x00", "&")
    return " ".join(text.split())


#: (kind, message) pairs for the document's report: what the second pass left out
Warnings = list[tuple[str, str]]


def ooxml_extras(
    source: Source, config: Config, reader: WorkbookXml | None = None
) -> tuple[dict[str, SheetExtras], Warnings]:
    """Headers, footers and comments per sheet name of an xlsx/xlsm package, and a
    warning for each damaged part left out: it costs only what it holds.

    ``reader`` is the package already open (and checked); else it is opened here.
    """
    if reader is not None:
        return reader.all_extras()
    with open_container(source, config) as archive:
        return WorkbookXml(archive, source.display_name, config).all_extras()


class WorkbookXml(PackageXml):
    """The XML parts of an xlsx package: sheets by name, relationships, parsed parts."""

    def __init__(self, archive: zipfile.ZipFile, name: str, config: Config) -> None:
        super().__init__(archive, name, config)
        self._sheets: list[tuple[str, str]] | None = None
        self._hidden: set[str] = set()

    def sheets(self) -> list[tuple[str, str]]:
        """(sheet name, sheet part) of every sheet, hidden ones too, in workbook order;
        read once."""
        if self._sheets is None:
            listed = list(self._read_sheets())
            self._sheets = [(name, part) for name, part, _ in listed]
            self._hidden = {name for name, _, state in listed if state in _HIDDEN_STATES}
        return self._sheets

    def hidden_sheets(self) -> set[str]:
        """The names of the sheets the workbook hides, very hidden ones (which only a macro
        shows again) included."""
        self.sheets()
        return self._hidden

    def _read_sheets(self) -> Iterator[tuple[str, str, str]]:
        workbook = "xl/workbook.xml"
        listed: Iterable[tuple[str, str, str]]
        if workbook in self.names:
            listed = (
                (attr(sheet, "name"), attr(sheet, "id"), attr(sheet, "state", "visible"))
                for sheets in descendants(self.xml(workbook), "sheets")
                for sheet in children(sheets, "sheet")
            )
        elif "xl/workbook.bin" in self.names:
            workbook = "xl/workbook.bin"
            listed = bundle_sheets(read_member(self.archive, workbook, self.name))
        else:
            return
        rels = self.rels(workbook)
        for name, relation, state in listed:
            rel = rels.get(relation)
            if rel is not None:
                yield name, rel[1], state

    def all_extras(self) -> tuple[dict[str, SheetExtras], Warnings]:
        """``extras`` of every sheet, by name, and a warning for each part left out."""
        before = len(self.left_out)
        found: dict[str, SheetExtras] = {}
        for name, path in self.sheets():
            try:
                found[name] = self.extras(path)
            except UnsafeArchive:
                raise
            except GoblinError as exc:
                # the sheet's own part is damaged (its headers are scanned from it)
                log.warning("%s: extras of sheet %r skipped: %s", self.name, name, exc)
                self.left_out.append((exc.kind, f"sheet {name!r}: headers, footers, comments "
                                      f"and shapes left out: {exc.message}"))
        # a part two sheets share (a drawing) is left out once
        return found, list(dict.fromkeys(self.left_out[before:]))

    def extras(self, path: str) -> SheetExtras:
        """What the second pass finds for the sheet part ``path``; a damaged comments or
        drawing part is left out (``optional_xml``)."""
        extras = SheetExtras()
        if self.config.get("office", "headers_footers", True):
            try:
                self._headers_footers(path, extras)
            except UnsafeArchive:
                raise
            except GoblinError as exc:
                # the headers are scanned from the sheet's own part; its comments and
                # drawing are parts of their own, which its damage does not reach
                log.warning("%s: headers and footers of %s skipped: %s", self.name, path, exc)
                self.left_out.append((exc.kind, f"headers and footers of {path} left out: "
                                      f"{exc.message}"))
        if self.config.get("office", "comments", True):
            for kind, target in self.rels(path).values():
                root = self.optional_xml(target) if kind.endswith("/comments") else None
                if root is not None:
                    extras.comments.extend(_ooxml_comments(root))
        for kind, target in self.rels(path).values():
            if kind.endswith("/drawing") and self.member(target) is not None:
                drawing = self.optional_xml(target)
                if drawing is not None:
                    extras.shapes.extend(shape_lines(drawing, related_graphics(self, target)))
        return extras

    def _headers_footers(self, path: str, extras: SheetExtras) -> None:
        for kind, raw in _scan_header_footer(self.archive, path):
            text = header_footer_text(unescape(raw, {"&quot;": '"', "&apos;": "'"}))
            target = extras.headers if kind == "Header" else extras.footers
            if text and text not in target:
                target.append(text)


def _scan_header_footer(archive: zipfile.ZipFile, path: str) -> list[tuple[str, str]]:
    """headerFooter elements of a sheet, found by streaming (they follow the cell data)."""
    found: list[tuple[str, str]] = []
    tail = b""
    collecting: bytearray | None = None
    with open_member(archive, path) as stream:
        while chunk := stream.read(_CHUNK):
            if collecting is not None:
                collecting.extend(chunk)
                continue
            window = tail + chunk
            start = window.find(b"eaderFooter")
            if start >= 0:
                collecting = bytearray(window[max(start - 16, 0) :])
            else:
                tail = window[-_OVERLAP:]
    if collecting is None:
        return found
    for match in _HF_ELEMENT.finditer(bytes(collecting)):
        found.append((match.group(2).decode(), match.group(3).decode("utf-8", "replace")))
    return found


def _ooxml_comments(root: Any) -> Iterator[str]:
    for comment in descendants(root, "comment"):
        text = "".join(t.text or "" for t in descendants(comment, "t")).strip()
        text = " ".join(_THREADED_NOTICE.sub("", text).split())
        if text:
            yield f"Comment {attr(comment, 'ref')}: {text}"


def biff_comments(source: Source) -> dict[str, SheetExtras]:
    """Cell notes and error cells of an .xls workbook, per sheet name (xlrd reads them)."""
    try:
        book = xlrd.open_workbook(file_contents=source.bytes(), on_demand=True,
                                      logfile=XLRD_LOG)
    except Exception as exc:  # xlrd raises its own and struct errors; notes are extra
        log.debug("%s: xlrd cannot read notes: %s", source.display_name, exc)
        return {}
    found: dict[str, SheetExtras] = {}
    try:
        for index, name in enumerate(book.sheet_names()):
            sheet = book.sheet_by_index(index)
            notes = [
                f"Comment {xlrd.formula.cellname(r, c)}: {n.text.strip()}"
                for (r, c), n in sorted(sheet.cell_note_map.items())
                if n.text.strip()
            ]
            found[name] = SheetExtras(comments=notes, errors=_biff_errors(sheet))
            book.unload_sheet(index)
    except Exception as exc:  # same: a damaged note record must not lose the cells
        log.debug("%s: xlrd stopped reading notes: %s", source.display_name, exc)
    finally:
        book.release_resources()
    return found


def _biff_errors(sheet: Any) -> dict[tuple[int, int], str]:
    found: dict[tuple[int, int], str] = {}
    for row in range(sheet.nrows):
        types = sheet.row_types(row)
        if xlrd.XL_CELL_ERROR not in types:  # a C-speed test: rows with no error pass at once
            continue
        values = sheet.row_values(row)
        for column, kind in enumerate(types):
            if kind == xlrd.XL_CELL_ERROR:
                found[row, column] = xlrd.error_text_from_code.get(values[column], "#ERR")
    return found


def odf_extras(source: Source, config: Config) -> dict[str, SheetExtras]:
    """Headers, footers and annotations per sheet of an .ods package."""
    name = source.display_name
    depth = int(config.get("limits", "max_xml_depth", 256))
    with open_container(source, config) as archive:
        content = parse_xml(read_member(archive, "content.xml", name), name=name, max_depth=depth)
        styles = (
            parse_xml(read_member(archive, "styles.xml", name), name=name, max_depth=depth)
            if "styles.xml" in archive.namelist()
            else None
        )
    return odf_sheet_extras(content, styles, config)


def odf_sheet_extras(content: Any, styles: Any | None, config: Config) -> dict[str, SheetExtras]:
    """Per-sheet extras from an ODF document's content and styles trees (flat or packaged)."""
    masters = _master_pages(styles if styles is not None else content)
    table_master = {
        attr(s, "name"): attr(s, "master-page-name")
        for s in descendants(content, "style")
        if attr(s, "family") == "table"
    }
    default = next(iter(masters.values()), (None, None)) if masters else (None, None)
    fonts = symbol_fonts((content, styles))
    found: dict[str, SheetExtras] = {}
    for table in descendants(content, "table"):
        if local_name(table.getparent()) not in ("spreadsheet",):
            continue
        extras = SheetExtras()
        header, footer = masters.get(table_master.get(attr(table, "style-name"), ""), default)
        if config.get("office", "headers_footers", True):
            extras.headers.extend([header] if header else [])
            extras.footers.extend([footer] if footer else [])
        if config.get("office", "comments", True):
            for note in descendants(table, "annotation"):
                line = annotation_line(note, fonts)
                if line:
                    extras.comments.append(line)
        found[attr(table, "name")] = extras
    return found


def _master_pages(root: Any) -> dict[str, tuple[str | None, str | None]]:
    pages = {}
    for master in descendants(root, "master-page"):
        header = _region_text(master, ("header", "header-first", "header-left"))
        footer = _region_text(master, ("footer", "footer-first", "footer-left"))
        pages[attr(master, "name")] = (header, footer)
    return pages


def _region_text(master: Any, names: tuple[str, ...]) -> str | None:
    for region in master:
        if local_name(region) in names and attr(region, "display", "true") != "false":
            text = " ".join(t for t in (_para_text(p) for p in descendants(region, "p")) if t)
            if text.strip():
                return " ".join(text.split())
    return None


def _para_text(p: Any) -> str:
    return inline_text(p)


def safe_extras(
    kind: str, source: Source, config: Config, reader: WorkbookXml | None = None
) -> tuple[dict[str, SheetExtras], Warnings]:
    """The second pass for ``kind`` (ooxml, odf, biff), and the warnings for the report of
    what it left out; a failure loses only the extras."""
    try:
        if kind == "ooxml":
            return ooxml_extras(source, config, reader)
        if kind == "odf":
            return odf_extras(source, config), []
        if kind == "biff":
            return biff_comments(source), []
    except GoblinError as exc:
        log.warning("%s: headers, footers and comments skipped: %s", source.display_name, exc)
        return {}, [(exc.kind, f"headers, footers and comments left out: {exc.message}")]
    return {}, []
