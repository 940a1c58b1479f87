"""Fixtures shared by the core tests; their scripted engines live in scripted_engines.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from goblin_core.registry import clear_registry_cache


@pytest.fixture(autouse=True)
def _fresh_default_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts from the installed plugins, without a user config file."""
    monkeypatch.delenv("GOBLIN_CONFIG", raising=False)
    monkeypatch.delenv("GOBLIN_LOAD_PLUGINS", raising=False)
    monkeypatch.delenv("GOBLIN_DISABLE_PLUGINS", raising=False)
    clear_registry_cache()
    yield
    clear_registry_cache()
