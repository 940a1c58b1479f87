"""A damaged ODF part whose text the document loses is reported as text lost.

An embedded chart's content (its titles) or a styles part holding the master pages'
headers and footers left out for damage cost text: the document counts as read in part
(``Truncated``). A styles part with no header or footer loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from packages import damaged
from test_odf_chart_titles import _CHART_TYPE, _FRAME, _NAMESPACES, _chart_content, _package

from goblin_core import Document

Read = Callable[..., Document]

_STYLES_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
              'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
              'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')


def _styles(header: str) -> str:
    # a long footer after the header, so damage near the end of the part falls past it
    footer = "".join(f"<text:p>Rodapé, linha {n} de {n * 7919 % 1000}</text:p>"
                     for n in range(300))
    region = (f"<style:header><text:p>{header}</text:p></style:header>"
              f"<style:footer>{footer}</style:footer>" if header else "")
    padding = "".join(f'<style:style style:name="P{n}" style:family="paragraph"/>'
                      for n in range(400))
    return (f"<office:document-styles {_STYLES_NS}><office:styles>{padding}</office:styles>"
            '<office:master-styles><style:master-page style:name="Standard">'
            f"{region}</style:master-page></office:master-styles></office:document-styles>")


def _odt(header: str, chart: bool = False) -> bytes:
    import io
    import zipfile

    body = "<text:p>Texto do relatório.</text:p>" + (f"<text:p>{_FRAME}</text:p>" if chart else "")
    objects = {"Object 1": (_CHART_TYPE, _chart_content())} if chart else {}
    data = _package("text", body, objects)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = {i.filename: archive.read(i) for i in archive.infolist()}
    members["styles.xml"] = _styles(header).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as copy:
        for member, body_bytes in members.items():
            copy.writestr(member, body_bytes)
    return buffer.getvalue()


def test_a_whole_odt_reads_its_header_and_chart_as_clean(read: Read) -> None:
    document = read(_odt("Relatório anual", chart=True), "relatorio.odt")
    assert "Relatório anual" in document.text and "Vendas anuais" in document.text
    assert not document.report.truncated


def test_a_damaged_styles_part_holding_a_header_is_a_loss(read: Read) -> None:
    # broken past the header: what inflates shows there was one
    document = read(damaged(_odt("Relatório anual"), "styles.xml", at=0.8), "relatorio.odt")
    assert document.text.strip() == "Texto do relatório."
    assert document.report.truncated
    assert any(w.kind == "Truncated" and "styles.xml" in w.message
               for w in document.report.warnings)


@pytest.mark.parametrize("at", [0.0, 0.9])
def test_a_damaged_styles_part_with_no_header_is_no_loss(read: Read, at: float) -> None:
    document = read(damaged(_odt(""), "styles.xml", at=at), "relatorio.odt")
    assert document.text.strip() == "Texto do relatório."
    assert any("styles.xml" in w.message for w in document.report.warnings)
    assert not document.report.truncated


def test_a_damaged_chart_is_a_loss(read: Read) -> None:
    document = read(damaged(_odt("", chart=True), "Object 1/content.xml"), "relatorio.odt")
    assert "Texto do relatório." in document.text
    assert "Vendas anuais" not in document.text
    assert any(w.kind == "Truncated" and "Object 1/content.xml" in w.message
               for w in document.report.warnings)


assert _NAMESPACES  # the chart content is written in the same namespaces
