"""Attachment names as mail clients save them: the last part of the name, never a path."""

from __future__ import annotations

import base64
from collections.abc import Callable

import pytest
from tnefdata import winmail

from goblin_core import Document


def _mail_with_attachments(*names: bytes) -> bytes:
    parts = b"".join(
        b"--XX\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=\""
        + name + b"\"\r\n\r\nanexo " + str(number).encode() + b"\r\n"
        for number, name in enumerate(names, start=2)
    )
    return (
        b"From: a@example.org\r\nSubject: anexos\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="XX"\r\n\r\n'
        b"--XX\r\nContent-Type: text/plain\r\n\r\ncorpo\r\n" + parts + b"--XX--\r\n"
    )


def test_attachment_names_keep_only_their_last_part(read: Callable[..., Document]) -> None:
    data = _mail_with_attachments(
        b"../../etc/um.txt", b"/etc/dois.txt", b"C:\\\\Windows\\\\tres.txt",
        b"..\\\\..\\\\quatro.txt", b"pasta/sub/cinco.txt",
    )
    document = read(data, "anexos.eml")
    names = {child.name.removeprefix("anexos.eml/"): child.text for child in document.children}
    assert names == {"um.txt": "anexo 2", "dois.txt": "anexo 3", "tres.txt": "anexo 4",
                     "quatro.txt": "anexo 5", "cinco.txt": "anexo 6"}


def test_attachment_names_of_dots_or_control_characters_are_not_paths(
    read: Callable[..., Document],
) -> None:
    document = read(_mail_with_attachments(b"..", b".", b"a\x01b\x1b[31m.txt"), "anexos.eml")
    names = sorted(child.name.removeprefix("anexos.eml/") for child in document.children)
    assert names == ["a_b_[31m.txt", "attachment-1.txt", "attachment-2.txt"]


def test_tnef_attachment_names_keep_only_their_last_part(read: Callable[..., Document]) -> None:
    data = winmail("Planilha", "Segue.", {"..\\..\\Users\\precos.csv": b"item;valor\n",
                                         "..": b"outro;1\n"})
    document = read(data, "winmail.dat")
    assert sorted(child.name for child in document.children) == [
        "winmail.dat/attachment-2", "winmail.dat/precos.csv"]


@pytest.mark.parametrize(("disposition", "name"), [
    # 8-bit Latin-1 in a quoted name, as old mailers write it
    ('filename="relatório.pdf"'.encode("latin-1"), "relatório.pdf"),
    # RFC 2231 in a charset no codec knows
    (b"filename*=x-unknown''or%E7amento.csv", "orçamento.csv"),
    # an encoded word (as Outlook writes names) with a GBK letter under a GB2312 label
    (b'filename="=?gb2312?B?' + base64.b64encode("朱镕基.txt".encode("gbk")) + b'?="',
     "朱镕基.txt"),
])
def test_attachment_names_whose_letters_the_standard_decoding_loses_are_read_again(
    read: Callable[..., Document], disposition: bytes, name: str,
) -> None:
    data = (b"From: a@example.org\r\nSubject: anexos\r\nMIME-Version: 1.0\r\n"
            b'Content-Type: multipart/mixed; boundary="XX"\r\n\r\n'
            b"--XX\r\nContent-Type: text/plain\r\n\r\ncorpo\r\n"
            b"--XX\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; "
            + disposition + b"\r\n\r\nanexo\r\n--XX--\r\n")
    document = read(data, "anexos.eml")
    assert [child.name for child in document.children] == [f"anexos.eml/{name}"]
