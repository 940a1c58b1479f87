"""A presentation part that inflates but is not well-formed XML costs what it holds.

python-pptx parses every XML part as it loads the package, so one notes slide cut
short stopped the whole deck; the comments parts it keeps as bytes were parsed
later and stopped the slides after theirs. Each test cuts one part's XML (the zip
member itself intact) and expects every other slide read and a warning naming it.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import pytest
from packages import R, rewrite, zip_bytes

from goblin_core import Document

Read = Callable[..., Document]

_COMMENTS_TYPE = "application/vnd.openxmlformats-officedocument.presentationml.comments+xml"


def _deck() -> bytes:
    """Three slides of one text box each; slide 1 has speaker notes and slide 2 a chart
    above its text box."""
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    deck = Presentation()
    for number in (1, 2, 3):
        slide = deck.slides.add_slide(deck.slide_layouts[6])
        box = slide.shapes.add_textbox(Inches(1), Inches(3), Inches(4), Inches(1))
        box.text_frame.text = f"Texto do slide {number}"
    deck.slides[0].notes_slide.notes_text_frame.text = "Nota do orador"
    values = CategoryChartData()
    values.categories = ["Jan", "Fev"]
    values.add_series("Custo", (1, 2))
    deck.slides[1].shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(0.5),
                                    Inches(4), Inches(2), values)
    buffer = io.BytesIO()
    deck.save(buffer)
    return buffer.getvalue()


def _members(package: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _member(package: bytes, member: str) -> bytes:
    return _members(package)[member]


def _cut(package: bytes, member: str) -> bytes:
    """The package with ``member``'s XML cut in half, stored whole in the zip."""
    whole = _member(package, member)
    return rewrite(package, {member: whole[: len(whole) // 2]})


def _warned(document: Document, member: str) -> bool:
    return any(member in w.message and w.kind == "CorruptDocument"
               for w in document.report.warnings)


def _slide_texts(document: Document) -> list[str]:
    return [line for line in document.text.splitlines() if line.startswith("Texto do slide")]


@pytest.mark.parametrize("member", ["ppt/notesSlides/notesSlide1.xml", "ppt/charts/chart1.xml",
                                    "ppt/slideLayouts/slideLayout7.xml",
                                    "ppt/slides/_rels/slide2.xml.rels"])
def test_a_part_no_slide_text_is_in_cut_short_leaves_every_slide(
    read: Read, member: str
) -> None:
    document = read(_cut(_deck(), member), "obra.pptx")
    assert document.parsed_by == ("office.pptx",)
    assert [p.status for p in document.pages] == ["clean", "clean", "clean"]
    assert _slide_texts(document) == [f"Texto do slide {n}" for n in (1, 2, 3)]
    assert _warned(document, member)


def test_a_slide_cut_short_is_a_failed_page_and_the_others_keep_their_numbers(
    read: Read,
) -> None:
    document = read(_cut(_deck(), "ppt/slides/slide2.xml"), "obra.pptx")
    assert [(p.number, p.status) for p in document.pages] == [
        (1, "clean"), (2, "failed"), (3, "clean")]
    assert _slide_texts(document) == ["Texto do slide 1", "Texto do slide 3"]
    assert _warned(document, "ppt/slides/slide2.xml")


def test_a_comments_part_cut_short_costs_only_its_comments(read: Read) -> None:
    deck = _deck()
    rels = "ppt/slides/_rels/slide2.xml.rels"
    document = read(zip_bytes({
        **_members(deck),
        "ppt/comments/comment1.xml": (
            b'<?xml version="1.0"?><p:cmLst xmlns:p="http://schemas.openxmlformats.org/'
            b'presentationml/2006/main"><p:cm authorId="0"><p:text>Rever o'),
        rels: _member(deck, rels).replace(
            b"</Relationships>",
            f'<Relationship Id="rId99" Type="{R}/comments" Target="../comments/comment1.xml"/>'
            "</Relationships>".encode()),
        "[Content_Types].xml": _member(deck, "[Content_Types].xml").replace(
            b"</Types>", f'<Override PartName="/ppt/comments/comment1.xml" '
            f'ContentType="{_COMMENTS_TYPE}"/></Types>'.encode()),
    }), "obra.pptx")
    assert [p.status for p in document.pages] == ["clean", "clean", "clean"]
    assert _slide_texts(document) == [f"Texto do slide {n}" for n in (1, 2, 3)]
    assert "Nota do orador" in document.text
    assert "Rever" not in document.text
    assert _warned(document, "ppt/comments/comment1.xml")


def test_a_package_part_cut_short_is_a_clear_error_naming_it(read: Read) -> None:
    import goblin_core

    with pytest.raises(goblin_core.CorruptDocument, match=r"_rels/\.rels"):
        read(_cut(_deck(), "_rels/.rels"), "obra.pptx")
