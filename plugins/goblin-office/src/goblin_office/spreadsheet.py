"""Workbooks (.xlsx .xlsm .xltx .xltm .xlsb .xls .ods) read with python-calamine.

calamine (Rust) reads cells several times faster than openpyxl or xlrd; each
sheet is one page, named, its cells a Table and tab-separated text. A second
pass (``sheetextras``) adds print headers and footers and cell comments.
xlrd is the fallback for old BIFF files calamine refuses.
"""

from __future__ import annotations

import datetime as dt
import io
import logging
import re
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, BinaryIO

import xlrd
from python_calamine import CalamineError, CalamineWorkbook

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, BaseParsedDocument, TextDocument
from goblin_core.errors import CorruptDocument, GoblinError, UnsafeArchive, is_rust_panic
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_office import biff12
from goblin_office import formats as fmt
from goblin_office.cellformats import (
    BiffDateSerials,
    DateSerials,
    WorkbookFormats,
    XlsbDateSerials,
    display_rows,
    xlsb_date_styles,
)
from goblin_office.cells import cell_text, error_text, iso_durations, unescaped_characters
from goblin_office.containers import MEMBER_ERRORS, open_container, open_member, read_member
from goblin_office.dateformat import excel_serial
from goblin_office.embedded import ole_children
from goblin_office.encryption import decrypted
from goblin_office.layout import PageBuilder
from goblin_office.numberformat import display_text
from goblin_office.odfcrypto import decrypted_package
from goblin_office.odfobjects import odf_children
from goblin_office.olecheck import check_biff_sheets
from goblin_office.olesummary import summary_metadata
from goblin_office.ooxml import (
    core_properties,
    package_children,
    without_damaged_parts,
)
from goblin_office.safexml import UnsafeXML, parse_xml
from goblin_office.sheeterrors import (
    ErrorReader,
    error_cells,
    uncalculated_warnings,
    with_errors,
    xlsb_error_cells,
)
from goblin_office.sheetextras import XLRD_LOG, SheetExtras, WorkbookXml, safe_extras
from goblin_office.sheetspan import (
    MendedSheet,
    copies_refused,
    inflated_prefix,
    mended_number_cells,
    salvaged_shared_strings,
    salvaged_sheet,
    shared_string_counts,
    shared_string_lengths,
    sheet_span,
    tag_windows,
)
from goblin_office.sparsesheet import ScatteredCells

log = logging.getLogger(__name__)

_EXTRAS_KIND = {fmt.XLSX: "ooxml", fmt.ODS: "odf", fmt.XLS: "biff"}
# a grid of this many times max_sheet_cells is past what a sheet read cut at it needs
_GRID_FACTOR = 4


def capped_rows(
    rows: Iterable[Sequence[str]], name: str, limit: int, metadata: dict[str, Any],
    max_chars: int = 0, first_column: int = 0,
) -> list[Sequence[str]]:
    """The rows of sheet ``name`` (from row 0, from column ``first_column``) while their
    table (rows x widest row, as it is padded) holds at most ``limit`` cells, and their
    cells at most ``max_chars`` characters (0: no bound); a cut sheet is named in
    ``metadata``.

    Past that grid the sheet is gathered cell by cell (``sparsesheet``): when it holds at
    most ``limit`` values in all it is read whole, as rows of a cell's reference and its
    text; with more it is cut where its grid reached the limit."""
    kept: list[Sequence[str]] = []
    scattered: ScatteredCells | None = None
    widest = 1
    chars = 0
    for number, row in enumerate(rows):
        chars += sum(map(len, row)) if max_chars else 0
        if max_chars and chars > max_chars:
            break
        if scattered is None:
            widest = max(widest, len(row))
            if (len(kept) + 1) * widest <= limit:
                kept.append(row)
                continue
            scattered = ScatteredCells()
            for above, cells in enumerate(kept):
                scattered.add_row(above, cells, first_column)
        scattered.add_row(number, row, first_column)
        if len(scattered) > limit:
            break
    else:
        return kept if scattered is None else list(scattered.rows())
    metadata.setdefault("truncated_sheets", []).append(name)
    log.warning("sheet %r cut at office.max_sheet_cells (%d) or "
                "limits.max_output_chars (%d)", name, limit, max_chars)
    return kept


def cut_sheet_warnings(names: Iterable[str], config: Config) -> list[tuple[str, str]]:
    """One ``Truncated`` report warning per sheet ``capped_rows`` cut, so the cut shows in
    the document's report and not only in its metadata."""
    limit = int(config.get("office", "max_sheet_cells", 5_000_000))
    budget = int(config.get("limits", "max_output_chars", 100_000_000))
    return [("Truncated", f"sheet {name!r} cut at office.max_sheet_cells ({limit:,} cells) or "
             f"limits.max_output_chars ({budget:,} characters)") for name in names]


def sheet_page(
    number: int, name: str, rows: Sequence[Sequence[str]], extras: SheetExtras | None, engine: str,
    hidden: bool = False,
) -> PageContent:
    """One sheet as a page: its name, headers, the cells as a table, comments, footers.
    The text of a ``hidden`` sheet is counted in ``hidden_chars``, as Word's hidden text is:
    the workbook holds it, and Excel shows no tab for it."""
    page = PageBuilder(number=number, label=name, engine=engine)
    page.add(name, "heading", 2)
    for text in extras.headers if extras else ():
        page.add(text, "header")
    page.add_table(rows, title=name)
    for text in extras.shapes if extras else ():
        page.add(text)
    for text in extras.comments if extras else ():
        page.add(text)
    for text in extras.footers if extras else ():
        page.add(text, "footer")
    if hidden:
        page.hidden = len(page.text)
    return page.build()


