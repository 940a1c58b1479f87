"""PowerPoint 97-2003 decks keep one page per slide: a slide without text is an empty page,
as a .pptx's is, so the slides after it keep their numbers; catppt, whose form feeds
mark no slides, gives its text as one page rather than pages numbered wrongly."""

from __future__ import annotations

from packages import compound_file, ppt_record

from goblin_core import Source, default_registry
from goblin_core.testing.corpus import require_binary
from goblin_office.legacy import CatpptParser

_PERSIST = ppt_record(0x03F3, bytes(20))  # SlidePersistAtom: the next slide of the list


def _chars(text: str) -> bytes:
    return ppt_record(0x0FA0, text.encode("utf-16-le"))  # TextCharsAtom


def _deck(listed: list[str], drawn: list[str]) -> bytes:
    """A deck whose slide list holds ``listed`` (one text a slide, "" for none) and
    whose slides' drawings hold ``drawn`` the same way."""
    slide_list = ppt_record(
        0x0FF0, b"".join(_PERSIST + (_chars(t) if t else b"") for t in listed), container=True)
    records = ppt_record(0x03E8, slide_list, container=True)  # Document
    for text in drawn:
        shape = ppt_record(0xF004, _chars(text) if text else b"", container=True)
        drawing = ppt_record(0x040C, ppt_record(0xF002, shape, container=True), container=True)
        records += ppt_record(0x03EE, drawing, container=True)  # Slide
    return compound_file({"Current User": bytes(20), "PowerPoint Document": records})


def test_a_ppt_slide_without_text_is_an_empty_page(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_deck(["", "", ""], ["Primeiro", "", "Terceiro"]), "vazio.ppt")
    assert document.parsed_by == ("office.ppt_records",)
    assert [page.text for page in document.pages] == ["Primeiro", "", "Terceiro"]
    assert [page.number for page in document.pages] == [1, 2, 3]


def test_a_ppt_slide_list_without_text_for_a_slide_keeps_its_page(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_deck(["Um", "", "Tres"], ["", "", ""]), "lista.ppt")
    assert [page.text for page in document.pages] == ["Um", "", "Tres"]


def test_ppt_drawings_past_the_listed_slides_count_only_with_text(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_deck(["", ""], ["Um", "", "", "Sobra"]), "sobras.ppt")
    assert [page.text for page in document.pages] == ["Um", "", "Sobra"]


def test_catppt_text_is_one_page_as_its_form_feeds_mark_no_slides() -> None:
    require_binary("catppt", "catdoc")
    data = _deck(["Um", "", "Tres"], ["", "", ""])
    document = CatpptParser().open(Source.from_bytes(data, display_name="lista.ppt"),
                                   default_registry().config())
    pages = list(document.pages())
    assert len(pages) == 1
    assert pages[0].text.split() == ["Um", "Tres"]
