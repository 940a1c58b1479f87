"""RTF, e-mail and HTML details a reader expects: document properties, annotations,
cells, field results, code pages, dates, forwarded messages, inline frames."""

from __future__ import annotations

import base64
import datetime as dt

import pytest

from goblin_office.mail import mail_date, msg_date

RTF_INFO = (
    rb"{\rtf1\ansi\ansicpg1251\deff0{\fonttbl{\f0\fswiss\fcharset204 Arial;}}"
    rb"{\info{\title \'cf\'eb\'e0\'ed}{\author Ana Souza}{\author Ana Souza}"
    rb"{\creatim\yr2021\mo7\dy9\hr14\min5}{\revtim\yr2021\mo13\dy40}{\printim\yr2020\mo2\dy3}}"
    rb"\pard Corpo do texto\par}"
)


def test_rtf_document_properties_are_metadata(read) -> None:  # type: ignore[no-untyped-def]
    document = read(RTF_INFO, "propriedades.rtf")
    assert document.metadata["title"] == "\u041f\u043b\u0430\u043d"
    assert document.metadata["author"] == "Ana Souza"
    assert document.metadata["created"] == "2021-07-09T14:05:00"
    assert "modified" not in document.metadata  # month 13 is no date
    assert document.raw_metadata["printed"] == "2020-02-03"  # no hour: the date alone
    assert document.text.strip() == "Corpo do texto"


def test_rtf_unicode_title_is_read_from_its_unicode_copy(read) -> None:  # type: ignore[no-untyped-def]
    data = (
        rb"{\rtf1\ansi\ansicpg932{\info{\upr{\title ????}{\*\ud{\title "
        rb"\u12479\'3f\u12452\'3f\u12488\'3f\u12523\'3f}}}}Hello\par}"
    )
    assert read(data, "titulo.rtf").metadata["title"] == "\u30bf\u30a4\u30c8\u30eb"


def test_rtf_unpaired_surrogates_become_replacement_characters(read) -> None:  # type: ignore[no-untyped-def]
    data = (
        rb"{\rtf1\ansi\uc0 alto \u-10240  fim\par baixo \u-9216  fim\par"
        rb" par \u-10240\u-8400  fim\par}"
    )
    text = read(data, "substitutos.rtf").text
    assert "alto \ufffd fim" in text
    assert "baixo \ufffd fim" in text
    assert "par \U00010330 fim" in text  # a high and a low half make one character


def test_rtf_cells_are_tab_separated_and_rows_are_lines(read) -> None:  # type: ignore[no-untyped-def]
    data = (
        rb"{\rtf1\ansi\trowd\cellx1000\cellx2000 Item\cell Valor\cell\row"
        rb"\trowd\cellx1000\cellx2000 Cimento\cell 10\cell\row}"
    )
    lines = [line.strip() for line in read(data, "tabela.rtf").text.splitlines() if line.strip()]
    assert lines == ["Item\tValor", "Cimento\t10"]


ANNOTATED = (
    rb"{\rtf1\ansi Prazo de {\*\atrfstart 1}entrega{\*\atrfend 1}{\*\atnid JS}"
    rb"{\*\atnauthor Joana Silva}\chatn{\*\annotation{\*\atnref 1}{\*\atndate 0}"
    rb"\pard Confirmar com o fornecedor}} final\par}"
)


def test_rtf_annotation_is_read_inline_with_its_author(read) -> None:  # type: ignore[no-untyped-def]
    text = " ".join(read(ANNOTATED, "comentario.rtf").text.split())
    assert text == "Prazo de entrega JS Joana Silva Confirmar com o fornecedor final"


def test_rtf_annotation_left_out_when_comments_are_off(read) -> None:  # type: ignore[no-untyped-def]
    text = " ".join(read(ANNOTATED, "comentario.rtf", office={"comments": False}).text.split())
    assert text == "Prazo de entrega final"