class _CalamineDocument(BaseParsedDocument):
    """Sheets read one at a time, so only one sheet's cells are in memory."""

    def __init__(
        self,
        workbook: CalamineWorkbook,
        names: list[str],
        extras: dict[str, SheetExtras],
        config: Config,
        engine: str,
        formats: WorkbookFormats | None = None,
        comma: bool = False,
    ) -> None:
        self.workbook = workbook
        self.names = names
        self.extras = extras
        self.formats = formats
        self.serials: DateSerials | BiffDateSerials | XlsbDateSerials | None = None
        self.dates = config.get("office", "cell_dates", "iso") == "display"
        self.comma = comma
        self.max_cells = int(config.get("office", "max_sheet_cells", 5_000_000))
        self.config = config
        self.engine = engine
        self.page_count = len(names)
        self.metadata: dict[str, Any] = {"sheets": list(names)}
        self.hidden = {m.name for m in workbook.sheets_metadata
                       if not str(m.visible).endswith(".Visible")} & set(names)
        if self.hidden:
            self.metadata["hidden_sheets"] = [n for n in names if n in self.hidden]
        self.warnings: list[tuple[str, str]] = []
        self.children: list[Source] = []
        self.package: zipfile.ZipFile | None = None
        # sheet name -> part, for the sheets of the package that may hold error cells
        self.error_parts: dict[str, str] = {}
        self.error_reader: ErrorReader = error_cells
        # an xlsx's package and sheet parts (name -> part), to read what is left of a sheet
        # part calamine cannot read (cut short, or inflating only partway)
        self.source: Source | None = None
        self.sheet_parts: dict[str, str] = {}
        self.lost: list[str] = []
        # whether the cells may hold raw ISO 8601 durations (calamine's long ODS times)
        self.durations = False
        # a chart sheet holds no cells: calamine reads an xlsb one as a worksheet and fails
        self.chart_sheets = {
            m.name for m in workbook.sheets_metadata if str(m.typ).endswith("ChartSheet")
        }

    def pages(self) -> Iterator[PageContent]:
        for number, name in enumerate(self.names, start=1):
            try:
                rows = self._rows(name)
            except CalamineError as exc:
                salvaged = self._salvaged_rows(name)
                if salvaged is None:
                    salvaged = self._mended_rows(name)
                if salvaged is None:
                    # a damaged sheet part costs that sheet, not the workbook's other sheets
                    yield PageContent(number=number, label=name,
                                      error=f"sheet {name!r} cannot be read ({exc})")
                    continue
                rows = salvaged
            except BaseException as exc:
                if not is_rust_panic(exc):
                    raise
                # calamine may be left in any state: the next engine reads the workbook
                # when no sheet came out yet, else the sheets read so far are kept
                raise CorruptDocument(f"calamine stopped on sheet {name!r} (its reader "
                                      f"panicked: {exc})") from exc
            yield sheet_page(number, name, rows, self.extras.get(name), self.engine,
                             name in self.hidden)

    def _rows(
        self, name: str, workbook: CalamineWorkbook | None = None,
        package: zipfile.ZipFile | None = None,
    ) -> list[Sequence[str]]:
        """The rows of sheet ``name``; from ``workbook`` and ``package`` when given (a
        mended copy of the workbook), else from the workbook the document opened."""
        if name in self.chart_sheets:
            return []
        sheet = (workbook or self.workbook).get_sheet_by_name(name)
        cut_before = len(self.metadata.get("truncated_sheets", ()))
        # calamine yields rows from row 0 but columns from the first used one
        first_column = sheet.start[1] if sheet.start else 0
        rows = capped_rows(self._texts(name, sheet, first_column, package), name, self.max_cells,
                           self.metadata, first_column=first_column)
        if len(self.metadata.get("truncated_sheets", ())) > cut_before:
            self.warnings.extend(cut_sheet_warnings([name], self.config))
        return rows

    def _copy_rows(self, name: str, source: Source, data: bytes) -> list[Sequence[str]] | None:
        """The rows of sheet ``name`` read by calamine from ``data``, a mended copy of the
        workbook ``source``; None when it cannot read that either."""
        try:
            workbook = _workbook(source, source, io.BytesIO(data))
        except CorruptDocument:
            return None
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as package:
                return self._rows(name, workbook, package)
        except CalamineError:
            return None
        finally:
            workbook.close()

    def _mended_rows(self, name: str) -> list[Sequence[str]] | None:
        """The rows of sheet ``name`` when number cells that hold no number (blank, a
        number between spaces, a number with a unit after it) are what keeps calamine
        from reading it: read from a copy of the workbook with those cells mended
        (``mended_number_cells``), said in a warning; None when it has none, or calamine
        cannot read the mended copy either."""
        part = self.sheet_parts.get(name)
        if part is None or self.source is None or self.package is None:
            return None
        mended = mended_number_cells(inflated_prefix(self.package, part))
        if mended is None:
            return None
        data = _with_member(self.package, part, mended.part)
        rows = self._copy_rows(name, self.source, data)
        if rows is None:
            return None
        self.warnings.append(_mended_warning(name, mended))
        return rows

    def _salvaged_rows(self, name: str) -> list[Sequence[str]] | None:
        """The rows of sheet ``name`` before the damage that keeps calamine from reading
        its part (cut short, or a deflate stream that breaks midway), read from a copy of
        the workbook whose part is closed after its last whole row; None when there is no
        such row, or calamine cannot read that either. What was lost goes to ``left_out``."""
        part = self.sheet_parts.get(name)
        if part is None or self.source is None or self.package is None:
            return None
        salvaged = salvaged_sheet(inflated_prefix(self.package, part))
        if salvaged is None:
            return None
        copy = without_damaged_parts(
            self.source.bytes(), self.source.display_name,
            stand_ins=lambda member, _type: salvaged.part if member == part else None,
            xml_parts=part.__eq__)
        if part not in copy.damaged:
            return None
        rows = self._copy_rows(name, self.source, copy.data)
        if rows is None:
            return None
        after = f"row {salvaged.last_row:,}" if salvaged.last_row else "its last whole row"
        self.lost.append(f"sheet {name!r} is damaged ({part}: {copy.damaged[part]}): "
                         f"what it holds after {after} is lost")
        self.left_out = "; ".join(self.lost)
        return rows

    def _texts(
        self, name: str, sheet: Any, first_column: int, package: zipfile.ZipFile | None
    ) -> Iterator[list[str]]:
        values: Iterator[list[Any]] = sheet.iter_rows()
        if self.serials is not None:
            values = self.serials.corrected(name, values, first_column, package)
        if self.formats is None and not self.comma:
            rows: Iterator[list[str]] = ([cell_text(v) for v in row] for row in values)
        else:
            styled = self.formats.cells(name, package) if self.formats is not None else iter(())
            rows = display_rows(
                values,
                styled,
                first_column=first_column,
                dates=self.dates,
                comma=self.comma,
            )
        if self.durations:
            rows = (iso_durations(row) for row in rows)
        errors = self._errors(name, package)
        return with_errors(rows, errors, first_column) if errors else rows

    def _errors(
        self, name: str, package: zipfile.ZipFile | None = None
    ) -> dict[tuple[int, int], str]:
        """The error cells of sheet ``name``, which calamine reads as empty, and its formula
        cells that hold no value, as their formulas (said in a warning). A sheet read from
        a mended ``package`` is looked through there: its damaged part gave the scan that
        finds the sheets holding them nothing."""
        part = self.error_parts.get(name)
        if package is not None:
            part = self.sheet_parts.get(name)
        package = package or self.package
        if part is not None and package is not None:
            found = self.error_reader(package, part)
            self.warnings.extend(uncalculated_warnings(name, found))
            return found
        extras = self.extras.get(name)
        return extras.errors if extras is not None else {}

    def attachments(self) -> Iterator[Source]:
        return iter(self.children)

    def close(self) -> None:
        self.workbook.close()
        if self.package is not None:
            self.package.close()


