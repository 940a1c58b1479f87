"""Shared fixtures of the goblin-office tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import samples
from goblin_core import Document, extract


@pytest.fixture
def read() -> Callable[..., Document]:
    """Extract bytes under a file name, OCR off (these formats never need it)."""

    def run(data: bytes, name: str, **options: Any) -> Document:
        return extract(data, name=name, ocr="never", **options)

    return run


@pytest.fixture(scope="module")
def warm_plugins() -> None:
    """Load every plugin once, so the time and memory bounds measure the file, not imports."""
    data, name = samples.sample_docx()
    extract(data, name=name, ocr="never")
