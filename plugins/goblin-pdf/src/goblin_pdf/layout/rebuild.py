"""A page rebuilt from its glyph boxes: columns, reading order, blocks, tags.

Loaded only when a page needs it (columns found, accents to attach, a structure
tree to follow, or ``layout = "reading_order"``): it reads every glyph's box
into NumPy arrays, which most pages of most PDFs never need.
"""

from __future__ import annotations

import ctypes
import itertools
import math
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import NamedTuple

import numpy as np
import pypdfium2 as pdfium

from goblin_core.model import Block
from goblin_pdf.layout.accents import SPACING_TO_COMBINING, attach_accents, dotted
from goblin_pdf.layout.bands import column_bands
from goblin_pdf.layout.column_screen import Box, may_have_columns
from goblin_pdf.layout.columns import column_gutters, read_across
from goblin_pdf.layout.drop_capitals import attach_drop_capitals
from goblin_pdf.layout.duplicates import duplicate_mask
from goblin_pdf.layout.glyphs import Glyphs, is_space, read_glyphs
from goblin_pdf.layout.lines import Run, build_runs
from goblin_pdf.layout.native import ink_boxed
from goblin_pdf.layout.outcome import PageLayout, TagOutcome
from goblin_pdf.layout.reading_order import Line, order_lines, paragraphs
from goblin_pdf.layout.settings import LayoutSettings
from goblin_pdf.layout.tags import structure_blocks


def rebuilt_layout(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, raw_text: str,
                   settings: LayoutSettings, tagged: bool, joined: frozenset[int],
                   want_tags: bool, accents: bool, no_tags: TagOutcome,
                   corrected: Mapping[int, str] | None = None,
                   rects: Sequence[Box] | None = None, misread: bool = False) -> PageLayout:
    """The layout of a page the quick checks could not settle: ``want_tags`` whether its
    structure tree is to be followed, ``accents`` whether its text shows a spacing
    accent beside a letter, ``no_tags`` the outcome when the tree is not followed,
    ``corrected`` the characters PDFium read wrongly, put right (by PDFium index),
    ``rects`` the page's ``drawn_text_rects`` when already read, ``misread`` whether
    PDFium's text shows what the rebuild puts right: a line of left-to-right and
    right-to-left letters, whose order PDFium may have turned round, or glyphs of text
    drawn twice over itself interleaved."""
    objects: dict[int, int] = {}
    glyphs = read_glyphs(page, textpage, objects if want_tags else None, corrected)
    outcome = (structure_blocks(page, glyphs, objects, settings) if want_tags
               else no_tags)
    if (outcome.used and settings.layout == "auto" and not accents and not misread
            and not glyphs.sideways and not may_have_columns(textpage, rects)):
        # the tags give the blocks and the text needs no rebuilding: the lines and
        # paragraphs below would be thrown away
        return PageLayout(raw_text, outcome.blocks, 1, False, outcome)
    keep = _kept(glyphs, settings)
    handle = ctypes.cast(textpage.raw, ctypes.c_void_p).value or 0
    runs, attached = _runs(glyphs, keep, joined, partial(ink_boxed, handle))
    gutters, plain = column_gutters(runs, ask_plain=settings.layout == "auto")
    bands = column_bands(runs, gutters)
    # The text scan only says an accent sits next to a letter (``x~`` in a formula does
    # too); a page is rebuilt for accents only when one is drawn over a letter. PDFium
    # orders lines as the page is shown, so text running down it comes out last line
    # first: a page of sideways text is read turned back.
    # columns new to the plain search are reordered where PDFium's text reads across
    # them: a page of several bands of columns may show some bands only, a symbol list
    # reads as columns of prose, and PDFium's order is right for most producers
    columned = settings.layout == "auto" and ((bool(gutters) and plain) or any(
        band.gutters and read_across(band.runs, band.gutters) for band in bands))
    reorder = settings.layout == "reading_order" or (
        settings.layout == "auto" and (columned or (accents and attached) or misread
                                       or glyphs.sideways))
    lines = [line for band in bands for line in order_lines(band.runs, band.gutters)]
    if outcome.used and outcome.ranks is not None and settings.layout == "auto" and columned:
        # what the layout shows as columns may be a sidebar the text flows around: the
        # tree, where it reads the columns as they stand, says which text goes on where
        lines = in_tag_order(lines, outcome.ranks)
    blocks = paragraphs(lines) + _rotated_blocks(glyphs, keep)
    columns = max(len(band.gutters) for band in bands) + 1
    text = _text(blocks) if reorder else raw_text
    if outcome.used:
        return PageLayout(text, outcome.blocks, columns, reorder, outcome)
    return PageLayout(text, tuple(blocks) if reorder or tagged else (), columns, reorder,
                      outcome)


