"""Page images taller than an OCR engine takes, cut across into bands it reads at full size.

Tesseract refuses an image longer than 32,767 pixels on a side, Textract one longer
than 10,000. A page that tall is a whole web page or chat taken as one screenshot, or a
till roll scanned in one pass: shrunk to fit, its text shrinks with it (18-pixel text on
a 1,000 x 80,000 page came out at 7 pixels, and not one of its 100 lines read right).
Cut across between its lines instead, each band is read as it was drawn. OCR backends
share this; the core needs no imaging library for it (the page is a Pillow image the
backend was given).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

#: A pixel this far (0-255) from the paper's grey is ink.
_INK_CONTRAST = 64
#: How far above a band's longest end a row without ink is looked for: lines of text
#: leave one every few dozen rows; a photograph may leave none, and is cut where it must be.
_SEARCH_ROWS = 4096


def band_rows(page: Image.Image, longest: int) -> list[tuple[int, int]]:
    """(top, bottom) row ranges, each at most ``longest`` rows, that cover ``page``'s ink
    from top to bottom; one range, the whole page, when it fits. Each cut falls in the
    middle of the lowest gap between lines (rows without ink) that leaves the band above
    within ``longest``, so no line is cut in two and both bands keep some paper around
    their text. Bands without ink are left out: a long screenshot's blank stretches
    would each cost Tesseract runs that read nothing."""
    if page.height <= longest:
        return [(0, page.height)]
    inked = _inked_rows(page)
    rows: list[tuple[int, int]] = []
    top = 0
    while page.height - top > longest:
        cut = _gap_middle(inked, max(top + 1, top + longest - _SEARCH_ROWS), top + longest)
        rows.append((top, cut))
        top = cut
    rows.append((top, page.height))
    return [(top, bottom) for top, bottom in rows if any(inked[top:bottom])]


def _inked_rows(page: Image.Image) -> bytes:
    """One byte per row of ``page``: non-zero where the row holds ink (a pixel far from
    the paper's grey, the commonest one, whether the paper is light or dark)."""
    grey = page if page.mode == "L" else page.convert("L")
    try:
        histogram = grey.histogram()
        paper = max(range(256), key=histogram.__getitem__)
        with grey.point(lambda v: 255 if abs(v - paper) > _INK_CONTRAST else 0) as ink:
            return bytes(ink.getprojection()[1])
    finally:
        if grey is not page:
            grey.close()


def _gap_middle(inked: bytes, low: int, high: int) -> int:
    """The middle row of the lowest run of rows without ink within [low, high); ``high``
    when there is none (the band is cut through whatever lies there)."""
    end = high
    while end > low and inked[end - 1]:
        end -= 1
    if end == low:
        return high
    start = end
    while start > low and not inked[start - 1]:
        start -= 1
    return (start + end) // 2


def confidence_by_length(readings: list[tuple[str, float]]) -> float:
    """The confidence of bands read apart, weighted by the length of their text (as a
    page's words are); 0 when none has text."""
    total = sum(len(text) for text, _ in readings)
    if not total:
        return 0.0
    return round(sum(len(text) * confidence for text, confidence in readings) / total, 4)