class CalamineParser(BaseEngine):
    """python-calamine for xlsx, xlsm, xltx, xltm, xlsb, xls and ods cells."""

    name = "office.calamine"
    formats = (fmt.XLSX, fmt.XLSB, fmt.XLS, fmt.ODS)
    priority = 50

    def open(self, source: Source, config: Config) -> _CalamineDocument:
        plain = decrypted(source, config)
        mime = _family(plain)
        if mime in (fmt.XLSX, fmt.XLSB):
            # checked once, then shared by the extras, the formats and the children
            package = open_container(plain, config)
            try:
                return self._ooxml(plain, mime, package, config)
            except BaseException:  # the document owns the package only once it exists
                package.close()
                raise
        if mime == fmt.ODS:
            open_container(plain, config).close()
            plain = decrypted_package(plain, config)
            _refuse_ods_errors(plain, config)
        if mime == fmt.XLS:
            check_biff_sheets(
                plain, _GRID_FACTOR * int(config.get("office", "max_sheet_cells", 5_000_000)),
                int(config.get("limits", "max_output_chars", 100_000_000)))
        workbook = _workbook(plain, source)
        extras, left_out = safe_extras(_EXTRAS_KIND.get(mime, ""), plain, config)
        names = _visible_sheets(workbook, config)
        document = _CalamineDocument(workbook, names, extras, config, self.name)
        document.warnings.extend(left_out)
        if mime == fmt.ODS:
            document.children = odf_children(plain, config)
            document.durations = True
        else:
            document.children = ole_children(source, plain, config)
            document.metadata.update(summary_metadata(plain))
            document.serials = BiffDateSerials(plain)
        return document

    def _ooxml(
        self, plain: Source, mime: str, package: zipfile.ZipFile, config: Config
    ) -> _CalamineDocument:
        reader = WorkbookXml(package, plain.display_name, config)
        shown: Counter[int] = Counter()
        if mime == fmt.XLSX:
            error_parts, shown = _check_dense_grid(reader, config)
        else:
            # no cheap scan tells an xlsb sheet with error cells: each is read for them
            error_parts = dict(_sheet_members(reader))
            _check_xlsb_shared_string_copies(reader, config)
        stream = _macro_sheets_moved(package) if mime == fmt.XLSB else None
        mended: list[tuple[str, str]] = []
        left_out = ""
        if mime == fmt.XLSX and shown and not _shared_strings_members(reader):
            # cells show strings of a part the package lacks: calamine fails every sheet
            # that shows one, numbers and inline strings with it
            blank = _with_blank_shared_strings(reader, shown)
            if blank is not None:
                stream, lost = blank
                mended.append(("CorruptDocument", "the shared strings part is missing from the "
                               "package: an empty string stands for each one a cell shows"))
                left_out = f"the shared strings part is missing: {lost}"
        try:
            workbook = _workbook(plain, plain, stream)
        except CorruptDocument:
            # calamine refuses the whole workbook over one damaged part (the styles, a
            # theme): read a copy without the parts that do not inflate, nor a styles part
            # that is not XML (empty, cut short)
            if stream is not None:
                stream.seek(0)
            styles = _styles_members(reader) if mime == fmt.XLSX else set()
            # the shared strings cannot be left out (each cell showing one would fail its
            # sheet): those before the damage are kept, empty ones stand for the rest
            strings = _SharedStringsMender(reader, shown if mime == fmt.XLSX else Counter(),
                                           mime == fmt.XLSX)
            copy = without_damaged_parts(stream.read() if stream is not None else plain.bytes(),
                                         plain.display_name, stand_ins=strings.stand_in,
                                         xml_parts=(styles | strings.members).__contains__)
            if not copy.damaged:
                raise
            try:
                workbook = _workbook(plain, plain, io.BytesIO(copy.data))
            except CorruptDocument as again:
                raise CorruptDocument(f"{again.message}, nor without its damaged parts "
                                      f"({', '.join(sorted(copy.damaged))})",
                                      file=plain.display_name) from again
            mended = [warning for member, warning in zip(sorted(copy.damaged), copy.warnings(),
                                                                 strict=True)
                      if member not in strings.kept and member not in strings.sheets]
            mended.extend(strings.warnings(copy.damaged))
            left_out = strings.left_out()
        extras, extras_left_out = safe_extras(_EXTRAS_KIND.get(mime, ""), plain, config, reader)
        formats, comma = None, False
        if mime == fmt.XLSX and config.get("office", "cell_values", "display") == "display":
            dates = config.get("office", "cell_dates", "iso") == "display"
            formats = WorkbookFormats.load(reader, dates=dates)
            comma = bool(config.get("office", "decimal_comma", False))
        names = _visible_sheets(workbook, config)
        document = _CalamineDocument(workbook, names, extras, config, self.name, formats, comma)
        document.package = package
        document.error_parts = error_parts
        if mime == fmt.XLSX:
            document.serials = DateSerials.load(
                reader, display=formats is not None and document.dates)
            document.source = plain
            document.sheet_parts = dict(_sheet_members(reader))
        document.warnings.extend([*mended, *extras_left_out])
        document.left_out = left_out
        if mime == fmt.XLSB:
            document.error_reader = xlsb_error_cells
            document.serials = XlsbDateSerials(package, error_parts, plain.display_name)
        document.children = package_children(plain, config, package)
        document.metadata.update(core_properties(reader))
        return document


