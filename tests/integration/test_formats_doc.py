"""docs/formats.md is what ``goblin formats --docs`` prints for the ``all`` extra."""

from __future__ import annotations

import importlib.metadata as importlib_metadata
from pathlib import Path

import pytest

from goblin_core.cli import FIRST_PARTY_DISTRIBUTIONS, first_party_registry, formats_markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "formats.md"


def _missing_distributions() -> list[str]:
    missing = []
    for name in FIRST_PARTY_DISTRIBUTIONS:
        try:
            importlib_metadata.distribution(name)
        except importlib_metadata.PackageNotFoundError:
            missing.append(name)
    return missing


def test_docs_formats_md_is_up_to_date() -> None:
    missing = _missing_distributions()
    if missing:
        # the table describes the `all` extra: it cannot be judged without every plugin
        pytest.skip(f"needs every first-party plugin installed; missing {', '.join(missing)}")
    registry = first_party_registry()
    broken = [p.name for p in registry.plugins
              if p.distribution in FIRST_PARTY_DISTRIBUTIONS and p.status != "loaded"]
    assert not broken, f"first-party plugins not loaded: {broken}"
    expected = formats_markdown(registry, for_docs=True)
    assert DOC.read_text(encoding="utf-8") == expected, (
        "docs/formats.md is stale; regenerate it with: "
        "uv run --extra all goblin formats --docs > docs/formats.md"
    )
