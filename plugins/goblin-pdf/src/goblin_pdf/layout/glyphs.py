"""Character boxes from a PDFium text page, as NumPy arrays in the page's display frame.

PDFium has no bulk call for character boxes, so one native call per character
fills preallocated arrays; everything after that (grouping, columns, order)
works on whole arrays.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import repeat

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from goblin_pdf.layout.native import BULK_ANGLE, BULK_TEXT_INDEX, BULK_TEXT_OBJECT, loose_boxes_of

SPACES = np.array([9, 10, 13, 32, 0xA0, 0x3000], dtype=np.uint32)
_SPACE_CODES = tuple(SPACES.tolist())
_STRIDE = 8  # characters per angle sample
_UPRIGHT_TOLERANCE = 0.2  # radians a run may lean and still read as horizontal
_SHEAR_LIMIT = 0.45  # radians a glyph on a level baseline may lean: a sheared oblique
_LEVEL = 0.15  # of a glyph's height: bottoms this close are on one baseline

@dataclass(frozen=True)
class Glyphs:
    """Every character of a page, in PDFium's (content-stream) order.

    ``text`` holds one character per PDFium character; ``box`` is (n, 4)
    x0, y0, x1, y1 in display space (page /Rotate applied, y up); ``drawn``
    marks characters with a box (not generated spaces and line breaks);
    ``upright`` marks those that read left to right once the page is shown;
    ``codes`` are the code points; ``obj`` is the text object index each character
    came from (-1: none); ``sideways`` whether most of the text runs up or down the
    page as shown, so that ``box`` holds it turned back a quarter to read across;
    ``angle`` each glyph's angle in the frame of ``box`` (radians, clockwise, 0 reading
    left to right; None: not known).
    """

    text: str
    codes: np.ndarray
    box: np.ndarray
    drawn: np.ndarray
    upright: np.ndarray
    obj: np.ndarray
    width: float
    height: float
    sideways: bool = False
    angle: np.ndarray | None = None

    @property
    def size(self) -> int:
        return len(self.text)


def read_glyphs(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage,
                objects: dict[int, int] | None = None,
                corrected: Mapping[int, str] | None = None) -> Glyphs:
    """Glyph boxes of ``page``; ``objects`` (text-object address to index) is filled
    when given, so marked-content reading can look each object up once; ``corrected``
    (PDFium index to character) puts right characters PDFium read wrongly."""
    count = max(pdfium_c.FPDFText_CountChars(textpage), 0)
    handle = ctypes.cast(textpage.raw, ctypes.c_void_p)
    codes = _codes(textpage, handle, count)
    for index, char in (corrected or {}).items():
        if 0 <= index < count:
            codes[index] = ord(char)
    text = codes.tobytes().decode("utf-32-le", "surrogatepass")
    # Spaces and line breaks get no box (most are PDFium's own, drawn by nothing), so
    # they are not asked about: a fifth of a page's native calls saved.
    spaces = is_space(codes)
    rects = loose_boxes_of(handle, np.nonzero(~spaces)[0].tolist(), count)
    ltrb = np.frombuffer(memoryview(rects), dtype=np.float32).reshape(count, 4).astype(np.float64)
    raw = ltrb[:, [0, 3, 2, 1]]
    # a character PDFium holds as code 0 is in no text it gives: it is laid out nowhere
    drawn = (raw[:, 2] > raw[:, 0]) & (raw[:, 3] > raw[:, 1]) & (codes != 0)
    angle = _angles(handle, count, drawn)
    drawn = _pieces(raw, angle, drawn, codes, spaces)
    obj = np.full(count, -1, dtype=np.int64)
    if objects is not None and count:
        addresses = np.fromiter(map(BULK_TEXT_OBJECT, repeat(handle, count), range(count)),
                                dtype=np.uint64, count=count)
        unique, first, inverse = np.unique(addresses, return_index=True, return_inverse=True)
        rank = np.argsort(np.argsort(first))  # number objects in stream order
        obj = np.where(addresses == 0, -1, rank[inverse]).astype(np.int64)
        for address, number in zip(unique.tolist(), rank.tolist(), strict=True):
            if address:
                objects[int(address)] = int(number)
    width, height = page.get_size()
    rotation = page.get_rotation() % 360
    # PDFium's angles turn clockwise, like /Rotate; a quarter turn per step
    quarter = np.round((angle + math.radians(rotation))
                       / (math.pi / 2)).astype(np.int64) % 4
    lean = np.abs(((angle + math.radians(rotation)) + math.pi / 4) % (math.pi / 2) - math.pi / 4)
    steady = drawn & (angle >= 0) & (lean < _UPRIGHT_TOLERANCE)
    # The page reads the way most of its glyphs run: usually as shown, but a page
    # whose text runs sideways (/Rotate on horizontal text) is read turned back.
    counts = np.bincount(quarter[steady], minlength=4)
    dominant = int(np.argmax(counts)) if counts.any() else 0
    turn = (rotation - 90 * dominant) % 360
    box = _rotate(raw, turn, width, height)
    if turn in (90, 270):
        width, height = height, width
    upright = steady & (quarter == dominant)
    leaning = drawn & ~steady & (angle >= 0) & (quarter == dominant) & (lean < _SHEAR_LIMIT)
    if leaning.any():
        upright |= _sheared(leaning, upright, lean, box)
    return Glyphs(text, codes.astype(np.int64), box, drawn, upright, obj, float(width),
                  float(height), dominant % 2 == 1, (angle + math.radians(turn)) % (2 * math.pi))


def _sheared(leaning: np.ndarray, upright: np.ndarray, lean: np.ndarray,
             box: np.ndarray) -> np.ndarray:
    """Of the ``leaning`` glyphs, those slanted on a level baseline: an oblique drawn by
    shearing an upright font, for which PDFium gives the shear's angle as the glyph's
    (about 12 degrees), not text turned. Glyphs leaning one way in a row of two or more
    keep level when their run climbs less than half the angle's slope; a lone one when
    it sits on the baseline of the upright glyph before or after it."""
    found = np.zeros(leaning.size, dtype=bool)
    where = np.nonzero(leaning)[0]
    x0, y0 = box[:, 0], box[:, 1]
    height = np.maximum(box[:, 3] - box[:, 1], 1e-3)
    upright_at = np.nonzero(upright)[0]
    # rows of leaning glyphs: stream neighbours, PDFium's spaces between them aside
    cuts = np.nonzero(np.diff(where) > 2)[0] + 1
    for row in np.split(where, cuts):
        first, last = int(row[0]), int(row[-1])
        run = x0[last] - x0[first]
        if row.size > 1 and abs(run) > height[first]:
            slope = abs(y0[last] - y0[first]) / abs(run)
            found[row] = slope < 0.5 * math.tan(float(np.median(lean[row])))
            continue
        around = np.searchsorted(upright_at, first)
        neighbours = upright_at[max(around - 1, 0):around + 1]
        found[row] = bool(neighbours.size) and bool(
            np.any(np.abs(y0[neighbours] - y0[first]) < _LEVEL * height[first]))
    return found


def _codes(textpage: pdfium.PdfTextPage, handle: ctypes.c_void_p, count: int) -> np.ndarray:
    """Each character's UTF-16 unit, by PDFium index (surrogates kept apart)."""
    units = (ctypes.c_ushort * (count + 1))()
    written = pdfium_c.FPDFText_GetText(textpage, 0, count, units) if count else 1
    text = np.frombuffer(bytes(units), dtype=np.uint16).astype(np.uint32)
    if written == count + 1:
        return text[:count]
    # PDFium leaves some characters out of the text it gives (code 0, a control code it
    # found no use for), so the text no longer lines up with the indices (every later
    # box would go to the wrong character, putting spaces inside words): each index is
    # looked up in the text, and a character left out of it reads as code 0
    where = np.fromiter(map(BULK_TEXT_INDEX, repeat(handle, count), range(count)),
                        dtype=np.int64, count=count)
    inside = (where >= 0) & (where < max(written - 1, 0))
    return np.where(inside, text[np.clip(where, 0, count)], 0).astype(np.uint32)


