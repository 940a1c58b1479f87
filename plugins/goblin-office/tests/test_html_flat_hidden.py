"""A page of more tags than a tree is built for is read flat, and its hidden elements
(hidden, aria-hidden, display:none) still stay out, nested ones too, in linear time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bounds import bounded

from goblin_office.html_tree import MAX_TREE_TAGS

Read = Callable[..., Any]


def test_hidden_elements_of_a_flat_page_stay_out(read: Read) -> None:
    rows = "<p>linha</p>" * (MAX_TREE_TAGS // 2 + 10)
    hidden = ('<div hidden><div>oculto um</div><p>oculto dois</p></div>'
              '<p style="color: red; display: none">oculto três</p>'
              '<span aria-hidden="true">oculto quatro</span>'
              '<div class="hidden-xs">visível</div><div data-hidden="1">também</div>')
    document = read(f"<html><body>{hidden}{rows}</body></html>".encode(), "grande.html")
    assert document.raw_metadata["structure"].startswith("read flat")
    lines = document.text.splitlines()
    assert lines[:3] == ["visível", "também", "linha"]
    assert "oculto" not in document.text


def test_nested_hidden_elements_of_a_flat_page_take_linear_time(read: Read) -> None:
    nested = "<div hidden>" * 150_000 + "oculto" + "</div>" * 150_000
    with bounded(seconds=20, megabytes=400):
        document = read(f"<html><body>{nested}<p>fim</p></body></html>".encode(), "n.html")
    assert document.text == "fim"
