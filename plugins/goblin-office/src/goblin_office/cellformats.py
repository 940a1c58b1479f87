"""The number format of each xlsx cell, for cells written as Excel shows them.

python-calamine gives cell values without their styles. The styles are cheap
to get without loading the workbook a second time: ``styles.xml`` maps a
style index to a format code (``cellXfs`` -> ``numFmtId`` -> ``numFmts`` or the
built-in table), and the sheet XML is scanned with one regular expression for
the ``<c>`` elements whose ``s`` attribute names a style worth rendering, in
document order, a chunk at a time (openpyxl takes ten times longer and holds
the sheet). Cells with General, text or (unless asked) date formats are not
even matched.
"""

from __future__ import annotations

import logging
import re
import zipfile
import zlib
from collections.abc import Generator, Iterable, Iterator, Sequence
from typing import Any

from goblin_core.errors import CorruptDocument, GoblinError
from goblin_office.cells import cell_text
from goblin_office.containers import open_member
from goblin_office.numberformat import NumberFormat, compile_format, general_text
from goblin_office.safexml import attr, children, descendants
from goblin_office.sheetextras import WorkbookXml
from goblin_office.sheetspan import column_index, tag_windows

log = logging.getLogger(__name__)

# ECMA-376 Part 1, 18.8.30: the formats ids 0-49 stand for without a numFmt element
# (ids 5-8 and 23-36 are locale-dependent and left to the file's own numFmts).
BUILTIN_FORMATS = {
    0: "General",
    1: "0",
    2: "0.00",
    3: "#,##0",
    4: "#,##0.00",
    9: "0%",
    10: "0.00%",
    11: "0.00E+00",
    12: "# ?/?",
    13: "# ??/??",
    14: "m/d/yyyy",
    15: "d-mmm-yy",
    16: "d-mmm",
    17: "mmm-yy",
    18: "h:mm AM/PM",
    19: "h:mm:ss AM/PM",
    20: "h:mm",
    21: "h:mm:ss",
    22: "m/d/yyyy h:mm",
    37: "#,##0 ;(#,##0)",
    38: "#,##0 ;[Red](#,##0)",
    39: "#,##0.00;(#,##0.00)",
    40: "#,##0.00;[Red](#,##0.00)",
    45: "mm:ss",
    46: "[h]:mm:ss",
    47: "mmss.0",
    48: "##0.0E+0",
    49: "@",
}
_MAX_ALTERNATIVES = 512
_REF = re.compile(rb"""\sr=["']([A-Z]{1,3})([0-9]{1,7})["']""")
_STYLE = re.compile(rb"""\ss=["']([0-9]{1,6})["']""")


