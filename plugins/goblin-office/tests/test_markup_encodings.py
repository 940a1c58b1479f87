"""XML, SVG, FictionBook and web pages in the encodings Windows tools write: a declared
ISO-8859-1 holding Windows-1252 quotes, no declaration over a legacy code page, a stray
Windows-1252 byte in UTF-8, a stale UTF-16 declaration; and a code page guessed from
what a page says, not from its markup."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from samples import fictionbook

Read = Callable[..., Any]
QUOTED = "“Relatório” – 10 € por ação"


def test_an_xml_file_declared_iso_8859_1_reads_its_windows_1252_quotes(read: Read) -> None:
    data = f'<?xml version="1.0" encoding="ISO-8859-1"?><doc><p>{QUOTED}</p></doc>'
    document = read(data.encode("cp1252"), "relatorio.xml")
    assert document.text == QUOTED
    assert document.status == "clean"


def test_an_undeclared_windows_1252_xml_file_is_read_in_its_code_page(read: Read) -> None:
    rows = "".join(f"<item><name>Ação nº {n}</name><note>{QUOTED}</note></item>"
                   for n in range(3))
    document = read(f"<export>{rows}</export>".encode("cp1252"), "export.xml")
    assert document.text.splitlines()[:2] == ["Ação nº 0", QUOTED]
    assert "\ufffd" not in document.text
    assert not document.report.warnings


def test_a_utf8_xml_file_with_a_stray_windows_1252_byte_keeps_both(read: Read) -> None:
    data = ('<?xml version="1.0" encoding="utf-8"?><doc><p>Licitação concluída</p>'
            "<p>Prazo: 10 ").encode() + b"\x96" + " 20 dias úteis</p></doc>".encode()
    document = read(data, "prazo.xml")
    assert document.text.splitlines() == ["Licitação concluída", "Prazo: 10 – 20 dias úteis"]
    assert not document.report.warnings


def test_an_xml_file_declared_utf16_over_single_byte_text_is_read(read: Read) -> None:
    data = '<?xml version="1.0" encoding="UTF-16"?><doc><p>Grüße aus São Paulo</p></doc>'
    assert read(data.encode(), "saudacao.xml").text == "Grüße aus São Paulo"


def test_an_svg_declared_iso_8859_1_reads_its_windows_1252_signs(read: Read) -> None:
    data = ('<?xml version="1.0" encoding="iso-8859-1"?>'
            '<svg xmlns="http://www.w3.org/2000/svg"><text x="1" y="2">Preço: 10 €</text></svg>')
    assert read(data.encode("cp1252"), "preco.svg").text == "Preço: 10 €"


def test_an_undeclared_windows_1251_book_is_read_in_cyrillic(read: Read) -> None:
    book = fictionbook("<section><title><p>Глава первая</p></title>"
                       "<p>Молодая рыжая собака бегала взад и вперёд.</p></section>",
                       "<book-title>Каштанка</book-title><lang>ru</lang>")
    undeclared = book.decode("utf-8").split("?>", 1)[1].encode("cp1251")
    document = read(undeclared, "kashtanka.fb2")
    assert document.pages[0].label == "Глава первая"
    assert "Молодая рыжая собака бегала взад и вперёд." in document.text
    assert document.metadata["title"] == "Каштанка"


@pytest.mark.parametrize(("words", "encoding"), [
    ("Первый абзац. Глава вторая, книга третья.", "cp1251"),
    ("Ελληνικά κείμενα εδώ, στη σελίδα.", "cp1253"),
])
def test_an_undeclared_page_s_code_page_is_guessed_from_its_text_not_its_markup(
        read: Read, words: str, encoding: str) -> None:
    page = ('<html><head><title>x</title><link rel="stylesheet" href="site.css">'
            '<script src="site.js"></script></head><body><div class="container">'
            f'<div class="row"><p class="lead">{words}</p></div></div></body></html>')
    assert read(page.encode(encoding), "pagina.html").text == words


def test_guessing_a_code_page_from_a_page_s_words_costs_no_more_than_the_page() -> None:
    from bounds import bounded

    from goblin_office.markup import decode_markup

    rows = b"<r><a>caf\xe9 na\xefve</a><b>x</b></r>\n" * 300_000  # 11 MB, 900,000 tags
    with bounded(seconds=20, megabytes=60):
        text, encoding = decode_markup(b"<root>" + rows + b"</root>")
    assert encoding == "cp1252"
    assert text.count("café naïve") == 300_000


def test_an_xml_file_declared_shift_jis_reads_its_windows_31j_signs(read: Read) -> None:
    data = '<?xml version="1.0" encoding="Shift_JIS"?><r>番号①の記録</r>'
    assert read(data.encode("cp932"), "registro.xml").text == "番号①の記録"