def test_rtf_field_gives_its_result_not_its_instruction(read) -> None:  # type: ignore[no-untyped-def]
    data = (
        rb"{\rtf1\ansi Veja {\field{\*\fldinst{HYPERLINK \"..\\\\anexos\\\\edital.doc\"}}"
        rb"{\*\fldtitle{anexos}}{\fldrslt{\ul o edital}}} e {\field{\fldinst PAGE}"
        rb"{\fldrslt 3}} fim\par}"
    )
    text = read(data, "campo.rtf").text
    assert " ".join(text.split()) == "Veja o edital e 3 fim"


def test_rtf_literal_bytes_are_in_the_fonts_code_page(read) -> None:  # type: ignore[no-untyped-def]
    body = "Уважаемый клиент".encode("cp1251")
    data = (
        rb"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\fcharset0 Arial;}{\f1\fcharset204 Arial;}}"
        rb"\pard{\f1 " + body + rb"}\par}"
    )
    assert read(data, "cirilico.rtf").text.strip() == "Уважаемый клиент"


def test_rtf_symbol_font_text_is_what_the_font_draws(read) -> None:  # type: ignore[no-untyped-def]
    # Word's bullets, Greek letters and check marks in Symbol and Wingdings: the bytes
    # read as the document's code page gave a middle dot, Latin letters and a u-umlaut
    data = (
        rb"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\froman\fcharset0 Times New Roman;}"
        rb"{\f3\froman\fcharset2\fprq2{\*\panose 05050102010706020507}Symbol;}"
        rb"{\f10\fnil\fcharset2 Wingdings;}{\f11\fnil\fcharset2 Marlett;}}"
        rb"{\pntext\f3\'b7\tab}Prazo {\f3 \'b3} 30 dias, {\f3 a} = 0,5 {\f3\u61623\'b7}"
        rb" {\f10 \'fc} {\f11 g} caf\'e9\par}"
    )
    assert read(data, "simbolos.rtf").text.strip() == (
        "\u2022\tPrazo \u2265 30 dias, \u03b1 = 0,5 \u2022 \u2713 g caf\u00e9"
    )


def test_optional_hyphens_of_rtf_and_html_are_not_in_the_text(read) -> None:  # type: ignore[no-untyped-def]
    rtf = read(rb"{\rtf1\ansi Licita\-\'e7\'e3o p\-\'fablica\par}", "hifen.rtf")
    assert rtf.text.strip() == "Licitação pública"
    html = read("<html><body><h1>Bundes&shy;republik</h1><p>Licita&shy;ção</p></body></html>"
                .encode(), "hifen.html")
    assert html.text.split("\n") == ["Bundesrepublik", "Licitação"]
    assert [block.text for block in html.pages[0].blocks] == ["Bundesrepublik", "Licitação"]


@pytest.mark.parametrize(
    ("header", "iso"),
    [
        ("Fri, 01 Dec 2000 08:39:07 +0100", "2000-12-01T07:39:07Z"),
        ("Fri, 01 Dec 2000 08:39:07", "2000-12-01T08:39:07"),
        ("Fri Apr 10 04:00:33 PDT 1992", "1992-04-10T11:00:33Z"),
        ("16 May 2016 at 09:30:32  GMT+1", "2016-05-16T08:30:32Z"),
        ("not a date", None),
    ],
)
def test_mail_dates_are_iso_8601(header: str, iso: str | None) -> None:
    assert mail_date(header) == iso


class _Msg:
    """What extract-msg gives for a message's date: a datetime, a string, or nothing."""

    def __init__(self, date: object, header: dict[str, str] | None = None) -> None:
        self.date = date
        self.header = header


