"""What the layout reader made of a page, and of its structure tree.

Apart from the reader itself, which needs NumPy: most pages are settled before
any glyph is read, and they need only these records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from goblin_core.model import Block

if TYPE_CHECKING:  # the records are made without NumPy; only the rebuild fills ranks
    import numpy as np


@dataclass(frozen=True)
class TagOutcome:
    """Whether the structure tree was followed on a page, with the gate's figures."""

    used: bool
    reason: str
    coverage: float = 0.0
    dangling: float = 0.0
    blocks: tuple[Block, ...] = field(default=())
    #: each glyph's place in the tree's reading order (-1: in no tagged content), by
    #: PDFium index, when the tree was followed
    ranks: np.ndarray | None = field(default=None, compare=False, repr=False)

    @classmethod
    def skipped(cls, reason: str) -> TagOutcome:
        return cls(False, reason)

    def describe(self) -> str:
        """One line for the page report.

        >>> TagOutcome(True, "", 0.9, 0.0).describe()
        'tags used (coverage 0.90, dangling 0.00)'
        """
        if self.used:
            return f"tags used (coverage {self.coverage:.2f}, dangling {self.dangling:.2f})"
        return f"tags not used: {self.reason}"


@dataclass(frozen=True)
class PageLayout:
    """What the layout reader made of a page.

    ``text`` is the plain text (reading order when it was rebuilt, else PDFium's
    own); ``blocks`` the page's blocks (from tags when they passed the gate);
    ``columns`` how many columns were found; ``tags`` what happened to the
    structure tree (``used`` false with the reason when it was not followed).
    """

    text: str
    blocks: tuple[Block, ...]
    columns: int
    reordered: bool
    tags: TagOutcome
