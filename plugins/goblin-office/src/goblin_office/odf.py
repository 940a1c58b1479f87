"""OpenDocument text, presentation and flat spreadsheet documents, packaged or flat.

.odt/.ott and flat .fodt; .odp/.otp and flat .fodp; flat .fods (packaged .ods
cells come from python-calamine, see ``spreadsheet``). Every XML tree is read
with the hardened parser; an encrypted package is a clear PasswordRequired.
OpenOffice.org 1.x documents (.sxw, .sxc, .sxi, .sxd and their templates) are
read by the same readers: their elements have the same local names, and their
office:body holds the blocks without an office:text (or spreadsheet...) wrapper.
"""

from __future__ import annotations

import contextlib
import logging
import re
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument, UnsafeArchive
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office import safexml
from goblin_office.cells import cell_text
from goblin_office.containers import MEMBER_ERRORS, open_container, read_member
from goblin_office.layout import PageBuilder
from goblin_office.odfcharts import object_chart_lines, package_charts
from goblin_office.odfcrypto import decrypted_package
from goblin_office.odffonts import SymbolFonts, head_root, symbol_fonts
from goblin_office.odflists import OdfLists
from goblin_office.odfobjects import flat_odf_children, odf_children
from goblin_office.odftext import (
    DRAWING_OBJECTS,
    AcceptedDeletions,
    annotation_line,
    inline_text,
)
from goblin_office.ooxml import lost_parts_message
from goblin_office.safexml import (
    UnsafeXML,
    attr,
    children,
    container_blocks,
    descendants,
    local_name,
    parse_xml,
)
from goblin_office.sheetextras import odf_sheet_extras
from goblin_office.sparsesheet import ScatteredCells
from goblin_office.spreadsheet import cut_sheet_warnings

log = logging.getLogger(__name__)

#: The office namespace of OpenOffice.org 1.x documents (ODF's is urn:oasis:...:office:1.0).
OPENOFFICE_1_OFFICE = "http://openoffice.org/2000/office"

_BLOCK_SKIP = frozenset(
    {
        "annotation",
        "note",
        "tracked-changes",
        "forms",
        "sequence-decls",
        "variable-decls",
        "user-field-decls",
        "table-columns",
        "table-column",
        "notes",
        "image",
        "object",  # an embedded document: a child of its own, not this page's text
        "object-ole",
        "event-listeners",
        "script",
        "settings",
        "automatic-styles",
        "styles",
        "font-face-decls",
        "meta",
        "master-styles",
        "footer-decl",
        "header-decl",
        "date-time-decl",
        "desc",
        "title",
    }
)
_META = {
    "title": "title",
    "creator": "author",
    "initial-creator": "initial_creator",
    "creation-date": "created",
    "date": "modified",
    "language": "language",
    "subject": "subject",
    "description": "description",
}


@dataclass
class _Trees:
    """The XML trees of an ODF document: content, styles, meta (one tree when flat)."""

    content: Any
    styles: Any | None
    meta: Any | None
    children: tuple[Source, ...] = ()
    skipped: tuple[str, ...] = ()
    #: content.xml left unparsed, to be read as it parses (``body_blocks``)
    content_data: bytes = b""
    content_name: str = ""
    depth: int = 256
    #: (kind, message) of each damaged part left out (the styles, the metadata)
    left_out: tuple[tuple[str, str], ...] = ()
    #: the damaged parts left out whose text is lost (a chart, styles.xml holding headers)
    text_lost: tuple[str, ...] = ()
    #: why content.xml (or a flat document) was read only as far as its damage
    content_cut: str = ""
    #: the lines of each chart a packaged document embeds, by its folder (``Object 1``)
    charts: Mapping[str, list[str]] = field(default_factory=dict)


