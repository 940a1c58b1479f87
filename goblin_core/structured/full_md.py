"""MinerU-compatible ``full.md``: prose, then each table as an HTML ``<table>``.

Item parsers downstream read ``<td>`` cells with a regular expression, so
every cell (the header too) is a ``<td>``; every cell is HTML-escaped.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from goblin_core.structured.model import StructuredDocument, TableBlock


def rows_to_html(rows: Sequence[Sequence[str | None]]) -> str:
    """One ``<table>`` with a ``<tr>`` per row and a ``<td>`` per cell, all escaped.

    >>> print(rows_to_html([["a<b", "R$ 1,00"]]))
    <table>
    <tr><td>a&lt;b</td><td>R$ 1,00</td></tr>
    </table>
    """
    width = max((len(r) for r in rows), default=0)
    if not width:
        return ""
    lines = ["<table>"]
    for row in rows:
        cells = [html.escape(str(c).strip()) if c else "" for c in row]
        cells += [""] * (width - len(cells))
        lines.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    lines.append("</table>")
    return "\n".join(lines)


def _comment(block: TableBlock) -> str:
    parts = [f"source={block.source}"]
    if block.page is not None:
        parts.append(f"page={block.page}")
    parts.append(f"index={block.index}")
    if block.sheet:
        parts.append(f"sheet={html.escape(block.sheet)}")
    return "<!-- table " + " ".join(parts) + " -->"


def _table_block(block: TableBlock) -> str:
    body = rows_to_html(block.rows)
    return f"{_comment(block)}\n{body}" if body else ""


def to_full_md(doc: StructuredDocument) -> str:
    """The ``full.md`` text of a structured document ("" when it has nothing).

    With per-page prose (PDF), each page's text is followed by that page's
    tables; otherwise the prose comes first and the tables after it.
    """
    blocks: list[str] = []
    placed: set[int] = set()
    if doc.page_texts:
        for number, text in enumerate(doc.page_texts, start=1):
            blocks.append(text.strip())
            for i, block in enumerate(doc.tables):
                if block.page == number:
                    blocks.append(_table_block(block))
                    placed.add(i)
    else:
        blocks.append(doc.prose.strip())
    blocks.extend(_table_block(b) for i, b in enumerate(doc.tables) if i not in placed)
    kept = [b for b in blocks if b]
    return "\n\n".join(kept) + "\n" if kept else ""
