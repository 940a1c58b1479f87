"""OpenDocument charts: the title, subtitle and axis titles of an embedded chart are read
where its frame sits, in text documents, sheets and presentations, packaged or flat, as
the Word, Excel and PowerPoint readers read a chart's."""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook
from openpyxl.chart import BarChart, Reference
from packages import libreoffice_saved, zip_bytes

from goblin_core.testing.corpus import require_binary
from samples import flat_odf

_NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
    'xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink"'
)
_CHART_BODY = (
    "<office:chart><chart:chart chart:class=\"chart:bar\">"
    "<chart:title><text:p>Vendas <text:span>anuais</text:span></text:p></chart:title>"
    "<chart:subtitle><text:p>Por   região</text:p></chart:subtitle>"
    '<chart:plot-area><chart:axis chart:dimension="x"><chart:title><text:p>Mês</text:p>'
    '</chart:title></chart:axis><chart:axis chart:dimension="y"><chart:title><text:p>Valor'
    "</text:p><text:p>(R$)</text:p></chart:title></chart:axis>"
    "<chart:series/></chart:plot-area>"
    "<table:table table:name=\"local-table\"><table:table-row><table:table-cell>"
    "<text:p>dado da tabela</text:p></table:table-cell></table:table-row></table:table>"
    "</chart:chart></office:chart>"
)
_CHART_LINES = ["Vendas anuais", "Por região", "Mês", "Valor (R$)"]
_MIMETYPES = {
    "text": "application/vnd.oasis.opendocument.text",
    "spreadsheet": "application/vnd.oasis.opendocument.spreadsheet",
    "presentation": "application/vnd.oasis.opendocument.presentation",
}
_CHART_TYPE = "application/vnd.oasis.opendocument.chart"
_FRAME = '<draw:frame><draw:object xlink:href="./Object 1"/></draw:frame>'


def _package(kind: str, body: str, objects: dict[str, tuple[str, str]]) -> bytes:
    """An ODF package of ``kind`` whose body is ``body``, embedding ``objects`` (folder ->
    (media type, content.xml)), as LibreOffice writes one."""
    entries = [f'<manifest:file-entry manifest:full-path="/" '
               f'manifest:media-type="{_MIMETYPES[kind]}"/>']
    members = {"mimetype": _MIMETYPES[kind]}
    for folder, (media_type, content) in objects.items():
        entries.append(f'<manifest:file-entry manifest:full-path="{folder}/" '
                       f'manifest:media-type="{media_type}"/>')
        members[f"{folder}/content.xml"] = content
    members["META-INF/manifest.xml"] = (
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
        + "".join(entries) + "</manifest:manifest>")
    members["content.xml"] = (
        f"<office:document-content {_NAMESPACES}><office:body><office:{kind}>{body}"
        f"</office:{kind}></office:body></office:document-content>")
    return zip_bytes(members)


def _chart_content(body: str = _CHART_BODY) -> str:
    return (f"<office:document-content {_NAMESPACES}><office:body>{body}</office:body>"
            "</office:document-content>")


def test_a_chart_title_subtitle_and_axis_titles_are_read_where_an_odt_frame_sits(read) -> None:  # type: ignore[no-untyped-def]
    body = f"<text:p>Antes</text:p><text:p>{_FRAME}</text:p><text:p>Depois</text:p>"
    data = _package("text", body, {"Object 1": (_CHART_TYPE, _chart_content())})
    document = read(data, "grafico.odt")
    assert document.text.split("\n") == ["Antes", *_CHART_LINES, "Depois"]
    assert not document.children


def test_a_chart_held_inline_in_a_flat_odt_is_read_where_it_sits(read) -> None:  # type: ignore[no-untyped-def]
    inline = (f'<draw:frame><draw:object><office:document {_NAMESPACES} '
              f'office:mimetype="{_CHART_TYPE}"><office:body>{_CHART_BODY}</office:body>'
              "</office:document></draw:object></draw:frame>")
    body = f"<text:p>Antes{inline}</text:p><text:p>Depois</text:p>"
    document = read(flat_odf("text", body), "grafico.fodt")
    assert document.text.split("\n") == ["Antes", *_CHART_LINES, "Depois"]


