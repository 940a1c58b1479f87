"""A page rebuilt from its glyph boxes: columns, reading order, blocks, tags.

Loaded only when a page needs it (columns found, accents to attach, a structure
tree to follow, or ``layout = "reading_order"``): it reads every glyph's box
into NumPy arrays, which most pages of most PDFs never need.
"""

from __future__ import annotations

import ctypes
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from functools import partial

import numpy as np
import pypdfium2 as pdfium

from goblin_core.model import Block
from goblin_pdf.layout.accents import SPACING_TO_COMBINING, attach_accents
from goblin_pdf.layout.column_screen import Box, may_have_columns
from goblin_pdf.layout.columns import find_gutters
from goblin_pdf.layout.duplicates import duplicate_mask
from goblin_pdf.layout.glyphs import SPACES as _SPACES
from goblin_pdf.layout.glyphs import Glyphs, read_glyphs
from goblin_pdf.layout.lines import Run, build_runs
from goblin_pdf.layout.native import ink_boxed
from goblin_pdf.layout.outcome import PageLayout, TagOutcome
from goblin_pdf.layout.reading_order import order_lines, paragraphs
from goblin_pdf.layout.settings import LayoutSettings
from goblin_pdf.layout.tags import structure_blocks


def rebuilt_layout(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, raw_text: str,
                   settings: LayoutSettings, tagged: bool, joined: frozenset[int],
                   want_tags: bool, accents: bool, no_tags: TagOutcome,
                   corrected: Mapping[int, str] | None = None,
                   rects: Sequence[Box] | None = None, mixed: bool = False) -> PageLayout:
    """The layout of a page the quick checks could not settle: ``want_tags`` whether its
    structure tree is to be followed, ``accents`` whether its text shows a spacing
    accent beside a letter, ``no_tags`` the outcome when the tree is not followed,
    ``corrected`` the characters PDFium read wrongly, put right (by PDFium index),
    ``rects`` the page's ``drawn_text_rects`` when already read, ``mixed`` whether a
    line of PDFium's text holds left-to-right and right-to-left letters, whose order
    PDFium may have turned round."""
    objects: dict[int, int] = {}
    glyphs = read_glyphs(page, textpage, objects if want_tags else None, corrected)
    outcome = (structure_blocks(page, glyphs, objects, settings) if want_tags
               else no_tags)
    if (outcome.used and settings.layout == "auto" and not accents and not mixed
            and not glyphs.sideways and not may_have_columns(textpage, rects)):
        # the tags give the blocks and the text needs no rebuilding: the lines and
        # paragraphs below would be thrown away
        return PageLayout(raw_text, outcome.blocks, 1, False, outcome)
    keep = _kept(glyphs, settings)
    handle = ctypes.cast(textpage.raw, ctypes.c_void_p).value or 0
    runs, attached = _runs(glyphs, keep, joined, partial(ink_boxed, handle))
    gutters = find_gutters(runs)
    # The text scan only says an accent sits next to a letter (``x~`` in a formula does
    # too); a page is rebuilt for accents only when one is drawn over a letter. PDFium
    # orders lines as the page is shown, so text running down it comes out last line
    # first: a page of sideways text is read turned back.
    reorder = settings.layout == "reading_order" or (
        settings.layout == "auto" and (bool(gutters) or (accents and attached) or mixed
                                       or glyphs.sideways))
    blocks = paragraphs(order_lines(runs, gutters)) + _rotated_blocks(glyphs, keep)
    text = _text(blocks) if reorder else raw_text
    if outcome.used:
        return PageLayout(text, outcome.blocks, len(gutters) + 1, reorder, outcome)
    return PageLayout(text, tuple(blocks) if reorder or tagged else (), len(gutters) + 1,
                      reorder, outcome)


def _kept(glyphs: Glyphs, settings: LayoutSettings) -> np.ndarray:
    """Indices of the upright drawn glyphs to lay out (duplicates dropped when asked)."""
    keep = np.nonzero(glyphs.upright)[0]
    if settings.suppress_duplicate_text and keep.size > 1:
        keep = keep[~duplicate_mask(glyphs.codes[keep], glyphs.box[keep])]
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
    for accent in links:
        codes[accent] = ord(SPACING_TO_COMBINING[chr(codes[accent])])
    chars = codes[order].astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    stream = keep[order]
    space = np.isin(glyphs.codes, _SPACES) | ~glyphs.drawn
    if joined:
        space[[i for i in joined if i < space.size]] = False
    before = np.zeros(stream.size, dtype=bool)
    before[stream > 0] = space[stream[stream > 0] - 1]
    before[np.isin(order, list(links))] = False  # an attached accent never opens a word
    # spaces the text took back (letter-spaced type): the boxes around them part nothing;
    # line breaks taken back are left to the boxes, which may still show a word gap
    taken_back = [i for i in joined if i < glyphs.codes.size and glyphs.codes[i] == 0x20]
    joined_before = np.isin(stream - 1, taken_back) if taken_back else None
    return build_runs(chars, box[order], stream, before, ink, joined_before), bool(links)


def _rotated_blocks(glyphs: Glyphs, keep: np.ndarray) -> list[Block]:
    """Text drawn at an angle (margin notes, rotated table headers), one block per
    text object, in stream order, after the page's upright text."""
    rotated = np.nonzero(glyphs.drawn & ~glyphs.upright)[0]
    if rotated.size == 0:
        return []
    blocks: list[Block] = []
    objects = glyphs.obj[rotated]
    cuts = np.nonzero(np.diff(objects))[0] + 1
    for part in np.split(rotated, cuts):
        text = "".join(glyphs.text[i] for i in range(int(part[0]), int(part[-1]) + 1))
        text = " ".join(text.split())
        if text:
            blocks.append(Block("paragraph", text))
    return blocks


def _text(blocks: list[Block]) -> str:
    return unicodedata.normalize("NFC", "\n\n".join(b.text for b in blocks if b.text))
