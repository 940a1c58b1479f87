"""Word documents (.docx .docm .dotx .dotm, transitional and Strict) read from their XML.

The package is read straight from its zip (checked against the container limits
once, each part parsed once with the hardened parser); the WordprocessingML is
walked by local names, so Strict documents read like transitional ones. Body in order (paragraphs,
tables as rows, text boxes once each), headers and footers, footnotes and
endnotes, comments; embedded objects come out as children.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.alt_chunks import alt_chunk_pages, merge_chunk
from goblin_office.diagrams import DeclaredGraphics, graphic_references, related_graphics
from goblin_office.layout import PageBuilder
from goblin_office.numbering import (
    WordListCounter,
    WordNumbering,
    numbering_reference,
)
from goblin_office.ooxml import PackageXml, lost_parts_message, open_package, package_document
from goblin_office.safexml import attr, children, local_name
from goblin_office.symbolfonts import symbol_run_text, symbol_table, symbol_text

# subtrees whose text is not the paragraph's own (or is not text at all)
_SKIP = frozenset(
    {
        "pPr",
        "rPr",
        "txbxContent",
        "Fallback",
        "instrText",
        # tracked changes read as accepted: a deletion goes whole, its tabs, breaks and
        # symbols with its text, and so does the place moved text was (moveTo keeps it)
        "del",
        "delText",
        "moveFrom",
        # a ruby's reading (phonetic guide), set above its base: the line holds the base
        "rt",
        "footnoteReference",
        "endnoteReference",
        "commentReference",
        "tblPr",
        "sectPr",
        "trPr",
        "tcPr",
        "fldData",
        # Word 2003 XML keeps notes inline, inside the run that refers to them
        "footnote",
        "endnote",
        "binData",
    }
)
_CONTAINERS = frozenset(
    {
        "sdt",
        "sdtContent",
        "customXml",
        "smartTag",
        "ins",
        "moveTo",
        "hyperlink",
        "fldSimple",
        "txbxContent",
        "body",
        "hdr",
        "ftr",
        "footnote",
        "endnote",
        "comment",
        "tc",
        # Word 2003 XML wraps the body in sections and subsections
        "sect",
        "sub-section",
    }
)
# Namespaces this walker reads (it goes by local names): an mc:Choice requiring
# another one is passed over for the next choice or the Fallback, as Word would
_UNDERSTOOD_NAMESPACES = (
    "http://schemas.openxmlformats.org/",
    "http://purl.oclc.org/ooxml/",
    "http://schemas.microsoft.com/office/",
    "urn:schemas-microsoft-com:",
)
# what a run shows: none of it while it stands in a field's instruction part
_SHOWN = frozenset({"t", "tab", "ptab", "br", "cr", "noBreakHyphen", "sym"})
# a row spans no more grid columns than Word's 63
_MAX_GRID_COLUMNS = 64
_HEADING = re.compile(r"^(?:heading|titre|berschrift|titolo|t[íi]tulo|kop)\s*(\d)$", re.I)


class Styles:
    """Heading levels, list styles and hidden text by style id, from styles.xml.

    A style is looked at when a paragraph first uses it: styles.xml defines
    hundreds, a document uses a handful.
    """

    def __init__(self, root: Any | None) -> None:
        self._by_id: dict[str, Any] = {}
        self._seen: dict[str, tuple[int, bool]] = {}
        self._hidden: dict[str, bool | None] = {}
        self._numbered: dict[str, tuple[str | None, int | None] | None] = {}
        # the styles of paragraphs and runs that name none (w:default, the last one
        # marked, as the standard says), and whether the document defaults hide text
        self.default_paragraph = ""
        self.default_character = ""
        self.defaults_hide = False
        if root is None:
            return
        for style in root.iterchildren("{*}style"):
            style_id = attr(style, "styleId")
            self._by_id[style_id] = style
            if attr(style, "default").lower() in ("1", "true", "on"):
                kind = attr(style, "type")
                if kind == "paragraph":
                    self.default_paragraph = style_id
                elif kind == "character":
                    self.default_character = style_id
        self.defaults_hide = bool(hidden_flag(root.find("{*}docDefaults/{*}rPrDefault/{*}rPr")))

    def level(self, style_id: str) -> int:
        """The heading level (1-9) of a paragraph style; 0 for body text."""
        return self._read(style_id)[0]

    def is_list(self, style_id: str) -> bool:
        """True for a list paragraph style (named List..., or numbered)."""
        return self._read(style_id)[1]

    def _read(self, style_id: str) -> tuple[int, bool]:
        found = self._seen.get(style_id)
        if found is None:
            found = self._seen[style_id] = _style_kind(self._by_id.get(style_id), style_id)
        return found

    def numbering(self, style_id: str) -> tuple[str | None, int | None] | None:
        """The numbering a paragraph style gives (``w:numPr`` in it, or in a style it is
        based on, the nearest first): its instance and level, None when none gives one."""
        if style_id not in self._numbered:
            self._numbered[style_id] = self._numbering(style_id)
        return self._numbered[style_id]

    def _numbering(self, style_id: str) -> tuple[str | None, int | None] | None:
        num_id: str | None = None
        level: int | None = None
        seen: set[str] = set()
        while style_id and style_id not in seen:  # basedOn may loop in a damaged file
            seen.add(style_id)
            style = self._by_id.get(style_id)
            if style is None:
                break
            numbered = numbering_reference(style.find("{*}pPr"))
            if numbered is not None:
                num_id = numbered[0] if num_id is None else num_id
                level = numbered[1] if level is None else level
            based = style.find("{*}basedOn")
            style_id = attr(based, "val") if based is not None else ""
        return None if num_id is None else (num_id, level)

    def applied(self, style_id: str, default: str) -> str:
        """The style a paragraph or run is in: the one it names, else (none named, or one
        styles.xml does not define) the ``default`` style of its kind."""
        return style_id if style_id and style_id in self._by_id else default

    def hides(self, style_id: str) -> bool | None:
        """What a style, or one it is based on, says of hiding its text (``w:vanish``):
        True or False, None when none of them sets it."""
        if style_id not in self._hidden:
            self._hidden[style_id] = self._hides(style_id)
        return self._hidden[style_id]

    def _hides(self, style_id: str) -> bool | None:
        seen: set[str] = set()
        while style_id and style_id not in seen:  # basedOn may loop in a damaged file
            seen.add(style_id)
            style = self._by_id.get(style_id)
            if style is None:
                return None
            hidden = hidden_flag(style.find("{*}rPr"))
            if hidden is not None:
                return hidden
            based = style.find("{*}basedOn")
            style_id = attr(based, "val") if based is not None else ""
        return None


def hidden_flag(props: Any | None) -> bool | None:
    """What run properties say of hiding their text: True or False when they set
    ``w:vanish`` (a toggle: no value or a true one hides), None when they do not."""
    flag = props.find("{*}vanish") if props is not None else None
    if flag is None:
        return None
    return attr(flag, "val").lower() not in ("0", "false", "off")


def _style_kind(style: Any | None, style_id: str) -> tuple[int, bool]:
    if style is None:
        return 0, False
    named = style.find("{*}name")
    name = attr(named, "val") if named is not None else style_id
    level = _heading_level(name) or _heading_level(style_id) or _outline(style)
    listed = name.lower().startswith("list") or style.find(".//{*}numPr") is not None
    return level, listed


def _heading_level(name: str) -> int:
    lowered = name.strip().lower()
    if lowered in ("title", "titel", "titre"):
        return 1
    found = _HEADING.match(lowered.replace(" ", "")) or _HEADING.match(lowered)
    return int(found.group(1)) if found else 0


def _outline(element: Any) -> int:
    for level in element.iter("{*}outlineLvl"):
        value = attr(level, "val")
        if value.isdigit() and int(value) < 9:
            return int(value) + 1
    return 0


class FieldNesting:
    """Where the runs being read stand among complex fields (``w:fldChar`` begin,
    separate, end), which may span runs, paragraphs and tables.

    Word shows a field's result part (after separate, up to end), never its instruction
    part (up to separate) nor anything in it: the result of a field nested in another's
    instruction (``{ IF { PAGE } = 1 "First" "Other" }``) is part of that instruction.

    The text an instruction part hides is kept aside, paragraph by paragraph, until the
    part ends: a field that never ends (a generator dropped its end mark) would otherwise
    hide the rest of its story, and ``unclosed_text`` gives that text back.
    """

    def __init__(self) -> None:
        # one flag per open field, innermost last: True once its result part began
        self._open: list[bool] = []
        self._in_instructions = 0
        self._withheld: list[str] = []
        self._withheld_paragraphs: list[str] = []

    def shows(self) -> bool:
        """True when no open field is in its instruction part."""
        return self._in_instructions == 0

    def withhold(self, text: str) -> None:
        """Keep aside ``text`` an instruction part hides, in case its field never ends."""
        self._withheld.append(text)

    def paragraph_ended(self) -> None:
        if self._withheld:
            self._withheld_paragraphs.append("".join(self._withheld))
            self._withheld = []

    def unclosed_text(self) -> list[str]:
        """The paragraphs' text hidden by an instruction part still open at the end of
        the story (none when every field ended), and a fresh start for what follows."""
        self.paragraph_ended()
        hidden = [text for text in self._withheld_paragraphs if text.strip()]
        self._open, self._in_instructions = [], 0
        self._withheld_paragraphs = []
        return hidden

    def mark(self, char: Any) -> None:
        """Take a ``w:fldChar`` into account."""
        kind = attr(char, "fldCharType")
        if kind == "begin":
            self._open.append(False)
            self._in_instructions += 1
        elif kind == "separate" and self._open and not self._open[-1]:
            self._open[-1] = True
            self._instruction_ended()
        elif kind == "end" and self._open and not self._open.pop():
            self._instruction_ended()

    def _instruction_ended(self) -> None:
        self._in_instructions -= 1
        if not self._in_instructions:
            self._withheld, self._withheld_paragraphs = [], []


class Walker:
    """Reads WordprocessingML block content into a PageBuilder.

    ``kinds=False`` for content only its text is kept of (cells, headers, comments):
    paragraphs are not classed as headings or list items there. ``fields``: the field
    nesting the content stands in (a table cell's is its table's), else a new one.
    ``lists``: the list counters of the story the content is in (a table cell's are its
    table's), which put each numbered paragraph's number or bullet before its text.
    """

    def __init__(
        self,
        page: PageBuilder,
        styles: Styles,
        *,
        kinds: bool = True,
        graphics: Mapping[str, list[str]] | None = None,
        fields: FieldNesting | None = None,
        lists: WordListCounter | None = None,
    ) -> None:
        self.page = page
        self.lists = lists
        self.styles = styles
        self.kinds = kinds
        self.fields = fields or FieldNesting()
        # SmartArt and chart text by the relationship id the part being read refers to it with
        self.graphics: Mapping[str, list[str]] = graphics or {}
        # alternative-format chunks (w:altChunk) of the part being read, read, by the same
        self.chunks: Mapping[str, list[PageContent]] = {}
        # the graphics of a part whose relationships are damaged, which ``graphics``
        # cannot name
        self.declared: DeclaredGraphics | None = None
        # the text of a paragraph whose mark is a tracked deletion: accepted, the
        # paragraph runs on into the next one
        self.joined = ""

    def blocks(self, element: Any, kind: str = "") -> None:
        """The paragraphs and tables among ``element``'s children (any iterable of
        elements), in order."""
        for child in element:
            tag = child.tag
            if not isinstance(tag, str):  # an entity reference
                continue
            name = tag[tag.find("}") + 1 :]  # local_name, inline: this loop runs per block
            if name == "p":
                self.paragraph(child, kind)
            elif name == "tbl":
                self.end_joined(kind)
                self.page.add_table(self.table_rows(child), header_rows=_header_rows(child))
            elif name in _CONTAINERS:
                self.blocks(child, kind)
            elif name == "AlternateContent":
                branch = chosen_branch(child)
                if branch is not None:
                    self.blocks(branch, kind)
            elif name == "altChunk" and self.chunks:
                self.end_joined(kind)
                merge_chunk(self.page, self.chunks.get(attr(child, "id"), []))
        self.end_joined(kind)

    def story(self, element: Any) -> bool:
        """The blocks of a story of their own (a note): the fields of the story read
        before it do not reach into it. True when a field in it never ends."""
        self.fields = FieldNesting()
        self.blocks(element)
        return self.unclosed_fields()

    def unclosed_fields(self) -> bool:
        """Add the text hidden by a field still open at the end of the story (its end mark
        lost), as paragraphs: Word would show none of the story after it, and neither does
        LibreOffice. True when there was such text."""
        hidden = self.fields.unclosed_text()
        for text in hidden:
            self.page.add(text, "paragraph")
        return bool(hidden)

    def end_joined(self, kind: str = "") -> None:
        """Add the text of a paragraph whose mark was deleted when no paragraph follows
        it to run on into."""
        if self.joined:
            self.page.add(self.joined, kind or "paragraph")
            self.joined = ""

    def paragraph(self, p: Any, kind: str = "") -> None:
        props = p.find("{*}pPr")
        named = props.find("{*}pStyle") if props is not None else None
        style = attr(named, "val") if named is not None else ""
        applied = self.styles.applied(style, self.styles.default_paragraph)
        tally = _HiddenTally(self.styles, self.styles.hides(applied))
        out: list[str] = [self.joined]
        self.joined = ""
        _inline(p, out, self.fields, None, tally)
        self.fields.paragraph_ended()
        text = "".join(out)
        self.page.hidden += tally.chars
        boxes = list(_textboxes(p))
        if _mark_deleted(p) and not boxes:
            # accepted, the paragraph is gone: its text takes the next one's number
            self.joined = text
            self._anchored(p, boxes, kind)
            return
        # a numbered paragraph with no text keeps its number, but no line holds it alone
        label = self.lists.paragraph(props, applied) if self.lists is not None else None
        shown = label.before(text) if label is not None and text.strip() else text
        block_kind, level = self._kind(props, style) if self.kinds else ("paragraph", 0)
        if label is not None and block_kind != "heading":
            self.page.add(shown, kind or "list_item", label.level,
                          marker=label.text, number=label.number)
        else:
            self.page.add(shown, kind or block_kind, level)
        self._anchored(p, boxes, kind)

    def _anchored(self, p: Any, boxes: list[Any], kind: str) -> None:
        """The text boxes, SmartArt and charts a paragraph anchors, after its line."""
        for box in boxes:
            self.blocks(box, kind)
        if self.graphics or self.declared is not None:
            for reference, relationship in _graphic_references(p):
                lines = self.graphics.get(relationship)
                if lines is None and self.declared is not None:
                    lines = self.declared.lines(reference, relationship)
                for line in lines or ():
                    self.page.add(line, kind)

    def _kind(self, props: Any | None, style: str) -> tuple[str, int]:
        if props is None:
            return "paragraph", 0
        level = _outline(props) or (self.styles.level(style) if style else 0)
        if level:
            return "heading", level
        numbered = numbering_reference(props)
        if (numbered is not None and numbered[0] != "0") or (style and self.styles.is_list(style)):
            return "list_item", 0
        return "paragraph", 0

    def table_rows(self, tbl: Any) -> list[tuple[str, ...]]:
        """The rows' cell texts, each cell in its grid column: a merged cell is followed
        by a blank one for each further column it spans, and a row that starts or ends
        short of the grid (w:gridBefore, w:gridAfter) has blanks there."""
        rows = []
        for tr in _rows(tbl):
            cells: list[str] = [""] * _grid_columns(tr, "trPr", "gridBefore")
            for tc in _cells(tr):
                cells.append(self.cell_text(tc))
                cells.extend([""] * (_grid_columns(tc, "tcPr", "gridSpan") - 1))
            cells.extend([""] * _grid_columns(tr, "trPr", "gridAfter"))
            rows.append(tuple(cells))
        return rows

    def cell_text(self, tc: Any) -> str:
        inner = PageBuilder()
        cell = Walker(inner, self.styles, kinds=False, graphics=self.graphics,
                      fields=self.fields, lists=self.lists)
        cell.declared = self.declared
        cell.blocks(tc)
        self.page.hidden += inner.hidden
        return inner.text


def _property(element: Any, props: str, name: str) -> str | None:
    """The w:val of ``element``'s own property ``name`` (not a nested table's); None if unset."""
    holder = element.find("{*}" + props)
    found = holder.find("{*}" + name) if holder is not None else None
    return attr(found, "val") if found is not None else None


def _grid_columns(element: Any, props: str, name: str) -> int:
    """The count of grid columns a row's or cell's property gives (w:gridBefore,
    w:gridAfter, w:gridSpan); 0 unset, or past the columns a row may hold."""
    value = _property(element, props, name) or ""
    return int(value) if value.isdigit() and int(value) < _MAX_GRID_COLUMNS else 0


def _rows(tbl: Any) -> Iterator[Any]:
    """A table's rows, a row deleted as a tracked change left out."""
    for child in tbl:
        name = local_name(child)
        if name == "tr":
            props = child.find("{*}trPr")
            if props is None or props.find("{*}del") is None:
                yield child
        elif name in ("sdt", "sdtContent", "customXml"):
            yield from _rows(child)
        elif name == "AlternateContent":
            branch = chosen_branch(child)
            if branch is not None:
                yield from _rows(branch)


