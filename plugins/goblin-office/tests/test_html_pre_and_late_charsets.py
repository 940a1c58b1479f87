"""Web pages: preformatted text keeps the line breaks its ``<br>`` make and leaves hidden
content out; a charset declared after a long head is the page's; a code page guessed
for an undeclared page is guessed from its words, not its scripts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Read = Callable[..., Any]
CZECH = "Příliš žluťoučký kůň úpěl ďábelské ódy."


def test_a_br_in_preformatted_text_breaks_the_line_and_hidden_text_stays_out(
        read: Read) -> None:
    page = ("<html><body><pre>linha 1<br>linha 2<br/>linha <b>3</b>"
            "<span hidden>oculto</span>\n  recuada</pre></body></html>")
    document = read(page.encode(), "pre.html")
    assert document.text == "linha 1\nlinha 2\nlinha 3\n  recuada"
    assert document.pages[0].blocks[0].kind == "code"


def test_a_charset_declared_after_a_long_head_script_is_the_page_s(read: Read) -> None:
    script = "var contador = 1;\n" * 400
    page = (f"<html><head><script>{script}</script><meta charset='windows-1250'>"
            f"</head><body><p>{CZECH}</p></body></html>")
    assert read(page.encode("cp1250"), "tarde.html").text == CZECH


def test_an_undeclared_code_page_is_guessed_from_the_words_not_the_scripts(
        read: Read) -> None:
    script = "function soma(a, b) { return a + b; }\n" * 300
    page = (f"<html><head><style>p {{ margin: 0 }}</style><script>{script}</script></head>"
            f"<body><p>{CZECH}</p></body></html>")
    assert read(page.encode("cp1250"), "sem-charset.html").text == CZECH
