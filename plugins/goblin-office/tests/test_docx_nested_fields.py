"""Word fields (``w:fldChar`` begin, separate, end) read as Word shows them: the result
part of the outermost field, never its instruction part nor what stands in it, the
result of a field nested there included; the state carries across runs, hyperlinks,
tracked insertions, paragraphs and table cells, and through the streamed body too."""

from __future__ import annotations

import pytest
from packages import docx, para

import samples
from goblin_office import safexml


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _char(kind: str) -> str:
    return f'<w:r><w:fldChar w:fldCharType="{kind}"/></w:r>'


def _code(text: str) -> str:
    return f'<w:r><w:instrText xml:space="preserve">{text}</w:instrText></w:r>'


def _field(code: str, result: str) -> str:
    """A complex field: ``code`` (runs) as its instruction, ``result`` (runs) as its result."""
    return _char("begin") + code + _char("separate") + result + _char("end")


# { IF { PAGE } = 1 "Primeira" "Outra" }, PAGE's result 1 and IF's Primeira
_NESTED_IF = _field(
    _code(" IF ") + _field(_code(" PAGE "), _run("1")) + _code(' = 1 "Primeira" "Outra" '),
    _run("Primeira"),
)


def test_the_result_of_a_field_nested_in_an_instruction_is_left_out(read) -> None:  # type: ignore[no-untyped-def]
    body = f"<w:p>{_run('Página ')}{_NESTED_IF}{_run(' fim')}</w:p>"
    assert read(docx(body), "campos.docx").text == "Página Primeira fim"


def test_a_field_nested_in_a_result_shows_its_result(read) -> None:  # type: ignore[no-untyped-def]
    inner = _field(_code(" PAGE "), _run("7"))
    body = f"<w:p>{_field(_code(' QUOTE '), _run('Folha ') + inner)}</w:p>"
    assert read(docx(body), "citacao.docx").text == "Folha 7"


def test_a_field_without_a_result_shows_nothing(read) -> None:  # type: ignore[no-untyped-def]
    entry = _char("begin") + _code(' XE "Oculto" ') + _run("Secreto") + _char("end")
    body = f"<w:p>{_run('Antes')}{entry}{_run(' depois')}</w:p>"
    assert read(docx(body), "indice.docx").text == "Antes depois"


def test_field_state_carries_across_paragraphs_hyperlinks_and_insertions(read) -> None:  # type: ignore[no-untyped-def]
    # an IF whose quoted text runs over two paragraphs, a nested field in a hyperlink
    # and a tracked insertion inside its instruction, and a result over two paragraphs
    nested = _field(_code(" REF x "), _run("Nested"))
    body = (
        f"<w:p>{_run('Um')}{_char('begin')}{_code(' IF 1 = 1 ')}"
        f'<w:hyperlink w:anchor="a">{nested}</w:hyperlink>'
        f'<w:ins w:id="1" w:author="Ana">{_field(_code(" PAGE "), _run("9"))}</w:ins></w:p>'
        f"<w:p>{_code(' segunda linha ')}{_run('Código')}{_char('separate')}"
        f'<w:hyperlink w:anchor="b">{_run("Resultado")}</w:hyperlink></w:p>'
        f"<w:p>{_run('continua')}{_char('end')}{_run(' fim')}</w:p>"
    )
    assert read(docx(body), "paragrafos.docx").text.splitlines() == [
        "Um", "Resultado", "continua fim"]


def test_a_table_in_a_field_instruction_is_left_out(read) -> None:  # type: ignore[no-untyped-def]
    # mail-merge IF fields may hold a whole table in their quoted text
    cell = f"<w:p>{_run('Tabela')}{_field(_code(' PAGE '), _run('3'))}</w:p>"
    body = (
        f"<w:p>{_run('Antes')}{_char('begin')}{_code(' IF 1 = 2 ')}</w:p>"
        f"<w:tbl><w:tr><w:tc>{cell}</w:tc></w:tr></w:tbl>"
        f"<w:p>{_char('separate')}{_run('Mostrado')}{_char('end')}</w:p>"
        + para("Depois")
    )
    text = read(docx(body), "tabela.docx").text
    assert "Tabela" not in text and "3" not in text
    assert "Mostrado" in text and "Depois" in text


def test_a_word_2003_document_leaves_out_a_nested_field_result(read) -> None:  # type: ignore[no-untyped-def]
    # Word 2003 XML keeps a footnote inline, in the run that refers to it; it is read as
    # a story of its own, after the body, whatever field the body leaves open
    note = f'<w:r><w:footnote><w:p>{_run("Nota")}{_NESTED_IF}</w:p></w:footnote></w:r>'
    body = (
        f"<w:p>{_run('Página ')}{_NESTED_IF}{note}</w:p>"
        f"<w:p>{_run('Fim')}{_char('begin')}{_code(' PAGE ')}</w:p>"
    )
    assert read(samples.word2003(body), "ata.xml").text.splitlines() == [
        "Página Primeira", "Fim", "NotaPrimeira"]