def _cells(tr: Any) -> Iterator[Any]:
    for child in tr:
        name = local_name(child)
        if name == "tc":
            yield child
        elif name in ("sdt", "sdtContent", "customXml"):
            yield from _cells(child)
        elif name == "AlternateContent":
            branch = chosen_branch(child)
            if branch is not None:
                yield from _cells(branch)


def chosen_branch(alternate: Any) -> Any | None:
    """The branch of an ``mc:AlternateContent`` a reader takes: its first Choice whose
    required namespaces are all ones this walker reads, else its Fallback; None when it
    has neither."""
    for branch in alternate:
        name = local_name(branch) if isinstance(branch.tag, str) else ""
        if name == "Fallback" or (name == "Choice" and _understood(branch)):
            return branch
    return None


def _understood(choice: Any) -> bool:
    for prefix in attr(choice, "Requires").split():
        namespace = choice.nsmap.get(prefix)
        if namespace is None or not namespace.startswith(_UNDERSTOOD_NAMESPACES):
            return False
    return True


def _mark_deleted(p: Any) -> bool:
    """True when a paragraph's mark is a tracked deletion (``w:del`` or ``w:moveFrom`` in
    its mark's run properties; a Word 2003 deletion annotation there)."""
    props = p.find("{*}pPr/{*}rPr")
    if props is None:
        return False
    for mark in props:
        name = local_name(mark) if isinstance(mark.tag, str) else ""
        if name in ("del", "moveFrom") or (name == "annotation" and is_deletion(mark)):
            return True
    return False


