"""A web page of one paragraph of millions of words is read in memory near its size: the
list of its words took twenty times the paragraph (a 50 MB line went past 1 GB)."""

from __future__ import annotations

from bounds import bounded

from goblin_office.html_tree import collapsed, html_page


def test_a_paragraph_of_millions_of_words_costs_little_more_than_its_text() -> None:
    markup = "<html><body><p>" + "palavra  \n" * 2_000_000 + "fim</p></body></html>"
    with bounded(seconds=30, megabytes=150):
        page, _ = html_page(markup)
    assert page.text == "palavra " * 2_000_000 + "fim"


def test_whitespace_collapses_as_split_and_join_collapse_it() -> None:
    for text in ("", "   ", " a  b ", "x" * 3_000_000, "w " * 1_500_000 + " \n\t fim ",
                 "a\u00a0b\u2003c " * 300_000):
        assert collapsed(text) == " ".join(text.split())