def load_trees(source: Source, config: Config, *, flat: bool, stream: bool = False) -> _Trees:
    """Parse a packaged (decrypted when needed) or flat ODF document into its trees.

    ``stream``: a packaged content.xml past ``STREAM_XML_FROM`` bytes is kept unparsed,
    for ``body_blocks`` to read as it parses.
    """
    name = source.display_name
    depth = int(config.get("limits", "max_xml_depth", 256))
    if flat:
        root, cut = _content_tree(source.bytes(), name, depth, "")
        found, skipped = flat_odf_children(root, source, config)
        return _Trees(root, root, root, tuple(found), tuple(skipped), content_cut=cut)
    plain = decrypted_package(source, config)
    with open_container(plain, config) as archive:
        names = set(archive.namelist())
        if "content.xml" not in names:
            raise CorruptDocument("the ODF package has no content.xml", file=name)

        def tree(member: str) -> Any | None:
            if member not in names:
                return None
            data = read_member(archive, member, name)
            return parse_xml(data, name=f"{name}:{member}", max_depth=depth)

        left_out: list[tuple[str, str]] = []
        text_lost: list[str] = []

        def optional_tree(member: str) -> Any | None:
            try:
                return tree(member)
            except UnsafeArchive:
                raise
            except CorruptDocument as exc:  # styles, metadata: the text is still there to read
                log.warning("%s; left out", exc)
                left_out.append((exc.kind, f"part {member} left out: {exc.message}"))
                if member == "styles.xml" and _holds_page_regions(archive, member):
                    text_lost.append(member)
                return None

        try:
            content, cut = read_member(archive, "content.xml", name), ""
        except CorruptDocument as exc:
            # what inflates before the damage is the text up to it
            content, cut = _surviving(archive, "content.xml"), exc.message
            if not content:
                raise
        charts, damaged_charts, lost_charts = package_charts(archive, name, depth)
        large = stream and len(content) > safexml.STREAM_XML_FROM and not cut
        content_root = None
        if not large:
            content_root, cut = _content_tree(content, f"{name}:content.xml", depth, cut)
        trees = _Trees(
            content_root,
            optional_tree("styles.xml"),
            optional_tree("meta.xml"),
            content_data=content if large else b"",
            content_name=f"{name}:content.xml",
            depth=depth,
            left_out=(*left_out, *damaged_charts),
            text_lost=(*text_lost, *lost_charts),
            content_cut=cut,
            charts=charts,
        )
    return replace(trees, children=tuple(odf_children(plain, config)))


# the header and footer elements of a master page (style:header, style:footer-left...),
# whatever prefix the writer gave their namespace; style:header-style is no region
_PAGE_REGION = re.compile(rb"<(?:[\w.-]+:)?(?:header|footer)(?:-left|-first)?[\s>]")


#: A damaged member is read this much at a time: zipfile drops what a read call has
#: inflated when the damage stops it, so small calls keep all but the last bit.
_SMALL_READ = 1 << 10


def _content_tree(data: bytes, name: str, depth: int, damage: str) -> tuple[Any, str]:
    """The parsed content (content.xml, or a flat document), and why it was read only as
    far as its damage ('' when whole). ``damage``: why ``data`` is only what inflated of
    the member. XML cut short or damaged is read leniently, as libxml2 recovers it: the
    text before the damage is kept rather than the document lost; entities still refuse it."""
    try:
        if not damage:
            return parse_xml(data, name=name, max_depth=depth), ""
    except UnsafeXML:
        raise
    except CorruptDocument as exc:
        damage = exc.message
    safexml.refuse_declared_entities(data, name)
    try:
        root, _entities = safexml.parse_xml_file(data, name=name, max_depth=depth,
                                                 recover=True)
    except CorruptDocument:
        raise CorruptDocument(damage, file=name) from None
    if not len(root):
        raise CorruptDocument(damage, file=name)
    log.warning("%s: %s; read up to the damage", name, damage)
    return root, damage


def _surviving(archive: zipfile.ZipFile, member: str) -> bytes:
    """What inflates of a damaged member before its damage."""
    found = bytearray()
    with contextlib.suppress(*MEMBER_ERRORS), archive.open(member) as stream:
        # the inflater is fed a little at a time, so the text before the damage comes out
        if isinstance(stream, zipfile.ZipExtFile):
            stream.MIN_READ_SIZE = 256
        while chunk := stream.read(_SMALL_READ):
            found += chunk
    return bytes(found)


def _lost(trees: _Trees) -> str:
    """What ``ParsedDocument.left_out`` says of the text the document's damage cost."""
    said = [f"content.xml is damaged ({trees.content_cut}): the text after the damage "
            "is lost"] if trees.content_cut else []
    if trees.text_lost:
        said.append(lost_parts_message(trees.text_lost))
    return "; ".join(said)


