"""Page images drawn in the tests, and the Tesseract binary they need."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from drawn_pages import draw_page
from PIL import Image

from goblin_core.testing.corpus import require_binary


@pytest.fixture
def tesseract() -> str:
    """The tesseract binary; skips (fails under CI) when it is not installed."""
    return require_binary("tesseract", "tesseract-ocr")


@pytest.fixture
def page_image() -> Callable[..., Image.Image]:
    return draw_page
