"""A web page's list items: an item whose text sits in paragraphs (``<li><p>``, as pages
made from Markdown and e-books write them) is still a list item, one block of its lines;
items know their depth and, in a numbered list, the number a browser shows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Read = Callable[..., Any]
PAGE = """<html><body><p>Pauta</p>
<ul><li><p>Abertura</p></li><li><p>Relatório</p><p>da comissão</p></li></ul>
<ol start="3"><li>Votação<ul><li>item A</li></ul></li><li value="7">Encerramento</li>
<li>Ata</li></ol>
<ol reversed><li>dois</li><li>um</li></ol></body></html>"""


def test_list_items_in_paragraphs_stay_items_with_their_depth_and_number(read: Read) -> None:
    document = read(PAGE.encode(), "pauta.html")
    assert [(b.kind, b.text, b.level, b.number) for b in document.pages[0].blocks] == [
        ("paragraph", "Pauta", 0, None),
        ("list_item", "Abertura", 1, None),
        ("list_item", "Relatório\nda comissão", 1, None),
        ("list_item", "Votação", 1, 3),
        ("list_item", "item A", 2, None),
        ("list_item", "Encerramento", 1, 7),
        ("list_item", "Ata", 1, 8),
        ("list_item", "dois", 1, 2),
        ("list_item", "um", 1, 1),
    ]
    assert document.text.splitlines()[:4] == ["Pauta", "Abertura", "Relatório", "da comissão"]
