"""Apple Mail's .emlx files: the message inside, read as any .eml."""

from __future__ import annotations

from samples import emlx

MESSAGE = (b"From: Ana <ana@example.org>\nTo: rui@example.org\nSubject: Edital 12\n"
           b"Date: Mon, 6 May 2024 07:08:09 +0200\nMIME-Version: 1.0\n"
           b'Content-Type: multipart/mixed; boundary="b"\n\n--b\n'
           b"Content-Type: text/plain; charset=utf-8\n\n"
           + "Segue o edital da licitação.\n".encode()
           + b"--b\nContent-Type: text/plain; name=anexo.txt\n"
           b"Content-Disposition: attachment; filename=anexo.txt\n\nTexto do anexo.\n--b--\n")


def test_the_message_inside_is_read_with_its_attachments(read) -> None:  # type: ignore[no-untyped-def]
    document = read(emlx(MESSAGE), "12345.emlx")
    assert document.mime == "message/x-emlx"
    assert document.parsed_by == ("office.eml",)
    assert "Segue o edital da licitação." in document.text
    assert "plist" not in document.text and "8590195713" not in document.text
    assert document.metadata["title"] == "Edital 12"
    assert document.metadata["created"] == "2024-05-06T05:08:09Z"
    (attachment,) = document.children
    assert attachment.name == "12345.emlx/anexo.txt" and attachment.text == "Texto do anexo."


def test_known_by_its_content_whatever_its_name(read) -> None:  # type: ignore[no-untyped-def]
    assert read(emlx(MESSAGE), "").mime == "message/x-emlx"
    assert read(emlx(MESSAGE), "mensagem.txt").mime == "message/x-emlx"


def test_a_number_on_its_own_line_is_not_enough(read) -> None:  # type: ignore[no-untyped-def]
    notes = b"2024\nrelatorio anual\nsem cabecalhos de e-mail\n"
    assert read(notes, "notas.txt").mime == "text/plain"
