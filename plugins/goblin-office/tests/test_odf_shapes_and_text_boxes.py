"""OpenDocument frames and drawing shapes: the text typed in them is read once, as blocks
after the line that anchors them, and a ruby's reading is left out of the line."""

from __future__ import annotations

import pytest

from samples import flat_odf, openoffice_1

_SVG = 'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"'
_DC = 'xmlns:dc="http://purl.org/dc/elements/1.1/"'


def _shape(element: str, text: str, extra: str = "") -> str:
    return f"<draw:{element} {_SVG} svg:width=\"2cm\" svg:height=\"1cm\"><text:p>{text}</text:p>" \
           f"{extra}</draw:{element}>"


def _box(inner: str) -> str:
    return f"<draw:frame><draw:text-box>{inner}</draw:text-box></draw:frame>"


def test_text_typed_in_shapes_a_paragraph_anchors_is_read_after_its_line(read) -> None:  # type: ignore[no-untyped-def]
    """What LibreOffice Writer writes for a callout, a flowchart box or a grouped drawing:
    the text sits in the shape, in no text box."""
    geometry = '<draw:enhanced-geometry draw:type="rectangle"/>'
    body = (
        f"<text:p>Chamada{_shape('custom-shape', 'Texto da chamada', geometry)}</text:p>"
        f"<text:p>Caixa{_shape('rect', 'Texto do retângulo')}</text:p>"
        f"<text:p>Elipse{_shape('ellipse', 'Texto da elipse')} e polígono"
        f"{_shape('polygon', 'Texto do polígono')}</text:p>"
        f"<text:p>Seta{_shape('connector', 'Texto do conector')}{_shape('line', 'Texto da linha')}"
        f"{_shape('path', 'Texto do caminho')}</text:p>"
        "<text:p>Grupo<draw:g><draw:g>"
        f"{_shape('custom-shape', 'Forma agrupada', geometry)}</draw:g>"
        f"{_shape('caption', 'Legenda agrupada')}</draw:g></text:p>"
        '<text:p><text:span>Em um trecho<draw:a xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'xlink:href="https://example.org">{_box("<text:p>Caixa com link</text:p>")}</draw:a>'
        "</text:span></text:p>"
    )
    document = read(flat_odf("text", body), "formas.fodt")
    assert document.text.split("\n") == [
        "Chamada", "Texto da chamada",
        "Caixa", "Texto do retângulo",
        "Elipse e polígono", "Texto da elipse", "Texto do polígono",
        "Seta", "Texto do conector", "Texto da linha", "Texto do caminho",
        "Grupo", "Forma agrupada", "Legenda agrupada",
        "Em um trecho", "Caixa com link",
    ]


def test_a_text_box_inside_a_text_box_and_its_notes_and_comments_are_read_once(read) -> None:  # type: ignore[no-untyped-def]
    note = ('<text:note text:id="n1" text:note-class="footnote"><text:note-citation>1'
            "</text:note-citation><text:note-body><text:p>Nota na caixa</text:p></text:note-body>"
            "</text:note>")
    comment = (f"<office:annotation {_DC}><dc:creator>Ana</dc:creator><dc:date>2024-01-01"
               "</dc:date><text:p>Comentário na caixa</text:p></office:annotation>")
    inner = _box(f"<text:p>Caixa interna{note}{comment}</text:p>")
    deep = _box("<text:p>Outra caixa" + _box("<text:p>Funda</text:p>") + "</text:p>")
    body = (f"<text:p>Âncora{_box(f'<text:p>Caixa externa{inner}</text:p>')}</text:p>"
            f"<text:p>Fim{deep}</text:p>")
    document = read(flat_odf("text", body), "caixas.fodt")
    assert document.text.split("\n") == [
        "Âncora", "Caixa externa", "Caixa interna", "Fim", "Outra caixa", "Funda",
        "Nota na caixa", "Comment (Ana): Comentário na caixa",
    ]


def test_a_text_box_inside_a_footnote_is_read_with_the_note_alone(read) -> None:  # type: ignore[no-untyped-def]
    body = ('<text:p>Corpo<text:note text:id="n1" text:note-class="footnote">'
            "<text:note-citation>1</text:note-citation><text:note-body>"
            f"<text:p>Nota{_box('<text:p>Caixa da nota</text:p>')}</text:p>"
            "</text:note-body></text:note></text:p>")
    document = read(flat_odf("text", body), "nota.fodt")
    assert document.text.split("\n") == ["Corpo", "Nota", "Caixa da nota"]


def test_an_openoffice_1_text_box_standing_in_a_paragraph_is_read_once_apart(read) -> None:  # type: ignore[no-untyped-def]
    # OpenOffice.org 1.x put a text box straight in the paragraph, with no frame around it
    body = ("<text:p>Âncora<draw:text-box><text:p>Texto da caixa</text:p></draw:text-box>"
            " e fim</text:p>")
    data = openoffice_1("application/vnd.sun.xml.writer", "text", body)
    document = read(data, "texto.sxw")
    assert document.text.split("\n") == ["Âncora e fim", "Texto da caixa"]


def test_shapes_drawn_over_a_sheet_are_read_after_its_cells_not_as_a_cells_value(read) -> None:  # type: ignore[no-untyped-def]
    """Calc keeps a shape anchored to the page in table:shapes and one anchored to a cell
    inside the cell: neither is the cell's value."""
    geometry = '<draw:enhanced-geometry draw:type="rectangle"/>'
    body = (
        '<table:table table:name="Folha">'
        f"<table:shapes>{_shape('custom-shape', 'Nota na página', geometry)}</table:shapes>"
        '<table:table-row><table:table-cell office:value-type="string"><text:p>Item</text:p>'
        "</table:table-cell><table:table-cell>"
        f"{_shape('custom-shape', 'Chamada na célula', geometry)}</table:table-cell>"
        '<table:table-cell office:value-type="float" office:value="3">'
        f"<text:p>3</text:p>{_box('<text:p>Caixa na célula</text:p>')}</table:table-cell>"
        "</table:table-row></table:table>"
    )
    document = read(flat_odf("spreadsheet", body), "folha.fods")
    assert document.parsed_by == ("office.fods",)
    (page,) = document.pages
    assert page.tables[0].rows == (("Item", "", "3"),)
    assert page.text.split("\n") == [
        "Folha", "Item\t\t3", "Nota na página", "Chamada na célula", "Caixa na célula"]


@pytest.mark.parametrize(
    ("kind", "body", "name"),
    [
        ("text", "<text:p>{}</text:p>", "rubi.fodt"),
        ("spreadsheet", '<table:table table:name="Folha"><table:table-row><table:table-cell '
                        'office:value-type="string"><text:p>{}</text:p></table:table-cell>'
                        "</table:table-row></table:table>", "rubi.fods"),
        ("presentation", '<draw:page draw:name="p1"><draw:frame><draw:text-box><text:p>{}'
                         "</text:p></draw:text-box></draw:frame></draw:page>", "rubi.fodp"),
    ],
    ids=["fodt", "fods", "fodp"],
)
def test_a_ruby_reads_as_its_base_its_reading_left_out(read, kind, body, name) -> None:  # type: ignore[no-untyped-def]
    ruby = ("Base: <text:ruby><text:ruby-base>漢字</text:ruby-base>"
            "<text:ruby-text>かんじ</text:ruby-text></text:ruby> fim")
    document = read(flat_odf(kind, body.format(ruby)), name)
    assert "Base: 漢字 fim" in document.text.split("\n")
    assert "かんじ" not in document.text
