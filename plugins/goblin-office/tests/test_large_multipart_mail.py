"""Large multipart mail is cut into its parts at its boundary lines and each part parsed
on its own: a part of millions of short lines is not held line by line, and every message
reads as the standard library's whole parse reads it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from bounds import bounded
from parsed_mail import assert_reads_as_the_library

from goblin_core import extract
from goblin_core.testing.corpus import corpus_dir
from goblin_office import mail
from goblin_office.mail import parse_mail

pytestmark = pytest.mark.usefixtures("warm_plugins")

_HEAD = (b"From: a@example.com\r\nTo: b@example.com\r\nSubject: big\r\nMIME-Version: 1.0\r\n"
         b'Content-Type: multipart/mixed; boundary="XYZ"\r\n\r\n')


def test_a_part_of_millions_of_short_lines_is_not_held_line_by_line(
        read: Callable[..., Any]) -> None:
    # the standard library's parser kept a string per line of the part: 60 MB took 1.9 GB
    data = (_HEAD + b"preamble\r\n--XYZ\r\nContent-Type: text/plain\r\n\r\n"
            + b"ab\r\n" * 4_000_000 + b"the end\r\n--XYZ\r\n"
            b"Content-Disposition: attachment; filename=notes.txt\r\n"
            b"Content-Type: text/plain\r\n\r\nattached text\r\n--XYZ--\r\nepilogue\r\n")
    with bounded(seconds=30, megabytes=250):
        document = read(data, "linhas.eml")
    assert document.text.count("ab") == 4_000_000
    assert "the end" in document.text and "epilogue" not in document.text
    assert [child.text.strip() for child in document.children] == ["attached text"]


def _split(message: bytes) -> Any:
    """``message`` parsed with the multipart split, however small it is."""
    saved = mail.SPLIT_MULTIPART_FROM
    mail.SPLIT_MULTIPART_FROM = 0
    try:
        return parse_mail(message)
    finally:
        mail.SPLIT_MULTIPART_FROM = saved


_NESTED = (
    _HEAD + b"--XYZ\r\nContent-Type: multipart/alternative; boundary=\"inner\"\r\n\r\n"
    b"--inner\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nol\xc3\xa1 plain\r\n"
    b"--inner\r\nContent-Type: text/html\r\n\r\n<p>html</p>\r\n--inner--\r\n\r\n"
    b"--XYZ\r\nContent-Type: message/rfc822\r\n\r\nFrom: c@example.com\r\nSubject: inner\r\n"
    b"\r\nforwarded body\r\n"
    b"--XYZ\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n"
    b"Content-Disposition: attachment; filename=\"x.bin\"\r\n\r\naGVsbG8=\r\n--XYZ--\r\n")


@pytest.mark.parametrize("message", [
    _NESTED,
    _NESTED.replace(b"\r\n", b"\n"),
    _NESTED.replace(b"\r\n", b"\r"),
    _HEAD + b"--XYZ  \r\n\r\nno headers in this part\r\n--XYZ-- \r\n",
    _HEAD + b"--XYZ\r\nContent-Type: text/plain\r\n\r\n--XYZnot a boundary\r\nx\r\n--XYZ--",
    _HEAD + b"--XYZ\r\nContent-Type: text/plain\r\n\r\nno closing boundary\r\n",
    _HEAD + b"no boundary at all\r\n",
    _HEAD.replace(b"mixed", b"digest") + b"--XYZ\r\n\r\nFrom: d@example.com\r\n\r\ndigested\r\n"
    b"--XYZ--\r\n",
    _HEAD + b"--XYZ\r\nContent-Type: text/plain\r\n\r\none\r\n--XYZ\r\n\r\n\r\n--XYZ--\r\n",
    _HEAD.replace(b'boundary="XYZ"', b"boundary*=utf-8''%C3%A9x") + "--éx\r\n\r\nbody\r\n"
    "--éx--\r\n".encode(),
    _HEAD + b"--XYZ\r\n--XYZ\r\nContent-Type: text/plain\r\n\r\nafter two\r\n--XYZ\r\n--XYZ--\r\n",
    _HEAD + b"--XYZ\r\n\r\nforwarded\r\n--XYZ\r\nContent-Type: message/rfc822\r\n\r\n"
    b"From: c@example.com\r\n\r\ninner body\r\n\r\n--XYZ--\r\n",
    _HEAD + b'--XYZ\r\nContent-Type: multipart/alternative; boundary="gone"\r\n\r\n'
    b"--other\r\n\r\nunder another boundary\r\n\r\n--XYZ--\r\n",
], ids=["nested", "lf", "cr", "padding-no-headers", "boundary-prefix", "no-close",
        "no-boundary", "digest", "empty-part", "non-ascii-boundary", "boundaries-in-a-row",
        "message-last", "inner-boundary-missing"])
def test_a_split_message_reads_as_the_whole_parse(message: bytes) -> None:
    assert_reads_as_the_library(_split(message), message)


def test_every_corpus_mail_reads_alike_split_or_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    root = corpus_dir(__file__)
    files = sorted(p for folder in ("office", "text", "tricky") if (root / folder).is_dir()
                   for p in (root / folder).iterdir() if p.suffix.lower() in (".eml", ".mht",
                                                                             ".mhtml"))
    assert files
    for path in files:
        whole = extract(path, ocr="never")
        with monkeypatch.context() as patched:
            patched.setattr(mail, "SPLIT_MULTIPART_FROM", 0)
            split = extract(path, ocr="never")
        assert split.text == whole.text, path.name
        assert [(c.name, c.text) for c in split.children] == \
            [(c.name, c.text) for c in whole.children], path.name
