"""Encrypted mail (PGP/MIME, S/MIME): its headers read, its cipher text never taken for
text or for an attachment, and the message counted as read in part."""

from __future__ import annotations

from collections.abc import Callable

from goblin_core import Document

HEAD = "From: ana@example.com\nTo: bruno@example.com\nSubject: {subject}\nMIME-Version: 1.0\n"
ARMOR = ("-----BEGIN PGP MESSAGE-----\n\nhQEMA3bJv4mQq3sYAQf/V0p8Qm3xk2Jd9lV7mFvY3R9lCk4hL2pX\n"
         "=abcd\n-----END PGP MESSAGE-----\n")
PGP = ('Content-Type: multipart/encrypted; protocol="application/pgp-encrypted"; '
       'boundary="ENC"\n\n--ENC\nContent-Type: application/pgp-encrypted\n\nVersion: 1\n\n'
       '--ENC\nContent-Type: application/octet-stream; name="encrypted.asc"\n'
       'Content-Disposition: inline; filename="encrypted.asc"\n\n' + ARMOR + "\n--ENC--\n")
SMIME = ('Content-Type: application/pkcs7-mime; smime-type=enveloped-data; name="smime.p7m"\n'
         'Content-Disposition: attachment; filename="smime.p7m"\n'
         "Content-Transfer-Encoding: base64\n\n"
         "MIAGCSqGSIb3DQEHA6CAMIACAQAxggFAMIIBPAIBADAkMBYxFDASBgNVBAMTC2V4YW1wbGUuY29t\n")


def _mail(subject: str, rest: str) -> bytes:
    return (HEAD.format(subject=subject) + rest).replace("\n", "\r\n").encode()


def _assert_sealed(document: Document, scheme: str) -> None:
    assert document.text.splitlines() == [
        "From: ana@example.com", "To: bruno@example.com", f"Subject: {document.metadata['title']}"]
    assert not document.children
    assert document.report.truncated
    kinds = {w.kind: w.message for w in document.report.warnings}
    assert kinds["Encrypted"].endswith(f"left out: the message, {scheme}")


def test_a_pgp_mime_message_is_its_headers_and_says_it_is_encrypted(
    read: Callable[..., Document],
) -> None:
    _assert_sealed(read(_mail("Contrato", PGP), "pgp.eml"), "PGP/MIME")


def test_an_smime_enveloped_message_is_its_headers_and_says_it_is_encrypted(
    read: Callable[..., Document],
) -> None:
    _assert_sealed(read(_mail("Contrato", SMIME), "smime.eml"), "S/MIME")


def test_an_encrypted_part_beside_a_plain_body_is_named_and_the_body_read(
    read: Callable[..., Document],
) -> None:
    document = read(_mail("Segue", 'Content-Type: multipart/mixed; boundary="OUT"\n\n--OUT\n'
                          "Content-Type: text/plain\n\nO anexo vai cifrado.\n--OUT\n"
                          + SMIME + "--OUT--\n"), "misto.eml")
    assert document.text.splitlines()[-1] == "O anexo vai cifrado."
    assert not document.children
    assert [(w.kind, w.message.rsplit(": ", 1)[-1]) for w in document.report.warnings] == [
        ("Encrypted", "smime.p7m, S/MIME"), ("Truncated", "1 encrypted part(s) (see the warnings)")]


def test_an_inline_pgp_body_keeps_its_clear_text_and_says_the_rest_is_encrypted(
    read: Callable[..., Document],
) -> None:
    document = read(_mail("Sigilo", "Content-Type: text/plain\n\nSegue cifrado:\n\n" + ARMOR
                          + "\nAbracos\n"), "inline.eml")
    assert document.text.splitlines()[-2:] == ["Segue cifrado:", "Abracos"]
    assert "hQEMA3" not in document.text
    assert document.report.truncated
    assert [w.message.rsplit(": ", 1)[-1] for w in document.report.warnings
            if w.kind == "Encrypted"] == ["the body, inline PGP"]
