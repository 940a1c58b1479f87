"""OpenDocument speaker notes and comments: a notes page's slide number and placeholder
prompts are no notes, a page field's ``<number>`` stand-in is no text, and a comment
names its author as the Word reader's does (``Comment (author): text``)."""

from __future__ import annotations

from samples import flat_odf

_PRESENTATION = 'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"'
_DC = 'xmlns:dc="http://purl.org/dc/elements/1.1/"'


def _frame(text: str, kind: str = "", extra: str = "") -> str:
    named = f' presentation:class="{kind}"' if kind else ""
    return (f"<draw:frame {_PRESENTATION}{named}{extra}><draw:text-box>{text}</draw:text-box>"
            "</draw:frame>")


_TITLE = _frame("<text:p>Título</text:p>", "title")


def _comment(text: str, author: str = "") -> str:
    creator = f"<dc:creator>{author}</dc:creator>" if author else ""
    return (f"<office:annotation {_DC}>{creator}<dc:date>2024-05-02T10:00:00</dc:date>"
            f"<text:p>{text}</text:p></office:annotation>")


def test_the_slide_number_of_a_notes_page_is_not_read_as_notes(read) -> None:  # type: ignore[no-untyped-def]
    number = ("<text:p><text:span><text:page-number>&lt;number&gt;</text:page-number></text:span>"
              "</text:p>")
    notes = (f"<presentation:notes {_PRESENTATION}>"
             '<draw:page-thumbnail draw:page-number="1" presentation:class="page"/>'
             + _frame("<text:p>Falar do prazo</text:p>", "notes")
             + _frame(number, "page-number") + "</presentation:notes>")
    slide = f'<draw:page draw:name="um">{_TITLE}{notes}</draw:page>'
    text = read(flat_odf("presentation", slide), "notas.fodp").text
    assert text.split("\n") == ["Título", "Notes: Falar do prazo"]


def test_a_notes_placeholder_prompt_is_not_read_as_notes(read) -> None:  # type: ignore[no-untyped-def]
    notes = (f"<presentation:notes {_PRESENTATION}>"
             + _frame("<text:p>Clique para adicionar notas</text:p>", "notes",
                      ' presentation:placeholder="true"')
             + "</presentation:notes>")
    slide = f'<draw:page draw:name="um">{_TITLE}{notes}</draw:page>'
    assert read(flat_odf("presentation", slide), "vazio.fodp").text == "Título"


def test_a_slide_number_field_standing_for_its_number_is_left_out_of_a_slide(read) -> None:  # type: ignore[no-untyped-def]
    number = "<text:p>Página <text:page-number>&lt;number&gt;</text:page-number></text:p>"
    slide = (f'<draw:page draw:name="um">{_TITLE}'
             f'{_frame(number, "page-number")}</draw:page>')
    lines = read(flat_odf("presentation", slide), "numero.fodp").text.split("\n")
    assert [line.strip() for line in lines] == ["Título", "Página"]


def test_a_page_number_field_holding_its_number_is_read(read) -> None:  # type: ignore[no-untyped-def]
    body = "<text:p>Página <text:page-number>3</text:page-number> de 7</text:p>"
    assert read(flat_odf("text", body), "pagina.fodt").text == "Página 3 de 7"


def test_an_odt_comment_names_its_author_as_a_docx_comment_does(read) -> None:  # type: ignore[no-untyped-def]
    body = (f"<text:p>Prazo{_comment('Conferir a data', 'Ana Souza')} de entrega"
            f"{_comment('Sem autor')}</text:p>")
    assert read(flat_odf("text", body), "comentarios.fodt").text.split("\n") == [
        "Prazo de entrega", "Comment (Ana Souza): Conferir a data", "Comment: Sem autor"]


def test_an_ods_comment_names_its_author_as_a_docx_comment_does(read) -> None:  # type: ignore[no-untyped-def]
    body = ('<table:table table:name="Plan1"><table:table-row><table:table-cell '
            'office:value-type="string"><text:p>Valor</text:p>'
            f"{_comment('Conferir com o fiscal', 'Ana')}</table:table-cell>"
            '<table:table-cell office:value-type="string"><text:p>Total</text:p>'
            f"{_comment('Somar de novo')}</table:table-cell></table:table-row></table:table>")
    text = read(flat_odf("spreadsheet", body), "comentarios.fods").text
    assert text.split("\n") == [
        "Plan1", "Valor\tTotal", "Comment (Ana): Conferir com o fiscal", "Comment: Somar de novo"]
