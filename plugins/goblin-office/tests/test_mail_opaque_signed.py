"""S/MIME mail signed opaquely: the content inside the signature read as the message."""

from __future__ import annotations

import base64
import datetime
from collections.abc import Callable

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import pkcs7
from cryptography.x509.oid import NameOID

from goblin_core import Document

CONTENT = (b'Content-Type: multipart/mixed; boundary="IN"\r\n\r\n--IN\r\n'
           b"Content-Type: text/plain; charset=utf-8\r\n\r\nSegue o parecer assinado.\r\n"
           b"--IN\r\nContent-Type: text/plain; name=parecer.txt\r\n"
           b"Content-Disposition: attachment; filename=parecer.txt\r\n\r\n"
           b"Parecer favoravel.\r\n--IN--\r\n")


def _signed(content: bytes) -> bytes:
    """``content`` inside a CMS signed-data structure (DER), as opaque signing sends it."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "ana@example.com")])
    start = datetime.datetime(2024, 1, 1, tzinfo=datetime.UTC)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
                   .public_key(key.public_key()).serial_number(1).not_valid_before(start)
                   .not_valid_after(start + datetime.timedelta(days=365))
                   .sign(key, hashes.SHA256()))
    return (pkcs7.PKCS7SignatureBuilder().set_data(content)
            .add_signer(certificate, key, hashes.SHA256())
            .sign(serialization.Encoding.DER, []))


def test_an_opaquely_signed_message_reads_as_the_content_it_signs(
    read: Callable[..., Document],
) -> None:
    encoded = base64.encodebytes(_signed(CONTENT)).replace(b"\n", b"\r\n")
    data = (b"From: ana@example.com\r\nTo: bruno@example.com\r\nSubject: Parecer\r\n"
            b"MIME-Version: 1.0\r\nContent-Type: application/pkcs7-mime; "
            b'smime-type=signed-data; name="smime.p7m"\r\n'
            b'Content-Disposition: attachment; filename="smime.p7m"\r\n'
            b"Content-Transfer-Encoding: base64\r\n\r\n" + encoded)
    document = read(data, "opaco.eml")
    assert document.text.splitlines() == [
        "From: ana@example.com", "To: bruno@example.com", "Subject: Parecer",
        "Segue o parecer assinado."]
    assert [(child.name, child.text) for child in document.children] == [
        ("opaco.eml/parecer.txt", "Parecer favoravel.")]
