"""goblin-example-note's own tests: the way a third-party plugin tests itself."""

from __future__ import annotations

import pytest

import goblin_core
from goblin_core.testing.conformance import (
    assert_engine_conformance,
    assert_formats_have_fixtures,
    load_plugin,
)
from goblin_example_note import NOTE_MIME, render_note

PLUGIN = load_plugin("example-note")
FIXTURES = {NOTE_MIME: (render_note(["Shopping list", "eggs, flour, candles"]), "eggs, flour")}


@pytest.mark.parametrize("entry", PLUGIN.params())
def test_engine_keeps_the_goblin_contract(entry: object) -> None:
    assert_engine_conformance(entry, PLUGIN.registry, fixtures=FIXTURES)  # type: ignore[arg-type]


def test_every_claimed_format_has_a_working_fixture() -> None:
    assert_formats_have_fixtures(PLUGIN, FIXTURES)


def test_pages_and_header_metadata() -> None:
    data = render_note(["first", "second", "third"], title="Três páginas", author="Ana")
    document = goblin_core.extract(data, name="n.gnote", registry=PLUGIN.registry)
    assert [p.number for p in document.pages] == [1, 2, 3]
    assert document.metadata["title"] == "Três páginas"
    assert document.metadata["author"] == "Ana"
    assert document.raw_metadata["pages"] == 3


@pytest.mark.parametrize(
    ("data", "cause"),
    [
        (b"GOBLIN-NOTE v1\npages: 2\n\nonly one page\n", "truncated"),
        (b"GOBLIN-NOTE v1\npages: many\n\nbody\n", "no valid 'pages:'"),
        (b"GOBLIN-NOTE v1\nno colon here\n\nbody\n", "is not 'key: value'"),
        (b"GOBLIN-NOTE v1\npages: 1\n\n\xff\xfe body\n", "UTF-8"),
    ],
    ids=["truncated", "bad-count", "bad-header", "not-utf8"],
)
def test_damaged_notes_are_refused_naming_the_file_and_cause(data: bytes, cause: str) -> None:
    with pytest.raises(goblin_core.CorruptDocument) as caught:
        goblin_core.extract(data, name="damaged.gnote", registry=PLUGIN.registry)
    assert str(caught.value).startswith("damaged.gnote: ")
    assert cause in str(caught.value)
