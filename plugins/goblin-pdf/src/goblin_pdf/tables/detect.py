"""Finding the tables of one PDF page with pdfplumber, cleaned and filtered.

Every strategy in ``STRATEGIES`` runs; a table whose area mostly overlaps a
table already kept is the same table seen again and is dropped, so each
table comes out once. Rows are cleaned by ``goblin_core.table_repair`` and
grids that are not tables (one-column text boxes, tiny fragments) dropped.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, cast

from goblin_core.table_repair import has_text, is_meaningful_table, normalize_table_rows
from goblin_pdf.page_weight import drawing_operators, drawn_xobjects
from goblin_pdf.tables.borderless import borderless_tables
from goblin_pdf.tables.found import FoundTable

log = logging.getLogger(__name__)

#: pdfplumber table settings tried in turn. Ruled grids only: pdfplumber's
#: whitespace ("text") detection turns prose and letterheads into tables too
#: often; ``borderless`` finds tables without grids under stricter guards.
STRATEGIES: tuple[Mapping[str, Any], ...] = (
    {"vertical_strategy": "lines", "horizontal_strategy": "lines"},
)
#: Two detections overlapping by more than this share of the smaller are one table.
SAME_TABLE_OVERLAP = 0.5
#: Pages whose decoded content streams exceed this are not searched: they are
#: vector drawings (plans, CAD sheets) that would take gigabytes to lay out.
MAX_PAGE_CONTENT_BYTES = 10_000_000
#: Pages that run more drawing operators than this are not searched (``pdf.max_table_
#: operators``): pdfminer keeps a Python object of about 15 kB per drawn rectangle, and
#: a page of 50,000 small squares took 40 s and 750 MB to search. The busiest honest table
#: pages (a spreadsheet printed small, every cell ruled) run a few thousand.
MAX_TABLE_OPERATORS = 25_000
#: Glyphs are de-duplicated when at least this many are drawn twice.
MIN_DOUBLED_CHARS = 10
#: A glyph starting this close (points) to where the one before ends goes on its word.
ABUT = 0.5

BBox = tuple[float, float, float, float]

_CID = re.compile(r"\(cid:\d+\)")


def drawing_load(page: Any, contents: Sequence[bytes], most: int) -> int:
    """The drawing operators pdfminer runs to lay a pdfplumber page out, counted from its
    decoded ``contents`` and the forms they draw, as often as they draw them (forms inside
    forms are not followed); the count stops past ``most``."""
    operators = sum(drawing_operators(content) for content in contents)
    draws: Counter[bytes] = Counter()
    for content in contents:
        draws.update(drawn_xobjects(content))
    if operators > most or not draws:
        return operators
    from pdfminer.pdftypes import resolve1

    forms = resolve1((page.page_obj.resources or {}).get("XObject")) or {}
    for name, times in draws.most_common():
        form = resolve1(forms.get(name.decode("latin-1")))
        if getattr(form, "get", None) is None or _name(form.get("Subtype")) != "Form":
            continue
        operators += times * drawing_operators(form.get_data())
        if operators > most:
            break
    return operators


def _contents(page: Any) -> list[bytes]:
    """The page's content streams, decoded, read without laying them out."""
    from pdfminer.pdftypes import resolve1

    streams = (resolve1(stream) for stream in page.page_obj.contents)
    return [stream.get_data() for stream in streams if hasattr(stream, "get_data")]


def _name(value: Any) -> str:
    from pdfminer.pdftypes import resolve1

    return str(getattr(resolve1(value), "name", ""))


def doubled_chars(page: Any) -> bool:
    """True when a page draws many glyphs twice at (nearly) the same spot (fake bold).

    A cheap one-pass count decides whether pdfplumber's costly de-duplication
    is worth running.
    """
    seen: set[tuple[str, int, int]] = set()
    doubled = 0
    for char in page.chars:
        key = (char["text"], round(char["x0"]), round(char["top"]))
        doubled += key in seen
        seen.add(key)
    return doubled >= MIN_DOUBLED_CHARS


