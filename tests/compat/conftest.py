"""Fixtures of the facade's tests."""

from __future__ import annotations

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
