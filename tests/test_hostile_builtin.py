"""Hostile plain-text input to the built-in readers: bounded pages, no text lost."""

from __future__ import annotations

import time

from goblin_core import default_registry
from goblin_core.builtin.text import MAX_PAGES, PlainTextParser
from goblin_core.source import Source


def test_form_feeds_split_a_bounded_number_of_pages() -> None:
    data = b"\f" * (MAX_PAGES * 5) + b"the end"
    document = PlainTextParser().open(Source.from_bytes(data, "feeds.txt"),
                                      default_registry().config())
    pages = list(document.pages())
    assert len(pages) == MAX_PAGES
    assert pages[-1].text.endswith("the end")
    assert [kind for kind, _ in document.warnings] == ["FormFeedPages"]


def test_a_file_of_form_feeds_is_extracted_in_seconds() -> None:
    from goblin_core import extract

    started = time.monotonic()
    document = extract(b"\f" * 200_000 + b"last words", name="feeds.txt")
    assert time.monotonic() - started < 10
    assert "last words" in document.text


def test_form_feeds_below_the_bound_still_split_pages() -> None:
    document = PlainTextParser().open(Source.from_bytes(b"one\ftwo\f\fthree", "pages.txt"),
                                      default_registry().config())
    assert [page.text for page in document.pages()] == ["one", "two", "", "three"]
    assert not document.warnings
