from __future__ import annotations

import importlib.util

import pytest

from goblin_core.testing.corpus import skip_or_fail


@pytest.fixture(scope="session")
def fixture_plugin() -> None:
    """The example plugin's sleepy/crashy formats (installed by the plugin's nox session)."""
    if importlib.util.find_spec("goblin_example_note") is None:
        skip_or_fail("goblin-example-note (tests/example_plugin) is not installed")
