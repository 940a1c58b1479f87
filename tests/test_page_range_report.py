"""goblin.page_range past the end of a document: no pages, and a warning saying why."""

from __future__ import annotations

from goblin_core import extract, load_registry

CORE_ONLY = load_registry(load=[])


def test_a_range_past_the_last_page_is_reported_with_the_page_count() -> None:
    document = extract(b"one page of text", name="a.txt", registry=CORE_ONLY, page_range="99")
    assert document.pages == ()
    [warning] = [w for w in document.report.warnings if w.kind == "PageRange"]
    assert "'99'" in warning.message and "1 page" in warning.message


def test_a_range_that_holds_pages_gives_no_such_warning() -> None:
    document = extract(b"one page of text", name="a.txt", registry=CORE_ONLY, page_range="1-5")
    assert document.text == "one page of text"
    assert not [w for w in document.report.warnings if w.kind == "PageRange"]