def _header_rows(tbl: Any) -> int:
    count = 0
    for tr in _rows(tbl):
        flag = _property(tr, "trPr", "tblHeader")
        if flag is None or flag in ("0", "false", "off"):
            break
        count += 1
    return count


def paragraph_text(p: Any) -> str:
    """A paragraph's own text: runs, tabs and breaks; text boxes and field codes left out."""
    out: list[str] = []
    _inline(p, out, FieldNesting())
    return "".join(out)


class _HiddenTally:
    """Counts the characters of a paragraph's runs Word does not show (``w:vanish``, set
    on the run, its character style, the paragraph's style, or the document's default
    run properties, the nearest that says first; a paragraph or run naming no style is
    in the default one of its kind); they are read all the same, as Word keeps them,
    and the count tells a reader of the text about them."""

    def __init__(self, styles: Styles, paragraph_hides: bool | None) -> None:
        self.styles = styles
        self.paragraph_hides = (
            styles.defaults_hide if paragraph_hides is None else paragraph_hides
        )
        self.chars = 0

    def hides(self, run: Any) -> bool:
        props = run.find("{*}rPr")
        own = hidden_flag(props)
        if own is not None:
            return own
        named = props.find("{*}rStyle") if props is not None else None
        style = attr(named, "val") if named is not None else ""
        by_style = self.styles.hides(self.styles.applied(style, self.styles.default_character))
        return self.paragraph_hides if by_style is None else by_style


