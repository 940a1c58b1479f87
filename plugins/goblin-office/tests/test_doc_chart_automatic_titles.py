"""A chart whose title holds no text of its own: Word and Excel draw the name of its one
series there, and the reader now reads that name where the chart's title was left out.

Excel writes such a title as a ``c:title`` with no ``c:tx`` (or no title element and
``c:autoTitleDeleted val="0"``) when a chart of one series keeps its automatic title;
the series' name is the text of a cell, cached in the chart part. A chart of several
series shows a placeholder there, and one whose automatic title was deleted none.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import pytest
from packages import docx, para, zip_bytes
from test_doc_docx_chart_relationships import _C, _CHART_TYPE, _drawing, _relationships

from goblin_core import Document

Read = Callable[..., Document]


def _series(name: str) -> str:
    return (f"<c:ser><c:idx val=\"0\"/><c:tx><c:strRef><c:f>Plan1!$B$1</c:f><c:strCache>"
            f'<c:ptCount val="1"/><c:pt idx="0"><c:v>{name}</c:v></c:pt></c:strCache>'
            "</c:strRef></c:tx></c:ser>")


def _with_chart(chart: str) -> bytes:
    """A docx whose body shows a chart part holding ``chart`` (a c:chart's content)."""
    with zipfile.ZipFile(io.BytesIO(docx(para("Antes.") + _drawing("rId30")
                                         + para("Depois.")))) as archive:
        members: dict[str, bytes | str] = {i.filename: archive.read(i)
                                           for i in archive.infolist()}
    members["word/_rels/document.xml.rels"] = _relationships(("rId30", "chart",
                                                              "charts/chart1.xml"))
    members["word/charts/chart1.xml"] = (f'<c:chartSpace xmlns:c="{_C}"><c:chart>{chart}'
                                         "</c:chart></c:chartSpace>")
    types = members["[Content_Types].xml"]
    assert isinstance(types, bytes)
    members["[Content_Types].xml"] = types.replace(
        b"</Types>", f'<Override PartName="/word/charts/chart1.xml" ContentType="{_CHART_TYPE}"/>'
        "</Types>".encode())
    return zip_bytes(members)


_AUTOMATIC = '<c:title><c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/>'


@pytest.mark.parametrize("chart", [
    f"{_AUTOMATIC}<c:plotArea><c:barChart>{_series('Receita mensal')}</c:barChart></c:plotArea>",
    '<c:autoTitleDeleted val="0"/><c:plotArea><c:pieChart>'
    f"{_series('Receita mensal')}</c:pieChart></c:plotArea>",
], ids=["title-without-text", "no-title-element"])
def test_a_chart_of_one_series_shows_its_name_as_title(read: Read, chart: str) -> None:
    document = read(_with_chart(chart), "grafico.docx")
    assert document.text.splitlines() == ["Antes.", "Receita mensal", "Depois."]


@pytest.mark.parametrize("chart", [
    f"{_AUTOMATIC}<c:plotArea><c:barChart>{_series('Receita')}{_series('Custo')}"
    "</c:barChart></c:plotArea>",
    f'<c:autoTitleDeleted val="1"/><c:plotArea><c:barChart>{_series("Receita")}'
    "</c:barChart></c:plotArea>",
    f"<c:plotArea><c:barChart>{_series('Receita')}</c:barChart></c:plotArea>",
], ids=["several-series", "title-deleted", "no-word-of-the-title"])
def test_a_chart_with_no_automatic_title_shows_none(read: Read, chart: str) -> None:
    document = read(_with_chart(chart), "grafico.docx")
    assert document.text.splitlines() == ["Antes.", "Depois."]


def test_a_title_of_its_own_is_read_before_the_series_name(read: Read) -> None:
    title = ("<c:title><c:tx><c:rich><a:p xmlns:a=\"http://schemas.openxmlformats.org/"
             "drawingml/2006/main\"><a:r><a:t>Vendas</a:t></a:r></a:p></c:rich></c:tx>"
             "</c:title>")
    document = read(_with_chart(f"{title}<c:plotArea><c:barChart>{_series('Receita')}"
                                "</c:barChart></c:plotArea>"), "grafico.docx")
    assert document.text.splitlines() == ["Antes.", "Vendas", "Depois."]
