"""Word's numbered and bulleted paragraphs read with the number or bullet Word shows
before them (numbering.xml counted as Word counts it), in text and as ordered, nested
lists in markdown; Word 2003 XML's lists too."""

from __future__ import annotations

import io
import re
from typing import Any

import docx as python_docx
import pytest
from docx.oxml import parse_xml

from goblin_core import Document, Source, default_registry, extract
from goblin_core.renderers import page_markdown
from goblin_core.testing.corpus import require_binary
from goblin_office import safexml
from goblin_office.libreoffice import LibreOfficeParser

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def level(index: int, number_format: str, text: str, start: int = 1, extra: str = "") -> str:
    """A w:lvl of a numbering definition."""
    return (f'<w:lvl w:ilvl="{index}"><w:start w:val="{start}"/>'
            f'<w:numFmt w:val="{number_format}"/><w:lvlText w:val="{text}"/>{extra}</w:lvl>')


def definition(key: int, *levels: str, link: str = "") -> str:
    return f'<w:abstractNum w:abstractNumId="{key}">{link}{"".join(levels)}</w:abstractNum>'


def instance(num_id: int, key: int, overrides: str = "") -> str:
    return f'<w:num w:numId="{num_id}"><w:abstractNumId w:val="{key}"/>{overrides}</w:num>'