class _CharPlaces(list[dict[str, Any]]):
    """A page's glyphs that find their own place in the list at once.

    pdfplumber's de-duplication puts the glyphs it keeps back in page order with
    ``list.index``, a scan of the whole list for each glyph: a page of 30,000 glyphs
    drawn in fake bold took over a minute, in one C call that ``page_timeout`` could
    not interrupt, and its tables were lost.
    """

    def __init__(self, chars: Sequence[dict[str, Any]]) -> None:
        super().__init__(chars)
        self._places = {id(char): place for place, char in enumerate(chars)}

    def index(self, value: Any, *_: Any) -> int:
        return self._places[id(value)]


def without_doubled_chars(page: Any) -> Any:
    """``page`` with each glyph drawn twice at (nearly) one spot kept once, as
    pdfplumber's ``dedupe_chars`` keeps them, in time linear in the glyphs."""
    from pdfplumber.utils import dedupe_chars

    kept = {id(char) for char in dedupe_chars(_CharPlaces(page.chars))}
    return page.filter(lambda obj: obj.get("object_type") != "char" or id(obj) in kept)


def unreadable(rows: Sequence[Sequence[str]]) -> bool:
    """True when most of a table's text is pdfminer's ``(cid:N)`` for unmapped glyphs."""
    text = "".join(c for row in rows for c in row)
    if not text:
        return True
    return sum(len(m) for m in _CID.findall(text)) * 2 > len(text)


def _overlap(a: BBox, b: BBox) -> float:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return width * height / smaller if smaller > 0 else 0.0


class _Grid(NamedTuple):
    bbox: BBox
    cells: list[list[str | None]]
    #: the left edge of each of the grid's columns, as pdfplumber lays its cells out
    column_lefts: tuple[float, ...]


def _raw_tables(page: Any, strategies: Sequence[Mapping[str, Any]]) -> list[_Grid]:
    """Every grid the strategies find, each once, with its raw cells."""
    kept: list[_Grid] = []
    for settings in strategies:
        for table in page.find_tables(dict(settings)):
            x0, top, x1, bottom = (float(v) for v in table.bbox)
            bbox = (x0, top, x1, bottom)
            if any(_overlap(bbox, other.bbox) > SAME_TABLE_OVERLAP for other in kept):
                continue
            lefts = tuple(sorted({float(cell[0]) for cell in table.cells}))
            kept.append(_Grid(bbox, _cells_text(page, table), lefts))
    return kept


class _Glyphs:
    """The glyphs a pdfplumber table reads its cells from (its page's ``chars``)."""

    def __init__(self, chars: list[dict[str, Any]]) -> None:
        self.chars = chars


def _cells_text(page: Any, table: Any) -> list[list[str | None]]:
    """The text of a grid's cells, a word running over a cell's right border kept whole
    in the cell it starts in.

    Spreadsheets print a text longer than its cell clipped at the border: its glyphs
    past the border are drawn, hidden, in the next cell, and read there they glued
    onto its own text (``Descriptio`` | ``nUnit``).
    """
    from pdfplumber.table import Table as PlumberTable

    borders = sorted({float(cell[0]) for cell in table.cells}
                     | {float(cell[2]) for cell in table.cells})[1:-1]
    x0, top, x1, bottom = (float(v) for v in table.bbox)
    inside = [c for c in page.chars if x0 <= c["x0"] and c["x1"] <= x1
              and top <= c["top"] and c["bottom"] <= bottom]
    if not borders or not inside:
        return table.extract()
    moved = _overflow_moved(inside, borders)
    if not moved:
        return table.extract()
    chars = [moved.get(id(char), char) for char in page.chars]
    # the table reads nothing of its page but the glyphs
    return PlumberTable(cast(Any, _Glyphs(chars)), table.cells).extract()


