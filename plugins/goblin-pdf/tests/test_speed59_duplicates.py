"""The duplicate-glyph screen orders glyphs by one integer key when it fits in int64, and
by NumPy's two-key sort otherwise: both orders must find the same copies."""

from __future__ import annotations

import numpy as np
import pytest

from goblin_pdf.layout import duplicates


def _page(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Glyphs on a few lines, with bold copies a fraction of a point off, ligature pieces
    sharing one box, equal left edges, and left edges of -0.0, 0.0 and NaN."""
    rng = np.random.default_rng(seed)
    n = 400
    chars = rng.choice(np.array([ord(c) for c in "aeilnst.,"]), n).astype(np.int64)
    x0 = np.round(rng.uniform(0, 50, n), 1)
    y0 = rng.choice(np.array([0.0, 12.0, 24.0, 36.0]), n)
    box = np.column_stack([x0, y0, x0 + 5, y0 + 10])
    copies = rng.choice(n, 60, replace=False)
    box[copies[:30], 0] += 0.3  # bold drawn twice, a little to the right
    box[copies[30:], :] = box[copies[30:] - 1]  # a ligature's pieces: one box
    chars[copies[30:]] = chars[copies[30:] - 1]
    box[:3, 0] = [-0.0, 0.0, np.nan]
    return chars, box


@pytest.mark.parametrize("seed", range(5))
def test_one_key_order_finds_the_copies_the_two_key_sort_finds(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    chars, box = _page(seed)
    slant = np.full(len(chars), 0.2)
    found = duplicates.duplicate_mask(chars, box, slant)
    monkeypatch.setattr(duplicates, "_MAX_KEY", 0)  # every key too large: the two-key sort
    assert found.tolist() == duplicates.duplicate_mask(chars, box, slant).tolist()
    assert found.any()