def item(text: str, num_id: int | None = None, ilvl: int = 0, props: str = "",
         style: str = "") -> str:
    """A paragraph, numbered ``num_id`` at level ``ilvl`` when given."""
    numbered = (f'<w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num_id}"/></w:numPr>'
                if num_id is not None else "")
    named = f'<w:pStyle w:val="{style}"/>' if style else ""
    return (f"<w:p><w:pPr>{named}{numbered}{props}</w:pPr>"
            f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>')


def numbered_docx(body: str, numbering: str | None = None, *, styles: str = "",
                  header: str = "") -> bytes:
    """A .docx python-docx writes, holding ``body`` and, when given, ``numbering`` as its
    numbering.xml, ``styles`` added to its styles and ``header`` as its header."""
    document = python_docx.Document()
    closing = document.element.body[-1]  # the section properties stay last
    for element in parse_xml(f'<w:body xmlns:w="{W}">{body}</w:body>'):
        closing.addprevious(element)
    if numbering is not None:
        document.part.numbering_part._element = parse_xml(
            f'<w:numbering xmlns:w="{W}">{numbering}</w:numbering>')
    for style in parse_xml(f'<w:styles xmlns:w="{W}">{styles}</w:styles>') if styles else ():
        document.styles.element.append(style)
    if header:
        part = document.sections[0].header
        part.is_linked_to_previous = False
        holder = part._element
        for old in list(holder):
            holder.remove(old)
        for element in parse_xml(f'<w:hdr xmlns:w="{W}">{header}</w:hdr>'):
            holder.append(element)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def lines(document: Document) -> list[str]:
    return document.text.splitlines()


OUTLINE = (
    definition(0, level(0, "decimal", "%1."), level(1, "lowerLetter", "%2)"),
               level(2, "lowerRoman", "%1.%2.%3"))
    + instance(1, 0)
)


def test_numbered_paragraphs_read_with_the_numbers_word_shows(read: Any) -> None:
    body = (item("Um", 1) + item("Um a", 1, 1) + item("Um b", 1, 1) + item("Um b i", 1, 2)
            + item("Dois", 1) + item("Dois a", 1, 1) + item("Dois a i", 1, 2) + item("Fim"))
    assert lines(read(numbered_docx(body, OUTLINE), "lista.docx")) == [
        "1. Um", "a) Um a", "b) Um b", "1.b.i Um b i", "2. Dois", "a) Dois a",
        "2.a.i Dois a i", "Fim",
    ]


def test_a_list_in_markdown_is_an_ordered_list_nested_as_the_document_nests_it(
        read: Any) -> None:
    body = item("Um", 1) + item("Um a", 1, 1) + item("Um a i", 1, 2) + item("Dois", 1)
    page = read(numbered_docx(body, OUTLINE), "lista.docx").pages[0]
    assert page_markdown(page).split("\n\n") == [
        "1. Um", "   1) Um a", "      1. Um a i", "2. Dois",
    ]
    kinds = [(b.kind, b.level, b.marker, b.number) for b in page.blocks]
    assert kinds == [("list_item", 1, "1.", 1), ("list_item", 2, "a)", 1),
                     ("list_item", 3, "1.a.i", 1), ("list_item", 1, "2.", 2)]


def test_bullets_read_as_the_characters_word_draws(read: Any) -> None:
    symbol = '<w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr>'
    wingdings = '<w:rPr><w:rFonts w:ascii="Wingdings" w:hAnsi="Wingdings"/></w:rPr>'
    courier = '<w:rPr><w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/></w:rPr>'
    numbering = definition(
        0, level(0, "bullet", "\uf0b7", extra=symbol), level(1, "bullet", "o", extra=courier),
        level(2, "bullet", "\uf0a7", extra=wingdings), level(3, "bullet", "\uf0d8"),
    ) + instance(1, 0)
    body = item("Ponto", 1) + item("Circulo", 1, 1) + item("Quadrado", 1, 2) + item("Outro", 1, 3)
    document = read(numbered_docx(body, numbering), "pontos.docx")
    assert lines(document) == ["• Ponto", "o Circulo", "▪ Quadrado", "• Outro"]
    assert page_markdown(document.pages[0]).split("\n\n") == [
        "- Ponto", "  - Circulo", "    - Quadrado", "      - Outro",
    ]


def test_a_list_numbered_by_its_paragraph_style_is_numbered(read: Any) -> None:
    """python-docx's own template numbers "List Number" through its style; a style based
    on it numbers its paragraphs too, and a paragraph's numId 0 takes the number away."""
    styles = ('<w:style w:type="paragraph" w:styleId="Passo"><w:name w:val="Passo"/>'
              '<w:basedOn w:val="ListNumber"/></w:style>')
    body = (item("Primeiro", style="ListNumber") + item("Segundo", style="Passo")
            + item("Sem numero", 0, style="ListNumber") + item("Terceiro", style="ListNumber"))
    assert lines(read(numbered_docx(body, styles=styles), "estilo.docx")) == [
        "1. Primeiro", "2. Segundo", "Sem numero", "3. Terceiro",
    ]


def test_a_definition_linked_through_a_numbering_style_is_counted_as_one(read: Any) -> None:
    styles = ('<w:style w:type="numbering" w:styleId="Artigos"><w:name w:val="Artigos"/>'
              '<w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>')
    numbering = (
        definition(0, level(0, "upperLetter", "%1."), level(1, "decimal", "%1-%2"),
                   link='<w:styleLink w:val="Artigos"/>')
        + definition(1, link='<w:numStyleLink w:val="Artigos"/>')
        + instance(1, 0) + instance(2, 1)
    )
    body = item("Artigo", 2) + item("Paragrafo", 2, 1) + item("Outro artigo", 1)
    assert lines(read(numbered_docx(body, numbering, styles=styles), "ligada.docx")) == [
        "A. Artigo", "A-1 Paragrafo", "B. Outro artigo",
    ]


def test_instances_of_one_definition_count_on_and_a_start_override_starts_again(
        read: Any) -> None:
    overrides = '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride>'
    numbering = (definition(0, level(0, "decimal", "%1.")) + instance(1, 0) + instance(2, 0)
                 + instance(3, 0, overrides)
                 + definition(1, level(0, "decimalZero", "%1.")) + instance(
                     4, 1, '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="9"/>'
                     "</w:lvlOverride>"))
    body = (item("A", 1) + item("B", 1) + item("Texto") + item("C", 2) + item("Novo", 3)
            + item("Novo 2", 3) + item("Nove", 4) + item("Dez", 4))
    assert lines(read(numbered_docx(body, numbering), "continua.docx")) == [
        "1. A", "2. B", "Texto", "3. C", "1. Novo", "2. Novo 2", "09. Nove", "10. Dez",
    ]


def test_word_number_formats_restarts_legal_numbers_and_suffixes(read: Any) -> None:
    numbering = (
        definition(0, level(0, "upperRoman", "%1.", extra='<w:suff w:val="space"/>'),
                   level(1, "decimal", "%1.%2", extra="<w:isLgl/>"),
                   level(2, "upperLetter", "(%3)", extra='<w:lvlRestart w:val="0"/>'))
        + definition(1, level(0, "ordinal", "%1", extra='<w:suff w:val="nothing"/>'),
                     level(1, "none", "", extra=""))
        + instance(1, 0) + instance(2, 1)
    )
    body = (item("Capitulo", 1) + item("Secao", 1, 1) + item("Alinea", 1, 2)
            + item("Capitulo dois", 1) + item("Secao", 1, 1) + item("Alinea segue", 1, 2)
            + item(" lugar", 2) + item("Sem rotulo", 2, 1))
    assert lines(read(numbered_docx(body, numbering), "formatos.docx")) == [
        "I. Capitulo", "1.1 Secao", "(A) Alinea", "II. Capitulo dois", "2.1 Secao",
        "(B) Alinea segue", "1st lugar", "Sem rotulo",
    ]


def test_a_deleted_numbered_paragraph_takes_no_number(read: Any) -> None:
    """Tracked changes read as accepted: a deleted list paragraph is gone and does not
    count; an empty numbered paragraph counts, though no line holds its number alone."""
    mark = '<w:rPr><w:del w:id="1" w:author="Ana"/></w:rPr>'
    deleted = ('<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'
               f'{mark}</w:pPr><w:del w:id="2" w:author="Ana"><w:r><w:delText>Apagado'
               "</w:delText></w:r></w:del></w:p>")
    empty = '<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr></w:p>'
    body = item("Um", 1) + deleted + item("Dois", 1) + empty + item("Quatro", 1)
    assert lines(read(numbered_docx(body, OUTLINE), "revisao.docx")) == [
        "1. Um", "2. Dois", "4. Quatro",
    ]


def test_lists_in_cells_count_with_the_body_and_a_header_counts_its_own(read: Any) -> None:
    table = ('<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid><w:tr><w:tc>'
             + item("Celula", 1) + "</w:tc><w:tc>" + item("Sub", 1, 1) + "</w:tc></w:tr></w:tbl>")
    body = item("Antes", 1) + table + item("Depois", 1)
    document = read(numbered_docx(body, OUTLINE, header=item("Cabecalho", 1)), "celulas.docx")
    assert lines(document) == ["1. Cabecalho", "1. Antes", "2. Celula\ta) Sub", "3. Depois"]


def test_typed_numbers_beside_a_numbered_list_are_not_numbered_again(read: Any) -> None:
    body = item("1. Digitado") + item("2. Digitado") + item("Numerado", 1)
    assert lines(read(numbered_docx(body, OUTLINE), "digitado.docx")) == [
        "1. Digitado", "2. Digitado", "1. Numerado",
    ]


def test_a_body_read_as_it_parses_is_numbered(read: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(safexml, "STREAM_XML_FROM", 0)
    body = item("Um", 1) + item("Um a", 1, 1) + item("Dois", 1)
    assert lines(read(numbered_docx(body, OUTLINE), "grande.docx")) == [
        "1. Um", "a) Um a", "2. Dois",
    ]


def test_list_labels_survive_a_round_trip_through_a_dict(read: Any) -> None:
    document = read(numbered_docx(item("Um", 1) + item("Um a", 1, 1), OUTLINE), "ida.docx")
    again = Document.from_dict(document.to_dict())
    assert again.pages[0].blocks == document.pages[0].blocks
    assert [(b.marker, b.number) for b in again.pages[0].blocks] == [("1.", 1), ("a)", 1)]


def test_word_2003_xml_lists_are_numbered(read: Any) -> None:
    """Word 2003 XML names its lists w:listDef / w:list, its formats by w:nfc code, and a
    paragraph's numbering w:listPr; the label Word wrote beside it (wx:t) is kept."""
    lists = (
        '<w:lists><w:listDef w:listDefId="0">'
        '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:nfc w:val="1"/><w:lvlText w:val="%1."/></w:lvl>'
        '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:nfc w:val="4"/><w:lvlText w:val="%2)"/></w:lvl>'
        '</w:listDef><w:list w:ilfo="1"><w:ilst w:val="0"/></w:list></w:lists>'
    )

    def listed(text: str, ilvl: int, written: str = "") -> str:
        shown = f'<wx:t wx:val="{written}"/>' if written else ""
        return (f'<w:p><w:pPr><w:listPr><w:ilvl w:val="{ilvl}"/><w:ilfo w:val="1"/>{shown}'
                f"</w:listPr></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>")

    xml = (
        '<?xml version="1.0" encoding="UTF-8"?><?mso-application progid="Word.Document"?>'
        f'<w:wordDocument xmlns:w="http://schemas.microsoft.com/office/word/2003/wordml" '
        'xmlns:wx="http://schemas.microsoft.com/office/word/2003/auxHint">'
        f"{lists}<w:body>{listed('Um', 0)}{listed('Um a', 1)}{listed('Dois', 0, 'II:')}"
        "</w:body></w:wordDocument>"
    )
    assert lines(read(xml.encode(), "lista2003.xml")) == ["I. Um", "a) Um a", "II: Dois"]


def test_numbers_match_what_libreoffice_shows(read: Any) -> None:
    """The same document converted to text by LibreOffice shows the same labels (Word and
    LibreOffice agree on everything this document uses)."""
    require_binary("soffice", "libreoffice-writer-nogui")
    overrides = '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="5"/></w:lvlOverride>'
    numbering = OUTLINE + instance(2, 0) + instance(3, 0, overrides) + definition(
        1, level(0, "upperRoman", "%1)"), level(1, "decimalZero", "%1.%2")) + instance(4, 1)
    body = (item("Um", 1) + item("Um a", 1, 1) + item("Um b", 1, 1) + item("Um b i", 1, 2)
            + item("Dois", 1) + item("Texto") + item("Tres", 2) + item("Cinco", 3)
            + item("Seis", 3) + item("Romano", 4) + item("Zero", 4, 1) + item("Romano II", 4)
            + item("Lista", style="ListNumber") + item("Lista 2", style="ListNumber"))
    data = numbered_docx(body, numbering)
    config = default_registry().config()
    converted = LibreOfficeParser().open(Source.from_bytes(data, display_name="lo.docx"), config)
    shown = [re.sub(r"\s+", " ", line).strip()
             for page in converted.pages() for line in page.text.splitlines() if line.strip()]
    assert lines(read(data, "lo.docx")) == shown


def test_the_tester_outline_reads_in_order(read: Any) -> None:
    """A numbered list between other paragraphs, then a bulleted one, in text and markdown."""
    numbering = (definition(0, level(0, "decimal", "%1."), level(1, "lowerLetter", "%2)"))
                 + definition(1, level(0, "bullet", "\u2022")) + instance(1, 0) + instance(2, 1))
    body = (item("Corpo") + item("First item", 1) + item("Sub item", 1, 1)
            + item("Second item", 1) + item("Bullet item", 2) + item("Final"))
    document = extract(numbered_docx(body, numbering), name="d2.docx", ocr="never")
    assert lines(document) == ["Corpo", "1. First item", "a) Sub item", "2. Second item",
                               "• Bullet item", "Final"]
    assert page_markdown(document.pages[0]).split("\n\n") == [
        "Corpo", "1. First item", "   1) Sub item", "2. Second item", "- Bullet item", "Final",
    ]
