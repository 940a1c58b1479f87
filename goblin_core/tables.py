"""Rendering the one Table model as Markdown and HTML."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from goblin_core.model import Table


def _md_cell(text: str) -> str:
    return " ".join(text.split()).replace("\\", "\\\\").replace("|", "\\|")


def table_to_markdown(table: Table) -> str:
    """A GitHub Markdown table; the first row is the header when none is marked.

    >>> from goblin_core.model import Table
    >>> print(table_to_markdown(Table(rows=(("a", "b|c"), ("1", "2")))))
    | a | b\\|c |
    | --- | --- |
    | 1 | 2 |
    """
    width = table.n_columns
    if not width:
        return ""
    rows = [list(r) + [""] * (width - len(r)) for r in table.rows]
    lines = ["| " + " | ".join(_md_cell(c) for c in rows[0]) + " |",
             "| " + " | ".join("---" for _ in range(width)) + " |"]
    lines.extend("| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows[1:])
    return "\n".join(lines)


def table_to_html(table: Table) -> str:
    """An HTML table; header rows as ``<th>`` cells, everything escaped."""
    header_rows = table.header_rows or 1
    parts = ["<table>"]
    for i, row in enumerate(table.rows):
        tag = "th" if i < header_rows else "td"
        cells = "".join(f"<{tag}>{html.escape(c)}</{tag}>" for c in row)
        parts.append(f"<tr>{cells}</tr>")
    parts.append("</table>")
    return "\n".join(parts)
