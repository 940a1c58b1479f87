"""A slide whose relationships part is damaged or missing, and a slide linking parts the
package does not hold.

A slide's relationships lead to its layout, its notes and its charts; its own text is in
the slide part. With them damaged or missing the slide's title placeholder, placed by a
layout python-pptx could no longer find, failed the whole page (its text lost), and its
notes went silently. The slide is now read (a title placed by its lost layout first) and
its notes found through the notes part, which names its slide. A notes, chart or
SmartArt part the slide links but the package does not hold was left out silently
(python-pptx drops such a relationship); it is now text lost, named in a warning.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from test_doc_docx_chart_relationships import _with_member

from goblin_core import Document

Read = Callable[..., Document]

_SLIDE_RELS = "ppt/slides/_rels/slide1.xml.rels"


def _deck() -> bytes:
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    deck = Presentation()
    first = deck.slides.add_slide(deck.slide_layouts[1])
    first.shapes.title.text = "Primeiro slide"
    first.placeholders[1].text_frame.text = "Corpo do primeiro"
    first.notes_slide.notes_text_frame.text = "Nota do orador"
    second = deck.slides.add_slide(deck.slide_layouts[5])
    second.shapes.title.text = "Segundo slide"
    values = CategoryChartData()
    values.categories = ["Jan", "Fev"]
    values.add_series("Custo", (1, 2))
    chart = second.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(2),
                                    Inches(4), Inches(2), values).chart
    chart.has_title = True
    chart.chart_title.text_frame.text = "Custos mensais"
    buffer = io.BytesIO()
    deck.save(buffer)
    return buffer.getvalue()


def _truncated(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


@pytest.mark.parametrize("damage", [None, b"<Relationships xmlns="],
                         ids=["missing", "cut-short"])
def test_a_slide_whose_relationships_are_lost_keeps_its_text_and_notes(
    read: Read, damage: bytes | None
) -> None:
    document = read(_with_member(_deck(), _SLIDE_RELS, damage), "deck.pptx")
    first, second = (page.text.splitlines() for page in document.pages)
    assert first == ["Primeiro slide", "Corpo do primeiro", "Notes: Nota do orador"]
    assert second[0] == "Segundo slide" and "Custos mensais" in second
    assert document.status == "clean"  # no page failed
    assert not document.report.truncated


def test_notes_the_package_does_not_hold_are_text_lost(read: Read) -> None:
    document = read(_with_member(_deck(), "ppt/notesSlides/notesSlide1.xml", None), "deck.pptx")
    assert document.pages[0].text.splitlines() == ["Primeiro slide", "Corpo do primeiro"]
    assert document.report.truncated
    (message,) = _truncated(document)
    assert "ppt/notesSlides/notesSlide1.xml" in message


def test_a_chart_the_package_does_not_hold_is_text_lost(read: Read) -> None:
    document = read(_with_member(_deck(), "ppt/charts/chart1.xml", None), "deck.pptx")
    assert document.pages[1].text.splitlines()[0] == "Segundo slide"
    assert "Custos mensais" not in document.text
    assert document.report.truncated
    assert any("ppt/slides/slide2.xml" in message for message in _truncated(document))


def test_the_whole_deck_is_clean(read: Read) -> None:
    document = read(_deck(), "deck.pptx")
    assert document.pages[0].text.splitlines()[-1] == "Notes: Nota do orador"
    assert "Custos mensais" in document.pages[1].text
    assert not document.report.warnings
