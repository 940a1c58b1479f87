"""A short mail whose attachment is sent in binary is still known by its header block."""

from __future__ import annotations

import io
import zipfile

from goblin_core import Source
from goblin_core.builtin.sniffer import MagicSniffer


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("nota.txt", "conteúdo da nota anexa " * 20)
    return buffer.getvalue()


def _mail(newline: bytes) -> bytes:
    headers = [b"From: Ana <ana@example.com>", b"To: Bruno <bruno@example.com>",
               b"Subject: Relatorio anexo", b"MIME-Version: 1.0",
               b"Content-Type: multipart/mixed; boundary=XYZ"]
    part = [b"--XYZ", b"Content-Type: application/zip; name=rel.zip",
            b"Content-Transfer-Encoding: binary", b""]
    return (newline.join(headers) + newline * 2 + newline.join(part) + newline + _zip()
            + newline + b"--XYZ--" + newline)


def _sniff(data: bytes, name: str) -> str | None:
    found = MagicSniffer().sniff(data[:8192], Source.from_bytes(data, name))
    return found.mime if found else None


def test_a_mail_with_a_binary_zip_part_in_its_head_is_a_mail() -> None:
    assert _sniff(_mail(b"\r\n"), "relatorio.eml") == "message/rfc822"
    assert _sniff(_mail(b"\n"), "relatorio") == "message/rfc822"


def test_binary_data_with_header_like_lines_later_is_no_mail() -> None:
    data = bytes(range(32)) * 4 + b"\n" + _mail(b"\n")
    assert _sniff(data, "dados.bin") is None


def test_a_header_block_of_fewer_than_three_mail_headers_is_no_mail() -> None:
    data = b"From: a\nX-Kind: b\n\n" + _zip()
    assert _sniff(data, "dados.bin") is None
