"""The ``hostile`` fixture: a runner with its own scratch folder per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from hostile_runner import HostileRunner


@pytest.fixture
def hostile(tmp_path: Path) -> HostileRunner:
    (tmp_path / "in").mkdir()
    return HostileRunner(tmp_path)