def _overflow_moved(chars: Sequence[dict[str, Any]],
                    borders: Sequence[float]) -> dict[int, dict[str, Any]]:
    """Glyphs that run a word on past a border, by id, moved back just inside it."""
    moved: dict[int, dict[str, Any]] = {}
    for line in _glyph_lines(chars):
        border: float | None = None
        for before, char in itertools.pairwise(line):
            centre = (char["x0"] + char["x1"]) / 2
            abuts = abs(char["x0"] - before["x1"]) <= ABUT and char["text"].strip()
            if border is None and abuts:
                border = next((b for b in borders
                               if (before["x0"] + before["x1"]) / 2 < b <= centre), None)
            elif not abuts:
                border = None
            if border is not None:
                # just inside the border, each after the one before
                place = border - ABUT / (2 + len(moved))
                moved[id(char)] = {**char, "x0": place - ABUT / 100, "x1": place}
    return moved


def _glyph_lines(chars: Sequence[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Glyphs on one baseline, in the order the page draws them: a word's glyphs follow
    each other there, where the next cell's text, drawn over a clipped word's end,
    would come between them in the order of their places."""
    lines: dict[int, list[dict[str, Any]]] = {}
    for char in chars:
        lines.setdefault(round(char["bottom"]), []).append(char)
    return list(lines.values())


def _kept_column_lefts(grid: _Grid, width: int) -> tuple[float, ...]:
    """The left edges of the columns repair kept (those with text in some row), or ()
    when they do not make ``width`` columns."""
    filled = [i for i in range(len(grid.column_lefts))
              if any(i < len(row) and has_text(row[i]) for row in grid.cells)]
    return tuple(grid.column_lefts[i] for i in filled) if len(filled) == width else ()


def page_tables(page: Any, number: int,
                strategies: Sequence[Mapping[str, Any]] = STRATEGIES,
                borderless: bool = True,
                max_operators: int = MAX_TABLE_OPERATORS) -> list[FoundTable]:
    """The real tables of one pdfplumber page, top to bottom.

    Ruled grids first; with ``borderless`` the rest of the page is searched
    for tables framed by horizontal rules only or aligned by white space.
    """
    contents = _contents(page)
    size = sum(len(content) for content in contents)
    if size > MAX_PAGE_CONTENT_BYTES:
        log.warning("page %d: content streams of %d bytes exceed %d; tables not searched",
                    number, size, MAX_PAGE_CONTENT_BYTES)
        return []
    operators = drawing_load(page, contents, max_operators) if max_operators else 0
    if operators > max_operators:
        log.warning("page %d: over pdf.max_table_operators (%d drawing operators); tables "
                    "not searched", number, max_operators)
        return []
    # pdfplumber takes a third of a second to load: only once tables are searched, never
    # when the engine is merely registered for a run that reads text alone
    from goblin_pdf.tables.turned import upright_page

    # a table shown sideways is searched turned back, so its rows read across
    page = upright_page(page)
    if doubled_chars(page):
        # Fake bold draws every glyph twice; without this, cells read "SSpeciiffiies".
        page = without_doubled_chars(page)
    grids = _raw_tables(page, strategies)
    found = []
    for grid in grids:
        rows = normalize_table_rows(grid.cells)
        if not is_meaningful_table(rows):
            continue
        if unreadable(rows):
            log.info("page %d: a table drawn in fonts without Unicode mapping was dropped", number)
            continue
        width = max((len(row) for row in rows), default=0)
        found.append(FoundTable(page=number, rows=rows, bbox=grid.bbox,
                                page_size=(float(page.width), float(page.height)),
                                column_lefts=_kept_column_lefts(grid, width)))
    if borderless:
        found += _borderless(page, number, found)
    return sorted(found, key=lambda t: (round(t.bbox[1]), t.bbox[0]))


def _borderless(page: Any, number: int, ruled: Sequence[FoundTable]) -> list[FoundTable]:
    # Grids dropped above (striped rows, one-column boxes) may still hold a table, so only
    # the tables kept are left out.
    try:
        tables = borderless_tables(page, number, [t.bbox for t in ruled])
    except Exception as exc:  # pdfminer objects of a malformed page fail with any type
        # The ruled tables already found on this page must not be lost with it.
        log.warning("page %d: detection of tables without grid lines failed: %s", number, exc)
        return []
    return [t for t in tables if not unreadable(t.rows)]
