"""A docx's charts when the relationships that find them are damaged or point nowhere.

A chart's title lives in its own part, which the body finds through its relationships
part. With that part damaged, the headers, notes and comments were recovered from the
content types, but the charts' titles were lost with exit status 0 and no word of the
loss; a relationship to a chart part the package does not hold lost its title silently
too. Now the declared chart parts are read where the body's references stand, in their
names' order (each reference of the body the next part no other part links), with a
warning saying so; a chart whose part is missing, or a reference no declared part is
left for, is text lost: a ``Truncated`` warning, the document read in part.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import pytest
from packages import PKG_RELS, R, W, damaged, docx, para, zip_bytes

from goblin_core import Document

Read = Callable[..., Document]

_BODY_RELS = "word/_rels/document.xml.rels"
# the chart and DrawingML namespaces a chart's part and its reference in the body use
_DRAWINGML = "http://schemas.openxmlformats.org/drawingml/2006"
_C, _A = f"{_DRAWINGML}/chart", f"{_DRAWINGML}/main"

_CHART_TYPE = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"
_HEADER_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"


def _chart_part(title: str) -> str:
    return (f'<c:chartSpace xmlns:c="{_C}" xmlns:a="{_A}"><c:chart><c:title><c:tx><c:rich>'
            f"<a:p><a:r><a:t>{title}</a:t></a:r></a:p></c:rich></c:tx></c:title>"
            "<c:plotArea/></c:chart></c:chartSpace>")


def _drawing(relationship: str) -> str:
    return ('<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/'
            f'drawingml/2006/wordprocessingDrawing"><a:graphic xmlns:a="{_A}">'
            f'<a:graphicData uri="{_C}"><c:chart xmlns:c="{_C}" r:id="{relationship}"/>'
            "</a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>")


def _relationships(*links: tuple[str, str, str]) -> str:
    return (f'<Relationships xmlns="{PKG_RELS}">'
            + "".join(f'<Relationship Id="{rid}" Type="{R}/{kind}" Target="{target}"/>'
                      for rid, kind, target in links)
            + "</Relationships>")


def _report(declare_charts: bool = True) -> bytes:
    """A report with two charts in its body and one in its header; the header's chart
    part is numbered between the body's, as Word numbers them by insertion."""
    body = (para("Antes dos gráficos.") + _drawing("rId30") + para("Entre os gráficos.")
            + _drawing("rId31") + para("Depois dos gráficos.")
            + '<w:sectPr><w:headerReference w:type="default" r:id="rId40"/></w:sectPr>')
    with zipfile.ZipFile(io.BytesIO(docx(body))) as archive:
        members: dict[str, bytes | str] = {i.filename: archive.read(i)
                                           for i in archive.infolist()}
    header = f'<w:hdr xmlns:w="{W}" xmlns:r="{R}">' + para("Cabeçalho") + _drawing("rId1") \
        + "</w:hdr>"
    members["word/header1.xml"] = header
    members["word/_rels/header1.xml.rels"] = _relationships(("rId1", "chart",
                                                             "charts/chart2.xml"))
    members[_BODY_RELS] = _relationships(("rId30", "chart", "charts/chart1.xml"),
                                         ("rId31", "chart", "charts/chart3.xml"),
                                         ("rId40", "header", "header1.xml"))
    for number, title in ((1, "Custos mensais"), (2, "Logotipo em gráfico"),
                          (3, "Receitas anuais")):
        members[f"word/charts/chart{number}.xml"] = _chart_part(title)
    overrides = f'<Override PartName="/word/header1.xml" ContentType="{_HEADER_TYPE}"/>'
    if declare_charts:
        overrides += "".join(f'<Override PartName="/word/charts/chart{n}.xml" '
                             f'ContentType="{_CHART_TYPE}"/>' for n in (1, 2, 3))
    types = members["[Content_Types].xml"]
    assert isinstance(types, bytes)
    members["[Content_Types].xml"] = types.replace(b"</Types>", overrides.encode() + b"</Types>")
    return zip_bytes(members)


_WHOLE_TEXT = ["Cabeçalho", "Logotipo em gráfico", "Antes dos gráficos.", "Custos mensais",
               "Entre os gráficos.", "Receitas anuais", "Depois dos gráficos."]


