"""Page images flattened for OCR: no transparency, 8 bits per channel, colour kept.

Colour is kept on purpose: Tesseract thresholds each colour channel on its
own, and thin strokes of coloured text (an orange accent on white) vanish in a
luminance-only grayscale conversion. Grayscale and bilevel pages stay "L".
"""

from __future__ import annotations

from PIL import Image, ImageChops

_ALPHA_MODES = frozenset({"RGBA", "LA", "PA", "RGBa", "La"})
_GREY_MODES = frozenset({"L", "LA", "La", "1"})


def flatten(image: Image.Image) -> Image.Image:
    """``image`` as "L" (grey sources) or "RGB" (colour); ``image`` itself when it already is
    and has no transparent value.

    Transparent areas become white: dark text drawn on a transparent PNG
    would otherwise sit on black once the alpha channel is dropped. That holds for a
    grey or colour image with one transparent value too (a GIF, a PNG's tRNS): kept
    as it was, its transparency went with it into the file Tesseract read, whose
    paper then read as black, and a GIF of black text on transparent white gave no text.
    Light drawing with nothing dark in it (white text on a transparent background) goes
    on black instead.
    """
    if image.mode in ("L", "RGB") and "transparency" not in image.info:
        return image
    grey = image.mode in _GREY_MODES or _grey_palette(image)
    if image.mode in _ALPHA_MODES or "transparency" in image.info:
        rgba = image.convert("RGBA")
        paper = Image.new("RGBA", rgba.size, _paper(rgba))
        paper.alpha_composite(rgba)
        rgba.close()
        flat = paper.convert("L" if grey else "RGB")
        paper.close()
        return flat
    if image.mode.startswith("I") or image.mode == "F":
        # 16- and 32-bit scans: scale to 8 bits instead of clipping the bright half to white.
        wide = image.convert("I")
        _low, high = wide.getextrema()
        peak = max(float(high), 1.0)  # type: ignore[arg-type]
        return wide.point(lambda v: v * (255 / peak)).convert("L")
    return image.convert("L" if grey else "RGB")


#: Side of the copy on which the colour of the drawing is judged: its shares, not its detail
_SAMPLE_SIDE = 1024
#: Below this luminance a drawn pixel shows on white paper
_DARK = 128
#: Light drawing with less than this share of dark pixels is laid on black paper
_DARK_SHARE = 0.01
_WHITE, _BLACK = (255, 255, 255, 255), (0, 0, 0, 255)


def _paper(rgba: Image.Image) -> tuple[int, int, int, int]:
    """The colour to lay a transparent image on: white, unless nothing dark is drawn.

    White text on a transparent background (a subtitle frame, a logo made for dark
    pages) vanishes on white, and the page would be taken for blank: it goes on black.
    Dark text, and a page with transparent margins (whose paper is light but whose
    text is dark), stay on white.
    """
    sample = rgba
    if max(rgba.size) > _SAMPLE_SIDE:
        scale = _SAMPLE_SIDE / max(rgba.size)
        size = (max(1, round(rgba.width * scale)), max(1, round(rgba.height * scale)))
        sample = rgba.resize(size, Image.Resampling.BOX)
    try:
        drawn = sample.getchannel("A").point(lambda a: 255 if a >= 128 else 0)
        dark = sample.convert("L").point(lambda v: 255 if v < _DARK else 0)
        drawn_count = drawn.histogram()[255]
        dark_count = ImageChops.multiply(drawn, dark).histogram()[255]
    finally:
        if sample is not rgba:
            sample.close()
    if drawn_count and dark_count < _DARK_SHARE * drawn_count:
        return _BLACK
    return _WHITE


def _grey_palette(image: Image.Image) -> bool:
    if image.mode != "P":
        return False
    palette = image.getpalette() or []
    triples = zip(palette[0::3], palette[1::3], palette[2::3], strict=False)
    return all(r == g == b for r, g, b in triples)
