"""Fixtures of the goblin-archives tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from goblin_core.testing.corpus import corpus_dir


@pytest.fixture
def corpus() -> Path:
    """The shared corpus (skipped when missing, a failure in CI)."""
    return corpus_dir(__file__)