def _with_member(package: bytes, member: str, data: bytes | None) -> bytes:
    """The package with ``member`` replaced by ``data``, or left out (None)."""
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        members: dict[str, bytes | str] = {i.filename: archive.read(i)
                                           for i in archive.infolist()}
    if data is None:
        del members[member]
    else:
        members[member] = data
    return zip_bytes(members)


def _cut_in_half(package: bytes, member: str) -> bytes:
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        whole = archive.read(member)
    return _with_member(package, member, whole[: len(whole) // 2])


def _truncated(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


def test_the_whole_report_reads_each_chart_where_it_stands(read: Read) -> None:
    document = read(_report(), "relatorio.docx")
    assert document.text.splitlines() == _WHOLE_TEXT
    assert not document.report.warnings


@pytest.mark.parametrize("damage", ["deflate", "xml"])
def test_charts_of_a_body_whose_relationships_are_damaged_are_read_in_place(
    read: Read, damage: str
) -> None:
    whole = _report()
    data = damaged(whole, _BODY_RELS) if damage == "deflate" else _cut_in_half(whole, _BODY_RELS)
    document = read(data, "relatorio.docx")
    # the header is found through the content types, its chart through its own links;
    # the body's references take the declared charts no other part links, in order
    assert document.text.splitlines() == _WHOLE_TEXT
    assert not document.report.truncated
    assert any("word/charts/chart1.xml, word/charts/chart3.xml" in w.message
               for w in document.report.warnings)


def test_charts_no_declared_part_is_left_for_are_text_lost(read: Read) -> None:
    document = read(damaged(_report(declare_charts=False), _BODY_RELS), "relatorio.docx")
    assert "Depois dos gráficos." in document.text
    assert "Custos mensais" not in document.text
    assert document.report.truncated
    (message,) = _truncated(document)
    assert "2 chart(s)" in message


def test_a_chart_part_the_package_does_not_hold_is_text_lost(read: Read) -> None:
    document = read(_with_member(_report(), "word/charts/chart3.xml", None), "relatorio.docx")
    assert "Custos mensais" in document.text and "Depois dos gráficos." in document.text
    assert document.report.truncated
    (message,) = _truncated(document)
    assert "word/charts/chart3.xml" in message


def test_a_chart_whose_own_relationships_are_damaged_keeps_its_title(read: Read) -> None:
    # a chart's relationships lead only to its data workbook, which holds no title
    broken = _with_member(_report(), "word/charts/_rels/chart1.xml.rels", b"<Relationships")
    document = read(broken, "relatorio.docx")
    assert document.text.splitlines() == _WHOLE_TEXT
    assert not document.report.truncated


@pytest.mark.parametrize("damage", ["deflate", "xml"])
def test_the_chart_of_a_header_whose_relationships_are_damaged_is_read(read: Read,
                                                                      damage: str) -> None:
    whole = _report()
    member = "word/_rels/header1.xml.rels"
    data = damaged(whole, member) if damage == "deflate" else _cut_in_half(whole, member)
    document = read(data, "relatorio.docx")
    # the body's charts are linked from its own relationships: the header takes the one left
    assert document.text.splitlines() == _WHOLE_TEXT
    assert not document.report.truncated
    assert any("word/header1.xml are damaged" in w.message for w in document.report.warnings)


@pytest.mark.parametrize("member", ["word/header1.xml", "word/footnotes.xml"])
def test_a_header_or_notes_part_the_package_does_not_hold_is_text_lost(read: Read,
                                                                       member: str) -> None:
    # as a chart's: the body links it, the package lacks it (was: left out silently)
    whole = docx(para("Corpo do contrato."), {
        "header1.xml": "<w:hdr>" + para("Cabeçalho") + "</w:hdr>",
        "footnotes.xml": '<w:footnotes><w:footnote w:id="1">' + para("Nota")
                         + "</w:footnote></w:footnotes>"})
    document = read(_with_member(whole, member, None), "contrato.docx")
    assert "Corpo do contrato." in document.text
    assert document.report.truncated
    (message,) = _truncated(document)
    assert member in message
