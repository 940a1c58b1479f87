"""XML and FictionBook files that are not well formed: what the lenient reading loses.

libxml2 reads on past most damage in the middle of a file, and those files lose nothing
(a warning says they were read leniently). A file cut inside a tag or a text, or damage
libxml2 stops reading at (an attribute without quotes, a second root), loses the text
after it: the document counts as read in part (a ``Truncated`` warning, exit status 1).
A file whose end tags alone are missing loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_fictionbook import _book

from goblin_core import Document
from goblin_core.cli import cli

Read = Callable[..., Document]

_LOST = {
    "cut-mid-word": b"<doc><p>primeiro</p><p>segundo par\xc3\xa1gr",
    "cut-mid-tag": b"<doc><p>primeiro</p><p>segundo</p><p cla",
    "unquoted-attribute": b'<doc><p n=1>primeiro</p><p>segundo par\xc3\xa1grafo</p></doc>',
    "second-root": b"<doc><p>primeiro</p></doc><doc><p>segundo par\xc3\xa1grafo</p></doc>",
}
_KEPT = {
    "end-tags-missing": b"<doc><p>primeiro</p><p>segundo par\xc3\xa1grafo</p>",
    "stray-ampersand": b"<doc><p>primeiro & terceiro</p><p>segundo par\xc3\xa1grafo</p></doc>",
    "tag-left-open": b"<doc><p><b>primeiro</p><p>segundo par\xc3\xa1grafo</p></doc>",
    "utf16-end-tags-missing": "<doc><p>primeiro</p><p>segundo parágrafo</p>".encode("utf-16"),
    "feed-html-end-tags-missing": (
        b"<rss><channel><item><title>primeiro</title><description>&lt;p&gt;segundo "
        b"&lt;b&gt;par\xc3\xa1grafo&lt;/b&gt;&lt;/p&gt;</description></item>"),
}


def _truncated(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


@pytest.mark.parametrize("data", _LOST.values(), ids=_LOST.keys())
def test_xml_whose_text_after_the_damage_is_lost_is_read_in_part(read: Read, data: bytes) -> None:
    document = read(data, "dados.xml")
    assert "primeiro" in document.text
    assert document.report.truncated
    assert len(_truncated(document)) == 1


@pytest.mark.parametrize("data", _KEPT.values(), ids=_KEPT.keys())
def test_xml_read_leniently_to_its_last_words_loses_nothing(read: Read, data: bytes) -> None:
    document = read(data, "dados.xml")
    assert "segundo parágrafo" in document.text.replace("\n", " ")
    assert any("read leniently" in w.message for w in document.report.warnings)
    assert not document.report.truncated


def test_an_unquoted_attribute_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "dados.xml"
    path.write_bytes(_LOST["unquoted-attribute"])
    result = CliRunner().invoke(cli, ["extract", str(path), "--ocr", "never"])
    assert result.exit_code == 1
    assert "Truncated" in result.stderr and "segundo parágrafo" in result.stderr


def test_an_svg_cut_inside_its_text_is_read_in_part(read: Read) -> None:
    data = (b'<svg xmlns="http://www.w3.org/2000/svg"><text x="1" y="1">Legenda</text>'
            b'<text x="1" y="9">Segunda leg')
    document = read(data, "figura.svg")
    assert "Legenda" in document.text
    assert document.report.truncated


def test_a_book_cut_inside_a_chapter_is_read_in_part(read: Read) -> None:
    data = _book()
    document = read(data[: data.index("Роль".encode()) + 4], "cut.fb2")  # inside the word
    assert "Молодая рыжая собака" in document.pages[0].text
    (message,) = _truncated(document)
    assert "cut short" in message


def test_a_book_whose_end_tag_alone_is_missing_loses_nothing(read: Read) -> None:
    # its last element is a picture: the base64 is what the file and the reading end with
    data = _book()
    document = read(data[: data.rindex(b"</FictionBook>")], "cut.fb2")
    assert "Такса — порода собак." in document.text
    assert any("read leniently" in w.message for w in document.report.warnings)
    assert not document.report.truncated


def test_a_book_with_a_stray_ampersand_loses_nothing(read: Read) -> None:
    data = _book().replace("с дворняжкой".encode(), "с дворняжкой & co".encode())
    document = read(data, "amp.fb2")
    assert "Такса — порода собак." in document.text
    assert any("read leniently" in w.message for w in document.report.warnings)
    assert not document.report.truncated


def test_a_book_that_stops_at_its_damage_is_read_in_part(read: Read) -> None:
    data = _book().replace(b"<section><title><p>II", b"<section x=1><title><p>II")
    document = read(data, "attr.fb2")
    assert "Молодая рыжая собака" in document.text
    assert "Такса — порода собак." not in document.text
    assert document.report.truncated