def _holds_page_regions(archive: zipfile.ZipFile, member: str) -> bool:
    """Whether a damaged styles part held headers or footers, whose text is then lost:
    told from what inflates of it before the damage (a part that does not inflate at all
    tells nothing, and is taken to have held none)."""
    tail = b""
    with contextlib.suppress(*MEMBER_ERRORS), archive.open(member) as stream:
        # the inflater is fed a little at a time, so the text before the damage comes out
        # (zipfile feeds it 4 kB at once, and a styles part is a few kB compressed)
        if isinstance(stream, zipfile.ZipExtFile):
            stream.MIN_READ_SIZE = 256
        while chunk := stream.read(_SMALL_READ):
            tail = tail[-64:] + chunk
            if _PAGE_REGION.search(tail):
                return True
    return False


def content_fonts(trees: _Trees) -> SymbolFonts | None:
    """The symbol fonts content.xml's styles (its own, then styles.xml's) set text in; of a
    content.xml left unparsed, from the styles it declares before its body."""
    return symbol_fonts((content_head(trees), trees.styles))


def content_head(trees: _Trees) -> Any:
    """content.xml's tree; of one left unparsed, its part before the body (its font faces
    and automatic styles)."""
    if trees.content is not None:
        return trees.content
    return head_root(trees.content_data, name=trees.content_name, max_depth=trees.depth)


def metadata(trees: _Trees) -> dict[str, Any]:
    """title, author, created, modified, language from meta.xml (or the flat document)."""
    found: dict[str, Any] = {}
    if trees.skipped:
        found["embedded_skipped"] = list(trees.skipped)
    if trees.meta is None:
        return found
    for meta in descendants(trees.meta, "meta"):
        for element in meta:
            key = _META.get(local_name(element))
            if key and (element.text or "").strip():
                found.setdefault(key, element.text.strip())
    return found