#: Share of the steps down a column whose tags go back, past which the tree's order is
#: not the page's and the columns are read as laid out
_TAG_DISORDER = 0.1


def in_tag_order(lines: list[Line], ranks: np.ndarray) -> list[Line]:
    """``lines``, the page read column by column, put in the block order of the structure
    tree the page passed the gate with (``ranks``: each glyph's block), each block's
    lines in the order they had: a sidebar or a float that the text flows around is read
    whole, where the tree has it, and the text beside it and under it as one. A line
    goes with the block of its earliest glyph; one outside the tree (a page number, a
    running head) with the line before it. The tree's order is taken only where it reads
    each column top to bottom as ``lines`` do, ``_TAG_DISORDER`` of the steps aside."""
    keys: list[int] = []
    last = -1
    for line in lines:
        rank = int(ranks[line.first]) if 0 <= line.first < ranks.size else -1
        last = rank if rank >= 0 else last
        keys.append(last)
    steps = back = 0
    for k in range(1, len(lines)):
        above, below = lines[k - 1], lines[k]
        if above.column == below.column >= 0 and below.y1 < above.y1:
            steps += 1
            back += keys[k] < keys[k - 1]
    if back > _TAG_DISORDER * steps:
        return lines
    return [lines[k] for k in sorted(range(len(lines)), key=lambda k: (keys[k], k))]


def _kept(glyphs: Glyphs, settings: LayoutSettings) -> np.ndarray:
    """Indices of the upright drawn glyphs to lay out (duplicates dropped when asked)."""
    keep = np.nonzero(glyphs.upright)[0]
    if settings.suppress_duplicate_text and keep.size > 1:
        slant = None
        if glyphs.angle is not None:
            # a sheared oblique's slant, folded within an eighth of a turn of upright
            lean = (glyphs.angle[keep] + math.pi / 4) % (math.pi / 2) - math.pi / 4
            slant = np.abs(np.tan(lean))
        keep = keep[~duplicate_mask(glyphs.codes[keep], glyphs.box[keep], slant)]
    return keep


def _runs(glyphs: Glyphs, keep: np.ndarray, joined: frozenset[int] = frozenset(),
          ink: Callable[[int], bool] | None = None) -> tuple[list[Run], bool]:
    """The kept glyphs as line runs, and whether any spacing accent was attached to a letter."""
    if keep.size == 0:
        return [], False
    box, links = attach_accents(glyphs.codes[keep], glyphs.box[keep])
    order_key = np.arange(keep.size, dtype=np.float64)
    for accent, letter in links.items():  # an accent read right after its letter
        order_key[accent] = letter + 0.5
    order = np.argsort(order_key, kind="stable")
    codes = glyphs.codes[keep].copy()
    for accent, letter in links.items():
        mark = SPACING_TO_COMBINING[chr(codes[accent])]
        codes[accent] = ord(mark)
        codes[letter] = ord(dotted(chr(codes[letter]), mark))
    chars = codes[order].astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    stream = keep[order]
    space = is_space(glyphs.codes) | ~glyphs.drawn
    if joined:
        space[[i for i in joined if i < space.size]] = False
    before = np.zeros(stream.size, dtype=bool)
    before[stream > 0] = space[stream[stream > 0] - 1]
    if links:
        before[np.isin(order, list(links))] = False  # an attached accent never opens a word
    # spaces the text took back (letter-spaced type): the boxes around them part nothing;
    # line breaks taken back are left to the boxes, which may still show a word gap
    taken_back = [i for i in joined if i < glyphs.codes.size and glyphs.codes[i] == 0x20]
    joined_before = np.isin(stream - 1, taken_back) if taken_back else None
    runs = build_runs(chars, box[order], stream, before, ink, joined_before)
    return attach_drop_capitals(runs), bool(links)


