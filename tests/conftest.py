"""Fixtures shared by the core tests; their scripted engines live in scripted_engines.py."""

from __future__ import annotations

import logging
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


@pytest.fixture
def cli_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """For command-line tests: workers load the built-in plugin alone (what the in-process
    registry has), and the logging the command line sets up is undone after the test."""
    monkeypatch.setenv("GOBLIN_LOAD_PLUGINS", "")
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    yield
    root.setLevel(level)
    root.handlers[:] = handlers