class _Walker:
    """ODF block content (headings, paragraphs, lists, tables, frames) into a PageBuilder.

    ``lists``: the list styles and counters that put each list item's number or bullet
    before its text (None: items are read without them).
    """

    def __init__(self, page: PageBuilder, config: Config,
                 charts: Mapping[str, list[str]] | None = None,
                 fonts: SymbolFonts | None = None, lists: OdfLists | None = None) -> None:
        self.page = page
        self.config = config
        self.lists = lists
        #: the symbol fonts the part's styles set text in
        self.fonts = fonts
        #: the lines of the package's charts by folder, for the objects that show them
        self.charts: Mapping[str, list[str]] = charts or {}
        self.notes: list[str] = []
        self.comments: list[str] = []
        #: shapes and frames anchored to the cells of the tables read, read after their table:
        #: they are drawn over the sheet, not part of a cell's value
        self.drawings: list[Any] = []
        #: a table was cut at office.max_sheet_cells
        self.cut = False

    def blocks(self, element: Iterable[Any], kind: str = "") -> None:
        for child in element:
            name = local_name(child)
            if name == "h":
                # OpenOffice.org 1.x names it text:level
                level = attr(child, "outline-level", "") or attr(child, "level", "1")
                self._paragraph(child, kind or "heading", int(level) if level.isdigit() else 1)
            elif name == "p":
                self._paragraph(child, kind or "paragraph")
            elif name == "list" and self.lists is not None:
                self.lists.enter(child)
                self.blocks(child, kind)
                self.lists.leave()
            elif name == "list-item" or name == "list-header":
                if self.lists is not None:
                    self.lists.item(child if name == "list-item" else None)
                self.blocks(child, "list_item")
            elif name == "table":
                self.page.add_table(self.table_rows(child), title=attr(child, "name"))
                self.read_drawings()
            elif name == "object":
                # a chart's titles where its frame sits; other objects are children
                for line in object_chart_lines(child, self.charts):
                    self.page.add(line, kind or "paragraph")
            elif name and name not in _BLOCK_SKIP:
                self.blocks(child, kind)

    def _paragraph(self, p: Any, kind: str, level: int = 0) -> None:
        label = self.lists.label() if self.lists is not None and kind == "list_item" else None
        text = inline_text(p, self.fonts)
        if label is None and self.lists is not None and kind == "list_item":
            # a list header, or an item's paragraph after its first: no label, its own block
            self.page.add(text, "paragraph")
        elif label is None:
            self.page.add(text, kind, level)
        elif text.strip():  # an item with no text keeps its number, but no line holds it alone
            self.page.add(label.before(text), kind, label.level, marker=label.text,
                          number=label.number)
        for element in _anchored(p):
            name = local_name(element)
            if name == "note":
                body = next(iter(descendants(element, "note-body")), None)
                if body is not None:
                    self.notes.append(_plain(body, self.fonts))
            elif name == "annotation":
                line = annotation_line(element, self.fonts)
                if line:
                    self.comments.append(line)
            else:  # a frame or shape: its paragraphs are blocks after the line anchoring it
                self.blocks((element,))

    def read_drawings(self) -> None:
        """Read the shapes and frames anchored to the cells of the tables read so far."""
        drawings, self.drawings = self.drawings, []
        self.blocks(drawings)

    def table_rows(self, table: Any) -> list[Sequence[str]]:
        """The table's rows, repeated ones spelled out (empty cells and rows only before a
        value, which so keeps its column and row), while the table (rows x widest row)
        holds at most ``office.max_sheet_cells`` cells; ``cut`` says when it did not.
        A row of a million copies of a cell repeated sixteen thousand times is a few bytes
        of XML: it is cut where the limit falls, never spelled out first.

        Past that grid the table is gathered cell by cell (``sparsesheet``): when it holds
        at most that many values in all it is read whole, as rows of a cell's reference and
        its text; with more it is cut where its grid reached the limit."""
        rows: list[Sequence[str]] = []
        limit = int(self.config.get("office", "max_sheet_cells", 5_000_000))
        # a long cell repeated is as much text as many cells: the table's characters are
        # bounded by what a document may hold at all
        budget = int(self.config.get("limits", "max_output_chars", 100_000_000))
        widest = 1
        chars = 0
        # empty rows are counted until a row with a value follows them, as empty cells are:
        # a sheet ends in a million (LibreOffice writes its unused rows so)
        empty = 0
        # the sheet row of the next row read, empty ones counted
        number = 0
        scattered: ScatteredCells | None = None
        for row in _table_rows(table):
            values = self._row(row, limit, budget - chars)
            repeat = _repeat(row, "number-rows-repeated")
            if not any(values):
                empty += repeat
                number += repeat
                continue
            size = sum(map(len, values)) + len(values)
            if scattered is None:
                widest = max(widest, len(values))
                for copy, copies in (((), empty), (values, repeat)):
                    copy_size = sum(map(len, copy)) + len(copy)
                    grid = limit // widest - len(rows)
                    room = max(min(grid, (budget - chars) // max(copy_size, 1)), 0)
                    rows.extend([copy] * min(copies, room))
                    chars += copy_size * min(copies, room)
                    if copies <= room:
                        continue
                    if room < grid:  # the characters ran out, not the grid
                        self.cut = True
                        return rows
                    scattered = ScatteredCells()
                    for above, cells in enumerate(rows):
                        scattered.add_row(above, cells)
                    break
                else:
                    empty = 0
                    number += repeat
                    continue
                # the copies of the row the grid had no room for
                done = max(len(rows) - number, 0)
                repeat -= done
                number += done
            count = sum(1 for value in values if value)
            room = min((limit - len(scattered)) // count, (budget - chars) // max(size, 1))
            if room < repeat:
                self.cut = True
                return rows
            scattered.add_row(number, values, times=repeat)
            chars += size * repeat
            number += repeat
            empty = 0
        return rows if scattered is None else list(scattered.rows())

    def _row(self, row: Any, limit: int, budget: int) -> tuple[str, ...]:
        values: list[str] = []
        chars = 0
        # empty cells are counted, not spelled out, until a value follows them: a row may
        # end in a million (LibreOffice writes a sheet's unused columns so), and a value
        # after a run of them keeps its column
        empty = 0
        for cell in row:
            if local_name(cell) not in ("table-cell", "covered-table-cell"):
                continue
            value = self._cell(cell)
            repeat = _repeat(cell, "number-columns-repeated")
            if not value:
                empty += repeat
                continue
            if empty >= min(limit - len(values), budget - chars):
                # the value lies past the limit: the empty cells before it are not spelled out
                self.cut = True
                break
            values.extend([""] * empty)
            chars += empty
            empty = 0
            fit = min(repeat, limit - len(values), max(budget - chars, 0) // (len(value) + 1))
            values.extend([value] * fit)
            chars += (len(value) + 1) * fit
            if fit < repeat:
                self.cut = True
                break
        return tuple(values)

    def _cell(self, cell: Any) -> str:
        content: list[Any] = []
        for child in cell:
            (self.drawings if local_name(child) in DRAWING_OBJECTS else content).append(child)
        typed = _typed_value(cell, self.config)
        if typed is not None:
            return typed
        inner = PageBuilder()
        walker = _Walker(inner, self.config, self.charts, self.fonts, self.lists)
        walker.blocks(content)
        self.notes.extend(walker.notes)
        self.comments.extend(walker.comments)
        return inner.text


def _typed_value(cell: Any, config: Config) -> str | None:
    """The cell's stored value as goblin writes it, or None to read the text the cell
    shows: an ODF cell keeps both, so ``office.cell_values = "display"`` (the default)
    takes the shown text (``200%``, ``£1.00``, ``WAHR``), as for xlsx, dates staying ISO
    8601 unless ``office.cell_dates = "display"``."""
    if cell.get(_CALCEXT_TYPE) == "error":
        return None  # the value beside an error is a stand-in (0 or ""): its text shows it
    kind = attr(cell, "value-type")
    display = config.get("office", "cell_values", "display") == "display"
    if display and (kind != "date" or config.get("office", "cell_dates", "iso") == "display") \
            and any(local_name(child) == "p" for child in cell):
        return None
    if kind in ("float", "percentage", "currency"):
        raw = attr(cell, "value")
        try:
            return cell_text(float(raw))
        except ValueError:
            return None
    if kind == "date":
        return _date_value(attr(cell, "date-value"))
    if kind == "boolean":
        return "TRUE" if attr(cell, "boolean-value") == "true" else "FALSE"
    return None


def _date_value(raw: str) -> str | None:
    """An ODF date value as every workbook reader writes a cell's date: the day alone at
    midnight, else the day and the time apart by a space, as the xlsx and xls readers have
    it (ODF stores ``2024-03-15T10:30:00``).

    >>> _date_value("2024-03-15T10:30:00"), _date_value("2024-03-15T00:00:00")
    ('2024-03-15 10:30:00', '2024-03-15')
    >>> _date_value("2024-03-15"), _date_value("")
    ('2024-03-15', None)
    """
    if not raw:
        return None
    day, _, time = raw.partition("T")
    return day if time.strip("0:.") == "" else f"{day} {time}"


_ANCHORED = DRAWING_OBJECTS | {"note", "annotation"}
_CALCEXT_TYPE = "{urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0}value-type"


def _repeat(element: Any, name: str) -> int:
    value = attr(element, name, "1")
    return max(1, min(int(value), 1_048_576)) if value.isdigit() else 1


def _table_rows(table: Any) -> Iterator[Any]:
    for child in table:
        name = local_name(child)
        if name == "table-row":
            yield child
        elif name in ("table-header-rows", "table-rows", "table-row-group"):
            yield from _table_rows(child)


def _anchored(element: Any) -> Iterator[Any]:
    """The notes, comments, frames and shapes a paragraph holds in its line (in its spans and
    links too), in order; not what they hold in turn, which is read as theirs: a note or a
    text box inside a text box belongs to the inner box alone."""
    for child in element:
        name = local_name(child)
        if name in _ANCHORED:
            yield child
        elif name:
            yield from _anchored(child)


def _plain(element: Any, fonts: SymbolFonts | None = None) -> str:
    parts = [inline_text(p, fonts) for p in element.iter("{*}p", "{*}h")]
    return "\n".join(t for t in parts if t.strip())


def _master_regions(styles: Any | None, names: tuple[str, ...]) -> list[str]:
    found: list[str] = []
    if styles is None:
        return found
    fonts = symbol_fonts((styles,))
    for master in descendants(styles, "master-page"):
        for region in master:
            if local_name(region) in names and attr(region, "display", "true") != "false":
                text = _plain(region, fonts)
                if text and text not in found:
                    found.append(text)
    return found


def _body(trees: _Trees, kind: str) -> Any:
    for body in descendants(trees.content, "body"):
        for child in body:
            if local_name(child) == kind:
                return child
        if _openoffice_1(trees):
            return body  # no office:<kind> wrapper: the body holds the blocks itself
    raise CorruptDocument(f"the document has no office:{kind} body")


def _openoffice_1(trees: _Trees) -> bool:
    """Whether the content is OpenOffice.org 1.x XML (its root in the openoffice.org
    office namespace), whose office:body holds the text, tables or pages directly."""
    if trees.content is not None:
        return bool(str(trees.content.tag).startswith(f"{{{OPENOFFICE_1_OFFICE}}}"))
    return OPENOFFICE_1_OFFICE.encode() in trees.content_data[:4096]


def body_blocks(trees: _Trees, kind: str) -> Iterator[Any]:
    """The blocks of the document's ``office:<kind>`` body, in order; read as it parses
    when content.xml was left unparsed, each block let go once the caller has it."""
    if trees.content is not None:
        yield from _body(trees, kind)
        return
    path = ("body",) if _openoffice_1(trees) else ("body", kind)
    yield from container_blocks(trees.content_data, path, name=trees.content_name,
                                max_depth=trees.depth, required=True)


class ODFTextParser(BaseEngine):
    """OpenDocument text (.odt, .ott, flat .fodt): body, headers/footers, notes, comments."""

    name = "office.odt"
    formats = (fmt.ODT, fmt.FODT, fmt.SXW)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        trees = load_trees(source, config, flat=_is_flat(source), stream=True)
        page = PageBuilder(engine=self.name)
        head = content_head(trees)
        walker = _Walker(page, config, trees.charts, symbol_fonts((head, trees.styles)),
                         OdfLists((head, trees.styles)))
        headers_footers = bool(config.get("office", "headers_footers", True))
        if headers_footers:
            for text in _master_regions(trees.styles, ("header", "header-first", "header-left")):
                page.add(text, "header")
        deletions = AcceptedDeletions()
        for block in body_blocks(trees, "text"):
            deletions.accept(block)
            walker.blocks((block,))
        if config.get("office", "notes", True):
            for note in walker.notes:
                page.add(note)
        if config.get("office", "comments", True):
            for comment in walker.comments:
                page.add(comment)
        if headers_footers:
            for text in _master_regions(trees.styles, ("footer", "footer-first", "footer-left")):
                page.add(text, "footer")
        document = TextDocument([page.build()], metadata=metadata(trees),
                                attachments=trees.children)
        document.warnings = list(trees.left_out)
        document.left_out = _lost(trees)
        return document


class ODFPresentationParser(BaseEngine):
    """OpenDocument presentations (.odp, .otp, flat .fodp): one page per slide, notes kept;
    and drawings (.odg, .otg, flat .fodg), whose pages hold the same frames and shapes."""

    name = "office.odp"
    formats = (fmt.ODP, fmt.FODP, fmt.ODG, fmt.FODG, fmt.SXI, fmt.SXD)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        trees = load_trees(source, config, flat=_is_flat(source))
        body = _drawing_body(trees)
        footers = {
            attr(d, "name"): _plain(d) or inline_text(d) for d in children(body, "footer-decl")
        }
        masters = _master_frames(trees.styles)
        fonts = content_fonts(trees)
        pages = []
        for number, slide in enumerate(children(body, "page"), start=1):
            walker = _Walker(PageBuilder(number=number, label=attr(slide, "name"),
                                         engine=self.name), config, trees.charts, fonts)
            pages.append(self._slide(slide, walker, footers, masters))
        document = TextDocument(pages, metadata=metadata(trees), attachments=trees.children)
        document.warnings = list(trees.left_out)
        document.left_out = _lost(trees)
        return document

    def _slide(
        self,
        slide: Any,
        walker: _Walker,
        footers: dict[str, str],
        masters: dict[str, list[str]],
    ) -> PageContent:
        page, config = walker.page, walker.config
        walker.blocks(slide)
        if config.get("office", "notes", True):
            for notes in children(slide, "notes"):
                text = _notes_text(notes, walker.fonts)
                if text:
                    page.add(f"Notes: {text}")
        if config.get("office", "headers_footers", True):
            footer = footers.get(attr(slide, "use-footer-name"), "")
            page.add(footer, "footer")
            for text in masters.get(attr(slide, "master-page-name"), []):
                if text != footer:
                    page.add(text, "footer")
        if config.get("office", "comments", True):
            for comment in walker.comments:
                page.add(comment)
        return page.build()


def _notes_text(notes: Any, fonts: SymbolFonts | None) -> str:
    """The text of a notes page's frames and shapes; a placeholder's
    (``presentation:placeholder``) is the layout's prompt, not the author's, and is left out."""
    texts = (_plain(shape, fonts) for shape in notes if attr(shape, "placeholder") != "true")
    return "\n".join(text for text in texts if text)


def _drawing_body(trees: _Trees) -> Any:
    """The ``office:presentation`` body, or a drawing's ``office:drawing``."""
    for kind in ("presentation", "drawing"):
        with contextlib.suppress(CorruptDocument):
            return _body(trees, kind)
    raise CorruptDocument("the document has no office:presentation or office:drawing body")


def _master_frames(styles: Any | None) -> dict[str, list[str]]:
    """Header and footer text drawn by each master page of a presentation."""
    found: dict[str, list[str]] = {}
    if styles is None:
        return found
    for master in descendants(styles, "master-page"):
        texts = []
        for frame in children(master, "frame"):
            if attr(frame, "class") in ("header", "footer"):
                text = _plain(frame)
                if text:
                    texts.append(text)
        found[attr(master, "name")] = texts
    return found


class FlatODSParser(BaseEngine):
    """ODF spreadsheets read from their XML, flat .fods and packaged .ods: each cell keeps
    the text it shows beside its value there, which calamine (the fallback) does not give."""

    name = "office.fods"
    formats = (fmt.FODS, fmt.ODS, fmt.SXC)
    priority = 60

    def open(self, source: Source, config: Config) -> TextDocument:
        trees = load_trees(source, config, flat=_is_flat(source))
        body = _body(trees, "spreadsheet")
        extras = odf_sheet_extras(trees.content, trees.styles, config)
        fonts = content_fonts(trees)
        pages = []
        cut: list[str] = []
        tables = children(body, "table")
        hidden_styles = _hidden_table_styles(trees.content)
        if not config.get("office", "hidden_sheets", True):
            tables = [t for t in tables if attr(t, "style-name") not in hidden_styles]
        hidden_sheets = [attr(t, "name") for t in tables
                         if attr(t, "style-name") in hidden_styles]
        for number, table in enumerate(tables, start=1):
            page = PageBuilder(number=number, label=attr(table, "name"), engine=self.name)
            walker = _Walker(page, config, trees.charts, fonts)
            sheet = attr(table, "name")
            extra = extras.get(sheet)
            page.add(sheet, "heading", 2)
            for text in extra.headers if extra else ():
                page.add(text, "header")
            page.add_table(_without_leading_empty_columns(walker.table_rows(table)),
                           title=sheet)
            if walker.cut:
                cut.append(sheet)
            # the text of the shapes and text boxes drawn over the sheet, as an xlsx's is
            # read: those anchored to the page (table:shapes), then those anchored to a cell
            walker.blocks(children(table, "shapes"))
            walker.read_drawings()
            for text in extra.comments if extra else ():
                page.add(text)
            for text in extra.footers if extra else ():
                page.add(text, "footer")
            if attr(table, "style-name") in hidden_styles:
                # read as before, but told from the sheets a reader sees, as Excel's are
                page.hidden = len(page.text)
            pages.append(page.build())
        found = metadata(trees)
        if hidden_sheets:
            found["hidden_sheets"] = hidden_sheets
        if cut:
            found["truncated_sheets"] = cut
        document = TextDocument(pages, metadata=found, attachments=trees.children)
        document.warnings = [*cut_sheet_warnings(cut, config), *trees.left_out]
        document.left_out = _lost(trees)
        return document


def _without_leading_empty_columns(rows: list[Sequence[str]]) -> list[Sequence[str]]:
    """The rows from the first column that holds anything, as calamine gives a sheet (and
    so an .ods reads the same whichever engine takes it)."""
    lead = min((next(i for i, value in enumerate(row) if value) for row in rows if any(row)),
               default=0)
    return [row[lead:] for row in rows] if lead else rows


def _hidden_table_styles(content: Any) -> set[str]:
    """Names of the table styles that hide their sheet (table:display="false")."""
    hidden = set()
    for style in descendants(content, "style"):
        if any(attr(props, "display") == "false"
               for props in children(style, "table-properties")):
            hidden.add(attr(style, "name"))
    return hidden


def _is_flat(source: Source) -> bool:
    return not source.head(4).startswith(b"PK\x03\x04")