def is_space(codes: np.ndarray) -> np.ndarray:
    """Which of ``codes`` are ``SPACES``: ``np.isin`` as its comparisons, one per space,
    without the set machinery that costs more than they do on a page's codes."""
    found = codes == _SPACE_CODES[0]
    for code in _SPACE_CODES[1:]:
        found |= codes == code
    return found


def _pieces(raw: np.ndarray, angle: np.ndarray, drawn: np.ndarray,
            codes: np.ndarray, spaces: np.ndarray) -> np.ndarray:
    """Characters PDFium gives without a box (the 2nd and later characters of a glyph
    mapped to several, such as a ligature) take a zero-width box at the right edge of
    the glyph before them, so they stay in their word; ``spaces`` marks the spaces
    among ``codes``. Returns the new drawn mask; ``raw`` and ``angle`` are updated in
    place."""
    piece = ~drawn & ~spaces & (codes != 0)
    if not piece.any():
        return drawn
    last = np.maximum.accumulate(np.where(drawn, np.arange(drawn.size), -1))
    ok = piece & (last >= 0)
    src = last[ok]
    raw[ok] = np.column_stack([raw[src, 2], raw[src, 1], raw[src, 2], raw[src, 3]])
    angle[ok] = angle[src]
    return drawn | ok


def _angles(handle: ctypes.c_void_p, count: int, drawn: np.ndarray) -> np.ndarray:
    """Every drawn character's angle (0 for the rest), asking PDFium about one drawn
    character in ``_STRIDE`` and then about every one between two samples that disagree
    (where a rotated run starts or ends). Only drawn characters are sampled: PDFium
    gives its own line breaks an angle of 0, and text turned glyph by glyph (Skia's
    rotated text) has one after every glyph. A rotated run shorter than the stride
    between agreeing samples is missed; it is then laid out by its box like upright
    text."""
    angle = np.zeros(count)
    where = np.nonzero(drawn)[0]
    if where.size == 0:
        return angle
    # every stride's character and the last, each once (the last may be a stride's)
    picks = np.arange(0, where.size, _STRIDE)
    if picks[-1] != where.size - 1:
        picks = np.append(picks, where.size - 1)
    sampled = np.fromiter(map(BULK_ANGLE, repeat(handle, picks.size), where[picks].tolist()),
                          dtype=np.float64, count=picks.size)
    known = np.append(np.repeat(sampled[:-1], np.diff(picks)), sampled[-1])
    for k in np.nonzero(np.abs(np.diff(sampled)) > 1e-3)[0].tolist():
        between = where[int(picks[k]) + 1:int(picks[k + 1])]
        known[int(picks[k]) + 1:int(picks[k + 1])] = np.fromiter(
            map(BULK_ANGLE, repeat(handle, between.size), between.tolist()),
            dtype=np.float64, count=between.size)
    angle[where] = known
    return angle


def _rotate(raw: np.ndarray, rotation: int, width: float, height: float) -> np.ndarray:
    """Boxes as the page is shown: /Rotate turns the page clockwise."""
    x0, y0, x1, y1 = raw.T
    if rotation == 90:
        return np.column_stack([y0, width - x1, y1, width - x0])
    if rotation == 180:
        return np.column_stack([width - x1, height - y1, width - x0, height - y0])
    if rotation == 270:
        return np.column_stack([height - y1, x0, height - y0, x1])
    return raw