@pytest.mark.parametrize(
    ("message", "iso"),
    [
        (_Msg(dt.datetime(2024, 12, 22, 11, 23, tzinfo=dt.timezone(dt.timedelta(hours=3)))),
         "2024-12-22T08:23:00Z"),
        (_Msg(dt.datetime(2024, 12, 22, 11, 23, 5, 120)), "2024-12-22T11:23:05"),
        (_Msg("Sun, 22 Dec 2024 11:23:00 +0300"), "2024-12-22T08:23:00Z"),
        (_Msg(None, {"Date": "Fri, 23 Dec 2022 12:08:48 -0600"}), "2022-12-23T18:08:48Z"),
        (_Msg(None, {"Date": "someday"}), None),
        (_Msg(None), None),
    ],
)
def test_msg_dates_are_iso_8601_as_eml_dates_are(message: _Msg, iso: str | None) -> None:
    assert msg_date(message) == iso


def test_eml_base64_forwarded_message_is_read(read) -> None:  # type: ignore[no-untyped-def]
    inner = b"From: b@example.org\nSubject: Encaminhada\n\nTexto da mensagem encaminhada\n"
    encoded = base64.encodebytes(inner)
    data = (
        b'From: a@example.org\nSubject: Fwd\nContent-Type: multipart/mixed; boundary="XX"\n\n'
        b"--XX\nContent-Type: text/plain\n\nVeja abaixo\n"
        b"--XX\nContent-Type: message/rfc822\nContent-Transfer-Encoding: base64\n"
        b'Content-Disposition: attachment; filename="fwd.eml"\n\n' + encoded + b"--XX--\n"
    )
    document = read(data, "fwd.eml")
    (child,) = document.children
    assert child.status == "clean"
    assert "Texto da mensagem encaminhada" in child.text


def test_html_commented_out_charset_declares_nothing(read) -> None:  # type: ignore[no-untyped-def]
    data = (
        '<html><head><!--<meta http-equiv="Content-Type" content="text/html; '
        'charset=ISO-8859-1"> -->\n<meta http-equiv="Content-Type" '
        'content="text/html; charset=utf-8"></head><body>Licitação nº 12</body></html>'
    ).encode()
    assert read(data, "pagina.html").text.strip() == "Licitação nº 12"


def test_html_inline_frame_document_is_read_in_place(read) -> None:  # type: ignore[no-untyped-def]
    data = b'<html><body><p>antes</p><iframe srcdoc="<p>dentro do quadro</p>"></iframe></body>'
    assert read(data, "quadro.html").text.split("\n") == ["antes", "dentro do quadro"]


@pytest.mark.parametrize(
    ("data", "name", "expected"),
    [
        (
            b'From: "Compras (Prefeitura)" <compras@example.org>\n'
            b"Date: Mon, 6 Sep 2010 05:25:34 -0400 (EDT)\nSubject: Edital\n\nCorpo\n",
            "edital.eml",
            {
                "author": "Compras (Prefeitura) <compras@example.org>",
                "created": "2010-09-06T09:25:34Z",
            },
        ),
        (
            b'<html><head><title>Ata</title><meta name="Author" content="Secretaria">'
            b'<meta name="description" content="Ata da sess\xc3\xa3o"></head><body>x</body></html>',
            "ata.html",
            {"author": "Secretaria", "description": "Ata da sess\u00e3o"},
        ),
    ],
)
def test_sender_date_and_meta_properties_are_metadata(  # type: ignore[no-untyped-def]
    read, data: bytes, name: str, expected: dict[str, str]
) -> None:
    document = read(data, name)
    found = {**document.raw_metadata, **document.metadata}
    assert {key: found.get(key) for key in expected} == expected


