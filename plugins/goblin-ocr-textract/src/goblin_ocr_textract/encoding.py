"""Page images re-encoded and scaled to fit Textract's request limits."""

from __future__ import annotations

import io

from PIL import Image

_JPEG_QUALITIES = (90, 80, 70, 60)


def encode_page(image: Image.Image, max_bytes: int, max_side: int) -> bytes:
    """PNG bytes of the page, or JPEG, scaled down until under ``max_bytes`` and ``max_side``.

    Lossless PNG first (best for text); then JPEG at falling quality; then
    the page is shrunk by a quarter at a time.
    """
    page = image.convert("L") if image.mode not in ("L", "RGB") else image
    if max(page.size) > max_side:
        page = _shrink(page, max_side / max(page.size))
    while True:
        data = _png(page)
        if len(data) <= max_bytes:
            return data
        for quality in _JPEG_QUALITIES:
            data = _jpeg(page, quality)
            if len(data) <= max_bytes:
                return data
        if min(page.size) < 64:
            return data
        page = _shrink(page, 0.75)


def _shrink(page: Image.Image, factor: float) -> Image.Image:
    size = (max(1, int(page.width * factor)), max(1, int(page.height * factor)))
    return page.resize(size, Image.Resampling.LANCZOS)


def _png(page: Image.Image) -> bytes:
    out = io.BytesIO()
    page.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _jpeg(page: Image.Image, quality: int) -> bytes:
    out = io.BytesIO()
    page.save(out, format="JPEG", quality=quality)
    return out.getvalue()
