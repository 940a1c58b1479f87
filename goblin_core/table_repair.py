"""Turning a raw cell grid into clean table rows, and telling tables from boxes.

Table finders (pdfplumber's grid detection, a spreadsheet reader) hand over
a matrix of cells in which ``None`` marks a cell covered by a merged cell and
``""`` an empty one. This module cleans that matrix the same way for every
format:

- cell text: line breaks inside a cell become spaces, whitespace runs one
  space; words are never glued together (``"Areia e\\npedra"`` stays
  ``"Areia e pedra"``);
- rows that pack several records into one grid row (one line per record in
  every cell) are split back into records;
- empty rows and empty columns are dropped;
- a row with an empty key cell (first column) and no numbers continues the
  row above it: a description wrapped onto a second line, or the second line
  of a header split over two rows (``VALOR`` over ``UNIT.`` and ``TOTAL``
  becomes ``VALOR UNIT.`` and ``VALOR TOTAL``); a data row with a blank key
  that fills two cells or more (under a key cell merged over several rows)
  stays a row.

``is_meaningful_table`` rejects what grid detection finds that is not a
table: a bordered one-column text box, a tiny fragment, a grid whose cell
borders cut through words.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from goblin_core.structured.brazilian_numbers import is_figure, is_number

#: A cell as a table finder or a spreadsheet hands it over: text, a number or a
#: boolean (int and bool count as float for the type checker), or None.
RawCell = str | float | None
RawRows = Sequence[Sequence[RawCell]]
Rows = tuple[tuple[str, ...], ...]

#: A table needs at least this many columns with text.
MIN_COLUMNS = 2
#: A table needs at least this many non-empty rows.
MIN_ROWS = 2
#: A table needs at least this many filled cells.
MIN_FILLED_CELLS = 4
#: Above this share of cell boundaries cutting a word, the grid is not a table.
MAX_WORD_SPLIT_RATIO = 0.7
#: The word-split test only judges grids with at least this many boundaries.
MIN_WORD_SPLIT_SAMPLE = 8

_HYPHEN_BREAK = re.compile(r"(\w)-\s*\n\s*(\w)")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_LETTER = re.compile(r"[^\W\d_]")
_YEAR = re.compile(r"(?:1[89]|2[01])\d\d")


def clean_cell(value: RawCell) -> str:
    """One cell's text on one line, whitespace collapsed, words never glued.

    A word hyphenated at a line break keeps its hyphen (``pré-\\nmoldado``
    becomes ``pré-moldado``): removing it would glue compound words.

    A number or a boolean (a spreadsheet's value) is its text: ``0`` is ``"0"``,
    never an empty cell.

    >>> clean_cell("Areia e\\n pedra ")
    'Areia e pedra'
    >>> clean_cell(0), clean_cell(0.0), clean_cell(False), clean_cell(None)
    ('0', '0.0', 'False', '')
    """
    if value is None:
        return ""
    text = _CONTROL.sub(" ", str(value).replace("\r\n", "\n").replace("\r", "\n"))
    text = _HYPHEN_BREAK.sub(r"\1-\2", text)
    return " ".join(text.split())


def has_text(value: RawCell) -> bool:
    """True for a cell with something in it: only None and blank text are empty
    (a 0 or False read from a spreadsheet is a value)."""
    return value is not None and bool(str(value).strip())


def _width(rows: RawRows) -> int:
    return max((len(r) for r in rows), default=0)


def _padded(rows: RawRows) -> list[list[RawCell]]:
    width = _width(rows)
    return [list(r) + [""] * (width - len(r)) for r in rows]


def _filled(row: Sequence[RawCell]) -> int:
    return sum(1 for c in row if has_text(c))


def split_stacked_rows(rows: RawRows) -> list[list[RawCell]]:
    """Split grid rows that hold several records, one text line per record.

    Some reports draw no lines between records, so the grid finder returns
    one row whose every filled cell has the same number of lines. Such a row
    is split when it has at least three filled cells and every resulting
    record holds a figure; a wrapped description never meets both.
    """
    out: list[list[RawCell]] = []
    for row in _padded(rows):
        records = _stacked_records(row)
        out.extend(records if records else [row])
    return out


def _stacked_records(row: list[RawCell]) -> list[list[RawCell]] | None:
    filled = [str(c).strip().split("\n") for c in row if has_text(c)]
    if len(filled) < 3:
        return None
    count = len(filled[0])
    if count < 2 or any(len(lines) != count for lines in filled):
        return None
    records: list[list[RawCell]] = []
    for i in range(count):
        records.append([str(c).strip().split("\n")[i] if has_text(c) else c for c in row])
    if not all(any(is_figure(clean_cell(c)) for c in record if has_text(c))
               for record in records):
        return None
    return records


def drop_empty_rows(rows: RawRows) -> list[list[RawCell]]:
    """The rows with at least one non-blank cell."""
    return [list(r) for r in rows if _filled(r)]


def drop_empty_columns(rows: RawRows) -> list[list[RawCell]]:
    """The matrix without columns that are blank in every row."""
    padded = _padded(rows)
    keep = [i for i in range(_width(padded)) if any(has_text(r[i]) for r in padded)]
    return [[r[i] for i in keep] for r in padded]


def is_header_row(row: Sequence[RawCell]) -> bool:
    """True when a row reads like column titles: two or more cells, no figures."""
    cells = [clean_cell(c) for c in row]
    filled = [c for c in cells if c]
    return len(filled) >= 2 and not any(is_figure(c) for c in filled)


def _is_continuation(row: Sequence[RawCell], *, into_header: bool = False) -> bool:
    cells = [clean_cell(c) for c in row]
    if not cells or cells[0] or not any(cells):
        return False
    # Only a number proves a row of its own (a subtotal); "9 x 14 x 19 cm" continues text.
    if any(is_number(c) for c in cells if c):
        return False
    return into_header or not _record_without_key(row)


def _record_without_key(row: Sequence[RawCell]) -> bool:
    """True for a record whose key cell is blank: a merged cell above covers it
    (``Norte`` spanning the rows of ``Belém`` and ``Manaus``), or it has no number.

    Such a row fills two cells or more, none of them covered (a grid finder marks a
    cell a merged one covers ``None``). A description wrapped onto a row of its own
    fills one cell, the rest of its item spanning it or left blank. Deciding on the
    text alone keeps the repair stable: rows it kept are kept when repaired again.
    """
    return _filled(row) >= 2 and not any(c is None for c in row[1:])


def merge_continuation_rows(rows: RawRows, *, data_rows: bool = True) -> list[list[RawCell]]:
    """Fold continuation rows (empty key cell, no numbers) into the row above.

    Merging into the header row also spreads a merged header cell: ``None``
    cells to the right of ``VALOR`` take ``VALOR`` as their prefix, so a
    header split over two rows comes out as ``VALOR UNIT.`` and
    ``VALOR TOTAL``. ``data_rows=False`` only completes the header: in a
    spreadsheet every row is a row of its own, wrapped text stays in its cell.
    """
    out: list[list[RawCell]] = []
    for row in _padded(rows):
        into_header = len(out) == 1 and is_header_row(out[0])
        if out and (data_rows or into_header) and _is_continuation(row, into_header=into_header):
            out[-1] = _merge_into(out[-1], row, into_header)
        else:
            out.append(list(row))
    return out


def joined_continuation(above: Sequence[RawCell],
                        row: Sequence[RawCell]) -> tuple[str, ...] | None:
    """``above`` with ``row`` folded in when ``row`` continues it as a data row (a
    description wrapped onto the next line or over a page break), else None.

    >>> joined_continuation(["1", "Areia e", "10,00"], ["", "pedra", ""])
    ('1', 'Areia e pedra', '10,00')
    >>> joined_continuation(["1", "Areia", "10,00"], ["2", "Brita", "12,00"]) is None
    True
    """
    width = max(len(above), len(row))
    upper, lower = _padded([above, row]) if width else ([], [])
    if not _is_continuation(lower):
        return None
    return tuple(clean_cell(c) for c in _merge_into(upper, lower, spread=False))


def _merge_into(above: list[RawCell], row: list[RawCell], spread: bool) -> list[RawCell]:
    merged: list[RawCell] = []
    for col, cell in enumerate(row):
        top = above[col] if col < len(above) else ""
        if spread and top is None:
            top = _spanning_text(above, col)
        text = clean_cell(cell)
        if not text:
            merged.append(top)
            continue
        merged.append(f"{clean_cell(top)} {text}".strip())
    return merged


def _spanning_text(row: list[RawCell], col: int) -> RawCell:
    """Text of the merged cell covering ``row[col]`` (the nearest filled cell to the left)."""
    for left in range(col - 1, -1, -1):
        if row[left] is not None:
            return row[left]
    return None


def normalize_table_rows(rows: RawRows, *, continuations: bool = True) -> Rows:
    """Clean a raw cell grid into rows of strings, all of the same width.

    Splits stacked records, drops empty rows and columns, folds
    continuation lines and split headers into the row above, and cleans
    every cell's text. ``continuations=False`` (spreadsheets, whose rows are
    real rows) folds only the lines of a split header.

    >>> rows = normalize_table_rows([["ITEM", "DESCRIÇÃO", "VALOR", None],
    ...                              [None, None, "UNIT.", "TOTAL"],
    ...                              ["1", "Areia e\\npedra", "10,00", "20,00"],
    ...                              ["", "lavada", "", ""]])
    >>> rows[0]
    ('ITEM', 'DESCRIÇÃO', 'VALOR UNIT.', 'VALOR TOTAL')
    >>> rows[1]
    ('1', 'Areia e pedra lavada', '10,00', '20,00')
    """
    grid = drop_empty_columns(drop_empty_rows(split_stacked_rows(rows)))
    grid = merge_continuation_rows(grid, data_rows=continuations)
    cleaned = [tuple(clean_cell(c) for c in row) for row in grid]
    kept = [row for row in cleaned if any(row)]
    return tuple(kept)


def word_split_ratio(rows: RawRows) -> tuple[float | None, int]:
    """Share of neighbouring filled cells whose border cuts a word, and how many were seen.

    A grid laid over running text cuts words in two (``"Areiae"`` |
    ``"pedra"`` style glue and splits); a real table's borders fall between
    words.
    """
    seen = cut = 0
    for row in rows:
        cells = [clean_cell(c) for c in row]
        for left, right in itertools.pairwise(cells):
            if not left or not right:
                continue
            seen += 1
            if _LETTER.match(left[-1]) and _LETTER.match(right[0]) and left[-1].islower() \
                    and right[0].islower():
                cut += 1
    return (cut / seen if seen else None), seen


def is_meaningful_table(rows: RawRows) -> bool:
    """True when a grid is a data table, not a bordered text box or a fragment.

    >>> is_meaningful_table([["A long paragraph in a box"], ["and its second line"]])
    False
    >>> is_meaningful_table([["ITEM", "VALOR"], ["1", "10,00"]])
    True
    """
    grid = drop_empty_columns(drop_empty_rows(rows))
    if _width(grid) < MIN_COLUMNS or len(grid) < MIN_ROWS:
        return False
    if sum(_filled(r) for r in grid) < MIN_FILLED_CELLS:
        return False
    # Two rows using two columns at least (a box with one two-cell line is layout), unless
    # the grid opens with a wide column header: then it is a table whose body read poorly.
    wide_header = is_header_row(grid[0]) and _filled(grid[0]) >= 3
    if sum(1 for r in grid if _filled(r) >= 2) < MIN_ROWS and not wide_header:
        return False
    ratio, sample = word_split_ratio(grid)
    return not (ratio is not None and sample >= MIN_WORD_SPLIT_SAMPLE
                and ratio > MAX_WORD_SPLIT_RATIO)


def is_years_header(row: Sequence[RawCell]) -> bool:
    """True for the titles of a table of figures by year: cells of words or blank (over
    the row labels), then two or more years, each once, in ascending or descending order.

    >>> is_years_header(["", "2022", "2023"]), is_years_header(["Receita", "2023", "2022"])
    (True, True)
    >>> is_years_header(["2019", "Company", "2021"]), is_years_header(["Ano", "2022"])
    (False, False)
    """
    filled = [cell for cell in (clean_cell(c) for c in row) if cell]
    labels = list(itertools.takewhile(lambda cell: not _YEAR.fullmatch(cell), filled))
    years = filled[len(labels):]
    if len(years) < 2 or any(is_figure(c) for c in labels):
        return False
    if not all(_YEAR.fullmatch(c) for c in years):
        return False
    numbers = [int(c) for c in years]
    return len(set(numbers)) == len(numbers) and numbers in (sorted(numbers),
                                                              sorted(numbers)[::-1])


def header_rows(rows: RawRows) -> int:
    """1 when the first row reads like column titles above data rows (years included,
    see ``is_years_header``), else 0."""
    if len(rows) < 2 or not (is_header_row(rows[0]) or is_years_header(rows[0])):
        return 0
    return 1