_CALENDAR_EXPORT = (
    "BEGIN:VCALENDAR\r\nPRODID:-//Example//Agenda 1.0//PT\r\nVERSION:2.0\r\n"
    "X-WR-CALNAME:Agenda da obra\r\nX-WR-TIMEZONE:America/Sao_Paulo\r\n"
    "X-WR-CALDESC:Reunioes\r\nBEGIN:VEVENT\r\nSUMMARY:Vistoria da fundacao\r\n"
    "DTSTART:20240315T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)


@pytest.mark.parametrize("name", ["agenda.ics", "agenda", "agenda.txt"])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16"])
def test_a_calendar_export_opening_with_x_properties_is_no_mail(read, name, encoding) -> None:  # type: ignore[no-untyped-def]
    # three X-WR-... lines look like the header fields of a message
    document = read(_CALENDAR_EXPORT.encode(encoding), name)
    assert document.parsed_by == ("office.ics_vcf",)
    assert "SUMMARY: Vistoria da fundacao" in document.text


def test_a_contact_is_known_by_its_begin_line(read) -> None:  # type: ignore[no-untyped-def]
    card = "BEGIN:VCARD\nVERSION:3.0\nX-A:1\nX-B:2\nX-C:3\nFN:Maria Silva\nEND:VCARD\n"
    document = read(card.encode(), "contato")
    assert document.parsed_by == ("office.ics_vcf",)
    assert "FN: Maria Silva" in document.text


def test_a_calendar_keeps_the_name_and_description_its_users_see(read) -> None:  # type: ignore[no-untyped-def]
    lines = read(_CALENDAR_EXPORT.encode(), "agenda.ics").text.splitlines()
    assert lines[:2] == ["X-WR-CALNAME: Agenda da obra", "X-WR-CALDESC: Reunioes"]
    assert not any(line.startswith("X-WR-TIMEZONE") for line in lines)


def test_json_escapes_are_read_as_the_characters_they_stand_for(read) -> None:  # type: ignore[no-untyped-def]
    """json.dumps and most web APIs escape every non-ASCII character: "Licita\\u00e7\\u00e3o"
    is to be found as "Licitação". The layout and the escapes JSON needs stay as written."""
    import json

    record = {"objeto": "Licitação de café", "nota": 'diz "sim"\nfim', "emoji": "😀"}
    written = json.dumps(record, indent=2)
    assert "\\u00e7" in written
    document = read(written.encode(), "registro.json")
    assert "Licitação de café" in document.text and "😀" in document.text
    assert json.loads(document.text) == record
    assert document.text.count("\n") == written.count("\n")
    assert document.raw_metadata["valid_json"] is True
    lines = "\n".join(json.dumps({"n": i, "cidade": "São Paulo"}) for i in range(3))
    assert read(lines.encode(), "linhas.ndjson").text.count("São Paulo") == 3


def test_json_with_a_backslash_u_that_is_no_escape_is_read_as_written(read) -> None:  # type: ignore[no-untyped-def]
    """A hand-written Windows path is invalid JSON, which is reported, not a failure."""
    written = r'{"path": "C:\users\bob\notes.txt", "nome": "Jos\u00e9 \u12"}'
    assert written.count("\\") == 5
    document = read(written.encode(), "notas.json")
    assert document.text == written.replace("\\u00e9", "é")
    assert document.raw_metadata["valid_json"] is False


def test_markdown_character_references_are_read_as_their_characters(read) -> None:  # type: ignore[no-untyped-def]
    """Markdown shows "Licita&ccedil;&atilde;o" as "Licitação", and a search for the word
    must find it; in code, fenced or between backticks, references are shown as written."""
    written = ("# Edital &ndash; Licita&ccedil;&atilde;o\n\n"
               "Valor: R&#36; 10,00 &amp; taxa &#x2013; S&atilde;o Paulo\n"
               "Escreva `&amp;` ou &copy sem ponto e v&iacute;rgula; &naoexiste;\n\n"
               "```html\n<p>&eacute;</p>\n```\n\nFim &eacute;\n")
    document = read(written.encode(), "leia.md")
    assert document.text == ("# Edital – Licitação\n\n"
                             "Valor: R$ 10,00 & taxa – São Paulo\n"
                             "Escreva `&amp;` ou &copy sem ponto e vírgula; &naoexiste;\n\n"
                             "```html\n<p>&eacute;</p>\n```\n\nFim é\n")
    blocks = document.pages[0].blocks
    assert (blocks[0].kind, blocks[0].text) == ("heading", "Edital – Licitação")
    assert blocks[-1].text == "Fim é"
