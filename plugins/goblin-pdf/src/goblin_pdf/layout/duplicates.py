"""Duplicate overlapping glyphs: fake bold and shadow effects draw the same text twice."""

from __future__ import annotations

import numpy as np

_OVERLAP = 0.2  # of the glyph height: closer copies of the same character are one glyph
_OFF_BASELINE = 0.25  # of that distance: a copy this far up or down is off the baseline
# Rows a page may span for the one-key sort: code point (< 0x110000) x rows stays in int64.
_MAX_ROWS = 2**40
# Keys of character, row and left edge that stay in int64.
_MAX_KEY = 2**62


def duplicate_mask(chars: np.ndarray, box: np.ndarray,
                   slant: np.ndarray | None = None) -> np.ndarray:
    """True for each glyph that repeats an earlier glyph of the same character at
    (nearly) the same place.

    ``chars`` holds the character codes (int), ``box`` the (n, 4) boxes, ``slant`` the
    tangent of each glyph's slant (a sheared oblique's box is wider than its letter by
    its height times that; None: all upright).
    Two copies of a letter in a word ("ll") sit a whole advance apart, so a copy
    counts only when it is shifted by less than half its width.

    >>> codes = np.array([ord("f"), ord("f"), ord("i"), ord("f")])
    >>> boxes = np.array([[0, 0, 9, 10], [0, 0, 9, 10], [0, 0, 9, 10], [0.4, 0, 9.4, 10]])
    >>> duplicate_mask(codes, boxes).tolist()  # an "ffi" ligature, then a bold copy
    [False, False, False, True]
    >>> codes = np.array([ord(c) for c in "abab"])
    >>> duplicate_mask(codes, np.array([[0, 0, 9, 10]] * 4)).tolist()  # one glyph
    [False, False, False, False]
    """
    n = len(chars)
    if n < 2:
        return np.zeros(n, dtype=bool)
    height = np.maximum(box[:, 3] - box[:, 1], 1e-6)
    tol = max(float(np.median(height)) * _OVERLAP, 1e-6)
    # Copies less than ``tol`` apart up or down share a band of twice that height in one
    # of two grids offset by ``tol`` (one grid alone cuts some pairs apart: a shadow drawn
    # a point and a half lower).
    width = box[:, 2] - box[:, 0]
    if slant is not None:
        width = np.maximum(width - height * slant, 0.0)
    # A run of stream neighbours with the very same box is one glyph giving several
    # characters (the "ff" of an "ffi" ligature, a word drawn as one shape, whose
    # letters may repeat), not a copy drawn over it: each glyph numbered once for both grids.
    glyph = np.concatenate([[0], np.cumsum(np.any(box[1:] != box[:-1], axis=1))])
    # Where each glyph's left edge stands among the page's distinct left edges: a rank
    # that sorts as the edge does (equal edges, -0.0 and 0.0 too, share one), so that one
    # stable sort of an integer key orders by character, row and edge at once.
    edges, edge_rank = np.unique(box[:, 0], return_inverse=True)
    mask = np.zeros(n, dtype=bool)
    for offset in (0.0, tol):
        rows = np.floor((box[:, 1] + offset) / (2 * tol))
        mask |= _copies(chars, box, width, rows - rows.min(), tol, glyph,
                        edge_rank.reshape(-1), edges.size)
    return mask


def _shadowed(same: np.ndarray, step: np.ndarray, rise: np.ndarray, tol: float) -> np.ndarray:
    """Pairs of like glyphs (``same``; each after the other left to right) off one another's
    baseline by the shift most such pairs share: a shadow's copies of narrow letters,
    whose shift may pass half their width. A letter written twice (``tt``) lies on one
    baseline, and its copy's neighbour in the other copy is shifted the other way."""
    off = same & (np.abs(rise) >= _OFF_BASELINE * tol) & (np.abs(rise) < tol)
    off &= np.abs(step) < tol
    if not off.any():
        return off
    usual_step, usual_rise = float(np.median(step[off])), float(np.median(rise[off]))
    return off & (np.abs(step - usual_step) < _OFF_BASELINE * tol) & (
        np.abs(rise - usual_rise) < _OFF_BASELINE * tol)


def _copies(chars: np.ndarray, box: np.ndarray, letter_width: np.ndarray, rows: np.ndarray,
            tol: float, glyph: np.ndarray, edge_rank: np.ndarray, edges: int) -> np.ndarray:
    """:func:`duplicate_mask` for the glyphs' band numbers ``rows`` (0 and up), with the
    widths of their letters, the number of the glyph each character comes from, and the
    rank of each left edge among the ``edges`` distinct ones."""
    n = len(chars)
    if rows.max() < _MAX_ROWS:
        # character and row in one integer key: a two-key sort instead of three
        key = chars.astype(np.int64) * (int(rows.max()) + 1) + rows.astype(np.int64)
        if (int(key.max()) + 1) * edges < _MAX_KEY:
            # the left edge's rank in the key too: one stable sort of integers, which
            # orders as the two-key sort does (ties kept in stream order) in less time
            order = np.argsort(key * edges + edge_rank, kind="stable")
        else:
            order = np.lexsort((box[:, 0], key))
        same = key[order][1:] == key[order][:-1]
    else:
        order = np.lexsort((box[:, 0], rows, chars))
        same = (chars[order][1:] == chars[order][:-1]) & (rows[order][1:] == rows[order][:-1])
    width = letter_width[order]
    x, y = box[order, 0], box[order, 1]
    step, rise = x[1:] - x[:-1], y[1:] - y[:-1]
    close = (np.abs(step) < np.minimum(tol, 0.5 * np.minimum(width[1:], width[:-1])))
    close &= np.abs(rise) < tol
    close |= _shadowed(same, step, rise, tol)
    dup_sorted = np.concatenate([[False], same & close])
    mask = np.zeros(n, dtype=bool)
    # keep the copy drawn first: of each duplicate pair, mark the later stream index
    pairs = np.nonzero(dup_sorted)[0]
    first, second = order[pairs - 1], order[pairs]
    ligature = glyph[first] == glyph[second]
    mask[np.maximum(first, second)[~ligature]] = True
    return mask
