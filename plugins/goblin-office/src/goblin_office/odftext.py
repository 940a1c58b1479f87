"""The text of an OpenDocument paragraph: spans, spaces (text:s), tabs, line breaks."""

from __future__ import annotations

from typing import Any

from goblin_office.safexml import attr, local_name

_INLINE_SKIP = frozenset(
    {
        "annotation",
        "annotation-end",
        "note",
        "frame",
        "bookmark",
        "bookmark-start",
        "bookmark-end",
        "reference-mark",
        "soft-page-break",
        "custom-shape",
        "rect",
        "ellipse",
        "line",
        "g",
        "image",
    }
)


def inline_text(element: Any) -> str:
    """A paragraph's own text: spans, spaces (text:s), tabs and line breaks."""
    out: list[str] = []
    _inline(element, out)
    return "".join(out)


def _inline(element: Any, out: list[str]) -> None:
    if element.text:
        out.append(element.text)
    for child in element:
        name = local_name(child)
        if name == "s":
            count = attr(child, "c", "1")
            out.append(" " * min(int(count) if count.isdigit() else 1, 1000))
        elif name == "tab":
            out.append("\t")
        elif name == "line-break":
            out.append("\n")
        elif name and name not in _INLINE_SKIP and (child.text or "") != "???":
            # "???" is what an unrendered field (sheet name, page count) holds in the file
            _inline(child, out)
        if child.tail:
            out.append(child.tail)
