"""Office 2003 XML: WordprocessingML 2003 (``w:wordDocument``) and SpreadsheetML 2003
(``ss:Workbook``), what Word and Excel 2003 save as "XML Document" / "XML Spreadsheet".

Both are one XML file, read with the hardened parser. A Word 2003 body is walked
with the docx walker (the two vocabularies share their paragraph, run and table
names); its section headers and footers, inline footnotes and comment annotations
are gathered around it, and pictures' base64 (``w:binData``) is never text. A
SpreadsheetML workbook gives one page per worksheet, its cells as a Table.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.cells import cell_text
from goblin_office.layout import PageBuilder
from goblin_office.numbering import WordListCounter, WordNumbering
from goblin_office.safexml import attr, children, descendants, local_name, parse_xml
from goblin_office.sheetextras import SheetExtras, header_footer_text
from goblin_office.spreadsheet import capped_rows, cut_sheet_warnings, sheet_page
from goblin_office.word import Styles, Walker, is_comment, unclosed_field_warning
from goblin_office.xmltext import office_xml_root

# a row or a cell may jump ahead (ss:Index); past this the index is not believed
_MAX_COLUMNS = 16_384
_MAX_ROWS = 1_048_576


def _root(source: Source, config: Config, expected: str) -> Any:
    root = parse_xml(
        source.bytes(),
        name=source.display_name,
        max_depth=int(config.get("limits", "max_xml_depth", 256)),
    )
    if local_name(root) != expected:
        raise CorruptDocument(f"the XML root is not {expected}", file=source.display_name)
    return root


_PROPERTIES = (
    ("title", "Title"),
    ("author", "Author"),
    ("subject", "Subject"),
    ("created", "Created"),
    ("modified", "LastSaved"),
)


def _properties(root: Any) -> dict[str, str]:
    found: dict[str, str] = {}
    for props in descendants(root, "DocumentProperties")[:1]:
        for key, name in _PROPERTIES:
            value = (props.findtext("{*}" + name) or "").strip()
            if value:
                found[key] = value
    return found


class Word2003Parser(BaseEngine):
    """WordprocessingML 2003: body, headers, footers, footnotes and comments."""

    name = "office.word2003"
    formats = (fmt.WORD_2003,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        problems: list[tuple[str, str]] = []
        # a file cut short (a download or a copy that stopped) keeps its text before the
        # cut: a paragraph, a table or the body still open at the end lost the rest, and
        # the last section's headers and footers, which Word writes after its paragraphs
        root = office_xml_root(
            source.bytes(), name=source.display_name,
            max_depth=int(config.get("limits", "max_xml_depth", 256)),
            enclosing=frozenset({"p", "tbl", "body"}), left_out=problems)
        if local_name(root) != "wordDocument":
            raise CorruptDocument("the XML root is not wordDocument", file=source.display_name)
        styles = children(root, "styles")
        style_sheet = Styles(styles[0] if styles else None)
        lists = children(root, "lists")
        walker = Walker(PageBuilder(engine=self.name), style_sheet, lists=WordListCounter(
            WordNumbering(lists[0] if lists else None, style_sheet.numbering)))
        bodies = children(root, "body")
        headers_footers = bool(config.get("office", "headers_footers", True))
        if headers_footers:
            _stories(walker, bodies, "hdr", "header")
        for body in bodies:
            walker.blocks(body)
        if walker.unclosed_fields():
            problems.append(unclosed_field_warning("the body"))
        if config.get("office", "notes", True):
            for body in bodies:
                for note in (*descendants(body, "footnote"), *descendants(body, "endnote")):
                    if walker.story(note):
                        problems.append(unclosed_field_warning("a note"))
        if config.get("office", "comments", True):
            for body in bodies:
                _comments(walker, body)
        if headers_footers:
            _stories(walker, bodies, "ftr", "footer")
        metadata: dict[str, Any] = _properties(root)
        if problems:
            metadata["recovered"] = True
        parsed = TextDocument([walker.page.build()], metadata=metadata)
        parsed.warnings = problems
        return parsed


def _plain_text(walker: Walker, elements: list[Any]) -> str:
    inner = PageBuilder()
    for element in elements:
        Walker(inner, walker.styles, kinds=False,
               lists=walker.lists.fresh() if walker.lists is not None else None).blocks(element)
    return inner.text


def _stories(walker: Walker, bodies: list[Any], name: str, kind: str) -> None:
    seen: set[str] = set()
    for body in bodies:
        for story in descendants(body, name):
            text = _plain_text(walker, [story])
            if text.strip() and text not in seen:
                seen.add(text)
                walker.page.add(text, kind)


def _comments(walker: Walker, body: Any) -> None:
    for annotation in descendants(body, "annotation"):
        text = _plain_text(walker, children(annotation, "content"))
        if is_comment(annotation) and text.strip():
            author = attr(annotation, "author")
            prefix = f"Comment ({author}): " if author else "Comment: "
            walker.page.add(prefix + text)


class SpreadsheetML2003Parser(BaseEngine):
    """SpreadsheetML 2003: one page per worksheet, cells, comments, print headers and footers."""

    name = "office.spreadsheetml2003"
    formats = (fmt.SPREADSHEETML_2003,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        root = _root(source, config, "Workbook")
        max_cells = int(config.get("office", "max_sheet_cells", 5_000_000))
        max_chars = int(config.get("limits", "max_output_chars", 100_000_000))
        read_hidden = bool(config.get("office", "hidden_sheets", True))
        pages: list[PageContent] = []
        metadata: dict[str, Any] = _properties(root)
        hidden_names: list[str] = []
        sheets = children(root, "Worksheet")
        for number, sheet in enumerate(sheets, start=1):
            name = attr(sheet, "Name") or f"Sheet{number}"
            hidden = _is_hidden(sheet)
            if hidden:
                if not read_hidden:
                    continue
                hidden_names.append(name)
            extras = SheetExtras()
            # a sheet of a few values far apart is read as a list of its cells, and one
            # past the limits is cut, as the other workbooks' sheets are
            rows = capped_rows(_sheet_rows(sheet, extras), name, max_cells, metadata,
                               max_chars)
            for setup in descendants(sheet, "PageSetup"):
                for part, texts in (("Header", extras.headers), ("Footer", extras.footers)):
                    for element in children(setup, part):
                        text = header_footer_text(attr(element, "Data"))
                        if text:
                            texts.append(text)
            pages.append(sheet_page(len(pages) + 1, name, rows, extras, self.name, hidden))
        if not pages and not sheets:
            raise CorruptDocument("the workbook holds no worksheet", file=source.display_name)
        metadata["sheets"] = [page.label for page in pages]
        if hidden_names:
            metadata["hidden_sheets"] = hidden_names
        document = TextDocument(pages, metadata=metadata)
        document.warnings = cut_sheet_warnings(metadata.get("truncated_sheets", ()), config)
        return document


def _is_hidden(sheet: Any) -> bool:
    """Whether Excel hides the worksheet (``SheetHidden``, or ``SheetVeryHidden``, which
    only a macro shows again), as its options say."""
    return any((element.text or "").strip() in ("SheetHidden", "SheetVeryHidden")
               for options in children(sheet, "WorksheetOptions")
               for element in children(options, "Visible"))


def _sheet_rows(sheet: Any, extras: SheetExtras) -> Iterator[list[str]]:
    """The rows of a worksheet, a row or cell an ``ss:Index`` skips to after empty ones;
    its cells' comments go to ``extras`` as the rows are read."""
    count = 0
    for table in children(sheet, "Table"):
        for row in children(table, "Row"):
            index = _index(row, count, _MAX_ROWS)
            for _ in range(index - count):
                yield []
            count = index + 1
            values: list[str] = []
            following = 0  # the column of a cell that names none: after the last one's merge
            for cell in children(row, "Cell"):
                column = _index(cell, following, _MAX_COLUMNS)
                values.extend("" for _ in range(column - len(values)))
                values.append(_cell_text(cell))
                span = attr(cell, "MergeAcross")
                # the merged columns are spelled out only before a cell after them, and
                # never past the sheet's last column, however wide the merge claims to be
                merged = int(span) if span.isdigit() else 0
                following = max(len(values), min(len(values) + merged, _MAX_COLUMNS))
                for comment in children(cell, "Comment"):
                    text = " ".join("".join(comment.itertext()).split())
                    if text:
                        extras.comments.append(f"Comment: {text}")
            yield values