def _inline(element: Any, out: list[str], fields: FieldNesting,
            font: dict[int, str] | None = None, tally: _HiddenTally | None = None,
            hidden: bool = False) -> None:
    """``element``'s text into ``out``, what ``fields`` says is in a field's instruction
    part left out; ``font`` is the symbol-font table of the run it is in, ``hidden``
    whether that run is hidden text, counted in ``tally``."""
    for child in element:
        tag = child.tag
        if not isinstance(tag, str):  # an entity reference
            continue
        name = tag[tag.find("}") + 1 :]  # local_name, inline: this loop runs per element
        if name in _SKIP:
            continue
        if name == "fldChar":
            fields.mark(child)
        elif name in _SHOWN and not fields.shows():
            if name == "t":
                fields.withhold(child.text or "")
            elif name in ("tab", "ptab"):
                fields.withhold("\t")
            continue
        elif name == "t":
            text = symbol_run_text(font, child.text or "") if font else child.text or ""
            out.append(text)
            if hidden and tally is not None:
                tally.chars += len(text)
        elif name in ("tab", "ptab"):
            out.append("\t")
        elif name in ("br", "cr"):
            out.append("\n")
        elif name == "noBreakHyphen":
            out.append("-")
        elif name == "sym":
            out.append(symbol_text(attr(child, "font"), attr(child, "char")))
        elif name == "annotation" and (is_comment(child) or is_deletion(child)):
            continue  # a Word 2003 comment, read after the body, or a tracked deletion
        elif name == "r":
            _inline(child, out, fields, _run_symbol_font(child), tally,
                    tally is not None and tally.hides(child))
        elif name == "AlternateContent":
            branch = chosen_branch(child)
            if branch is not None:
                _inline(branch, out, fields, font, tally, hidden)
        else:
            _inline(child, out, fields, font, tally, hidden)


