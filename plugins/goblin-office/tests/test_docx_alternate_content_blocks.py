"""Word content wrapped in ``mc:AlternateContent`` around whole paragraphs and tables
(in the body, a table cell, a header, a content control): one branch is read, the
first Choice when its namespaces are ones the reader knows, else the Fallback."""

from __future__ import annotations

from packages import docx, para

_MC = (
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
    'xmlns:x9="urn:example:future-extension"'
)


def alternate(choice: str, fallback: str, requires: str = "w14") -> str:
    """An mc:AlternateContent of one Choice (none when ``choice`` is empty) and a Fallback."""
    chosen = f'<mc:Choice Requires="{requires}">{choice}</mc:Choice>' if choice else ""
    return (f"<mc:AlternateContent {_MC}>{chosen}<mc:Fallback>{fallback}</mc:Fallback>"
            "</mc:AlternateContent>")


def table(*cells: str) -> str:
    return "<w:tbl><w:tr>" + "".join(f"<w:tc>{cell}</w:tc>" for cell in cells) + "</w:tr></w:tbl>"


def test_body_level_choice_is_read_once_in_place(read) -> None:  # type: ignore[no-untyped-def]
    body = para("Antes") + alternate(para("Escolha"), para("Alternativa")) + para("Depois")
    lines = read(docx(body), "alternativa.docx").text.splitlines()
    assert lines == ["Antes", "Escolha", "Depois"]


def test_fallback_is_read_when_the_choice_is_absent_or_not_understood(read) -> None:  # type: ignore[no-untyped-def]
    body = (
        alternate("", para("Só alternativa"))
        + alternate(para("Extensão desconhecida"), para("Reserva"), requires="x9")
        + alternate(para("Sem prefixo"), para("Reserva dois"), requires="nada")
    )
    text = read(docx(body), "reserva.docx").text
    assert text.splitlines() == ["Só alternativa", "Reserva", "Reserva dois"]


def test_wrapped_table_cell_header_and_content_control(read) -> None:  # type: ignore[no-untyped-def]
    wrapped_table = alternate(table(para("A1"), para("B1")), para("Tabela como imagem"))
    cell = table(alternate(para("Na célula"), para("Célula alternativa")))
    wrapped = alternate(para("No controle"), para("X"))
    control = f"<w:sdt><w:sdtContent>{wrapped}</w:sdtContent></w:sdt>"
    header = f"<w:hdr>{alternate(para('No cabeçalho'), para('Cabeçalho alternativo'))}</w:hdr>"
    document = read(docx(wrapped_table + cell + control, {"header1.xml": header}), "partes.docx")
    assert [table.rows for table in document.tables] == [(("A1", "B1"),), (("Na célula",),)]
    for kept in ("No controle", "No cabeçalho"):
        assert document.text.count(kept) == 1
    for dropped in ("imagem", "alternativa", "X", "alternativo"):
        assert dropped not in document.text


def test_text_box_of_the_fallback_is_read_when_the_choice_is_not_understood(read) -> None:  # type: ignore[no-untyped-def]
    def box(text: str) -> str:
        return f"<w:txbxContent>{para(text)}</w:txbxContent>"

    run = "<w:r>" + alternate(box("Caixa nova"), box("Caixa antiga"), requires="x9") + "</w:r>"
    text = read(docx(f"<w:p>{run}</w:p>" + para("Fim")), "caixa.docx").text
    assert text.splitlines() == ["Caixa antiga", "Fim"]
