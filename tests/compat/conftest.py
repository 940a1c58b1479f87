"""Fixtures of the facade's tests."""

from __future__ import annotations

import os
from typing import Any

import pytest
from zip_archives import ZipPlugin

from goblin_core import load_registry
from goblin_core.registry import Registry


@pytest.fixture
def zip_registry(monkeypatch: pytest.MonkeyPatch) -> Registry:
    """goblin-core plus a ZIP reader, wherever the facade takes its registry."""
    registry = load_registry(extra_plugins=[("tests-zip", ZipPlugin())])
    for module in ("files", "extractor"):
        monkeypatch.setattr(f"goblin_core.compat.{module}.default_registry", lambda: registry)
    return registry


@pytest.fixture(scope="module")
def goblintools() -> Any:
    """GoblinTools 0.13.4 itself, to compare with: the compat session installs it, and
    under CI a missing one fails rather than skips."""
    try:
        import goblintools
    except ImportError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"goblintools==0.13.4 must be installed to compare with it: {exc}")
        pytest.skip("goblintools is not installed; run `nox -s compat`")
    assert goblintools.__version__ == "0.13.4", goblintools.__version__
    return goblintools