def _styles_members(reader: WorkbookXml) -> set[str]:
    """The zip members that may hold the workbook's styles part: the one its
    relationships name, and ``xl/styles.xml``, where calamine looks for it."""
    named = [target for kind, target in reader.rels("xl/workbook.xml").values()
             if kind.endswith("/styles")]
    return {member for path in [*named, "xl/styles.xml"]
            if (member := reader.member(path)) is not None}


def _check_dense_grid(
    reader: WorkbookXml, config: Config
) -> tuple[dict[str, str], Counter[int]]:
    """Refuse a sheet whose cells span a rectangle calamine could not hold (it would abort
    the process), or one past max_sheet_cells that is mostly empty, so the streaming
    openpyxl reader, cut at max_sheet_cells, reads it.

    The sheets that hold error cells, which calamine reads as empty, are returned (name
    -> part): the same scan finds them; and how many cells show each shared string.
    """
    cells = int(config.get("office", "max_sheet_cells", 5_000_000))
    limit = _GRID_FACTOR * cells
    error_parts: dict[str, str] = {}
    shared: Counter[int] = Counter()
    for name, member in _sheet_members(reader):
        try:
            span = sheet_span(reader.archive, member)
        except CorruptDocument as exc:
            # no reader holds a grid this part cannot give: the sheet alone is lost, or
            # its rows before the damage, whose shared strings are counted
            log.warning("%s: sheet %r not measured: %s", reader.name, name, exc)
            shared.update(shared_string_counts(inflated_prefix(reader.archive, member)))
            continue
        if span.cells > limit:
            raise CorruptDocument(
                f"sheet {name!r} spans {span.reference} ({span.cells:,} cells), more than "
                f"{_GRID_FACTOR} x office.max_sheet_cells; calamine would hold every one, "
                "so a streaming reader takes it",
                file=reader.name,
            )
        if span.cells > cells and span.count * _GRID_FACTOR < span.cells:
            # its values are read as a list of cells (``sparsesheet``): the grid calamine
            # would build around them (a diagonal of 3,000 values: 290 MB) holds nothing
            raise CorruptDocument(
                f"sheet {name!r} spans {span.reference} ({span.cells:,} cells) and writes "
                f"{span.count:,}; calamine would hold every cell of its grid, so a streaming "
                "reader takes it",
                file=reader.name,
            )
        if span.errors:
            error_parts[name] = member
        shared.update(span.shared)
    _check_shared_string_copies(reader, shared, config)
    return error_parts, shared


class _SharedStringsMender:
    """Stands in for a damaged shared strings part (cut short, or its deflate stream broken
    midway) in the copy calamine reads: the strings that end before the damage, then an
    empty string for each index past them that a cell shows. Without one calamine refuses
    the workbook, or each sheet showing a string, and every number and inline string of
    the workbook is lost with the strings.

    With ``sheets`` (an xlsx), a sheet part that does not inflate whole stands in the copy
    as the rows before its damage (calamine refuses a workbook listing a sheet whose part
    is left out)."""

    def __init__(self, reader: WorkbookXml, shown: Counter[int], sheets: bool = False) -> None:
        self.reader = reader
        #: how many cells show each shared string, by index
        self.shown = shown
        self.members = _shared_strings_members(reader)
        #: member -> how many of its strings were kept
        self.kept: dict[str, int] = {}
        self.sheet_members = {member for _, member in _sheet_members(reader)} if sheets else set()
        #: sheet member -> the last row kept of it (0: none, or no number known)
        self.sheets: dict[str, int] = {}

    def stand_in(self, member: str, content_type: str) -> bytes | None:
        if member in self.sheet_members:
            rows = salvaged_sheet(inflated_prefix(self.reader.archive, member))
            self.sheets[member] = rows.last_row if rows is not None else 0
            return rows.part if rows is not None else _EMPTY_SHEET
        if member not in self.members:
            return None
        body = inflated_prefix(self.reader.archive, member)
        # padding only as far as cells can use it: an index a cell names may be anything
        needed = min(max(self.shown, default=-1) + 1, sum(self.shown.values()))
        for complete in (True, False):  # without the strings, when they do not parse
            salvaged = salvaged_shared_strings(body, needed, complete)
            try:
                parse_xml(salvaged.part, name=f"{self.reader.name}:{member}")
            except UnsafeXML:
                raise
            except CorruptDocument:
                continue
            self.kept[member] = salvaged.kept
            return salvaged.part
        return None

    def warnings(self, damaged: dict[str, str]) -> list[tuple[str, str]]:
        return [("CorruptDocument", f"part {member} cannot be read whole ({damaged[member]}); "
                 f"the {kept:,} strings before the damage kept")
                for member, kept in sorted(self.kept.items())]

    def left_out(self) -> str:
        """What the cells lost with the strings past the damage (nothing when the damage
        came after the last string a cell shows), and the rows of damaged sheets."""
        kept = min(self.kept.values(), default=None)
        lost = _lost_strings(self.shown, kept) if kept is not None else ""
        said = [f"the shared strings part is damaged: {lost}"] if lost else []
        said.extend(f"sheet part {member} is damaged: what it holds after "
                    f"{f'row {row:,}' if row else 'its last whole row'} is lost"
                    for member, row in sorted(self.sheets.items()))
        return "; ".join(said)