def _index(element: Any, following: int, highest: int) -> int:
    """The 0-based position of a row or cell: its ss:Index (1-based) or the next one."""
    value = attr(element, "Index")
    if value.isdigit() and following < int(value) <= highest:
        return int(value) - 1
    return following


def _cell_text(cell: Any) -> str:
    for data in children(cell, "Data"):
        text = "".join(data.itertext())
        kind = attr(data, "Type")
        if kind == "DateTime":
            return _iso_datetime(text.strip())
        if kind == "Boolean":  # written 1 or 0; every other reader shows TRUE or FALSE
            return {"1": "TRUE", "0": "FALSE"}.get(text.strip(), text)
        return text
    return ""


def _iso_datetime(value: str) -> str:
    """Excel 2003's 1899-12-31T... with milliseconds, as the cell shows it and as every
    other reader writes it (``cell_text``): a date, a time or both in ISO 8601, the time
    after a space.

    >>> [_iso_datetime(v) for v in ("2024-03-15T00:00:00.000", "1899-12-31T12:00:00.000",
    ...                             "2024-03-15T10:30:00.000", "1900-02-29T06:00:00.000")]
    ['2024-03-15', '12:00:00', '2024-03-15 10:30:00', '1900-02-29 06:00:00']
    """
    value = value.removesuffix(".000")
    date, _, time = value.partition("T")
    if time in ("", "00:00:00"):
        return date
    if date in ("1899-12-31", "1899-12-30"):
        return time
    try:
        return cell_text(dt.datetime.fromisoformat(f"{date}T{time}"))
    except ValueError:
        # a day the calendar lacks (Excel's 29 February 1900), or no date at all
        return f"{date} {time}"
