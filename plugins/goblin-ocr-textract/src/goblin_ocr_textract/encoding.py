"""Page images re-encoded and scaled to fit Textract's request limits."""

from __future__ import annotations

import io

from PIL import Image

from goblin_core.errors import FileTooLarge

_JPEG_QUALITIES = (90, 80, 70, 60)

#: Pages are not shrunk below this many pixels a side: Textract reads nothing smaller.
_SMALLEST_SIDE = 64


class _Full(Exception):
    """An encoding passed the byte limit: the rest of it is not worth writing."""


class _CappedBuffer(io.BytesIO):
    """A BytesIO that refuses to grow past ``limit`` bytes."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def write(self, data: bytes) -> int:  # type: ignore[override]
        if self.tell() + len(data) > self.limit:
            raise _Full
        return super().write(data)


def encode_page(image: Image.Image, max_bytes: int, max_side: int) -> bytes:
    """PNG bytes of the page, or JPEG, scaled down until under ``max_bytes`` and ``max_side``.

    Lossless PNG first (best for text); then JPEG at falling quality; then
    the page is shrunk by a quarter at a time. An encoding stops as soon as it
    passes ``max_bytes`` (a page of noise took 10 s to write as a PNG that
    could never fit). FileTooLarge when even a page shrunk to 64 pixels a
    side does not fit.
    """
    page = image.convert("L") if image.mode not in ("L", "RGB") else image
    if max(page.size) > max_side:
        page = _shrink(page, max_side / max(page.size))
    while True:
        for fmt, quality in (("PNG", 0), *(("JPEG", q) for q in _JPEG_QUALITIES)):
            data = _encoded(page, fmt, quality, max_bytes)
            if data is not None:
                return data
        if min(page.size) < _SMALLEST_SIDE:
            raise FileTooLarge(f"a {page.width}x{page.height} page image does not fit in "
                               f"textract.max_image_bytes ({max_bytes:,} bytes) even as JPEG")
        page = _shrink(page, 0.75)


def _shrink(page: Image.Image, factor: float) -> Image.Image:
    size = (max(1, int(page.width * factor)), max(1, int(page.height * factor)))
    return page.resize(size, Image.Resampling.LANCZOS)


def _encoded(page: Image.Image, fmt: str, quality: int, max_bytes: int) -> bytes | None:
    """The page as ``fmt``; None when it would take more than ``max_bytes``."""
    out = _CappedBuffer(max_bytes)
    try:
        if fmt == "PNG":
            page.save(out, format="PNG", optimize=True)
        else:
            page.save(out, format="JPEG", quality=quality)
    except _Full:
        return None
    return out.getvalue()