def _rotated_blocks(glyphs: Glyphs, keep: np.ndarray) -> list[Block]:
    """Text drawn at an angle (margin notes, rotated table headers), one block per line
    of it, in stream order, after the page's upright text. A glyph goes on the line of
    the one before when it runs at its angle and begins about where that one ends along
    the way they run, a word gap apart when PDFium's text has a space between them or
    it stands a fifth of a glyph or more away. Some producers (Skia) draw turned text
    glyph by glyph, a text object each, and PDFium puts a line break after every one."""
    rotated = np.nonzero(glyphs.drawn & ~glyphs.upright)[0].tolist()
    if not rotated:
        return []
    reach = _reach(glyphs, np.asarray(rotated))
    texts = [glyphs.text[rotated[0]]]
    for previous, index in itertools.pairwise(rotated):
        between = glyphs.text[previous + 1:index]
        if _quarter_turn(reach.angle[index]):
            joined = _joined(reach, previous, index)
            if joined is not None and " " in between:
                joined = " "
        elif abs(reach.angle[index] - reach.angle[previous]) < _SAME_ANGLE:
            # the boxes of glyphs at a slant overlap and gape as their corners fall: only
            # PDFium's text tells their words apart
            joined = " " if any(char.isspace() for char in between) else ""
        else:
            joined = None
        if joined is None:
            texts.append(glyphs.text[index])
        else:
            texts[-1] += joined + glyphs.text[index]
    lines = (" ".join(text.split()) for text in texts)
    return [Block("paragraph", line) for line in lines if line]


class _Reach(NamedTuple):
    """Rotated glyphs along the way they run, by PDFium index: start and end along it,
    middle and size across it, and angle."""

    start: dict[int, float]
    end: dict[int, float]
    middle: dict[int, float]
    size: dict[int, float]
    angle: dict[int, float]


def _reach(glyphs: Glyphs, rotated: np.ndarray) -> _Reach:
    theta = glyphs.angle[rotated] if glyphs.angle is not None else np.zeros(rotated.size)
    x0, y0, x1, y1 = glyphs.box[rotated].T
    corners_x = np.column_stack([x0, x0, x1, x1])
    corners_y = np.column_stack([y0, y1, y0, y1])
    cos, sin = np.cos(theta)[:, None], np.sin(theta)[:, None]
    along = corners_x * cos - corners_y * sin  # PDFium's angles turn clockwise, y up
    across = corners_x * sin + corners_y * cos
    keys = rotated.tolist()

    def by_index(values: np.ndarray) -> dict[int, float]:
        return dict(zip(keys, values.tolist(), strict=True))

    return _Reach(by_index(along.min(axis=1)), by_index(along.max(axis=1)),
                  by_index((across.max(axis=1) + across.min(axis=1)) / 2),
                  by_index(np.maximum(across.max(axis=1) - across.min(axis=1), 1e-3)),
                  by_index(theta))


def _joined(reach: _Reach, last: int, first: int) -> str | None:
    """What goes between rotated glyphs ``last`` and ``first`` (PDFium indices, in
    stream order) when ``first`` goes on the line of ``last``: nothing or a word gap;
    None when it starts a line of its own."""
    scale = max(reach.size[last], reach.size[first])
    gap = reach.start[first] - reach.end[last]
    if (abs(reach.angle[first] - reach.angle[last]) >= _SAME_ANGLE
            or abs(reach.middle[first] - reach.middle[last]) >= 0.5 * scale
            or not -0.5 * scale < gap < scale):
        return None
    return " " if gap >= _ROTATED_WORD_GAP * scale else ""


_SAME_ANGLE = 0.02  # radians within which two rotated glyphs run one way


def _quarter_turn(angle: float) -> bool:
    """Whether glyphs at ``angle`` run straight up, down or back, so that their boxes,
    upright rectangles, fit them."""
    quarter = math.pi / 2
    return abs(angle - quarter * round(angle / quarter)) < _SAME_ANGLE
_ROTATED_WORD_GAP = 0.2  # gap between rotated glyphs, in glyph sizes, that parts words


def _text(blocks: list[Block]) -> str:
    return unicodedata.normalize("NFC", "\n\n".join(b.text for b in blocks if b.text))
