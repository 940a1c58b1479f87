"""goblin's conformance kit on goblin-office, loaded through its entry point, alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_registry import BUILT, CORPUS, UNCOVERED

from goblin_core.testing.conformance import (
    Problem,
    assert_engine_conformance,
    fixture_problems,
    load_plugin,
)
from goblin_core.testing.corpus import find_corpus
from goblin_office import formats as fmt

PLUGIN = load_plugin("office")

# forgiving formats: any bytes are some text, so garbage may be read instead of refused
LENIENT = {"office.csv", "office.json", "office.markdown", "office.ics_vcf"}

# the kit extracts without options, so a fixture needing a password cannot be checked here
# (test_registry reads it with its password)
NEEDS_PASSWORD = {fmt.OOXML_PROTECTED: "the kit passes no password"}


def _fixtures() -> dict[str, tuple[object, str]]:
    fixtures: dict[str, tuple[object, str]] = {
        mime: ((lambda b=builder: b()[0]), phrase)
        for mime, (builder, phrase) in BUILT.items()
        if mime not in NEEDS_PASSWORD
    }
    root = find_corpus(__file__)
    if root is not None:
        for mime, (file, phrase, _binary) in CORPUS.items():
            fixtures[mime] = (Path(root) / file, phrase)
    return fixtures


FIXTURES = _fixtures()


@pytest.mark.parametrize("entry", PLUGIN.params())
def test_engine_keeps_the_contract(entry) -> None:  # type: ignore[no-untyped-def]
    assert_engine_conformance(
        entry, PLUGIN.registry, fixtures=FIXTURES, lenient=entry.name in LENIENT
    )


def test_every_claimed_format_has_a_working_fixture() -> None:
    excused = set(UNCOVERED) | set(NEEDS_PASSWORD)
    if find_corpus(__file__) is None:
        excused |= set(CORPUS)
    problems: list[Problem] = [
        p for p in fixture_problems(PLUGIN, FIXTURES) if not any(m in p.message for m in excused)
    ]
    assert not problems, "\n".join(str(p) for p in problems)
