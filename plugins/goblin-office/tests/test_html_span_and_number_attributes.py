"""Numbers in a web page's attributes (colspan, rowspan, an ordered list's start, an
item's value) are read as browsers read them: ``2px`` is 2, and one that is no ASCII
number (``²``, ``--5``) is ignored instead of failing the page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Read = Callable[..., Any]


def test_span_attributes_are_read_as_browsers_read_them(read: Read) -> None:
    page = ('<table><tr><td colspan="²">a</td><td>b</td></tr>'
            '<tr><td colspan="2px">c</td><td>d</td></tr></table>')
    assert read(page.encode(), "vaos.html").tables[0].rows == (("a", "b", ""), ("c", "", "d"))


def test_list_numbers_are_read_as_browsers_read_them(read: Read) -> None:
    page = '<ol start="--5"><li>um</li></ol><ol start=" 4"><li>quatro</li><li>cinco</li></ol>'
    blocks = read(page.encode(), "numeros.html").pages[0].blocks
    assert [(b.text, b.number) for b in blocks] == [("um", 1), ("quatro", 4), ("cinco", 5)]
