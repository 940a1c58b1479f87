"""A web page's or e-book's ruby (furigana) reads as its base, the reading and its
fallback parentheses left out, as Word and ODF rubies are read: 漢字 stays one word."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Read = Callable[..., Any]


def test_a_ruby_reads_as_its_base(read: Read) -> None:
    page = ("<p>この<ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp>字<rt>じ</rt></ruby>を読む</p>"
            "<p><ruby><rb>東京</rb><rt>とうきょう</rt></ruby>へ</p>")
    assert read(page.encode(), "ruby.html").text == "この漢字を読む\n東京へ"