def _lost_strings(shown: Counter[int], kept: int) -> str:
    """What the cells lost with the shared strings from index ``kept`` on; "" for nothing."""
    lost = {index: cells for index, cells in shown.items() if index >= kept}
    if not lost:
        return ""
    return (f"{len(lost):,} of the strings the cells show were lost with it "
            f"({sum(lost.values()):,} cells left empty)")


def _with_blank_shared_strings(
    reader: WorkbookXml, shown: Counter[int]
) -> tuple[BinaryIO, str] | None:
    """A copy of the package with an empty string for each index its cells show, where
    the shared strings part should be, and what the cells lost; None when a member of
    the package does not read (the damaged parts' path reads it)."""
    needed = min(max(shown) + 1, sum(shown.values()))
    blank = salvaged_shared_strings(b"", needed).part
    copy = io.BytesIO()
    with zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as mended:
        for info in reader.archive.infolist():
            try:
                mended.writestr(info.filename, reader.archive.read(info))
            except MEMBER_ERRORS:
                return None
        mended.writestr(_SHARED_STRINGS, blank)
    copy.seek(0)
    return copy, _lost_strings(shown, 0)


_SHARED_STRINGS = "xl/sharedStrings.xml"


def _shared_strings_members(reader: WorkbookXml) -> set[str]:
    """The zip members that may hold the workbook's shared strings: the one its
    relationships name, and ``xl/sharedStrings.xml``."""
    named = [target for kind, target in reader.rels("xl/workbook.xml").values()
             if kind.endswith("/sharedStrings")]
    return {member for path in [*named, _SHARED_STRINGS]
            if (member := reader.member(path)) is not None}


def _check_shared_string_copies(reader: WorkbookXml, shared: Counter[int],
                                config: Config) -> None:
    """Refuse a workbook whose cells show its shared strings over and over into more text
    than a document may hold, so the streaming openpyxl reader, cut at that limit, reads
    it: calamine copies the string into every cell that shows it (a 100,000-character
    string in 100,000 cells is 10 GB in memory) before a single row can be cut."""
    budget = int(config.get("limits", "max_output_chars", 100_000_000))
    member = next((m for m in reader.archive.namelist()
                   if m.lower().endswith("sharedstrings.xml")), None)
    if member is None or not shared:
        return
    lengths = shared_string_lengths(reader.archive, member)
    total = sum(lengths[index] * times for index, times in shared.items()
                if index < len(lengths))
    if total > budget:
        raise copies_refused(reader.name, sum(shared.values()), total)


# the shortest record of a cell showing a shared string: type, size, Cell and index
_SHARED_CELL_RECORD = 1 + 1 + 12