class WorkbookFormats:
    """Number formats of an xlsx package's cells, sheet by sheet (the package stays open)."""

    def __init__(
        self,
        archive: zipfile.ZipFile,
        styles: dict[int, NumberFormat],
        sheets: dict[str, str],
        name: str,
    ) -> None:
        self.archive = archive
        self.styles = styles
        self.sheets = sheets
        self.name = name
        self._by_id = {str(i).encode(): f for i, f in styles.items()}
        longest_first: list[bytes] = sorted(self._by_id, key=len, reverse=True)
        ids = b"|".join(longest_first)
        if len(self._by_id) > _MAX_ALTERNATIVES:
            ids = rb"[0-9]{1,6}"  # a huge alternation compiles slowly: match any, filter after
        # Excel, LibreOffice, openpyxl and XlsxWriter write r, then s: one match gives all
        self._canonical = re.compile(
            rb'<c r="([A-Z]{1,3})([0-9]{1,7})"(?: t="\w+")? s="(' + ids + rb')"'
        )
        self._any_order = re.compile(rb"<(?:\w+:)?c\s[^>]*?\bs=[\"'](?:" + ids + rb")[\"'][^>]*>")
        self._columns: dict[bytes, int] = {}

    @classmethod
    def load(cls, reader: WorkbookXml, *, dates: bool) -> WorkbookFormats | None:
        """The formats of an open, checked xlsx package, or None when no cell needs one.

        The package must stay open while ``cells`` is read. A damaged styles part
        costs only the display formats: the cells are kept.
        """
        try:
            styles = _styles(reader, dates)
            sheets = dict(reader.sheets()) if styles else {}
        except GoblinError as exc:
            log.warning("%s: number formats skipped: %s", reader.name, exc)
            return None
        if not styles or not sheets:
            return None
        return cls(reader.archive, styles, sheets, reader.name)

    def cells(
        self, sheet: str, archive: zipfile.ZipFile | None = None
    ) -> Iterator[tuple[int, int, NumberFormat]]:
        """(row, column, format) of the formatted cells of ``sheet``, 0-based, in order;
        read from ``archive`` when given (a mended copy of the package), else from the
        package the formats were loaded from."""
        path = self.sheets.get(sheet)
        if path is None:
            return
        try:
            yield from self._scan(path, archive or self.archive)
        except (CorruptDocument, zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError,
                KeyError) as exc:
            # the cells themselves come from calamine; only their formats stop here
            log.warning("%s: number formats of %r stop: %s", self.name, sheet, exc)

    def _scan(
        self, path: str, archive: zipfile.ZipFile
    ) -> Iterator[tuple[int, int, NumberFormat]]:
        pattern: re.Pattern[bytes] | None = None
        with open_member(archive, path, self.name) as stream:
            for window, cut in tag_windows(stream):
                pattern = pattern or _pick(self._canonical, self._any_order, window)
                if pattern is self._canonical:
                    yield from self._canonical_cells(window, cut)
                elif not (yield from self._any_order_cells(window, cut)):
                    return

    def _canonical_cells(self, window: bytes, cut: int) -> Iterator[tuple[int, int, NumberFormat]]:
        columns = self._columns
        for match in self._canonical.finditer(window, 0, cut):
            letters, row, style = match.groups()
            found = self._by_id.get(style)
            if found is None:
                continue
            column = columns.get(letters)
            if column is None:
                column = columns[letters] = column_index(letters)
            yield int(row) - 1, column, found

    def _any_order_cells(
        self, window: bytes, cut: int
    ) -> Generator[tuple[int, int, NumberFormat], None, bool]:
        """Cells of a writer with another attribute order; False when one has no reference."""
        for match in self._any_order.finditer(window, 0, cut):
            tag = match.group(0)
            found, style = _REF.search(tag), _STYLE.search(tag)
            if found is None:
                log.debug("%s: a cell without a reference; formats stop", self.name)
                return False
            if style is not None and style.group(1) in self._by_id:
                row, column = int(found.group(2)) - 1, column_index(found.group(1))
                yield row, column, self._by_id[style.group(1)]
        return True


def _styles(reader: WorkbookXml, dates: bool) -> dict[int, NumberFormat]:
    """Style index -> compiled format, for the styles that change how a value reads."""
    path = _styles_path(reader)
    if path is None:
        return {}
    root = reader.xml(path)
    codes = dict(BUILTIN_FORMATS)
    for formats in descendants(root, "numFmts"):
        for element in children(formats, "numFmt"):
            number = attr(element, "numFmtId")
            if number.isdigit():
                codes[int(number)] = attr(element, "formatCode")
    found: dict[int, NumberFormat] = {}
    for xfs in descendants(root, "cellXfs"):
        for index, xf in enumerate(children(xfs, "xf")):
            compiled = _compiled(codes, attr(xf, "numFmtId", "0"))
            if compiled is not None and (dates or not compiled.is_date):
                found[index] = compiled
        break
    return found


def _compiled(codes: dict[int, str], number: str) -> NumberFormat | None:
    if not number.isdigit():
        return None
    code = codes.get(int(number))
    return compile_format(code) if code else None


def _styles_path(reader: WorkbookXml) -> str | None:
    names = reader.names
    for kind, target in reader.rels("xl/workbook.xml").values():
        if kind.endswith("/styles") and target in names:
            return target
    return "xl/styles.xml" if "xl/styles.xml" in names else None


def _pick(canonical: re.Pattern[bytes], any_order: re.Pattern[bytes], head: bytes) -> Any:
    """The canonical pattern when every cell of the first chunk starts ``<c r="..." ``."""
    cells = head.count(b"<c ")
    return canonical if cells and head.count(b'<c r="') == cells else any_order


def display_rows(
    rows: Iterable[Sequence[Any]],
    styled: Iterator[tuple[int, int, NumberFormat]],
    *,
    first_column: int = 0,
    dates: bool = False,
    comma: bool = False,
) -> Iterator[list[str]]:
    """Rows of values as text, the ``styled`` cells (row, column, format) as Excel shows them.

    ``rows`` start at row 0 and at column ``first_column``, as calamine yields them;
    a cell a format cannot render keeps the consistent rendering.
    """
    pending = next(styled, None)
    for number, row in enumerate(rows):
        texts = [general_text(v, comma) for v in row] if comma else [cell_text(v) for v in row]
        while pending is not None and pending[0] < number:
            pending = next(styled, None)
        while pending is not None and pending[0] == number:
            column = pending[1] - first_column
            if 0 <= column < len(row):
                shown = pending[2].render(row[column], dates=dates, comma=comma)
                if shown is not None:
                    texts[column] = shown
            pending = next(styled, None)
        yield texts
