"""HTML headings and table cells are read by the rules paragraphs are read by: inline
elements join without a space, blocks and line breaks stay apart, hidden content is left
out; a table's caption is kept before it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goblin_core import Document


def _page(body: str, read: Callable[..., Document], name: str = "pagina.html") -> Document:
    return read(f"<html><body>{body}</body></html>".encode(), name)


def test_inline_elements_in_a_heading_do_not_split_its_words(read: Callable[..., Any]) -> None:
    document = _page("<h1><span>W</span>elcome to Caf<b>é</b></h1>"
                     "<p><span>W</span>elcome para</p>", read)
    assert document.text == "Welcome to Café\nWelcome para"
    heading = document.pages[0].blocks[0]
    assert (heading.kind, heading.level, heading.text) == ("heading", 1, "Welcome to Café")


def test_inline_elements_in_a_cell_do_not_split_its_words(read: Callable[..., Any]) -> None:
    document = _page("<table><tr><th>Objeto</th><th>F&oacute;rmula</th></tr>"
                     "<tr><td>Licita<b>ção</b></td><td>H<sub>2</sub>O</td></tr></table>", read)
    assert document.text == "Objeto\tFórmula\nLicitação\tH2O"
    assert document.tables[0].rows == (("Objeto", "Fórmula"), ("Licitação", "H2O"))
    assert document.tables[0].header_rows == 1


def test_blocks_and_line_breaks_in_a_cell_keep_words_apart(read: Callable[..., Any]) -> None:
    document = _page("<table><tr><td>Rua A<br>Centro</td>"
                     "<td><p>um</p><p>dois</p></td></tr></table>", read)
    assert document.tables[0].rows == (("Rua A Centro", "um dois"),)


def test_hidden_content_is_left_out_of_cells_and_headings(read: Callable[..., Any]) -> None:
    document = _page(
        "<h2>Title<span style='display: none'>HIDDEN1</span></h2>"
        "<table><tr><td>ok<span hidden>HIDDEN2</span><noscript>HIDDEN3</noscript>"
        "<script>var x = 'HIDDEN4';</script></td>"
        "<td aria-hidden='true'>HIDDEN5</td><td>b</td></tr>"
        "<tr style='display:none'><td>HIDDEN6</td></tr>"
        "<tbody hidden><tr><td>HIDDEN7</td></tr></tbody></table>",
        read,
    )
    assert "HIDDEN" not in document.text
    assert document.text == "Title\nok\tb"
    assert document.tables[0].rows == (("ok", "b"),)


def test_a_caption_is_kept_before_its_table_and_as_its_title(read: Callable[..., Any]) -> None:
    document = _page("<p>antes</p><table><caption>Tabela <b>1</b>: pre<i>ç</i>os</caption>"
                     "<tr><td>a</td><td>1</td></tr></table>", read)
    assert document.text == "antes\nTabela 1: preços\na\t1"
    table = document.tables[0]
    assert table.title == "Tabela 1: preços"
    kinds = [(block.kind, block.text) for block in document.pages[0].blocks]
    assert kinds == [("paragraph", "antes"), ("caption", "Tabela 1: preços"), ("table", "a\t1")]


def test_a_hidden_caption_is_left_out(read: Callable[..., Any]) -> None:
    document = _page("<table><caption hidden>SECRET</caption><tr><td>a</td></tr></table>", read)
    assert document.text == "a"
    assert document.tables[0].title == ""


def test_a_table_in_a_cell_keeps_its_words(read: Callable[..., Any]) -> None:
    document = _page("<table><tr><td>fora</td><td><table><tr><td>den<b>tro</b></td>"
                     "<td>x</td></tr></table></td></tr></table>", read)
    assert document.tables[0].rows == (("fora", "dentro x"),)
