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


def test_a_format_a_plugin_reads_names_that_plugins_extra() -> None:
    """Formats goblin has no entry for (an archive only patool reaches) were labelled
    "(core)", which says goblin-core reads them with no extra."""
    from goblin_core.cli.formats import EXTRA_DISTRIBUTIONS, format_rows

    if _missing_distributions():
        pytest.skip("needs every first-party plugin installed")
    registry = first_party_registry()
    for row in format_rows(registry):
        if not row.engines:
            continue
        distributions = {e.distribution for e in row.engines}
        if distributions <= {"goblin-core"}:
            assert row.extra == "", row.mime
        else:
            assert EXTRA_DISTRIBUTIONS.get(row.extra) in distributions, (row.mime, row.extra)
    rows = {row.mime: row for row in format_rows(registry)}
    assert rows["application/x-ms-wim"].extra == "archives"
