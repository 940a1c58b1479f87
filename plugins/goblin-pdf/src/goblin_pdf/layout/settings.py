"""What the layout reader is asked to do: the ``[pdf]`` layout options as one value."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

LAYOUT_MODES = ("auto", "reading_order", "raw")
TAG_MODES = ("auto", "tags", "none")


@dataclass(frozen=True)
class LayoutSettings:
    """Layout options.

    ``layout``: ``auto`` reorders only pages where columns are found (and those
    PDFium misreads: a line of Latin and right-to-left letters, text drawn twice over
    itself), ``reading_order`` always rebuilds the order from character boxes, ``raw``
    keeps PDFium's order. ``marked_content``: ``auto`` follows the structure tree
    of a tagged page that passes the gate (``min_coverage`` of the page's text
    tagged, at most ``max_dangling_ratio`` of its leaves empty), ``tags`` follows
    it whenever there is one, ``none`` ignores it.
    """

    layout: str = "auto"
    marked_content: str = "auto"
    min_coverage: float = 0.5
    max_dangling_ratio: float = 0.2
    suppress_duplicate_text: bool = True

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> LayoutSettings:
        """Settings from a ``[pdf]`` option mapping; missing keys keep their defaults."""
        defaults = cls()
        layout = str(options.get("layout", defaults.layout))
        tags = str(options.get("marked_content", defaults.marked_content))
        return cls(
            layout=layout if layout in LAYOUT_MODES else defaults.layout,
            marked_content=tags if tags in TAG_MODES else defaults.marked_content,
            min_coverage=float(options.get("min_coverage", defaults.min_coverage)),
            max_dangling_ratio=float(options.get("max_dangling_ratio",
                                                 defaults.max_dangling_ratio)),
            suppress_duplicate_text=bool(options.get("suppress_duplicate_text",
                                                     defaults.suppress_duplicate_text)),
        )
