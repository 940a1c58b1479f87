"""Parts a mail client shows besides the body, wherever in the MIME tree they sit."""

from __future__ import annotations

from collections.abc import Callable

from goblin_core import Document


def _mail(subject: str, content_type: str, body: str) -> bytes:
    head = (f"From: ana@example.com\nTo: bruno@example.com\nSubject: {subject}\n"
            f"MIME-Version: 1.0\nContent-Type: {content_type}\n\n")
    return (head + body).replace("\n", "\r\n").encode()


def _alternatives(text: str) -> str:
    """A multipart/alternative body of ``text`` in plain text and in HTML, under boundary ALT
    and left open for more alternatives."""
    return (f"--ALT\nContent-Type: text/plain; charset=utf-8\n\n{text}\n"
            f"--ALT\nContent-Type: text/html; charset=utf-8\n\n<p>{text}</p>\n")


def _texts(document: Document) -> dict[str, str]:
    return {child.name.rsplit("/", 1)[-1]: child.text for child in document.children}


def test_the_attachments_of_a_signed_message_are_read(read: Callable[..., Document]) -> None:
    # S/MIME and PGP/MIME put the signed content, a multipart/mixed, inside a multipart/signed
    data = _mail("Contrato assinado",
                 'multipart/signed; protocol="application/pkcs7-signature"; boundary="SIG"', """\
--SIG
Content-Type: multipart/mixed; boundary="MIX"

--MIX
Content-Type: text/plain; charset=utf-8

Segue o contrato.
--MIX
Content-Type: text/plain; name="clausulas.txt"
Content-Disposition: attachment; filename="clausulas.txt"

Clausula primeira: o prazo e de trinta dias.
--MIX--
--SIG
Content-Type: application/pkcs7-signature; name="smime.p7s"
Content-Disposition: attachment; filename="smime.p7s"
Content-Transfer-Encoding: base64

MIAGCSqGSIb3DQEHAqCAMIACAQExDzANBglghkgBZQMEAgEFADCABgkqhkiG9w0BBwEAAKCCAAAA
--SIG--
""")
    document = read(data, "assinado.eml")
    assert document.text.splitlines()[-1] == "Segue o contrato."
    # the signature is no attachment: no reader turns it into text, and as a child it
    # failed every signed message
    assert _texts(document) == {"clausulas.txt": "Clausula primeira: o prazo e de trinta dias."}
    assert [child.status for child in document.children] == ["clean"]


def test_attachments_of_a_multipart_inside_another_are_read(
    read: Callable[..., Document],
) -> None:
    data = _mail("Relatorios", 'multipart/mixed; boundary="OUT"', """\
--OUT
Content-Type: multipart/mixed; boundary="IN"

--IN
Content-Type: text/plain

Os dois relatorios seguem anexos.
--IN
Content-Type: text/plain; name=janeiro.txt
Content-Disposition: attachment; filename=janeiro.txt

Vendas de janeiro: 120 unidades.
--IN--
--OUT
Content-Type: text/plain; name=fevereiro.txt
Content-Disposition: attachment; filename=fevereiro.txt

Vendas de fevereiro: 95 unidades.
--OUT--
""")
    document = read(data, "relatorios.eml")
    assert document.text.splitlines()[-1] == "Os dois relatorios seguem anexos."
    assert _texts(document) == {"janeiro.txt": "Vendas de janeiro: 120 unidades.",
                                "fevereiro.txt": "Vendas de fevereiro: 95 unidades."}


def test_an_invitations_calendar_alternative_is_read_and_the_html_twin_is_not(
    read: Callable[..., Document],
) -> None:
    # Outlook sends a meeting request as plain, HTML and text/calendar alternatives
    data = _mail("Convite: planejamento", 'multipart/alternative; boundary="ALT"',
                 _alternatives("Voce foi convidado.") + """\
--ALT
Content-Type: text/calendar; charset=utf-8; method=REQUEST

BEGIN:VCALENDAR
VERSION:2.0
BEGIN:VEVENT
SUMMARY:Reuniao de planejamento
LOCATION:Sala 3
END:VEVENT
END:VCALENDAR
--ALT--
""")
    document = read(data, "convite.eml")
    assert document.text.splitlines()[-1] == "Voce foi convidado."
    assert [child.name for child in document.children] == ["convite.eml/attachment-1.ics"]
    assert "LOCATION: Sala 3" in document.children[0].text


def test_text_parts_after_the_body_are_read_and_its_renditions_are_not(
    read: Callable[..., Document],
) -> None:
    # a mailing list adds its footer as a part after the message it distributes
    data = _mail("Lista", 'multipart/mixed; boundary="OUT"', """\
--OUT
Content-Type: multipart/alternative; boundary="ALT"

""" + _alternatives("Mensagem da lista.") + """\
--ALT--
--OUT
Content-Type: text/plain; charset=us-ascii
Content-Disposition: inline

Para sair da lista, responda SAIR.
--OUT
Content-Type: text/html; charset=us-ascii

<p>Arquivo da lista: semana 12</p>
--OUT--
""")
    document = read(data, "lista.eml")
    assert document.text.splitlines()[-1] == "Mensagem da lista."
    assert _texts(document) == {"attachment-1.txt": "Para sair da lista, responda SAIR.",
                                "attachment-2.html": "Arquivo da lista: semana 12"}


def test_a_blank_text_part_beside_the_body_is_no_attachment(
    read: Callable[..., Document],
) -> None:
    data = _mail("Em branco", 'multipart/mixed; boundary="OUT"', """\
--OUT
Content-Type: text/plain; charset=utf-8

\t
--OUT
Content-Type: text/html; charset=utf-8

<p>O texto esta no HTML.</p>
--OUT--
""")
    document = read(data, "branco.eml")
    assert document.text.splitlines()[-1] == "O texto esta no HTML."
    assert not document.children