def _run_symbol_font(run: Any) -> dict[int, str] | None:
    """The symbol-font table of a run typed in Symbol or Wingdings, else None."""
    # rPr comes first in a run when it is there at all: no search through the run
    props = run[0] if len(run) else None
    if props is None or not isinstance(props.tag, str) or not props.tag.endswith("}rPr"):
        return None
    fonts = props.find("{*}rFonts")
    if fonts is None:
        return None
    return symbol_table(attr(fonts, "ascii") or attr(fonts, "hAnsi"))


def is_comment(annotation: Any) -> bool:
    """True for a Word 2003 comment annotation (not a tracked insertion or deletion)."""
    return attr(annotation, "type").startswith("Word.Comment")


def is_deletion(annotation: Any) -> bool:
    """True for a Word 2003 tracked deletion annotation."""
    return attr(annotation, "type") == "Word.Deletion"


def _textboxes(element: Any) -> Iterator[Any]:
    """Text boxes anchored in a paragraph, once each (the VML fallback is skipped)."""
    # found in C; most paragraphs have none, and a box's own boxes are read with it
    for box in element.iter("{*}txbxContent"):
        if box is not element and not _enclosed(box, element):
            yield box


def _graphic_references(p: Any) -> Iterator[tuple[str, str]]:
    """(local name of the reference, relationship) of the SmartArt graphics and charts in
    a paragraph (fallbacks skipped)."""
    for reference, relationship in graphic_references(p):
        if not _enclosed(reference, p):
            yield local_name(reference), relationship


