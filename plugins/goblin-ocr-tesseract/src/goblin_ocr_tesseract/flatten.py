"""Page images flattened for OCR: no transparency, 8 bits per channel, colour kept.

Colour is kept on purpose: Tesseract thresholds each colour channel on its
own, and thin strokes of coloured text (an orange accent on white) vanish in a
luminance-only grayscale conversion. Grayscale and bilevel pages stay "L".
"""

from __future__ import annotations

from PIL import Image

_ALPHA_MODES = frozenset({"RGBA", "LA", "PA", "RGBa", "La"})
_GREY_MODES = frozenset({"L", "LA", "La", "1"})


def flatten(image: Image.Image) -> Image.Image:
    """``image`` as "L" (grey sources) or "RGB" (colour); ``image`` itself when it already is.

    Transparent areas become white: dark text drawn on a transparent PNG
    would otherwise sit on black once the alpha channel is dropped.
    """
    if image.mode in ("L", "RGB"):
        return image
    grey = image.mode in _GREY_MODES or _grey_palette(image)
    if image.mode in _ALPHA_MODES or "transparency" in image.info:
        rgba = image.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        white.alpha_composite(rgba)
        rgba.close()
        flat = white.convert("L" if grey else "RGB")
        white.close()
        return flat
    if image.mode.startswith("I") or image.mode == "F":
        # 16- and 32-bit scans: scale to 8 bits instead of clipping the bright half to white.
        wide = image.convert("I")
        _low, high = wide.getextrema()
        peak = max(float(high), 1.0)  # type: ignore[arg-type]
        return wide.point(lambda v: v * (255 / peak)).convert("L")
    return image.convert("L" if grey else "RGB")


def _grey_palette(image: Image.Image) -> bool:
    if image.mode != "P":
        return False
    palette = image.getpalette() or []
    triples = zip(palette[0::3], palette[1::3], palette[2::3], strict=False)
    return all(r == g == b for r, g, b in triples)
