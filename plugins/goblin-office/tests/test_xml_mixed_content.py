"""Generic XML: text inside mixed content reads as the sentence it is, data elements stay
apart, and a tree and a streamed reading agree."""

from __future__ import annotations

import time

import pytest

from goblin_core import default_registry
from goblin_core.source import Source
from goblin_office import xmltext
from goblin_office.xmltext import XMLParser


@pytest.fixture(params=["tree", "streamed"])
def read_xml(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Read XML as a tree (small files) or as it parses (large files: forced from 0 bytes)."""
    if request.param == "streamed":
        monkeypatch.setattr(xmltext, "STREAM_XML_FROM", 0)

    def run(data: bytes) -> list[str]:
        document = XMLParser().open(Source.from_bytes(data, "some.xml"),
                                    default_registry().config())
        return next(document.pages()).text.splitlines()

    return run


def test_inline_markup_stays_in_its_sentence(read_xml) -> None:  # type: ignore[no-untyped-def]
    data = (b"<doc>\n  <para>Some <emphasis>bold</emphasis> text, H<sub>2</sub>O and "
            b"<i>un</i>likely.</para>\n  <para>Line one<br/>Line two</para>\n</doc>")
    assert read_xml(data) == ["Some bold text, H2O and unlikely.", "Line one Line two"]


def test_blocks_of_a_minified_article_stay_apart(read_xml) -> None:  # type: ignore[no-untyped-def]
    # <sec> holds no text of its own: its title and paragraphs are separate lines, while
    # each paragraph's inline markup joins its sentence
    data = (b"<article><sec><title>Intro</title><p>Text in <italic>italics</italic>.</p>"
            b"<p>Next <xref>[2]</xref></p></sec></article>")
    assert read_xml(data) == ["Intro", "Text in italics.", "Next [2]"]


def test_data_elements_are_never_glued(read_xml) -> None:  # type: ignore[no-untyped-def]
    data = (b"<items><item><name>Foo</name><price>12</price></item>"
            b"<item><name>Bar</name><price>3</price></item></items>")
    assert read_xml(data) == ["Foo", "12", "Bar", "3"]


def test_texts_split_by_spaces_share_a_line(read_xml) -> None:  # type: ignore[no-untyped-def]
    data = b"<people>\n <n><first>Ana</first> <last>Lima</last></n>\n <n>Rui</n>\n</people>"
    assert read_xml(data) == ["Ana Lima", "Rui"]


def test_a_paragraph_of_a_million_inline_elements_is_read_in_linear_time(read_xml) -> None:  # type: ignore[no-untyped-def]
    # one line grown a piece at a time took minutes: each += copied the line whole
    data = b"<p>a" + b"<b>x</b>" * 1_000_000 + b"</p>"
    started = time.monotonic()
    lines = read_xml(data)
    assert time.monotonic() - started < 15
    assert lines == ["a" + "x" * 1_000_000]
