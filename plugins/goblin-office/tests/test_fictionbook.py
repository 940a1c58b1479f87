"""FictionBook 2 e-books: chapters as pages, inline markup in its paragraph, notes after
the chapters, the description as metadata, and the pictures never read as text."""

from __future__ import annotations

import base64

import pytest

from goblin_core.errors import CorruptDocument
from samples import fictionbook

DESCRIPTION = (
    "<genre>prose_classic</genre><genre>child_prose</genre>"
    "<author><first-name>Антон</first-name><middle-name>Павлович</middle-name>"
    "<last-name>Чехов</last-name></author><author><nickname>editor7</nickname></author>"
    "<book-title>Каштанка</book-title><annotation><p>Рассказ о собаке.</p></annotation>"
    '<date value="1887-12-25">1887</date><lang>ru</lang>'
)
BODY = (
    "<title><p>Антон Чехов</p><p>Каштанка</p></title>"
    "<epigraph><p>Эпиграф книги.</p><text-author>Автор эпиграфа</text-author></epigraph>"
    '<section><title><p>I</p><p>Дурное поведение</p></title>'
    "<p>Молодая рыжая собака — помесь <emphasis>такса</emphasis> с дворняжкой"
    '<a l:href="#n1" type="note">[1]</a>.</p>'
    '<image l:href="#cover.jpg"/><empty-line/>'
    "<section><title><p>Часть вторая</p></title><subtitle>* * *</subtitle>"
    "<poem><stanza><v>Первая строка,</v><v>вторая строка.</v></stanza></poem></section>"
    "</section>"
    "<section><title><p>II</p></title>"
    "<table><tr><th>Имя</th><th>Роль</th></tr><tr><td>Каштанка</td><td>собака</td></tr>"
    "</table><cite><p>Цитата.</p></cite></section>"
)
NOTES = ('<body name="notes"><section id="n1"><title><p>1</p></title>'
         "<p>Такса — порода собак.</p></section></body>")


def _book(**options: object) -> bytes:
    picture = base64.b64encode(bytes(range(256)) * 64).decode()
    return fictionbook(BODY, DESCRIPTION, binaries=NOTES
                       + f'<binary id="cover.jpg" content-type="image/jpeg">{picture}</binary>',
                       **options)  # type: ignore[arg-type]


def test_chapters_are_pages_and_notes_follow(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_book(), "kashtanka.fb2")
    assert document.mime == "application/x-fictionbook+xml"
    assert document.parsed_by == ("office.fictionbook",)
    assert [p.label for p in document.pages] == ["I Дурное поведение", "II", "notes"]
    first, second, notes = (p.text for p in document.pages)
    assert first.splitlines()[:4] == ["Антон Чехов", "Каштанка", "Эпиграф книги.",
                                      "Автор эпиграфа"]
    # inline markup stays in its sentence, spaced as the book spaces it
    assert "помесь такса с дворняжкой[1]." in first
    assert "Первая строка,\nвторая строка." in first
    assert document.pages[1].tables[0].rows == (("Имя", "Роль"), ("Каштанка", "собака"))
    assert "Цитата." in second
    assert notes == "1\nТакса — порода собак."
    headings = [(b.text, b.level) for b in document.pages[0].blocks if b.kind == "heading"]
    assert headings[:4] == [("Антон Чехов", 1), ("Каштанка", 1), ("I", 2),
                            ("Дурное поведение", 2)]
    assert ("Часть вторая", 3) in headings and ("* * *", 4) in headings


def test_pictures_are_never_text(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_book(), "kashtanka.fb2")
    assert "AAECAwQF" not in document.text
    assert len(document.text) < 1000


def test_the_description_is_the_metadata(read) -> None:  # type: ignore[no-untyped-def]
    metadata = read(_book(), "kashtanka.fb2").metadata
    raw = read(_book(), "kashtanka.fb2").raw_metadata
    assert metadata["title"] == "Каштанка"
    assert metadata["author"] == "Антон Павлович Чехов; editor7"
    assert metadata["language"] == "ru"
    assert metadata["created"] == "1887-12-25"
    assert raw["keywords"] == "prose_classic, child_prose"
    assert raw["subject"] == "Рассказ о собаке."


def test_a_windows_1251_book_without_a_name_is_known_by_its_root(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_book(encoding="windows-1251"), "")
    assert document.mime == "application/x-fictionbook+xml"
    assert "Молодая рыжая собака" in document.text


def test_a_book_with_no_sections_is_one_page(read) -> None:  # type: ignore[no-untyped-def]
    document = read(fictionbook("<p>Только текст.</p><p>Второй.</p>"), "short.fb2")
    assert [p.text for p in document.pages] == ["Только текст.\nВторой."]


def test_a_book_cut_short_keeps_its_chapters_before_the_cut(read) -> None:  # type: ignore[no-untyped-def]
    data = _book()
    document = read(data[: data.index(b"II") + 40], "cut.fb2")
    assert "Молодая рыжая собака" in document.pages[0].text
    (warning,) = [w for w in document.report.warnings if w.kind == "CorruptDocument"]
    assert "not well formed" in warning.message and "read leniently" in warning.message


@pytest.mark.parametrize(("data", "message"), [
    (b'<!DOCTYPE FictionBook [<!ENTITY a "aa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
     + b"".join(b'<!ENTITY %c "%s">' % (99 + i, b"&%c;" % (98 + i) * 10) for i in range(8))
     + b']><FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0"><body><p>&j;</p>'
       b"</body></FictionBook>", "billion-laughs"),
    (b'<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0"><body>'
     + b"<section>" * 300 + b"</section>" * 300 + b"</body></FictionBook>", "max_xml_depth"),
    (b'<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0"><<<', "not well formed"),
], ids=["billion-laughs", "too-deep", "nothing-readable"])
def test_a_bad_book_names_the_file_and_the_cause(read, data: bytes, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(CorruptDocument, match=rf"broken\.fb2.*{message}"):
        read(data, "broken.fb2")
