"""Word tracked changes read as accepted: whatever a deletion holds (text, tabs,
breaks, symbols, hyphens) is left out, a deleted row goes, and a paragraph whose
mark is deleted runs on into the next one."""

from __future__ import annotations

from packages import docx, para

import samples


def test_nothing_of_a_deleted_run_is_read(read) -> None:  # type: ignore[no-untyped-def]
    deleted = (
        '<w:del w:id="1" w:author="Ana"><w:r><w:tab/><w:delText>Sai</w:delText><w:br/>'
        '<w:sym w:font="Symbol" w:char="F0B7"/><w:noBreakHyphen/><w:cr/><w:ptab/></w:r></w:del>'
    )
    moved = '<w:moveFrom w:id="2" w:author="Ana"><w:r><w:tab/><w:t>Movido</w:t></w:r></w:moveFrom>'
    body = f"<w:p><w:r><w:t>Fica</w:t></w:r>{deleted}{moved}<w:r><w:t>Fim</w:t></w:r></w:p>"
    assert read(docx(body), "apagado.docx").text == "FicaFim"


def test_a_deleted_paragraph_mark_joins_the_paragraph_to_the_next(read) -> None:  # type: ignore[no-untyped-def]
    mark = '<w:pPr><w:rPr><w:del w:id="3" w:author="Ana"/></w:rPr></w:pPr>'
    body = (
        para("Antes")
        + f'<w:p>{mark}<w:r><w:t xml:space="preserve">Primeira </w:t></w:r></w:p>'
        + para("segunda")
        + f'<w:p>{mark}<w:del w:id="4" w:author="Ana"><w:r><w:delText>Toda apagada</w:delText>'
        "</w:r></w:del></w:p>"
        + para("Depois")
        + f'<w:p>{mark}<w:r><w:t>Antes da tabela</w:t></w:r></w:p>'
        + "<w:tbl><w:tr><w:tc>" + para("célula") + "</w:tc></w:tr></w:tbl>"
        + f'<w:p>{mark}<w:r><w:t>Última</w:t></w:r></w:p>'
    )
    lines = read(docx(body), "marcas.docx").text.splitlines()
    assert lines == ["Antes", "Primeira segunda", "Depois", "Antes da tabela", "célula", "Última"]


def test_a_deleted_table_row_is_left_out(read) -> None:  # type: ignore[no-untyped-def]
    def row(text: str, props: str = "") -> str:
        return f"<w:tr>{props}<w:tc>{para(text)}</w:tc></w:tr>"

    body = (
        "<w:tbl>" + row("Mantida")
        + row("Removida", '<w:trPr><w:del w:id="5" w:author="Ana"/></w:trPr>')
        + row("Inserida", '<w:trPr><w:ins w:id="6" w:author="Ana"/></w:trPr>') + "</w:tbl>"
    )
    document = read(docx(body), "linhas.docx")
    assert document.tables[0].rows == (("Mantida",), ("Inserida",))
    assert "Removida" not in document.text


def test_a_word_2003_deletion_is_left_out(read) -> None:  # type: ignore[no-untyped-def]
    body = (
        "<w:p><w:r><w:t>Fica</w:t></w:r>"
        '<aml:annotation aml:id="1" w:type="Word.Deletion" aml:author="Ana"><aml:content>'
        "<w:r><w:tab/><w:delText>Sai</w:delText></w:r></aml:content></aml:annotation>"
        '<aml:annotation aml:id="2" w:type="Word.Insertion" aml:author="Ana"><aml:content>'
        "<w:r><w:t>Entra</w:t></w:r></aml:content></aml:annotation></w:p>"
    )
    assert read(samples.word2003(body), "revisado.xml").text == "FicaEntra"
