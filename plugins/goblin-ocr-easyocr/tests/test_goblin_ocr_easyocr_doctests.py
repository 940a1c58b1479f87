"""The examples in goblin_ocr_easyocr's docstrings hold."""

from __future__ import annotations

import pytest

import goblin_ocr_easyocr
from goblin_core.testing.doctests import assert_examples_hold, modules_of


@pytest.mark.parametrize("module", modules_of(goblin_ocr_easyocr))
def test_docstring_examples(module: str) -> None:
    assert_examples_hold(module)
