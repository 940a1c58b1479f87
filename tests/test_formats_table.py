"""The supported-formats table that docs/formats.md is generated from.

The stale check of docs/formats.md itself needs every first-party plugin, so
it lives in tests/integration/test_formats_doc.py.
"""

from __future__ import annotations

from goblin_core import load_registry
from goblin_core.cli import FIRST_PARTY_DISTRIBUTIONS, first_party_registry, formats_markdown
from goblin_core.formats import KNOWN_FORMATS

from scripted_engines import TEST_MIME, ScriptedParser, ScriptSniffer, plugin_of


def _rows(markdown: str) -> dict[str, list[str]]:
    table = [line for line in markdown.splitlines() if line.startswith("| `")]
    return {cells[0].strip("` "): [c.strip() for c in cells] for cells in
            (line.strip("|").split("|") for line in table)}


def test_the_docs_table_has_every_known_format_and_no_machine_state() -> None:
    registry = load_registry(entry_points=lambda: [])
    markdown = formats_markdown(registry, for_docs=True)
    rows = _rows(markdown)
    assert set(rows) >= {f.mime for f in KNOWN_FORMATS}
    assert rows["text/plain"][3] == "text.plain"
    assert rows["text/plain"][4] == "(core)"
    assert rows["application/pdf"][4] == "`pdf`"
    assert "Available here" not in markdown and "unavailable" not in markdown
    assert markdown == formats_markdown(registry, for_docs=True)


def test_the_docs_table_lists_engines_of_a_new_format_in_rank_order() -> None:
    low = ScriptedParser("tests.low", priority=1)
    high = ScriptedParser("tests.high", priority=9, unavailable="not on this machine")
    plugin = plugin_of(ScriptSniffer(), low, high)
    registry = load_registry(entry_points=lambda: [], extra_plugins=[("tests", plugin)])
    row = _rows(formats_markdown(registry, for_docs=True))[TEST_MIME]
    assert row[3] == "tests.high, tests.low"


def test_the_docs_registry_holds_first_party_plugins_only() -> None:
    registry = first_party_registry()
    for plugin in registry.plugins:
        if plugin.status == "loaded":
            assert plugin.distribution in (*FIRST_PARTY_DISTRIBUTIONS, "goblin-core")
