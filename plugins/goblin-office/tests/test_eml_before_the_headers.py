"""What an editor leaves before a saved mail's headers, or its line ends, hide nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from goblin_core import Document

_MESSAGE = ("From: ana@example.org\r\nTo: rui@example.org\r\nSubject: Ata da sessão\r\n"
            "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
            "Sessão aberta às 9h.\r\n").encode()


@pytest.mark.parametrize(("before", "name"), [
    (b"\xef\xbb\xbf", "ata.eml"),  # a UTF-8 BOM
    (b"\r\n", "ata.eml"),  # a blank line
    (b"\n\n", "ata"),  # blank lines, under no extension
])
def test_a_mail_with_a_bom_or_blank_lines_before_its_headers_is_read(
    read: Callable[..., Document], before: bytes, name: str,
) -> None:
    document = read(before + _MESSAGE, name)
    assert document.text.splitlines() == [
        "From: ana@example.org", "To: rui@example.org", "Subject: Ata da sessão",
        "Sessão aberta às 9h."]
    assert document.metadata["title"] == "Ata da sessão"


def test_a_mail_with_lone_carriage_returns_for_line_ends_keeps_its_lines(
    read: Callable[..., Document],
) -> None:
    data = b"From: ana@example.org\rSubject: ata\r\rLinha um\rLinha dois\r\rOutro\r"
    document = read(data, "ata.eml")
    assert document.text.splitlines() == [
        "From: ana@example.org", "Subject: ata", "Linha um", "Linha dois", "Outro"]
    assert "\r" not in document.text
