"""How much of a page's ink a reading accounts for.

Tesseract sometimes reads a few lines of a page and drops the rest (a table
with shaded header cells binarised as one black slab, say) while staying
confident about what it did read. The share of dark pixels that fall inside
recognised words exposes such a reading.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from goblin_ocr_tesseract.words import Word

#: Pixels darker than this count as ink (mid-grey shading does not).
_INK_BELOW = 110


def ink_coverage(image: Image.Image, words: Sequence[Word]) -> float:
    """Share in [0, 1] of the dark pixels inside recognised word boxes; 1.0 on a blank page."""
    grey = image if image.mode == "L" else image.convert("L")
    ink = grey.point(lambda v: 255 if v < _INK_BELOW else 0, mode="1")
    if grey is not image:
        grey.close()
    with ink:
        total = ink.histogram()[-1]
        if not total:
            return 1.0
        # The word boxes are wiped off the ink mask itself: what ink is left is the ink
        # no word covers, without a mask of the boxes and their intersection beside it
        # (two more page-sized images, 200 MB more on a 10,000 x 10,000 scan).
        pen = ImageDraw.Draw(ink)
        for word in words:
            left, top, width, height = word.box
            if width and height:
                pen.rectangle((left, top, left + width - 1, top + height - 1), fill=0)
        uncovered = ink.histogram()[-1]
    return round((total - uncovered) / total, 4)
