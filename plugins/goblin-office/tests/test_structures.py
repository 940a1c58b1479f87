"""Structures of each format, on documents built in the test: tables, headers, notes, cells."""

from __future__ import annotations

import datetime as dt
import io
import re
import struct
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.comments import Comment
from packages import PKG_RELS, R, W, docx, para, rewrite, xlsb, zip_bytes

import samples
from goblin_core import default_registry
from goblin_core.renderers import page_markdown

# -- Word --------------------------------------------------------------------


def test_docx_table_is_a_table_and_tab_separated_text(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_docx()
    document = read(data, name)
    (table,) = document.tables
    assert table.rows == (("Item", "Valor"), ("Cimento", "12"))
    assert "Cimento\t12" in document.text
    assert "| Cimento | 12 |" in page_markdown(document.pages[0])


def test_docx_header_comes_first_and_footer_last(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_docx()
    lines = read(data, name).text.splitlines()
    assert lines[0] == "Prefeitura de Exemplo"
    assert lines[-1] == "Página de rodapé"


def _symbol(font: str, char: str) -> str:
    return f'<w:r><w:sym w:font="{font}" w:char="{char}"/></w:r>'


def test_docx_symbol_font_characters_are_the_unicode_characters_they_draw(read) -> None:  # type: ignore[no-untyped-def]
    # Word keeps a character inserted from a symbol font as a code in that font's own
    # encoding, shifted into the private use area: it was lost, or a box in any other font
    body = (
        "<w:p>"
        + _symbol("Symbol", "F0B7")
        + '<w:r><w:t xml:space="preserve"> Prazo </w:t></w:r>'
        + _symbol("Symbol", "F0B3")
        + '<w:r><w:t xml:space="preserve"> 30 dias, </w:t></w:r>'
        + _symbol("Symbol", "0061")  # some writers leave the code unshifted
        + _symbol("Symbol", "F0D6")
        + "</w:p><w:p>"
        + _symbol("Wingdings", "F0FE")
        + '<w:r><w:t xml:space="preserve"> Aceito </w:t></w:r>'
        + _symbol("Wingdings", "F0A7")
        + _symbol("Wingdings 2", "F050")  # no table for this font: the code stays
        + _symbol("Symbol", "zz")  # malformed: dropped
        + "</w:p>"
    )
    document = read(docx(body), "simbolos.docx")
    assert document.text.splitlines() == [
        "\u2022 Prazo \u2265 30 dias, \u03b1\u221a",
        "\U0001f5f9 Aceito \u25aa\uf050",
    ]
    assert read(samples.word2003(body), "simbolos.xml").text == document.text


def _typed(font: str, text: str) -> str:
    return (f'<w:r><w:rPr><w:rFonts w:ascii="{font}" w:hAnsi="{font}"/><w:b/></w:rPr>'
            f'<w:t xml:space="preserve">{text}</w:t></w:r>')


def test_docx_text_typed_in_a_symbol_font_is_what_the_font_draws(read) -> None:  # type: ignore[no-untyped-def]
    # Text typed in Symbol keeps the font's own bytes: "a" draws alpha; it read as
    # Latin letters, and codes shifted into the private use area as boxes
    body = (
        "<w:p>"
        + _typed("Symbol", "a")
        + '<w:r><w:t xml:space="preserve"> = 0,5; </w:t></w:r>'
        + _typed("Symbol", "D\uf0a3 p/2")
        + '<w:r><w:rPr><w:rFonts w:ascii="Arial"/></w:rPr><w:t xml:space="preserve"> ab</w:t></w:r>'
        + "</w:p><w:p>"
        + _typed("Wingdings", "l")
        + '<w:r><w:t xml:space="preserve"> Item </w:t></w:r>'
        # a w:sym inside a Symbol run is mapped once, by its own font
        + '<w:r><w:rPr><w:rFonts w:ascii="Symbol"/></w:rPr>'
        + '<w:sym w:font="Wingdings" w:char="F0FC"/><w:sym w:font="Symbol" w:char="F0B4"/></w:r>'
        + '<w:hyperlink><w:r><w:rPr><w:rFonts w:hAnsi="Symbol"/></w:rPr><w:t>m</w:t></w:r>'
        + "</w:hyperlink>"
        + "</w:p>"
    )
    document = read(docx(body), "letras.docx")
    assert document.text.splitlines() == [
        "\u03b1 = 0,5; \u0394\u2264 \u03c0/2 ab",
        "\u26ab Item \u2713\u00d7\u03bc",
    ]
    assert read(samples.word2003(body), "letras.xml").text == document.text


def test_docx_heading_is_a_markdown_heading(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_docx()
    markdown = page_markdown(read(data, name).pages[0])
    assert "# Edital" in markdown


def test_docx_footnote_endnote_and_comment_are_read(read) -> None:  # type: ignore[no-untyped-def]
    body = para("Corpo do edital.")
    parts = {
        "footnotes.xml": (
            '<w:footnotes><w:footnote w:type="separator" w:id="-1"><w:p><w:r>'
            '<w:separator/></w:r></w:p></w:footnote><w:footnote w:id="1">'
            f"{para('Nota de rodapé um.')}</w:footnote></w:footnotes>"
        ),
        "endnotes.xml": (
            f'<w:endnotes><w:endnote w:id="1">{para("Nota final.")}</w:endnote></w:endnotes>'
        ),
        "comments.xml": (
            f'<w:comments><w:comment w:id="0" w:author="Ana">{para("Revisar prazo.")}'
            "</w:comment></w:comments>"
        ),
    }
    text = read(docx(body, parts), "notas.docx").text
    assert "Nota de rodapé um." in text
    assert "Nota final." in text
    assert "Comment (Ana): Revisar prazo." in text


def test_docx_hidden_text_is_read_and_counted(read) -> None:  # type: ignore[no-untyped-def]
    # Word does not show a run set hidden (w:vanish) on itself, through its character
    # style or through the paragraph's style; the text keeps it, hidden_chars counts it
    styles = (
        '<w:styles><w:style w:type="character" w:styleId="Oculto"><w:rPr><w:vanish/></w:rPr>'
        '</w:style><w:style w:type="character" w:styleId="Nota"><w:basedOn w:val="Oculto"/>'
        '</w:style><w:style w:type="paragraph" w:styleId="Rascunho"><w:rPr><w:vanish/>'
        '</w:rPr></w:style></w:styles>'
    )

    def run(text: str, props: str = "") -> str:
        return f'<w:r><w:rPr>{props}</w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>'

    vanish, shown, off = "<w:vanish/>", "<w:vanish w:val='false'/>", "<w:vanish w:val='0'/>"
    styled = "<w:rStyle w:val='Nota'/>"
    body = (
        f'<w:p>{run("Visível ")}{run("oculto", vanish)}{run(" desligado", shown)}</w:p>'
        f'<w:p>{run("herdado", styled)}</w:p>'
        f'<w:p><w:pPr><w:pStyle w:val="Rascunho"/></w:pPr>{run("rascunho")}'
        f'{run(" mostrado", off)}</w:p>'
        f'<w:tbl><w:tr><w:tc><w:p>{run("célula", vanish)}</w:p></w:tc></w:tr></w:tbl>'
    )
    header = f"<w:hdr><w:p>{run('topo', vanish)}</w:p></w:hdr>"
    document = read(docx(body, {"styles.xml": styles, "header1.xml": header}), "oculto.docx")
    for words in ("Visível oculto desligado", "herdado", "rascunho mostrado", "célula", "topo"):
        assert words in document.text
    hidden = ("oculto", "herdado", "rascunho", "célula", "topo")
    assert document.pages[0].hidden_chars == sum(map(len, hidden))
    plain = read(docx(para("Só texto")), "simples.docx")
    assert plain.pages[0].hidden_chars == 0


def test_docx_comments_can_be_left_out(read) -> None:  # type: ignore[no-untyped-def]
    parts = {
        "comments.xml": f'<w:comments><w:comment w:id="0">{para("Oculto")}</w:comment></w:comments>'
    }
    document = read(docx(para("Corpo"), parts), "c.docx", office={"comments": False})
    assert "Oculto" not in document.text


def test_docx_text_box_is_read_once(read) -> None:  # type: ignore[no-untyped-def]
    box = f"<w:txbxContent>{para('Texto na caixa')}</w:txbxContent>"
    body = (
        '<w:p xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
        'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
        'xmlns:v="urn:schemas-microsoft-com:vml"><w:r><mc:AlternateContent>'
        f'<mc:Choice Requires="wps"><w:drawing><wps:txbx>{box}</wps:txbx></w:drawing></mc:Choice>'
        f"<mc:Fallback><w:pict><v:textbox>{box}</v:textbox></w:pict></mc:Fallback>"
        "</mc:AlternateContent></w:r></w:p>" + para("Depois da caixa")
    )
    text = read(docx(body), "caixa.docx").text
    assert text.count("Texto na caixa") == 1
    assert text.index("Texto na caixa") < text.index("Depois da caixa")


def test_docx_nested_table_text_is_in_its_cell(read) -> None:  # type: ignore[no-untyped-def]
    inner = f"<w:tbl><w:tr><w:tc>{para('INTERNA')}</w:tc></w:tr></w:tbl>"
    outer = (
        f"<w:tbl><w:tr><w:tc>{para('Externa')}{inner}</w:tc><w:tc>{para('B')}</w:tc></w:tr></w:tbl>"
    )
    document = read(docx(outer), "aninhada.docx")
    assert document.tables[0].rows[0][0] == "Externa\nINTERNA"


def test_xlsx_embedded_in_docx_is_a_child(read) -> None:  # type: ignore[no-untyped-def]
    sheet, _ = samples.sample_xlsx()
    plain = docx(para("Veja a planilha"))
    rels = (
        f'<?xml version="1.0"?><Relationships xmlns="{PKG_RELS}">'
        f'<Relationship Id="rId5" Type="{R}/package" '
        'Target="embeddings/Planilha1.xlsx"/></Relationships>'
    )
    package = rewrite(plain, {"word/_rels/document.xml.rels": rels.encode()})
    package = _add_member(package, "word/embeddings/Planilha1.xlsx", sheet)
    document = read(package, "com-planilha.docx")
    (child,) = document.children
    assert child.name == "com-planilha.docx/Planilha1.xlsx"
    assert child.mime.endswith("spreadsheetml.sheet")
    assert samples.PHRASE in child.text


@pytest.mark.parametrize(
    ("builder", "folder"), [(samples.sample_xlsx, "xl"), (samples.sample_pptx, "ppt")]
)
def test_embedded_object_in_workbook_and_deck_is_a_child(read, builder, folder) -> None:  # type: ignore[no-untyped-def]
    inner, _ = samples.sample_docx()
    data, name = builder()
    package = _add_member(data, f"{folder}/embeddings/Documento1.docx", inner)
    document = read(package, name)
    (child,) = document.children
    assert child.name == f"{name}/Documento1.docx"
    assert samples.PHRASE in child.text


def test_images_are_children_only_when_asked(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_docx()
    package = _add_member(data, "word/media/image9.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
    assert read(package, name).children == ()
    children = read(package, name, office={"images": True}).children
    assert [c.name for c in children] == [f"{name}/image9.png"]


def _add_member(package: bytes, name: str, data: bytes) -> bytes:
    import zipfile

    source = zipfile.ZipFile(io.BytesIO(package))
    members = {i.filename: source.read(i) for i in source.infolist()}
    members[name] = data
    types = (
        members["[Content_Types].xml"]
        .decode()
        .replace(
            "</Types>",
            '<Default Extension="xlsx" ContentType="application/vnd.openxmlformats-'
            'officedocument.spreadsheetml.sheet"/></Types>',
        )
    )
    members["[Content_Types].xml"] = types.encode()
    return zip_bytes(members)


# -- spreadsheets ------------------------------------------------------------


def _xlsx(workbook: openpyxl.Workbook) -> bytes:
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def test_cells_are_written_consistently(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_xlsx()
    document = read(data, name)
    rows = document.tables[0].rows
    assert rows[1] == ("3", "2.5", "2024-03-15")


def test_each_sheet_is_a_named_page(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_xlsx()
    document = read(data, name)
    assert [p.label for p in document.pages] == ["Planilha", "Resumo"]
    assert [t.title for t in document.tables] == ["Planilha", "Resumo"]
    assert document.pages[1].text.startswith("Resumo")


def _encrypted(plain: bytes, password: str) -> bytes:
    import msoffcrypto.format.ooxml as ooxml

    out = io.BytesIO()
    ooxml.OOXMLFile(io.BytesIO(plain)).encrypt(password, out)  # type: ignore[arg-type]
    return out.getvalue()


def test_workbook_encrypted_with_excels_default_password_reads_without_one(read) -> None:  # type: ignore[no-untyped-def]
    data, _ = samples.sample_xlsx()
    document = read(_encrypted(data, "VelvetSweatshop"), "somente-leitura.xlsx")
    assert document.status == "clean"
    assert document.tables[0].rows[1] == ("3", "2.5", "2024-03-15")


def test_file_encrypted_with_another_password_still_asks_for_it(read) -> None:  # type: ignore[no-untyped-def]
    from goblin_core.errors import PasswordRequired

    data, _ = samples.sample_xlsx()
    with pytest.raises(PasswordRequired, match="pass password="):
        read(_encrypted(data, "segredo"), "protegida.xlsx")
    assert read(_encrypted(data, "segredo"), "protegida.xlsx", password="segredo").tables


def test_formula_cell_gives_its_cached_value(read) -> None:  # type: ignore[no-untyped-def]
    workbook = openpyxl.Workbook()
    workbook.active["A1"] = 21
    workbook.active["B1"] = "=A1*2"
    data = _xlsx(workbook)
    import zipfile

    sheet = zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml").decode()
    cached = re.sub(
        r"<f>A1\*2</f><v\s*/>|<f>A1\*2</f><v></v>|<f>A1\*2</f>", "<f>A1*2</f><v>42</v>", sheet
    )
    document = read(rewrite(data, {"xl/worksheets/sheet1.xml": cached.encode()}), "formula.xlsx")
    assert document.tables[0].rows[0] == ("21", "42")


def test_sheet_headers_footers_and_comments_are_read(read) -> None:  # type: ignore[no-untyped-def]
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet["A1"] = "Valor"
    sheet["A1"].comment = Comment("Conferir com o fiscal", "Ana")
    sheet.oddHeader.center.text = "Secretaria de Obras"
    sheet.oddFooter.right.text = "Uso interno"
    text = read(_xlsx(workbook), "obras.xlsx").text
    assert "Secretaria de Obras" in text
    assert "Uso interno" in text
    assert "Comment A1: Conferir com o fiscal" in text


def test_date_and_time_cells_are_iso(read) -> None:  # type: ignore[no-untyped-def]
    workbook = openpyxl.Workbook()
    workbook.active["A1"] = dt.datetime(2023, 12, 1, 14, 30)
    workbook.active["B1"] = dt.date(2023, 12, 2)
    rows = read(_xlsx(workbook), "datas.xlsx").tables[0].rows
    assert rows[0] == ("2023-12-01 14:30:00", "2023-12-02")


def test_flat_ods_cells_show_their_text_or_with_raw_values_their_value(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_fods()
    assert read(data, name).tables[0].rows[0] == (samples.PHRASE, "2,5")
    raw = read(data, name, office={"cell_values": "raw"})
    assert raw.tables[0].rows[0] == (samples.PHRASE, "2.5")


_SHOWN = (
    '<table:table table:name="Formats" table:style-name="ta1"><table:table-row>'
    '<table:table-cell office:value-type="percentage" office:value="2"><text:p>200%</text:p>'
    '</table:table-cell>'
    '<table:table-cell office:value-type="currency" office:currency="GBP" office:value="1">'
    "<text:p>£1.00</text:p></table:table-cell>"
    '<table:table-cell office:value-type="boolean" office:boolean-value="true">'
    "<text:p>WAHR</text:p></table:table-cell>"
    '<table:table-cell office:value-type="date" office:date-value="2024-03-15">'
    "<text:p>15.03.24</text:p></table:table-cell>"
    "</table:table-row></table:table>"
    '<table:table table:name="Hidden" table:style-name="ta2"><table:table-row>'
    '<table:table-cell office:value-type="string"><text:p>secret</text:p></table:table-cell>'
    "</table:table-row></table:table>"
)
_HIDING_STYLES = (
    '<office:automatic-styles xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0">'
    '<style:style style:name="ta1" style:family="table"><style:table-properties '
    'table:display="true"/></style:style>'
    '<style:style style:name="ta2" style:family="table"><style:table-properties '
    'table:display="false"/></style:style></office:automatic-styles>'
)


def test_ods_cells_read_as_the_sheet_shows_them(read) -> None:  # type: ignore[no-untyped-def]
    data = samples.flat_odf("spreadsheet", _SHOWN).replace(
        b"<office:body>", _HIDING_STYLES.encode() + b"<office:body>")
    shown = read(data, "formats.fods")
    assert shown.tables[0].rows[0] == ("200%", "£1.00", "WAHR", "2024-03-15")
    dates = read(data, "formats.fods", office={"cell_dates": "display"})
    assert dates.tables[0].rows[0][3] == "15.03.24"
    raw = read(data, "formats.fods", office={"cell_values": "raw"})
    assert raw.tables[0].rows[0] == ("2", "1", "TRUE", "2024-03-15")
    assert "secret" in shown.text
    # read, but told from the sheet a reader sees
    assert [p.hidden_chars for p in shown.pages] == [0, len("Hidden\nsecret")]
    assert shown.raw_metadata["hidden_sheets"] == ["Hidden"]
    assert "secret" not in read(data, "formats.fods", office={"hidden_sheets": False}).text


# -- presentations -------------------------------------------------------------


def test_pptx_slide_title_table_and_notes(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_pptx()
    document = read(data, name)
    (page,) = document.pages
    assert page.text.splitlines()[0] == "Apresentação"
    assert page.tables[0].rows[1][0] == "Lote 7"
    assert "Notes: Nota do orador" in page.text


_PML = "application/vnd.openxmlformats-officedocument.presentationml"


@pytest.mark.parametrize(
    ("content_type", "ext"),
    [
        (f"{_PML}.slideshow.main+xml", "ppsx"),
        (f"{_PML}.template.main+xml", "potx"),
        ("application/vnd.ms-powerpoint.slideshow.macroEnabled.main+xml", "ppsm"),
        ("application/vnd.ms-powerpoint.template.macroEnabled.main+xml", "potm"),
    ],
)
def test_slide_show_and_template_decks_are_read(read, content_type: str, ext: str) -> None:  # type: ignore[no-untyped-def]
    data, _ = samples.sample_pptx()
    types = zipfile.ZipFile(io.BytesIO(data)).read("[Content_Types].xml")
    types = types.replace(f"{_PML}.presentation.main+xml".encode(), content_type.encode())
    document = read(rewrite(data, {"[Content_Types].xml": types}), f"slides.{ext}")
    assert document.status == "clean"
    assert document.pages[0].text.splitlines()[0] == "Apresentação"
    assert "Notes: Nota do orador" in document.pages[0].text


def test_word_xml_document_reads_like_its_docx(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_flat_word()
    document = read(data, name)
    assert document.mime == "application/vnd.ms-word2006ml"
    assert document.text == read(*samples.sample_docx()).text
    assert document.tables[0].rows == (("Item", "Valor"), ("Cimento", "12"))


def test_powerpoint_xml_presentation_reads_like_its_pptx(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_flat_powerpoint()
    document = read(data, name)
    assert document.mime == "application/vnd.ms-powerpoint2006ml"
    assert "Notes: Nota do orador" in document.pages[0].text


def test_word_xml_document_keeps_its_embedded_workbook(read) -> None:  # type: ignore[no-untyped-def]
    from packages import flat_opc

    inner, _ = samples.sample_xlsx()
    data, _ = samples.sample_docx()
    with_object = _add_member(data, "word/embeddings/Planilha1.xlsx", inner)
    document = read(flat_opc(with_object, "Word.Document"), "com-planilha.xml")
    (child,) = document.children
    assert samples.PHRASE in child.text


def _run(text: str) -> str:
    return f"<w:r><w:t>{text}</w:t></w:r>"


def test_word_2003_xml_reads_body_table_header_notes_and_comments(read) -> None:  # type: ignore[no-untyped-def]
    styles = (
        '<w:styles><w:style w:type="paragraph" w:styleId="Heading1">'
        '<w:name w:val="heading 1"/></w:style></w:styles>'
    )
    header = f'<w:hdr w:type="odd"><w:p>{_run("Prefeitura de Exemplo")}</w:p></w:hdr>'
    footer = f'<w:ftr w:type="odd"><w:p>{_run("Página de rodapé")}</w:p></w:ftr>'
    body = (
        "<wx:sect>"
        f'<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>{_run("Edital")}</w:p>'
        f"<w:p>{_run('Prazo de dez dias')}<w:r><w:footnote><w:p>{_run('Dias úteis.')}</w:p>"
        "</w:footnote></w:r>"
        '<aml:annotation aml:id="1" w:type="Word.Insertion"><aml:content>'
        f"{_run(' corridos')}</aml:content></aml:annotation>"
        '<w:r><aml:annotation aml:id="2" aml:author="Ana" w:type="Word.Comment">'
        f"<aml:content><w:p>{_run('Conferir o prazo.')}</w:p></aml:content></aml:annotation></w:r>"
        '<w:r><w:pict><w:binData w:name="wordml://1.png">iVBORw0KGgo=</w:binData></w:pict></w:r>'
        "</w:p>"
        f"<wx:sub-section><w:tbl><w:tr><w:tc><w:p>{_run('Cimento')}</w:p></w:tc>"
        f"<w:tc><w:p>{_run('12')}</w:p></w:tc></w:tr></w:tbl></wx:sub-section>"
        f"<w:sectPr>{header}{footer}</w:sectPr></wx:sect>"
    )
    document = read(samples.word2003(body, styles), "ata.xml")
    assert document.mime == "application/vnd.ms-wordml"
    assert document.text.splitlines() == [
        "Prefeitura de Exemplo",
        "Edital",
        "Prazo de dez dias corridos",
        "Cimento\t12",
        "Dias úteis.",
        "Comment (Ana): Conferir o prazo.",
        "Página de rodapé",
    ]
    assert "# Edital" in page_markdown(document.pages[0])
    assert document.metadata["title"] == "Ata"


def test_excel_2003_xml_reads_each_worksheet_as_a_table(read) -> None:  # type: ignore[no-untyped-def]
    first = (
        '<Worksheet ss:Name="Orçamento"><Table>'
        '<Row><Cell ss:MergeAcross="1"><Data ss:Type="String">Item</Data></Cell>'
        '<Cell><Data ss:Type="String">Data</Data></Cell></Row>'
        '<Row ss:Index="3"><Cell><Data ss:Type="String">Cimento</Data>'
        '<Comment ss:Author="Ana"><ss:Data>Conferir preço</ss:Data></Comment></Cell>'
        '<Cell ss:Index="3"><Data ss:Type="DateTime">2024-03-15T00:00:00.000</Data></Cell>'
        '<Cell><Data ss:Type="Number">12.5</Data></Cell></Row></Table>'
        '<WorksheetOptions xmlns="urn:schemas-microsoft-com:office:excel"><PageSetup>'
        '<Header x:Data="&amp;CPrefeitura"/></PageSetup></WorksheetOptions></Worksheet>'
    )
    second = (
        '<Worksheet ss:Name="Resumo"><Table><Row><Cell><Data ss:Type="String">Total</Data>'
        "</Cell></Row></Table></Worksheet>"
    )
    document = read(samples.spreadsheetml2003(first + second), "orcamento.xml")
    assert [p.label for p in document.pages] == ["Orçamento", "Resumo"]
    assert document.tables[0].rows == (
        ("Item", "", "Data", ""),
        ("", "", "", ""),
        ("Cimento", "", "2024-03-15", "12.5"),
    )
    assert "Prefeitura" in document.pages[0].text
    assert "Comment: Conferir preço" in document.pages[0].text
    assert document.metadata["author"] == "Ana"


def test_visio_pages_give_their_shapes_text_groups_opened(read) -> None:  # type: ignore[no-untyped-def]
    from packages import vsdx

    first = (
        "<Shape ID='1'><Cell N='Width' V='2'/><Text>Início</Text></Shape>"
        "<Shape ID='2' Type='Group'><Shapes><Shape ID='3'>"
        "<Section N='Property'><Row N='custo'><Cell N='Value' V='99'/></Row></Section>"
        "<Text><cp IX='0'/>Aprovar <pp IX='0'/>orçamento\n</Text></Shape></Shapes></Shape>"
    )
    second = "<Shape ID='1'><Text>Fim</Text></Shape>"
    document = read(vsdx([("Fluxo", first), ("Anexo", second)]), "processo.vsdx")
    assert document.mime == "application/vnd.ms-visio.drawing"
    assert [p.label for p in document.pages] == ["Fluxo", "Anexo"]
    assert [p.text for p in document.pages] == ["Início\nAprovar orçamento", "Fim"]


def _glyphs(x: int, y: int, text: str) -> str:
    return f'<Glyphs OriginX="{x}" OriginY="{y}" UnicodeString="{text}"/>'


def test_xps_pages_give_their_glyph_runs_line_by_line(read) -> None:  # type: ignore[no-untyped-def]
    from packages import xps

    first = (
        _glyphs(96, 100, "Edital")
        + _glyphs(150, 100, " ")
        + _glyphs(160, 100, "nº 12")
        + f"<Canvas>{_glyphs(96, 140, 'Objeto:')}{_glyphs(160, 140, 'pavimentação')}</Canvas>"
        + _glyphs(96, 180, "{}{chaves}")
    )
    document = read(xps([first, _glyphs(96, 100, "Anexo I")]), "edital.xps")
    assert document.mime == "application/vnd.ms-xpsdocument"
    assert [p.text for p in document.pages] == [
        "Edital nº 12\nObjeto: pavimentação\n{chaves}",
        "Anexo I",
    ]


# -- text formats --------------------------------------------------------------


def test_cp1252_csv_with_semicolons_is_a_table(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_csv()
    document = read(data, name)
    (table,) = document.tables
    assert table.rows[1] == (samples.PHRASE, "São Paulo")
    assert table.header_rows == 1
    assert document.raw_metadata["delimiter"] == ";"


def test_utf16_csv_is_decoded(read) -> None:  # type: ignore[no-untyped-def]
    data = "nome,cidade\nJoão,Maceió\n".encode("utf-16")
    document = read(data, "utf16.csv")
    assert document.tables[0].rows[1] == ("João", "Maceió")


_FRAMESET = (
    "<html><head><title>Orçamento</title></head><frameset rows='*,18'>"
    "<frame src='orcamento_files/sheet001.htm'><frame src='orcamento_files/tabstrip.htm'>"
    "<noframes><body><p>Esta página usa <b>quadros</b>.</p></body></noframes></frameset></html>"
)


def test_html_noframes_content_is_text_not_markup(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_FRAMESET.encode(), "orcamento.htm")
    assert document.text == "Esta página usa quadros."


def test_web_archive_of_frames_reads_every_html_part(read) -> None:  # type: ignore[no-untyped-def]
    import email.message

    archive = email.message.EmailMessage()
    archive["MIME-Version"] = "1.0"
    archive.set_content(_FRAMESET, subtype="html")
    archive.make_related()
    sheets = [
        "<table><tr><td>Item</td><td>Valor</td></tr><tr><td>Cimento</td><td>12</td></tr></table>",
        "<table><tr><td></td></tr></table>",  # an empty sheet makes no page
        "<p>Total geral</p>",
    ]
    for number, body in enumerate(sheets, start=1):
        part = email.message.EmailMessage()
        part.set_content(
            f"<html><body>{body}</body></html>", subtype="html", charset="windows-1252"
        )
        part["Content-Location"] = f"file:///C:/orcamento_files/sheet00{number}.htm"
        archive.attach(part)
    document = read(archive.as_bytes(), "orcamento.mht")
    assert [p.text for p in document.pages] == [
        "Esta página usa quadros.",
        "Item\tValor\nCimento\t12",
        "Total geral",
    ]
    assert document.tables[0].rows[1] == ("Cimento", "12")
    assert document.metadata["title"] == "Orçamento"


def test_html_script_and_style_are_dropped_structure_kept(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_html()
    document = read(data, name)
    assert "no-script-text" not in document.text
    assert "color: red" not in document.text
    markdown = page_markdown(document.pages[0])
    assert "# Aviso" in markdown
    assert "- Primeiro" in markdown
    assert document.tables[0].rows == (("Lote", "Valor"), ("1", "99"))
    assert document.metadata["title"] == "Aviso"


@pytest.mark.parametrize("page", [
    "<html><head><title>Aviso</title></head><body><p>Edital</p></body></html>Assinado: <b>Ana</b>",
    "<html><head><title>Aviso</title></head><body><p>Edital</p></body>Assinado: <b>Ana</b></html>",
], ids=["after-html", "after-body"])
def test_html_text_after_the_body_is_read_as_browsers_show_it(read, page: str) -> None:  # type: ignore[no-untyped-def]
    """Generated pages and mail footers write text after </body> or </html>; browsers show
    it at the end of the body. The head stays out of the text."""
    document = read(page.encode(), "aviso.html")
    assert document.text.split("\n") == ["Edital", "Assinado: Ana"]
    assert document.metadata["title"] == "Aviso"


def test_html_with_a_lying_charset_is_still_read(read) -> None:  # type: ignore[no-untyped-def]
    prose = (
        "A comissão de licitação informa que a sessão pública será realizada na sede da "
        "prefeitura, às nove horas, e que a documentação de habilitação será analisada "
        "após a abertura das propostas de preço. Açúcar e café serão servidos."
    )
    page = f"<html><head><meta charset='utf-8'></head><body><p>{prose}</p></body></html>"
    assert prose in read(page.encode("cp1252"), "mente.html").text


def test_utf8_page_with_stray_cp1252_bytes_keeps_both(read) -> None:  # type: ignore[no-untyped-def]
    page = (
        "<html><head><meta charset='utf-8'></head><body><h1>Licitação</h1>".encode()
        + "<p>Prefeitura de Maceió</p>".encode("cp1252")  # pasted into the UTF-8 template
        + "<p>Comissão de licitação: sessão às nove horas.</p></body></html>".encode()
    )
    document = read(page, "misto.html")
    assert document.text.splitlines() == [
        "Licitação",
        "Prefeitura de Maceió",
        "Comissão de licitação: sessão às nove horas.",
    ]


def test_markdown_keeps_headings_and_text(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_markdown()
    document = read(data, name)
    assert document.text == data.decode()
    kinds = [b.kind for b in document.pages[0].blocks]
    assert kinds[:3] == ["heading", "list_item", "list_item"]


def test_ics_folded_lines_are_joined(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_ics()
    assert f"DESCRIPTION: {samples.PHRASE}" in read(data, name).text


# -- mail ----------------------------------------------------------------------


def test_eml_headers_body_and_pdf_attachment(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_eml()
    document = read(data, name)
    assert document.text.startswith("From: Pregoeiro <pregao@example.org>")
    assert "Subject: Resultado do pregão" in document.text
    (child,) = document.children
    assert child.name == "mensagem.eml/ata.pdf"
    assert child.mime == "application/pdf"


def test_attachments_can_be_turned_off(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_eml()
    assert read(data, name, attachments=False).children == ()


def test_utf16_eml_without_bom_is_read(read) -> None:  # type: ignore[no-untyped-def]
    data, _ = samples.sample_eml()
    document = read(data.decode().encode("utf-16-le"), "utf16.eml")
    assert samples.PHRASE in document.text


def test_office_namespace_is_declared() -> None:
    config = default_registry().config()
    assert config.get("office", "headers_footers") is True
    assert W  # the package builder and the parser agree on the namespace


def test_spreadsheet_embedded_in_odt_is_a_child(read) -> None:  # type: ignore[no-untyped-def]
    from odf.opendocument import OpenDocumentText, load
    from odf.text import P

    sheet_bytes, _ = samples.sample_ods()
    document = OpenDocumentText()
    document.text.addElement(P(text="Veja a tabela anexa"))
    document.addObject(load(io.BytesIO(sheet_bytes)))
    buffer = io.BytesIO()
    document.write(buffer)
    result = read(buffer.getvalue(), "com-objeto.odt")
    (child,) = result.children
    assert child.name.startswith("com-objeto.odt/Object")
    assert child.name.endswith(".ods")
    assert samples.PHRASE in child.text


def test_ods_is_read_from_its_xml_when_calamine_is_off(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_ods()
    document = read(data, name, engines={"office.calamine": {"enabled": False}})
    assert document.parsed_by == ("office.fods",)
    assert document.tables[0].rows[0] == (samples.PHRASE, "7")


def test_ole_object_on_a_slide_is_a_child_and_the_slide_is_read(read) -> None:  # type: ignore[no-untyped-def]
    from pptx import Presentation
    from pptx.enum.shapes import PROG_ID
    from pptx.util import Inches

    sheet, _ = samples.sample_xlsx()
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Planilha embutida"
    slide.shapes.add_ole_object(io.BytesIO(sheet), PROG_ID.XLSX, Inches(1), Inches(2))
    buffer = io.BytesIO()
    deck.save(buffer)
    document = read(buffer.getvalue(), "com-ole.pptx")
    assert document.pages[0].status == "clean"
    assert "Planilha embutida" in document.text
    (child,) = document.children
    assert samples.PHRASE in child.text


def test_docx_part_names_are_matched_whatever_their_case(read) -> None:  # type: ignore[no-untyped-def]
    # OPC part names are case-insensitive: a relationship may name word/Header1.xml
    # while the zip holds word/header1.xml
    data = docx(para("corpo"), {"header1.xml": f"<w:hdr>{para('topo')}</w:hdr>"})
    rels = zipfile.ZipFile(io.BytesIO(data)).read("word/_rels/document.xml.rels")
    document = read(
        rewrite(data, {"word/_rels/document.xml.rels": rels.replace(b"header1", b"Header1")}),
        "caixa.docx",
    )
    assert document.text.split("\n")[:2] == ["topo", "corpo"]


def test_docx_missing_header_part_keeps_the_body(read) -> None:  # type: ignore[no-untyped-def]
    data = docx(para("corpo"), {"header1.xml": f"<w:hdr>{para('topo')}</w:hdr>"})
    members = zipfile.ZipFile(io.BytesIO(data))
    kept = {n: members.read(n) for n in members.namelist() if n != "word/header1.xml"}
    document = read(zip_bytes(kept), "sem-cabecalho.docx")
    assert "corpo" in document.text
    assert "topo" not in document.text


def _row(*cells: str, props: str = "") -> str:
    tcs = "".join(f"<w:tc>{c}</w:tc>" for c in cells)
    return f"<w:tr>{props}{tcs}</w:tr>"


def test_docx_table_header_rows_and_spans_are_the_rows_own(read) -> None:  # type: ignore[no-untyped-def]
    # a nested table's span and header flag belong to it, not to the cell holding it;
    # tblHeader w:val="0" switches the flag off
    nested = (
        "<w:tbl>"
        + _row(
            '<w:tcPr><w:gridSpan w:val="3"/></w:tcPr>' + para("dentro"),
            props="<w:trPr><w:tblHeader/></w:trPr>",
        )
        + "</w:tbl>"
    )
    body = (
        "<w:tbl>"
        + _row(para("Nome"), para("Valor"), props="<w:trPr><w:tblHeader/></w:trPr>")
        + _row(para("a"), para("1"), props='<w:trPr><w:tblHeader w:val="0"/></w:trPr>')
        + _row(nested + para("fora"), para("2"))
        + "</w:tbl>"
    )
    table = read(docx(body), "tabela.docx").pages[0].tables[0]
    assert table.header_rows == 1
    assert [len(row) for row in table.rows] == [2, 2, 2]
    assert table.rows[2][1] == "2"


def test_pptx_line_breaks_and_fields_are_kept(read) -> None:  # type: ignore[no-untyped-def]
    from lxml import etree
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    frame = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(4), Inches(2)).text_frame
    frame.text = "Lote\vPregão"
    paragraph = frame.paragraphs[0]._p
    drawing = paragraph.nsmap["a"]
    field = etree.SubElement(paragraph, f"{{{drawing}}}fld", id="{0}", type="slidenum")
    etree.SubElement(field, f"{{{drawing}}}t").text = "17"
    buffer = io.BytesIO()
    deck.save(buffer)
    page = read(buffer.getvalue(), "quebras.pptx").pages[0]
    assert page.text.splitlines() == ["Lote", "Pregão17"]


def test_pptx_shapes_kept_in_alternate_content_are_read(read) -> None:  # type: ignore[no-untyped-def]
    # PowerPoint wraps a shape holding an equation in mc:AlternateContent, which
    # python-pptx does not list: its text was lost
    import copy

    from lxml import etree
    from pptx import Presentation
    from pptx.util import Inches

    markup = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    slide.shapes.add_textbox(Inches(1), Inches(3), Inches(4), Inches(1)).text = "Depois"
    group = slide.shapes.add_group_shape()
    for top, text in ((1, "Fórmula de Bhaskara"), (2, "Dentro do grupo")):
        shapes = slide.shapes if top == 1 else group.shapes
        box = shapes.add_textbox(Inches(1), Inches(top), Inches(4), Inches(1))
        box.text = text
        tree = box._element.getparent()
        alternate = etree.SubElement(tree, f"{markup}AlternateContent")
        etree.SubElement(alternate, f"{markup}Choice", Requires="a14").append(box._element)
        fallback = copy.deepcopy(box._element)
        fallback.find(".//{*}t").text = "imagem da fórmula"
        etree.SubElement(alternate, f"{markup}Fallback").append(fallback)
    buffer = io.BytesIO()
    deck.save(buffer)
    page = read(buffer.getvalue(), "formulas.pptx").pages[0]
    assert page.text.splitlines() == ["Fórmula de Bhaskara", "Dentro do grupo", "Depois"]


def test_pptx_title_line_break_keeps_one_heading(read) -> None:  # type: ignore[no-untyped-def]
    from pptx import Presentation

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Edital\vPregão 7"
    buffer = io.BytesIO()
    deck.save(buffer)
    page = read(buffer.getvalue(), "titulo.pptx").pages[0]
    assert page_markdown(page).splitlines()[0] == "## Edital Pregão 7"


_DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
_DRAWING = "http://schemas.openxmlformats.org/drawingml/2006/main"


def _diagram_data(*nodes: str) -> bytes:
    """A SmartArt data model: a document point, one node a text ("|" a line break) and a
    connection between nodes."""

    def point(number: int, kind: str, text: str) -> str:
        runs = "<a:br/>".join(f"<a:r><a:t>{line}</a:t></a:r>" for line in text.split("|"))
        kind = f' type="{kind}"' if kind else ""
        return f'<dgm:pt modelId="{number}"{kind}><dgm:t><a:p>{runs}</a:p></dgm:t></dgm:pt>'

    points = [point(0, "doc", "documento")]
    points += [point(number, "", text) for number, text in enumerate(nodes, start=1)]
    points.append(point(99, "parTrans", "ligação"))
    return (
        f'<dgm:dataModel xmlns:dgm="{_DGM}" xmlns:a="{_DRAWING}"><dgm:ptLst>'
        + "".join(points)
        + "</dgm:ptLst></dgm:dataModel>"
    ).encode()


def test_pptx_smartart_text_is_read_from_its_data_part(read) -> None:  # type: ignore[no-untyped-def]
    # the slide holds only a reference to the graphic: its text was lost
    from lxml import etree
    from pptx import Presentation
    from pptx.opc.package import Part
    from pptx.opc.packuri import PackURI

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    data = Part(
        PackURI("/ppt/diagrams/data1.xml"),
        "application/vnd.openxmlformats-officedocument.drawingml.diagramData+xml",
        deck.part.package,
        _diagram_data("Licitação", "Contrato|assinado"),
    )
    relationship = slide.part.relate_to(data, f"{R}/diagramData")
    frame = etree.fromstring(
        f'<p:graphicFrame xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
        f'xmlns:a="{_DRAWING}" xmlns:r="{R}"><p:nvGraphicFramePr><p:cNvPr id="9" name="Diagrama"/>'
        "<p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>"
        '<p:xfrm><a:off x="0" y="0"/><a:ext cx="100" cy="100"/></p:xfrm>'
        f'<a:graphic><a:graphicData uri="{_DGM}"><dgm:relIds xmlns:dgm="{_DGM}" '
        f'r:dm="{relationship}" r:lo="" r:qs="" r:cs=""/></a:graphicData></a:graphic>'
        "</p:graphicFrame>"
    )
    slide.shapes._spTree.append(frame)
    buffer = io.BytesIO()
    deck.save(buffer)
    page = read(buffer.getvalue(), "fluxo.pptx").pages[0]
    assert page.text.splitlines() == ["Licitação", "Contrato", "assinado"]


def _smartart_paragraph(data: str, others: tuple[str, str, str] = ("", "", "")) -> str:
    """A w:p drawing a SmartArt graphic whose data part is relationship ``data``; ``others``
    are its layout, style and colour relationships."""
    layout, style, colours = others
    return (
        '<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/'
        f'drawingml/2006/wordprocessingDrawing"><a:graphic xmlns:a="{_DRAWING}">'
        f'<a:graphicData uri="{_DGM}"><dgm:relIds xmlns:dgm="{_DGM}" r:dm="{data}" '
        f'r:lo="{layout}" r:qs="{style}" r:cs="{colours}"/></a:graphicData></a:graphic>'
        "</wp:inline></w:drawing></w:r></w:p>"
    )


def test_docx_smartart_text_is_read_in_place_from_its_data_part(read) -> None:  # type: ignore[no-untyped-def]
    graphic = _smartart_paragraph("rId7", ("rId8", "rId9", "rId10"))
    cell = f"<w:tbl><w:tr><w:tc>{graphic}</w:tc></w:tr></w:tbl>"
    data = docx(para("Antes") + graphic + para("Depois") + cell)
    source = zipfile.ZipFile(io.BytesIO(data))
    members = {name: source.read(name) for name in source.namelist()}
    members["word/_rels/document.xml.rels"] = members["word/_rels/document.xml.rels"].replace(
        b"</Relationships>",
        f'<Relationship Id="rId7" Type="{R}/diagramData" Target="diagrams/data1.xml"/>'
        "</Relationships>".encode(),
    )
    members["word/diagrams/data1.xml"] = _diagram_data("Etapa 1", "Etapa 2")
    document = read(zip_bytes(members), "fluxo.docx")
    lines = document.text.splitlines()
    assert lines == ["Antes", "Etapa 1", "Etapa 2", "Depois", "Etapa 1 Etapa 2"]


def test_docx_smartart_in_a_header_is_read_from_the_header_s_own_relationships(read) -> None:  # type: ignore[no-untyped-def]
    data = docx(para("Corpo"), {"header1.xml": f"<w:hdr>{_smartart_paragraph('rId1')}</w:hdr>"})
    source = zipfile.ZipFile(io.BytesIO(data))
    members = {name: source.read(name) for name in source.namelist()}
    # rId1 in the header's relationships; the body's rId1 (if any) is another part
    members["word/_rels/header1.xml.rels"] = (
        f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG_RELS}">'
        f'<Relationship Id="rId1" Type="{R}/diagramData" Target="diagrams/data9.xml"/>'
        "</Relationships>").encode()
    members["word/diagrams/data9.xml"] = _diagram_data("Secretaria", "Protocolo")
    document = read(zip_bytes(members), "timbrado.docx")
    assert document.text.splitlines() == ["Secretaria", "Protocolo", "Corpo"]


_CHART = "http://schemas.openxmlformats.org/drawingml/2006/chart"


def _cell_text_reference(text: str) -> str:
    """A c:strRef to a cell, with the text it held cached."""
    return (
        '<c:strRef><c:f>Plan1!$A$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0">'
        f"<c:v>{text}</c:v></c:pt></c:strCache></c:strRef>"
    )


def _chart_part(title: str, axis_title: str = "", *, cached: bool = False) -> bytes:
    """A chart part titled ``title``: typed in as rich text, or (``cached``) taken from a
    cell whose text the part caches; with an axis titled ``axis_title`` when given."""
    if cached:
        text = _cell_text_reference(title)
    else:
        text = f"<c:rich><a:bodyPr/><a:p><a:r><a:t>{title}</a:t></a:r></a:p></c:rich>"
    axis = (
        f"<c:valAx><c:axId val=\"2\"/><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r>"
        f"<a:t>{axis_title}</a:t></a:r></a:p></c:rich></c:tx></c:title></c:valAx>"
        if axis_title
        else ""
    )
    return (
        f'<c:chartSpace xmlns:c="{_CHART}" xmlns:a="{_DRAWING}"><c:chart><c:title><c:tx>{text}'
        f"</c:tx></c:title><c:plotArea><c:barChart><c:ser><c:tx><c:v>Série</c:v></c:tx></c:ser>"
        f"</c:barChart>{axis}</c:plotArea></c:chart></c:chartSpace>"
    ).encode()


def test_docx_chart_titles_are_read_where_the_chart_sits(read) -> None:  # type: ignore[no-untyped-def]
    # the body holds only a reference to the chart part: its title was lost
    def chart(relationship: str) -> str:
        return (
            '<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/'
            f'drawingml/2006/wordprocessingDrawing"><a:graphic xmlns:a="{_DRAWING}">'
            f'<a:graphicData uri="{_CHART}"><c:chart xmlns:c="{_CHART}" r:id="{relationship}"/>'
            "</a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"
        )

    cell = f"<w:tbl><w:tr><w:tc>{chart('rId8')}</w:tc></w:tr></w:tbl>"
    data = docx(para("Antes") + chart("rId7") + para("Depois") + cell)
    source = zipfile.ZipFile(io.BytesIO(data))
    members = {name: source.read(name) for name in source.namelist()}
    members["word/_rels/document.xml.rels"] = members["word/_rels/document.xml.rels"].replace(
        b"</Relationships>",
        f'<Relationship Id="rId7" Type="{R}/chart" Target="charts/chart1.xml"/>'
        f'<Relationship Id="rId8" Type="{R}/chart" Target="charts/chart2.xml"/>'
        "</Relationships>".encode(),
    )
    members["word/charts/chart1.xml"] = _chart_part("Evolução dos preços", "Valor (R$)")
    members["word/charts/chart2.xml"] = _chart_part("Lote 7 por mês", cached=True)
    document = read(zip_bytes(members), "relatorio.docx")
    assert document.text.splitlines() == [
        "Antes",
        "Evolução dos preços",
        "Valor (R$)",
        "Depois",
        "Lote 7 por mês",
    ]


@pytest.mark.parametrize("engine", ["office.calamine", "office.openpyxl"])
def test_xlsx_chart_titles_are_read_with_the_sheet_they_are_drawn_on(read, engine) -> None:  # type: ignore[no-untyped-def]
    from openpyxl.chart import BarChart, Reference

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for row in (["Mês", "Valor"], ["Jan", 1], ["Fev", 2]):
        sheet.append(row)
    for title, place in (("Medições mensais", "D2"), ("Segundo gráfico", "D20")):
        chart = BarChart()
        chart.title = title
        chart.y_axis.title = "R$ mil"
        chart.add_data(Reference(sheet, min_col=2, min_row=1, max_row=3), titles_from_data=True)
        sheet.add_chart(chart, place)
    data = _xlsx(workbook)
    # the second chart's title taken from a cell, as Excel writes one linked to a cell
    data = rewrite(data, {"xl/charts/chart2.xml": _chart_part("Total do lote", cached=True)})
    other = "office.openpyxl" if engine == "office.calamine" else "office.calamine"
    document = read(data, "medicoes.xlsx", engines={other: {"enabled": False}})
    assert document.parsed_by == (engine,)
    assert document.text.splitlines()[-3:] == ["Medições mensais", "R$ mil", "Total do lote"]


def test_pptx_chart_title_taken_from_a_cell_is_read(read) -> None:  # type: ignore[no-untyped-def]
    # python-pptx gives a title without rich text no text frame: only typed-in ones were read
    deck, chart = _column_chart_deck()
    chart.chart_title.text_frame.text = "TITULO"
    buffer = io.BytesIO()
    deck.save(buffer)
    part = "ppt/charts/chart1.xml"
    with zipfile.ZipFile(buffer) as package:
        xml = package.read(part).decode()
    typed = r"<c:rich>(?:(?!</c:rich>).)*TITULO.*?</c:rich>"
    xml, count = re.subn(typed, _cell_text_reference("Lote 7"), xml, flags=re.S)
    assert count == 1
    document = read(rewrite(buffer.getvalue(), {part: xml.encode()}), "grafico.pptx")
    assert document.pages[0].text.splitlines()[0] == "Lote 7"


def test_control_characters_and_tabs_in_cells_keep_the_sheet_clean(read) -> None:  # type: ignore[no-untyped-def]
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for number in range(1, 21):
        sheet.append([number, f"CTRL{number}", "Lote\t7"])
    data = _xlsx(workbook)
    part = "xl/worksheets/sheet1.xml"
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        cells = package.read(part)
    # Excel stores a control character in a cell as _xHHHH_
    escaped = re.sub(rb"CTRL(\d+)", lambda m: b"_x%04X_" % int(m.group(1)), cells)
    document = read(rewrite(data, {part: escaped}), "controles.xlsx")
    (page,) = document.pages
    assert page.status == "clean"
    assert page.tables[0].rows[0] == ("1", "", "Lote\t7")
    assert page.text.splitlines()[1] == "1\t\tLote 7"


def test_pptx_chart_of_a_type_python_pptx_cannot_model_keeps_the_deck(read) -> None:  # type: ignore[no-untyped-def]
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Medições"
    data = CategoryChartData()
    data.categories = ["Jan", "Fev"]
    data.add_series("Lote 7", (1.5, 2))
    slide.shapes.add_chart(XL_CHART_TYPE.AREA, Inches(1), Inches(2), Inches(4), Inches(3), data)
    buffer = io.BytesIO()
    deck.save(buffer)
    part = "ppt/charts/chart1.xml"
    with zipfile.ZipFile(buffer) as package:
        chart = package.read(part)
    # a 3-D area chart: python-pptx raises NotImplementedError on its series
    chart = chart.replace(b"c:areaChart>", b"c:area3DChart>")
    document = read(rewrite(buffer.getvalue(), {part: chart}), "grafico.pptx")
    (page,) = document.pages
    assert "Medições" in page.text
    assert page.tables[0].rows == (("", "Jan", "Fev"), ("Lote 7", "1.5", "2"))


def _column_chart_deck() -> tuple[Any, Any]:
    """A one-slide deck holding a column chart of one series: (deck, chart)."""
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    data = CategoryChartData()
    data.categories = ["Jan", "Fev"]
    data.add_series("Lote 7", (1.5, 2))
    frame = slide.shapes.add_chart(
        XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(2), Inches(4), Inches(3), data
    )
    return deck, frame.chart


def test_pptx_chart_axis_titles_are_kept(read) -> None:  # type: ignore[no-untyped-def]
    deck, chart = _column_chart_deck()
    chart.category_axis.axis_title.text_frame.text = "Mês de medição"
    chart.value_axis.axis_title.text_frame.text = "Valor medido (R$ mil)"
    buffer = io.BytesIO()
    deck.save(buffer)
    (page,) = read(buffer.getvalue(), "grafico.pptx").pages
    assert page.text.splitlines()[-2:] == ["Mês de medição", "Valor medido (R$ mil)"]


def _shape(text: str) -> str:
    return (
        f'<xdr:sp><xdr:txBody><a:bodyPr/><a:p><a:r><a:t>{text}</a:t></a:r></a:p></xdr:txBody>'
        "</xdr:sp>"
    )


@pytest.mark.parametrize("engine", ["office.calamine", "office.openpyxl"])
def test_xlsx_text_boxes_drawn_over_a_sheet_are_read(read, engine) -> None:  # type: ignore[no-untyped-def]
    workbook = openpyxl.Workbook()
    workbook.active.append(["Lote", "Valor"])
    source = zipfile.ZipFile(io.BytesIO(_xlsx(workbook)))
    members = {name: source.read(name) for name in source.namelist()}
    members["xl/worksheets/_rels/sheet1.xml.rels"] = (
        f'<Relationships xmlns="{PKG_RELS}"><Relationship Id="rId1" Type="{R}/drawing" '
        'Target="../drawings/drawing1.xml"/></Relationships>'
    )
    members["xl/drawings/drawing1.xml"] = (
        '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/'
        f'spreadsheetDrawing" xmlns:a="{_DRAWING}" xmlns:mc="http://schemas.openxmlformats.org/'
        'markup-compatibility/2006"><xdr:twoCellAnchor>'
        + _shape("Preencher só as células em amarelo")
        + "</xdr:twoCellAnchor><xdr:twoCellAnchor><xdr:grpSp>"
        + _shape("Prazo: 30 dias")
        + "</xdr:grpSp></xdr:twoCellAnchor><mc:AlternateContent><mc:Choice Requires=\"a14\">"
        "<xdr:twoCellAnchor>" + _shape("x = 2") + "</xdr:twoCellAnchor></mc:Choice><mc:Fallback>"
        "<xdr:twoCellAnchor>" + _shape("x = 2 (imagem)") + "</xdr:twoCellAnchor></mc:Fallback>"
        "</mc:AlternateContent></xdr:wsDr>"
    )
    other = "office.openpyxl" if engine == "office.calamine" else "office.calamine"
    document = read(zip_bytes(members), "planilha.xlsx", engines={other: {"enabled": False}})
    assert document.parsed_by == (engine,)
    assert document.text.splitlines()[-3:] == [
        "Preencher só as células em amarelo",
        "Prazo: 30 dias",
        "x = 2",
    ]


def test_xlsx_error_cells_show_their_error(read) -> None:  # type: ignore[no-untyped-def]
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["Lote", "Preço", "Total"])
    sheet.append(["7", "#N/A", 3])
    sheet["C3"] = "=1/0"
    data = _xlsx(workbook)
    part = "xl/worksheets/sheet1.xml"
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        cells = package.read(part)
    # a formula that failed: Excel caches the error it shows
    cells = cells.replace(
        b'<c r="C3"><f>1/0</f><v></v></c>', b'<c r="C3" t="e"><f>1/0</f><v>#DIV/0!</v></c>'
    )
    document = read(rewrite(data, {part: cells}), "erros.xlsx")
    assert document.tables[0].rows[1:] == (("7", "#N/A", "3"), ("", "", "#DIV/0!"))


def test_xlsx_formulas_saved_without_values_show_their_formulas(read) -> None:  # type: ignore[no-untyped-def]
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["Item", "Valor"])
    sheet.append(["Café", 10])
    sheet.append(["Açúcar", 5])
    sheet.append(["Total", "=SUM(B2:B3)"])
    sheet.append(["Faixa", '=IF(B4>10,"alto","baixo")'])
    data = _xlsx(workbook)  # openpyxl writes formulas and never calculates them
    document = read(data, "totais.xlsx")
    assert document.tables[0].rows[3:] == (("Total", "=SUM(B2:B3)"),
                                           ("Faixa", '=IF(B4>10,"alto","baixo")'))
    assert [(w.kind, w.message) for w in document.report.warnings] == [(
        "UncalculatedFormulas",
        "sheet 'Sheet': 2 formula cell(s) hold no value (the workbook was saved without "
        "calculating them); each shows its formula instead")]
    # once calculated, as Excel saves it, the cell shows its value and nothing is said
    part = "xl/worksheets/sheet1.xml"
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        cells = package.read(part)
    cells = cells.replace(b"<f>SUM(B2:B3)</f><v></v>", b"<f>SUM(B2:B3)</f><v>15</v>")
    calculated = read(rewrite(data, {part: cells}), "totais.xlsx")
    assert calculated.tables[0].rows[3][1] == "15"
    assert "1 formula cell(s)" in calculated.report.warnings[0].message


def test_xlsx_error_cells_are_found_across_read_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    from goblin_office import sheeterrors

    rows = "".join(
        f'<row r="{n}"><c r="A{n}" t="n"><v>{n}</v></c><c r="B{n}" t="e"><v>#REF!</v></c></row>'
        for n in range(1, 40)
    )
    sheet = f"<worksheet><sheetData>{rows}</sheetData></worksheet>".encode()
    package = zipfile.ZipFile(io.BytesIO(zip_bytes({"sheet.xml": sheet})))
    monkeypatch.setattr(sheeterrors, "CHUNK", 50)  # far shorter than a row
    found = sheeterrors.error_cells(package, "sheet.xml")
    assert found == {(n, 1): "#REF!" for n in range(39)}


def test_xls_error_cells_show_their_error(read) -> None:  # type: ignore[no-untyped-def]
    from goblin_core.testing.corpus import corpus_dir

    data = bytearray((Path(corpus_dir(__file__)) / "office/tika-testEXCEL.xls").read_bytes())
    # the FORMULA record of C6 (row 5, column 2): its cached result becomes error 0x07,
    # #DIV/0!, in place (a BIFF8 result with 0xFFFF in its top bytes is not a number)
    (record,) = re.finditer(rb"\x06\x00..\x05\x00\x02\x00", bytes(data))
    result = record.start() + 10
    data[result : result + 8] = bytes([2, 0, 0x07, 0, 0, 0, 0xFF, 0xFF])
    document = read(bytes(data), "erros.xls")
    assert document.parsed_by == ("office.calamine",)
    assert document.tables[0].rows[5][1:] == ("1", "#DIV/0!")


def test_xlsb_error_cells_show_their_error(read) -> None:  # type: ignore[no-untyped-def]
    # calamine gives a BrtCellError as empty and drops a BrtFmlaError (a formula whose last
    # result is an error) altogether, here the only cell of the last row
    data = xlsb(
        "Erros",
        "Lote",
        7,
        errors=[(0, 2, 0x2A, False), (1, 1, 0x0F, False), (2, 3, 0x07, True)],
    )
    document = read(data, "erros.xlsb")
    assert document.parsed_by == ("office.calamine",)
    assert document.tables[0].rows == (
        ("Lote", "7", "#N/A", ""),
        ("", "#VALUE!", "", ""),
        ("", "", "", "#DIV/0!"),
    )


def test_xlsb_records_cut_short_give_the_errors_before_the_cut() -> None:
    from goblin_office import biff12

    data = xlsb("Erros", "Lote", 7, errors=[(0, 2, 0x17, False), (1, 0, 0x1D, False)])
    sheet = zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.bin")
    cut = sheet[: sheet.index(b"\x03\x09\x00\x00\x00\x00") + 4]  # inside A2's record
    assert biff12.error_cells(sheet) == {(0, 2): "#REF!", (1, 0): "#NAME?"}
    assert biff12.error_cells(cut) == {(0, 2): "#REF!"}


def test_the_xlsb_record_reader_gives_the_cells_calamine_gives(read) -> None:  # type: ignore[no-untyped-def]
    # the reader a workbook calamine cannot hold goes to: the same table, errors and
    # shared strings included, once the output limit sends the workbook there
    strings = ["Pregão", "Ata de registro"]
    cells = [(1, 0, 1), (1, 2, 0), (3, 1, 0), (3, 4, 1)]
    data = xlsb("Lotes", "Orçamento", 2.5, errors=[(0, 3, 0x2A, False)], strings=strings,
                shared_cells=cells)
    whole = read(data, "lotes.xlsb")
    assert whole.parsed_by == ("office.calamine",)
    assert whole.tables[0].rows == (
        ("Orçamento", "2.5", "", "#N/A", ""),
        ("Ata de registro", "", "Pregão", "", ""),
        ("", "", "", "", ""),
        ("", "Pregão", "", "", "Ata de registro"),
    )
    records = read(data, "lotes.xlsb", limits={"max_output_chars": 40})
    assert records.parsed_by == ("office.xlsb_records",)
    # cut before the row that made it five columns wide; the empty row left last goes
    assert records.tables[0].rows == tuple(row[:4] for row in whole.tables[0].rows[:2])
    assert records.raw_metadata["truncated_sheets"] == ["Lotes"]
    assert [w.kind for w in records.report.warnings if "sheet 'Lotes' cut" in w.message] \
        == ["Truncated"]
    # a cell naming a string past the table made calamine panic; it is read as empty
    damaged = xlsb("Lotes", "Orçamento", 2.5, strings=strings, shared_cells=[(1, 0, 9)])
    document = read(damaged, "lotes.xlsb")
    assert document.parsed_by == ("office.xlsb_records",)
    assert document.tables[0].rows == (("Orçamento", "2.5"),)


def test_xlsb_cell_records_read_as_excel_shows_them() -> None:
    import struct

    from packages import _record

    from goblin_office import biff12

    def cell(kind: int, column: int, value: bytes) -> bytes:
        return _record(kind, struct.pack("<II", column, 0) + value)

    def row(number: int) -> bytes:
        return _record(0x00, struct.pack("<IIH", number, 0, 0) + bytes(7))

    rk_integer = struct.pack("<I", (-12 << 2 | 0x02) & 0xFFFFFFFF)
    rk_hundredths = struct.pack("<I", 1234 << 2 | 0x03)
    rk_double = struct.pack("<I", struct.unpack("<Q", struct.pack("<d", 0.5))[0] >> 32)
    text = struct.pack("<I", 3) + "São".encode("utf-16-le")
    sheet = (
        row(0) + cell(0x02, 0, rk_integer) + cell(0x02, 1, rk_hundredths)
        + cell(0x02, 2, rk_double) + cell(0x04, 3, b"\x01") + cell(0x06, 4, text)
        + row(2) + cell(0x05, 1, struct.pack("<d", 1e20)) + cell(0x0A, 0, b"\x00")
        + cell(0x07, 2, struct.pack("<I", 1))
        + row(1)  # out of order: read as the row after
        + cell(0x08, 0, text + bytes(6)) + cell(0x07, 20_000, struct.pack("<I", 0))
        + _record(0x92) + row(7) + cell(0x05, 0, bytes(8))  # past the end of the cells
    )
    assert list(biff12.sheet_rows(sheet, ["Sé", "Lote"])) == [
        ["-12", "12.34", "0.5", "TRUE", "São"],
        [],
        ["FALSE", "1e+20", "Lote"],
        ["São"],  # a column past the sheet's 16,384 is left out
    ]
    assert biff12.shared_string_uses(sheet) == {1: 1, 0: 1}


def _ods_row(sheet: str, cells: list[tuple[dict[str, str], str]]) -> bytes:
    """An .ods of one sheet and one row: each cell's attributes and the text it shows."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    table = Table(name=sheet)
    row = TableRow()
    for attributes, shown in cells:
        cell = TableCell(**attributes)
        cell.addElement(P(text=shown))
        row.addElement(cell)
    table.addElement(row)
    document.spreadsheet.addElement(table)
    buffer = io.BytesIO()
    document.write(buffer)
    return buffer.getvalue()


def test_ods_error_cells_show_their_error(read) -> None:  # type: ignore[no-untyped-def]
    data = _ods_row(
        "Dados",
        [
            ({"valuetype": "float", "value": v}, shown)
            for v, shown in (("2.5", "2.5"), ("0", "#DIV/0!"))
        ],
    )
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        content = package.read("content.xml")
    # LibreOffice keeps a stand-in value beside an error and marks the cell's real type
    calcext = b"urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"
    content = content.replace(
        b'<table:table-cell office:value-type="float" office:value="0"',
        b'<table:table-cell xmlns:calcext="' + calcext + b'" calcext:value-type="error" '
        b'office:value-type="float" office:value="0"',
    )
    read_back = read(rewrite(data, {"content.xml": content}), "erros.ods")
    assert read_back.tables[0].rows == (("2.5", "#DIV/0!"),)


def test_ods_time_of_a_day_or_more_is_h_mm_ss(read) -> None:  # type: ignore[no-untyped-def]
    times = (("PT27H17M54S", "27:17:54"), ("PT08H30M00S", "08:30:00"))
    data = _ods_row("Prazos", [({"valuetype": "time", "timevalue": t}, shown)
                               for t, shown in times])
    read_back = read(data, "prazos.ods")
    assert read_back.parsed_by == ("office.fods",)
    assert read_back.tables[0].rows == (("27:17:54", "08:30:00"),)
    # calamine, the fallback, gives such a time as an ISO duration: goblin writes it the same
    fallback = read(data, "prazos.ods", engines={"office.fods": {"enabled": False}})
    assert fallback.parsed_by == ("office.calamine",)
    assert fallback.tables[0].rows == (("27:17:54", "08:30:00"),)


def _dbf_with_dates(*dates: bytes) -> bytes:
    """A dBASE III table of one date field (D, 8 bytes), one record per value."""
    header = struct.pack("<BBBBIHH20x", 3, 124, 3, 15, len(dates), 32 + 32 + 1, 1 + 8)
    field = b"PRAZO".ljust(11, b"\x00") + b"D" + b"\x00" * 4 + bytes([8, 0]) + b"\x00" * 14
    return header + field + b"\r" + b"".join(b" " + d for d in dates) + b"\x1a"


def test_dbf_value_that_does_not_parse_keeps_the_table(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_dbf_with_dates(b"20240131", b"NotADate", b"19991231"), "prazos.dbf")
    assert document.text.split("\n") == ["PRAZO", "2024-01-31", "NotADate", "1999-12-31"]


def test_ods_rows_start_at_the_first_used_column_as_calamine_gives_them(read) -> None:  # type: ignore[no-untyped-def]
    body = (
        '<table:table table:name="Ducks">'
        '<table:table-row><table:table-cell/><table:table-cell office:value-type="string">'
        "<text:p>Year</text:p></table:table-cell></table:table-row>"
        '<table:table-row><table:table-cell table:number-columns-repeated="2"/>'
        '<table:table-cell office:value-type="float" office:value="120"><text:p>120</text:p>'
        "</table:table-cell></table:table-row></table:table>"
    )
    document = read(samples.flat_odf("spreadsheet", body), "ducks.fods")
    assert document.tables[0].rows == (("Year", ""), ("", "120"))


def test_an_xlsb_chart_sheet_is_a_page_without_cells(read) -> None:  # type: ignore[no-untyped-def]
    # calamine reads an .xlsb chart sheet as a worksheet and fails ("failed to fill whole
    # buffer"): the page failed, the reading stopped there and the workbook was reported
    # partially recovered
    data = xlsb("Planilha", "Orçamento estimado", 2.5, chart_sheet="Gráfico")
    document = read(data, "orcamento.xlsb")
    assert document.status == "clean"
    assert [page.status for page in document.pages] == ["clean", "clean"]
    assert "Orçamento estimado\t2.5" in document.pages[0].text
    assert document.pages[1].text == "Gráfico"
    assert document.parsed_by == ("office.calamine",)
    assert not document.report.errors


def test_an_xlsb_with_an_excel4_macro_sheet_is_read(read) -> None:  # type: ignore[no-untyped-def]
    # calamine knows an .xlsb sheet's kind by its part's folder and refused the whole
    # workbook over one under xl/macrosheets/
    source = zipfile.ZipFile(io.BytesIO(xlsb("Macro1", "=HALT()", 1)))
    moved = io.BytesIO()
    with zipfile.ZipFile(moved, "w") as package:
        for name in source.namelist():
            data = source.read(name).replace(b"/worksheets/", b"/macrosheets/")
            data = data.replace(b'"worksheets/', b'"macrosheets/')
            data = data.replace(
                b"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet",
                b"http://schemas.microsoft.com/office/2006/relationships/xlMacrosheet",
            ).replace(b"application/vnd.ms-excel.worksheet", b"application/vnd.ms-excel.macrosheet")
            package.writestr(name.replace("worksheets/", "macrosheets/"), data)
    assert "xl/macrosheets/sheet1.bin" in zipfile.ZipFile(moved).namelist()
    document = read(moved.getvalue(), "macros.xlsb")
    assert document.parsed_by == ("office.calamine",)
    assert document.pages[0].label == "Macro1"
    assert "=HALT()\t1" in document.text


def test_web_archive_part_declared_utf8_with_a_stray_byte_keeps_utf8(read) -> None:  # type: ignore[no-untyped-def]
    # one broken sequence made the whole part undecodable as UTF-8, and detection then
    # read every letter in a DOS code page ("ðƒÐÇð¥..." for Russian)
    body = (
        "<html><body><p>Профиль Сообщения Контакты</p>".encode()
        + "<p>Prefeitura de Maceió</p>".encode("cp1252")
        + "<p>Comissão de licitação: sessão às nove horas.</p></body></html>".encode()
    )
    document = read(_related_html(b"From: <Saved by Blink>", body), "aviso.mht")
    assert document.parsed_by == ("office.mhtml",)
    assert document.text.splitlines() == [
        "Профиль Сообщения Контакты",
        "Prefeitura de Maceió",
        "Comissão de licitação: sessão às nove horas.",
    ]


def _related_html(headers: bytes, body: bytes, charset: bytes = b"UTF-8") -> bytes:
    """A multipart/related message of one HTML part, sent 8-bit, under ``headers``."""
    return b"\r\n".join([
        headers, b"Subject: aviso", b"MIME-Version: 1.0",
        b'Content-Type: multipart/related; type="text/html"; boundary="b1"', b"",
        b"--b1", b"Content-Type: text/html; charset=" + charset,
        b"Content-Transfer-Encoding: 8bit", b"", body, b"--b1--", b"",
    ])


@pytest.mark.parametrize("name", ["aviso.eml", "aviso.mht", "aviso"])
def test_an_html_mail_with_inline_pictures_is_a_mail_not_a_web_archive(read, name) -> None:  # type: ignore[no-untyped-def]
    # multipart/related in its head made the core call it a web archive: From, To, Date
    # and Subject were lost, and its attachments with them
    headers = (b"Received: from mx.example.org by mail.example.org;\r\n"
               b"\tMon, 03 Mar 2025 10:00:00 -0300\r\n"
               b"From: Prefeitura <compras@example.org>\r\nTo: fornecedor@example.com\r\n"
               b"Date: Mon, 03 Mar 2025 10:00:00 -0300")
    body = "<html><body><p>Convite para a licitação nº 12/2025</p></body></html>".encode()
    document = read(_related_html(headers, body), name)
    assert document.parsed_by == ("office.eml",)
    assert document.text.splitlines() == [
        "From: Prefeitura <compras@example.org>",
        "To: fornecedor@example.com",
        "Date: Mon, 03 Mar 2025 10:00:00 -0300",
        "Subject: aviso",
        "Convite para a licitação nº 12/2025",
    ]


def test_a_saved_web_page_stays_a_web_archive(read) -> None:  # type: ignore[no-untyped-def]
    headers = (b"From: <Saved by Blink>\r\nSnapshot-Content-Location: https://example.org/\r\n"
               b"Date: Mon, 03 Mar 2025 10:00:00 -0300")
    document = read(_related_html(headers, "<p>Edital nº 12</p>".encode()), "pagina.mht")
    assert document.parsed_by == ("office.mhtml",)
    assert document.text == "Edital nº 12"


def test_docx_tracked_changes_read_as_accepted(read) -> None:  # type: ignore[no-untyped-def]
    body = (
        '<w:p><w:r><w:t xml:space="preserve">O valor é </w:t></w:r>'
        '<w:del w:id="1" w:author="A"><w:r><w:delText>R$ 100</w:delText></w:r></w:del>'
        '<w:ins w:id="2" w:author="A"><w:r><w:t>R$ 200</w:t></w:r></w:ins>'
        '<w:r><w:t xml:space="preserve"> por item.</w:t></w:r></w:p>'
        '<w:p><w:moveFrom w:id="3" w:author="A"><w:r><w:t>Prazo de 30 dias.</w:t></w:r>'
        "</w:moveFrom></w:p>"
        + para("Entrega no almoxarifado.")
        + '<w:p><w:moveTo w:id="4" w:author="A"><w:r><w:t>Prazo de 30 dias.</w:t></w:r>'
        "</w:moveTo></w:p>"
    )
    document = read(docx(body), "revisado.docx")
    assert document.text.splitlines() == [
        "O valor é R$ 200 por item.", "Entrega no almoxarifado.", "Prazo de 30 dias."]


@pytest.mark.parametrize("engine", ["office.calamine", "office.openpyxl"])
def test_hidden_sheets_are_read_and_counted_as_hidden(read, engine: str) -> None:  # type: ignore[no-untyped-def]
    workbook = openpyxl.Workbook()
    workbook.active.title = "Resumo"
    workbook.active["A1"] = "total 10"
    for title, state in (("Auxiliar", "hidden"), ("Macros", "veryHidden")):
        sheet = workbook.create_sheet(title)
        sheet["A1"] = f"dado de {title}"
        sheet.sheet_state = state
    other = "office.openpyxl" if engine == "office.calamine" else "office.calamine"
    document = read(_xlsx(workbook), "oculta.xlsx", engines={other: {"enabled": False}})
    assert document.parsed_by == (engine,)
    assert [(p.label, p.hidden_chars) for p in document.pages] == [
        ("Resumo", 0), ("Auxiliar", len("Auxiliar\ndado de Auxiliar")),
        ("Macros", len("Macros\ndado de Macros"))]
    if engine == "office.calamine":
        assert document.raw_metadata["hidden_sheets"] == ["Auxiliar", "Macros"]
    hidden_off = read(_xlsx(workbook), "oculta.xlsx", office={"hidden_sheets": False},
                      engines={other: {"enabled": False}})
    assert [p.label for p in hidden_off.pages] == ["Resumo"]


def test_a_hidden_slide_is_read_and_counted_as_hidden(read) -> None:  # type: ignore[no-untyped-def]
    from pptx import Presentation

    deck = Presentation()
    for title, shown in (("Abertura", None), ("Reserva", "0"), ("Fim", "1")):
        slide = deck.slides.add_slide(deck.slide_layouts[5])
        slide.shapes.title.text = title
        if shown is not None:
            slide._element.set("show", shown)
    buffer = io.BytesIO()
    deck.save(buffer)
    document = read(buffer.getvalue(), "deck.pptx")
    assert [(p.text, p.hidden_chars) for p in document.pages] == [
        ("Abertura", 0), ("Reserva", len("Reserva")), ("Fim", 0)]
    assert document.raw_metadata["hidden_slides"] == [2]


def test_an_odf_drawing_is_read_page_by_page_with_its_shapes(read) -> None:  # type: ignore[no-untyped-def]
    # LibreOffice Draw: flowchart shapes and lines carry their text themselves, no frame
    from odf.draw import Line, Page
    from odf.opendocument import OpenDocumentDrawing
    from odf.text import P

    from samples import default_master, flowchart_shape

    drawing = OpenDocumentDrawing()
    master = default_master(drawing)
    for name, texts in (("Fluxo", ["Início", "Aprovação"]), ("Legenda", ["Fim"])):
        page = Page(name=name, masterpagename=master)
        for text in texts:
            page.addElement(flowchart_shape(text))
        line = Line(x1="5cm", y1="2cm", x2="6cm", y2="2cm")
        line.addElement(P(text=f"seta de {name}"))
        page.addElement(line)
        drawing.drawing.addElement(page)
    buffer = io.BytesIO()
    drawing.write(buffer)
    document = read(buffer.getvalue(), "processo.odg")
    assert document.mime == "application/vnd.oasis.opendocument.graphics"
    assert [(p.number, p.label, p.text) for p in document.pages] == [
        (1, "Fluxo", "Início\nAprovação\nseta de Fluxo"), (2, "Legenda", "Fim\nseta de Legenda")]


def test_a_presentation_or_drawing_without_its_body_says_which_bodies_were_sought(
    read,  # type: ignore[no-untyped-def]
) -> None:
    from goblin_core.errors import CorruptDocument
    from samples import flat_odf

    with pytest.raises(CorruptDocument, match="no office:presentation or office:drawing body"):
        read(flat_odf("presentation", "", "text"), "vazio.fodp")