def test_a_field_left_open_in_the_body_does_not_hide_the_notes(read) -> None:  # type: ignore[no-untyped-def]
    notes = (
        '<w:footnotes><w:footnote w:id="1">'
        f"<w:p>{_run('Nota')}{_NESTED_IF}</w:p></w:footnote></w:footnotes>"
    )
    body = f"<w:p>{_run('Corpo')}{_char('begin')}{_code(' PAGE ')}</w:p>"
    text = read(docx(body, {"footnotes.xml": notes}), "aberto.docx").text
    assert "NotaPrimeira" in text and "1Primeira" not in text


def test_nested_fields_are_read_the_same_in_a_streamed_body(
        read, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(safexml, "STREAM_XML_FROM", 0)
    body = (
        f"<w:p>{_run('Página')}{_char('begin')}{_code(' IF ')}</w:p>"
        f"<w:p>{_field(_code(' PAGE '), _run('1'))}{_code(' = 1 ')}{_char('separate')}</w:p>"
        f"<w:p>{_run('Primeira')}{_char('end')}{_run(' fim')}</w:p>"
    )
    assert read(docx(body), "longo.docx").text.splitlines() == ["Página", "Primeira fim"]


# A field whose end mark a generator dropped: Word and LibreOffice hide the rest of its
# story as field code; goblin reads that text as paragraphs and says the file is damaged.

_UNCLOSED = f"<w:p>{_run('Antes ')}{_char('begin')}{_code(' PAGE ')}{_run('mesma linha')}</w:p>"


def _unclosed_warnings(doc) -> list[str]:  # type: ignore[no-untyped-def]
    return [w.message for w in doc.report.warnings
            if w.kind == "CorruptDocument" and "never ends" in w.message]


def test_a_field_that_never_ends_does_not_hide_the_rest_of_the_body(read) -> None:  # type: ignore[no-untyped-def]
    cell = f"<w:tbl><w:tr><w:tc>{para('Célula')}</w:tc></w:tr></w:tbl>"
    body = _UNCLOSED + para("Segundo parágrafo") + cell + para("Último parágrafo")
    doc = read(docx(body), "sem-fim.docx")
    lines = doc.text.splitlines()
    assert lines[0].strip() == "Antes"
    for expected in ("mesma linha", "Segundo parágrafo", "Célula", "Último parágrafo"):
        assert expected in lines
    assert lines.index("Segundo parágrafo") < lines.index("Último parágrafo")
    assert "PAGE" not in doc.text
    [message] = _unclosed_warnings(doc)
    assert "the body" in message


def test_a_field_that_never_ends_in_a_streamed_body(
        read, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(safexml, "STREAM_XML_FROM", 0)
    doc = read(docx(_UNCLOSED + para("Depois")), "sem-fim-longo.docx")
    assert doc.text.splitlines()[1:] == ["mesma linha", "Depois"]
    assert _unclosed_warnings(doc)


def test_a_field_that_never_ends_in_a_header_or_a_note(read) -> None:  # type: ignore[no-untyped-def]
    header = f"<w:hdr>{_UNCLOSED}{para('Cabeçalho')}</w:hdr>"
    notes = (f'<w:footnotes><w:footnote w:id="1">{_UNCLOSED}{para("Nota")}</w:footnote>'
             "</w:footnotes>")
    doc = read(docx(para("Corpo"), {"header1.xml": header, "footnotes.xml": notes}),
               "partes.docx")
    assert "Cabeçalho" in doc.text and "Nota" in doc.text and "Corpo" in doc.text
    assert {m.split(" never")[0] for m in _unclosed_warnings(doc)} == {
        "a field in a header", "a field in a footnote"}


def test_a_field_that_closes_gives_back_nothing_it_hid(read) -> None:  # type: ignore[no-untyped-def]
    # the instruction part's own text stays hidden once its field ends, even a paragraph on
    body = (f"<w:p>{_run('Um')}{_char('begin')}{_code(' IF 1 = 2 ')}{_run('oculto')}</w:p>"
            f"<w:p>{_run('escondido')}{_char('end')}{_run(' fim')}</w:p>")
    doc = read(docx(body), "fechado.docx")
    assert doc.text.splitlines() == ["Um", " fim"]
    assert not _unclosed_warnings(doc)


def test_a_word_2003_field_that_never_ends(read) -> None:  # type: ignore[no-untyped-def]
    doc = read(samples.word2003(_UNCLOSED + para("Fim")), "ata-aberta.xml")
    assert "mesma linha" in doc.text and "Fim" in doc.text
    assert _unclosed_warnings(doc)