def _enclosed(box: Any, top: Any) -> bool:
    """True when ``box`` sits, below ``top``, in another text box or in a branch of an
    ``mc:AlternateContent`` other than the one read."""
    ancestor = box.getparent()
    while ancestor is not None and ancestor is not top:
        name = local_name(ancestor)
        if name == "txbxContent":
            return True
        parent = ancestor.getparent()
        if name in ("Choice", "Fallback") and parent is not None \
                and chosen_branch(parent) is not ancestor:
            return True
        ancestor = parent
    return False


class DocxParser(BaseEngine):
    """WordprocessingML walker for docx, docm, dotx, dotm (and Strict), read from the zip."""

    name = "office.docx"
    formats = (fmt.DOCX,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        plain, archive = open_package(source, config)
        with archive:
            package = PackageXml(archive, source.display_name, config)
            document = package.main_part()
            styles = package.related(document, "/styles")
            style_sheet = Styles(package.optional_xml(styles[0]) if styles else None)
            numbering = package.related(document, "/numbering")
            walker = Walker(
                PageBuilder(engine=self.name),
                style_sheet,
                lists=WordListCounter(WordNumbering(
                    package.optional_xml(numbering[0]) if numbering else None,
                    style_sheet.numbering,
                )),
            )
            problems: list[tuple[str, str]] = []
            unresolved = _read(walker, package, document, config, problems)
            parsed = package_document([walker.page.build()], package, plain, config)
            parsed.warnings = [*problems, *package.left_out]
            lost = [lost_parts_message(package.text_lost)]
            if unresolved:
                lost.append(f"{unresolved} chart(s) or SmartArt graphic(s) could not be "
                            "found: the relationships of the part showing them are damaged "
                            "and the content types declare no part left for them")
            parsed.left_out = "; ".join(said for said in lost if said)
            return parsed


def _read(walker: Walker, package: PackageXml, document: str, config: Config,
          problems: list[tuple[str, str]]) -> int:
    """Read the document's stories into ``walker``; the count of the body's charts and
    SmartArt graphics whose part could not be found (its relationships damaged)."""
    def roots(suffix: str) -> list[Any]:
        return [root for _, root in parts(suffix)]

    def parts(suffix: str) -> list[tuple[str, Any]]:
        found = ((part, package.optional_xml(part, holds_text=True))
                 for part in package.related(document, suffix, holds_text=True))
        return [(part, root) for part, root in found if root is not None]

    headers_footers = bool(config.get("office", "headers_footers", True))
    unresolved = 0
    if headers_footers:
        unresolved += _parts(walker, parts("/header"), "header", package, config, problems)
    walker.graphics = related_graphics(package, document)
    declared = walker.declared = (DeclaredGraphics(package, document)
                                  if package.relationships_damaged(document) else None)
    walker.chunks = alt_chunk_pages(package, document, config, problems)
    walker.blocks(package.blocks(document, "body"))
    if walker.unclosed_fields():
        problems.append(unclosed_field_warning("the body"))
    if declared is not None:
        problems.extend(declared.warnings(document))
    # the other parts number their relationships anew
    walker.graphics, walker.chunks, walker.declared = {}, {}, None
    if config.get("office", "notes", True):
        for suffix, item in (("/footnotes", "footnote"), ("/endnotes", "endnote")):
            # the notes are stories of their own, numbered apart from the body
            walker.lists = walker.lists.fresh() if walker.lists is not None else None
            for root in roots(suffix):
                if _notes(walker, root, item):
                    problems.append(unclosed_field_warning(f"a {item}"))
    if config.get("office", "comments", True):
        for root in roots("/comments"):
            if _comments(walker, root):
                problems.append(unclosed_field_warning("a comment"))
    if headers_footers:
        unresolved += _parts(walker, parts("/footer"), "footer", package, config, problems)
    return unresolved + (declared.unresolved if declared is not None else 0)


def _parts(walker: Walker, parts: Sequence[tuple[str, Any]], kind: str, package: PackageXml,
           config: Config, problems: list[tuple[str, str]]) -> int:
    """Each header or footer once, with the SmartArt, charts and merged chunks its own
    relationships name (a letterhead converted from HTML is an altChunk); the count of
    their charts and SmartArt graphics whose part could not be found."""
    seen: set[str] = set()
    unresolved = 0
    for part, root in parts:
        inner = PageBuilder()
        reader = Walker(inner, walker.styles, kinds=False,
                        graphics=related_graphics(package, part),
                        lists=walker.lists.fresh() if walker.lists is not None else None)
        reader.declared = (DeclaredGraphics(package, part)
                           if package.relationships_damaged(part) else None)
        reader.chunks = alt_chunk_pages(package, part, config, problems)
        reader.blocks(root)
        if reader.declared is not None:
            problems.extend(reader.declared.warnings(part))
            unresolved += reader.declared.unresolved
        if reader.unclosed_fields():
            problems.append(unclosed_field_warning(f"a {kind}"))
        if inner.text.strip() and inner.text not in seen:
            seen.add(inner.text)
            walker.page.add(inner.text, kind)
            walker.page.hidden += inner.hidden
    return unresolved


def unclosed_field_warning(where: str) -> tuple[str, str]:
    return ("CorruptDocument", f"a field in {where} never ends (its end mark is missing): "
            "the text after it, which Word would hide as field code, is read as paragraphs")


def _notes(walker: Walker, root: Any, item: str) -> bool:
    """The notes of ``root``; True when a field in one never ends."""
    unclosed = False
    for note in children(root, item):
        if attr(note, "type") in ("separator", "continuationSeparator", "continuationNotice"):
            continue
        unclosed = walker.story(note) or unclosed
    return unclosed


def _comments(walker: Walker, root: Any) -> bool:
    """The comments of ``root``, each with its author; True when a field in one never ends."""
    unclosed = False
    for comment in children(root, "comment"):
        inner = PageBuilder()
        reader = Walker(inner, walker.styles, kinds=False,
                        lists=walker.lists.fresh() if walker.lists is not None else None)
        reader.blocks(comment)
        unclosed = reader.unclosed_fields() or unclosed
        if inner.text.strip():
            author = attr(comment, "author")
            prefix = f"Comment ({author}): " if author else "Comment: "
            walker.page.add(prefix + inner.text, "paragraph")
            walker.page.hidden += inner.hidden
    return unclosed