def _check_xlsb_shared_string_copies(reader: WorkbookXml, config: Config) -> None:
    """The .xlsb form of ``_check_shared_string_copies``: a workbook whose cells would
    spell out their shared strings past limits.max_output_chars is left to the record
    reader, which keeps one copy of each."""
    budget = int(config.get("limits", "max_output_chars", 100_000_000))
    member = next((m for m in reader.archive.namelist()
                   if m.lower().endswith("sharedstrings.bin")), None)
    if member is None:
        return
    strings = biff12.shared_strings(read_member(reader.archive, member, reader.name))
    longest = max(map(len, strings), default=0)
    sheets = [member for _, member in _sheet_members(reader)]
    most_cells = sum(reader.archive.getinfo(m).file_size // _SHARED_CELL_RECORD for m in sheets)
    if most_cells * longest <= budget:  # settled by the parts' sizes, no sheet read
        return
    uses: Counter[int] = Counter()
    for sheet in sheets:
        uses.update(biff12.shared_string_uses(read_member(reader.archive, sheet, reader.name)))
    total = sum(len(strings[index]) * times for index, times in uses.items()
                if index < len(strings))
    if total > budget:
        raise copies_refused(reader.name, sum(uses.values()), total)


def _sheet_members(reader: WorkbookXml) -> Iterator[tuple[str, str]]:
    """(sheet name, zip member) of each sheet whose part the package holds."""
    for name, path in reader.sheets():
        member = reader.member(path)
        if member is not None:
            yield name, member


def _refuse_ods_errors(plain: Source, config: Config) -> None:
    """Refuse an .ods with error cells (#DIV/0!, #N/A...), so the XML reader, which shows
    them, reads it: calamine gives such a cell as empty or as the 0 stored beside it."""
    with open_container(plain, config, scan_xml=False) as package:
        if "content.xml" not in package.namelist():
            return
        with open_member(package, "content.xml", plain.display_name) as stream:
            for window, _cut in tag_windows(stream):
                # LibreOffice marks them calcext:value-type="error"; ODF has no such type
                if b':value-type="error"' in window:
                    raise CorruptDocument(
                        "the workbook has error cells, which calamine reads as empty or 0; "
                        "the XML reader takes it",
                        file=plain.display_name,
                    )


def _workbook(
    plain: Source, source: Source, stream: BinaryIO | None = None
) -> CalamineWorkbook:
    try:
        return CalamineWorkbook.from_filelike(stream or plain.open())
    except BaseException as exc:
        # calamine raises its own error types for damaged files, and panics on some
        # (a formula record shorter than it says)
        if not (isinstance(exc, Exception) or is_rust_panic(exc)):
            raise
        reason = f"its reader panicked: {exc}" if is_rust_panic(exc) else str(exc)
        raise CorruptDocument(
            f"calamine cannot read the workbook ({reason})", file=source.display_name
        ) from exc


_MACRO_PARTS = re.compile(rb"(?<=[/\"])macrosheets/(_rels/)?")


def _mended_warning(name: str, mended: MendedSheet) -> tuple[str, str]:
    shown = ", ".join(mended.cells[:5]) + (", ..." if len(mended.cells) > 5 else "")
    return ("CorruptDocument", (
        f"sheet {name!r}: {len(mended.cells):,} number cell(s) hold no number ({shown}); "
        "read as the text they hold, a number between spaces as the number"))


def _mended_sheet(
    plain: Source, member: str, title: str,
    sheet_rows: Callable[[Any], tuple[list[Sequence[str]], _RowsUntilDamage]],
) -> tuple[list[Sequence[str]], _RowsUntilDamage, MendedSheet] | None:
    """Sheet ``title`` read by openpyxl from a copy of the workbook whose number cells
    that hold no number are mended, when it has such cells and the copy reads further."""
    import openpyxl

    with zipfile.ZipFile(plain.open()) as package:
        mended = mended_number_cells(inflated_prefix(package, member))
        if mended is None:
            return None
        data = _with_member(package, member, mended.part)
    try:
        workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:  # openpyxl raises KeyError, ValueError, zip and XML errors
        return None
    try:
        rows, read = sheet_rows(workbook[title])
    finally:
        workbook.close()
    return (rows, read, mended) if not read.damage else None


def _with_member(package: zipfile.ZipFile, member: str, data: bytes) -> bytes:
    """A copy of ``package`` with ``data`` in member ``member``'s place."""
    copy = io.BytesIO()
    with zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as written:
        for info in package.infolist():
            written.writestr(info.filename,
                             data if info.filename == member else package.read(info))
    return copy.getvalue()


def _macro_sheets_moved(package: zipfile.ZipFile) -> BinaryIO | None:
    """A copy of an xlsb whose Excel 4 macro sheets sit where worksheets do, or None
    when it has none.

    calamine's xlsb reader tells a sheet's kind by the folder of its part and refuses
    the whole workbook over one under ``xl/macrosheets/``, though a macro sheet keeps
    its cells as a worksheet does; moved to ``xl/worksheets/macro-*``, it is read as
    one more sheet, as calamine and xlrd read the macro sheet of an .xls.
    """
    if not any(name.startswith("xl/macrosheets/") for name in package.namelist()):
        return None
    copy = io.BytesIO()
    with zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as moved:
        for info in package.infolist():
            data = package.read(info)
            if info.filename.endswith((".rels", ".xml")):
                data = _MACRO_PARTS.sub(rb"worksheets/\1macro-", data)
            name = _MACRO_PARTS.sub(rb"worksheets/\1macro-", b"/" + info.filename.encode())
            moved.writestr(name[1:].decode(), data)
    copy.seek(0)
    return copy


def _family(source: Source) -> str:
    head = source.head(8)
    if head.startswith(b"PK"):
        try:
            with zipfile.ZipFile(source.open()) as archive:
                names = set(archive.namelist())
        except (zipfile.BadZipFile, EOFError, OSError, ValueError) as exc:
            raise CorruptDocument(
                f"not a readable zip container ({exc}); the file is truncated or damaged",
                file=source.display_name,
            ) from exc
        if "content.xml" in names:
            return fmt.ODS
        return fmt.XLSB if "xl/workbook.bin" in names else fmt.XLSX
    return fmt.XLS


def _visible_sheets(workbook: CalamineWorkbook, config: Config) -> list[str]:
    if config.get("office", "hidden_sheets", True):
        return list(workbook.sheet_names)
    return [m.name for m in workbook.sheets_metadata if str(m.visible).endswith("Visible")]


class XlrdParser(BaseEngine):
    """xlrd for .xls files calamine refuses (BIFF2 to BIFF5, odd writers)."""

    name = "office.xlrd"
    formats = (fmt.XLS,)
    priority = 30

    def open(self, source: Source, config: Config) -> TextDocument:
        plain = decrypted(source, config)
        try:
            book = xlrd.open_workbook(file_contents=plain.bytes(), on_demand=True,
                                      logfile=XLRD_LOG)
        except GoblinError:
            raise
        except Exception as exc:  # xlrd raises XLRDError, struct.error, AssertionError...
            raise CorruptDocument(
                f"xlrd cannot read the workbook ({exc})", file=source.display_name
            ) from exc
        extras, left_out = safe_extras("biff", plain, config)
        limit = int(config.get("office", "max_sheet_cells", 5_000_000))
        max_chars = int(config.get("limits", "max_output_chars", 100_000_000))
        read_hidden = bool(config.get("office", "hidden_sheets", True))
        metadata: dict[str, Any] = {}
        pages: list[PageContent] = []
        try:
            for index, name in enumerate(book.sheet_names()):
                try:
                    # on_demand: a sheet's records are parsed only now
                    sheet = book.sheet_by_index(index)
                except GoblinError:
                    raise
                except Exception as exc:  # xlrd raises XLRDError, struct.error, IndexError...
                    # the engines after this one (catdoc's xls2csv) may read the whole workbook
                    raise CorruptDocument(f"xlrd cannot read sheet {name!r} ({exc})",
                                          file=source.display_name) from exc
                # BOUNDSHEET's visibility: 0 visible, 1 hidden, 2 very hidden
                if read_hidden or not sheet.visibility:
                    # xlrd keeps one copy of a shared string however many cells show it:
                    # the text is cut before each cell spells it out again
                    texts = ([_xlrd_cell(c, book.datemode) for c in sheet.row(r)]
                             for r in range(sheet.nrows))
                    rows = capped_rows(texts, name, limit, metadata, max_chars)
                    pages.append(sheet_page(len(pages) + 1, name, rows, extras.get(name),
                                            self.name, bool(sheet.visibility)))
                book.unload_sheet(index)
        finally:
            book.release_resources()
        metadata["sheets"] = [p.label for p in pages]
        metadata.update(summary_metadata(plain))
        document = TextDocument(
            pages, metadata=metadata, attachments=ole_children(source, plain, config),
        )
        document.warnings = [*cut_sheet_warnings(metadata.get("truncated_sheets", ()), config),
                             *left_out]
        return document


def _xlrd_cell(cell: Any, datemode: int) -> str:
    if cell.ctype == xlrd.XL_CELL_DATE:
        # a serial no calendar day stands for (negative, 29 February 1900): as Excel
        # shows it, where xlrd counts it from its epoch or gives the day before
        special = excel_serial(cell.value, date1904=bool(datemode))
        if special is not None and not 0 <= cell.value < 1:
            return cell_text(special)
        try:
            moment = xlrd.xldate.xldate_as_datetime(cell.value, datemode)
            if 0 <= cell.value < 1:
                # a time of day, as calamine gives it: the serial holds no date (xlrd's
                # 1899-12-31, or 1904-01-01, is only the day it counts from)
                return cell_text(moment.time())
            return cell_text(moment)
        except (ValueError, OverflowError, xlrd.xldate.XLDateError):
            return cell_text(cell.value)
    if cell.ctype == xlrd.XL_CELL_BOOLEAN:
        return cell_text(bool(cell.value))
    if cell.ctype == xlrd.XL_CELL_ERROR:
        return error_text(cell.value)
    return cell_text(cell.value)


def _before_epoch(value: dt.datetime, epoch: Any) -> dt.datetime | float:
    """``value``, or the negative serial it stands for when it falls before ``epoch``."""
    if not isinstance(epoch, dt.datetime) or value >= epoch:
        return value
    return (value - epoch) / dt.timedelta(days=1)


class XlsbRecordsParser(BaseEngine):
    """goblin's own BIFF12 record reader for .xlsb workbooks calamine refuses: each
    shared string is kept once, however many cells show it, and the text is cut at
    limits.max_output_chars (see ``biff12``)."""

    name = "office.xlsb_records"
    formats = (fmt.XLSB,)
    priority = 30

    def open(self, source: Source, config: Config) -> TextDocument:
        plain = decrypted(source, config)
        limit = int(config.get("office", "max_sheet_cells", 5_000_000))
        max_chars = int(config.get("limits", "max_output_chars", 100_000_000))
        metadata: dict[str, Any] = {}
        pages = []
        lost: list[str] = []
        missing_strings = 0
        with open_container(plain, config) as package:
            reader = WorkbookXml(package, plain.display_name, config)
            shared = next((m for m in package.namelist()
                           if m.lower().endswith("sharedstrings.bin")), None)
            # a part cut short, or whose deflate stream breaks, is read as far as it goes
            strings, strings_whole = (biff12.read_shared_strings(inflated_prefix(package, shared))
                                      if shared is not None else ([], True))
            members = list(_sheet_members(reader))
            if not members:
                raise CorruptDocument("the workbook lists no sheet it holds",
                                      file=source.display_name)
            dates = xlsb_date_styles(reader)
            for number, (name, member) in enumerate(_shown_sheets(members, reader, config),
                                                    start=1):
                sheet = inflated_prefix(package, member)
                reading = biff12.SheetReading()
                rows = capped_rows(biff12.sheet_rows(sheet, strings, reading, dates), name,
                                   limit, metadata, max_chars)
                if name not in metadata.get("truncated_sheets", ()):
                    missing_strings += reading.missing_strings
                    if not reading.whole:
                        lost.append(f"sheet {name!r} is cut short or damaged ({member}): what "
                                    f"it holds after its row {reading.rows:,} is lost")
                pages.append(sheet_page(number, name, rows, None, self.name))
            children = package_children(plain, config, package)
            metadata.update(core_properties(reader))
        if not strings_whole:
            lost.insert(0, f"the shared strings part is cut short or damaged ({shared}): "
                        f"{missing_strings:,} cells show strings lost with it")
        metadata["sheets"] = [p.label for p in pages]
        document = TextDocument(pages, metadata=metadata, attachments=children)
        document.warnings = cut_sheet_warnings(metadata.get("truncated_sheets", ()), config)
        document.left_out = "; ".join(lost)
        return document


def _shown_sheets(
    members: list[tuple[str, str]], reader: WorkbookXml, config: Config
) -> list[tuple[str, str]]:
    """The (sheet name, zip member) pairs ``office.hidden_sheets`` lets through."""
    if config.get("office", "hidden_sheets", True):
        return members
    hidden = reader.hidden_sheets()
    return [(name, member) for name, member in members if name not in hidden]


class OpenpyxlParser(BaseEngine):
    """openpyxl (read-only, cached values) for xlsx files calamine refuses."""

    name = "office.openpyxl"
    formats = (fmt.XLSX,)
    priority = 30

    def open(self, source: Source, config: Config) -> TextDocument:
        import openpyxl

        plain = decrypted(source, config)
        with open_container(plain, config) as package:
            reader = WorkbookXml(package, plain.display_name, config)
            properties = core_properties(reader)
            # a formula saved without its result has no cached value for openpyxl to give:
            # it shows its formula, as the calamine reader writes it
            members = dict(_sheet_members(reader))
            formulas = {name: _formula_cells(package, member, plain.display_name)
                        for name, member in members.items()}
        # sheets whose part does not inflate, read as empty stand-ins: why, by name
        unread: dict[str, str] = {}
        try:
            workbook = openpyxl.load_workbook(plain.open(), read_only=True, data_only=True)
        except Exception as exc:  # openpyxl raises KeyError, ValueError, zip and XML errors
            # openpyxl reads into each sheet when it loads the workbook (to find its size):
            # one damaged sheet part refused them all
            copy = without_damaged_parts(
                plain.bytes(), plain.display_name,
                stand_ins=lambda member, _type: _EMPTY_SHEET
                if member in members.values() else None)
            unread = {name: copy.damaged[member] for name, member in members.items()
                      if member in copy.damaged}
            try:
                if not unread:
                    raise exc
                workbook = openpyxl.load_workbook(io.BytesIO(copy.data), read_only=True,
                                                  data_only=True)
            except Exception as again:
                raise CorruptDocument(
                    f"openpyxl cannot read the workbook ({exc})", file=source.display_name
                ) from again
        extras, left_out = safe_extras("ooxml", plain, config)
        display = config.get("office", "cell_values", "display") == "display"
        dates = config.get("office", "cell_dates", "iso") == "display"
        comma = display and bool(config.get("office", "decimal_comma", False))
        limit = int(config.get("office", "max_sheet_cells", 5_000_000))
        max_chars = int(config.get("limits", "max_output_chars", 100_000_000))
        read_hidden = bool(config.get("office", "hidden_sheets", True))
        shown = [sheet for sheet in workbook.worksheets
                 if read_hidden or sheet.sheet_state not in ("hidden", "veryHidden")]
        metadata: dict[str, Any] = {}
        pages: list[PageContent] = []
        warnings: list[tuple[str, str]] = []
        lost: list[str] = []
        try:
            for number, sheet in enumerate(shown, start=1):
                # rows as the sheet writes them, not padded out to the size it declares
                # (A1:XFD1048576 is 17 billion cells of a few)
                if sheet.title in unread:
                    pages.append(PageContent(number=number, label=sheet.title, error=(
                        f"sheet {sheet.title!r} cannot be read ({unread[sheet.title]})")))
                    continue
                def sheet_rows(sheet: Any) -> tuple[list[Sequence[str]], _RowsUntilDamage]:
                    sheet.reset_dimensions()
                    read = _RowsUntilDamage(sheet.iter_rows())
                    texts: Iterable[list[str]] = (_openpyxl_row(row, display, dates, comma,
                                                                workbook.epoch)
                                                  for row in read)
                    found = formulas.get(sheet.title, {})
                    if found:
                        texts = with_errors(texts, found, 0)
                    return capped_rows(texts, sheet.title, limit, metadata, max_chars), read

                rows, read = sheet_rows(sheet)
                if read.damage and sheet.title in members:
                    # openpyxl stops at a number cell that holds no number, as calamine does
                    reread = _mended_sheet(plain, members[sheet.title], sheet.title,
                                           sheet_rows)
                    if reread is not None:
                        rows, read, mended = reread
                        warnings.append(_mended_warning(sheet.title, mended))
                warnings.extend(uncalculated_warnings(sheet.title,
                                                      formulas.get(sheet.title, {})))
                if read.damage and not read.count:
                    # a damaged sheet part costs that sheet, not the workbook's other sheets
                    pages.append(PageContent(number=number, label=sheet.title, error=(
                        f"sheet {sheet.title!r} cannot be read ({read.damage})")))
                    continue
                if read.damage:
                    lost.append(f"sheet {sheet.title!r} is damaged ({read.damage}): what it "
                                f"holds after its row {read.count:,} is lost")
                pages.append(sheet_page(number, sheet.title, rows, extras.get(sheet.title),
                                        self.name, sheet.sheet_state != "visible"))
        finally:
            workbook.close()
        metadata["sheets"] = [p.label for p in pages]
        metadata.update(properties)
        document = TextDocument(pages, metadata=metadata)
        document.warnings = [*cut_sheet_warnings(metadata.get("truncated_sheets", ()), config),
                             *warnings, *left_out]
        document.left_out = "; ".join(lost)
        return document


# what stands in for a sheet part that does not inflate, so openpyxl loads the others
_EMPTY_SHEET = (b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                b"<sheetData/></worksheet>")


def _formula_cells(
    package: zipfile.ZipFile, member: str, name: str
) -> dict[tuple[int, int], str]:
    """``error_cells`` of a sheet part; none when the part does not read (its rows, as
    far as they read, are still wanted)."""
    try:
        return error_cells(package, member)
    except UnsafeArchive:
        raise
    except GoblinError as exc:
        log.warning("%s: error cells of %s not read: %s", name, member, exc)
        return {}


class _RowsUntilDamage:
    """openpyxl's rows of a sheet as far as its part reads: a part cut short or damaged
    midway (openpyxl streams it) stops them, ``damage`` saying why, and the rows before
    are kept."""

    def __init__(self, rows: Iterator[Any]) -> None:
        self.rows = rows
        self.damage = ""
        #: how many rows were read
        self.count = 0

    def __iter__(self) -> Iterator[Any]:
        while True:
            try:
                row = next(self.rows)
            except StopIteration:
                return
            except GoblinError:
                raise
            except Exception as exc:  # zlib, zip and XML errors, as the damage meets them
                self.damage = f"{type(exc).__name__}: {exc}"
                return
            self.count += 1
            yield row


def _openpyxl_row(row: Sequence[Any], display: bool, dates: bool, comma: bool,
                  epoch: Any = None) -> list[str]:
    """A read-only openpyxl row; each cell carries its number format even in read-only mode.
    A date before ``epoch``, the workbook's first day, is the negative serial openpyxl
    counted back from it: Excel shows no date there, and it reads as its number."""
    values = [getattr(c, "value", None) for c in row]
    values = [unescaped_characters(v) if isinstance(v, str) else
              _before_epoch(v, epoch) if type(v) is dt.datetime else v for v in values]
    if not display:
        return [cell_text(value) for value in values]
    return [
        "" if value is None else display_text(
            value,
            getattr(c, "number_format", "General"),
            dates=dates,
            comma=comma,
        )
        for c, value in zip(row, values, strict=True)
    ]
