"""The examples in goblin_djvu's docstrings hold."""

from __future__ import annotations

import pytest

import goblin_djvu
from goblin_core.testing.doctests import assert_examples_hold, modules_of


@pytest.mark.parametrize("module", modules_of(goblin_djvu))
def test_docstring_examples(module: str) -> None:
    assert_examples_hold(module)