def test_the_titles_of_a_chart_drawn_over_an_ods_sheet_follow_its_cells(read) -> None:  # type: ignore[no-untyped-def]
    body = (f'<table:table table:name="Dados"><table:shapes>{_FRAME}</table:shapes>'
            "<table:table-row><table:table-cell><text:p>Mês</text:p></table:table-cell>"
            "<table:table-cell><text:p>Valor</text:p></table:table-cell></table:table-row>"
            "</table:table>")
    data = _package("spreadsheet", body, {"Object 1": (_CHART_TYPE, _chart_content())})
    assert read(data, "grafico.ods").text.split("\n") == ["Dados", "Mês\tValor", *_CHART_LINES]


def test_the_titles_of_a_chart_on_a_slide_are_read_on_that_slide(read) -> None:  # type: ignore[no-untyped-def]
    title = ('<draw:frame presentation:class="title"><draw:text-box><text:p>Resultados'
             "</text:p></draw:text-box></draw:frame>")
    body = (f'<draw:page draw:name="um">{title}{_FRAME}</draw:page>'
            '<draw:page draw:name="dois"><draw:frame><draw:text-box><text:p>Fim</text:p>'
            "</draw:text-box></draw:frame></draw:page>")
    data = _package("presentation", body, {"Object 1": (_CHART_TYPE, _chart_content())})
    pages = read(data, "grafico.odp").pages
    assert [page.text.split("\n") for page in pages] == [["Resultados", *_CHART_LINES], ["Fim"]]


def test_an_embedded_object_that_is_no_chart_adds_no_text_where_it_sits(read) -> None:  # type: ignore[no-untyped-def]
    formula = _chart_content('<math xmlns="http://www.w3.org/1998/Math/MathML"><mi>x</mi></math>')
    body = f"<text:p>Antes</text:p><text:p>{_FRAME}</text:p><text:p>Depois</text:p>"
    data = _package("text", body, {
        "Object 1": ("application/vnd.oasis.opendocument.formula", formula)})
    assert read(data, "formula.odt").text.split("\n") == ["Antes", "Depois"]


def test_a_damaged_chart_is_left_out_with_a_warning_and_the_text_is_kept(read) -> None:  # type: ignore[no-untyped-def]
    body = f"<text:p>Antes</text:p><text:p>{_FRAME}</text:p><text:p>Depois</text:p>"
    data = _package("text", body, {"Object 1": (_CHART_TYPE, _chart_content()[:200])})
    document = read(data, "danificado.odt")
    assert document.text.split("\n") == ["Antes", "Depois"]
    assert any("Object 1/content.xml" in warning.message for warning in document.report.warnings)


def test_a_chart_libreoffice_converts_from_xlsx_reads_as_in_the_xlsx(read, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    soffice = require_binary("soffice", "libreoffice-calc-nogui")
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Dados"
    for row in (["Mês", "Valor"], ["jan", 1], ["fev", 2]):
        sheet.append(row)
    chart = BarChart()
    chart.title = "Vendas anuais"
    chart.x_axis.title = "Mês"
    chart.y_axis.title = "Valor"
    chart.add_data(Reference(sheet, min_col=2, min_row=1, max_row=3), titles_from_data=True)
    sheet.add_chart(chart, "D2")
    source = tmp_path / "grafico.xlsx"
    workbook.save(source)
    saved = libreoffice_saved(soffice, source, "ods")
    xlsx = read(source.read_bytes(), "grafico.xlsx").text
    ods = read(saved, "grafico.ods").text
    assert xlsx.endswith("Vendas anuais\nMês\nValor")
    assert ods == xlsx
