"""Building a page from a format's structure: text, layout blocks and tables together.

Each parser feeds headings, paragraphs, list items and tables to a
``PageBuilder`` in reading order; the builder keeps the plain text (tables as
tab-separated rows, so plain-text consumers and searches see every cell), the
blocks markdown and HTML output use, and the tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from goblin_core.model import Block, PageContent, Table
from goblin_office.cells import rows_text, trim_rows, without_controls


@dataclass
class PageBuilder:
    """Collects one page's content in reading order."""

    number: int = 1
    label: str = ""
    engine: str = ""
    lines: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    #: characters of the text the document holds but does not show (Word hidden text)
    hidden: int = 0

    def add(self, text: str, kind: str = "paragraph", level: int = 0, *, marker: str = "",
            number: int | None = None) -> None:
        """Add a heading, paragraph, list_item, header, footer... (blank text is skipped).

        A list item's ``level`` is its depth (1 the outermost), ``marker`` the number or
        bullet its ``text`` starts with, ``number`` the item's number (None for a bullet).
        """
        text = text.strip("\n")
        if not text.strip():
            return
        self.lines.append(text)
        self.blocks.append(Block(kind=kind, text=text, level=level, marker=marker, number=number))

    def add_table(
        self, rows: Sequence[Sequence[str]], *, title: str = "", header_rows: int = 0
    ) -> None:
        """Add a table: its rows go into the text, the table into ``tables``."""
        clean = trim_rows(rows)
        clean = without_controls(clean) or clean
        if not any(any(c.strip() for c in row) for row in clean):
            return
        width = max(len(r) for r in clean)
        blank = ("",) * width  # one tuple for every empty row: a CSV may have millions
        padded = tuple(tuple(r) + ("",) * (width - len(r)) if r else blank for r in clean)
        text = rows_text(clean)
        self.lines.append(text)
        # the block marks where the table sits, so markdown and HTML render it in place
        self.blocks.append(Block(kind="table", text=text))
        self.tables.append(
            Table(
                rows=padded,
                page=self.number,
                index=len(self.tables),
                header_rows=header_rows,
                title=title,
                engine=self.engine,
            )
        )

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def build(self) -> PageContent:
        """The finished page."""
        return PageContent(
            number=self.number,
            text=self.text,
            tables=tuple(self.tables),
            blocks=tuple(self.blocks),
            label=self.label,
            hidden_chars=self.hidden,
        )
