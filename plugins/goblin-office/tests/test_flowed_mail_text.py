"""Plain text sent as format=flowed (RFC 3676) reads as the paragraphs it was written in."""

from __future__ import annotations

from collections.abc import Callable

from goblin_core import Document


def _flowed(parameters: str, body: str) -> bytes:
    return (f"From: ana@example.org\r\nSubject: ata\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: text/plain; charset=utf-8; {parameters}\r\n\r\n{body}").encode()


def test_soft_line_breaks_of_a_flowed_body_are_joined(read: Callable[..., Document]) -> None:
    body = ("Este parágrafo foi quebrado pelo \r\nThunderbird em várias linhas \r\ncurtas.\r\n"
            "\r\n> Uma citação \r\n> quebrada.\r\n\r\n -- não é assinatura\r\n-- \r\nAna\r\n")
    document = read(_flowed("format=flowed", body), "ata.eml")
    assert document.text.splitlines()[2:] == [
        "Este parágrafo foi quebrado pelo Thunderbird em várias linhas curtas.",
        "> Uma citação quebrada.",
        "-- não é assinatura",
        "-- ",
        "Ana",
    ]


def test_delsp_joins_a_line_broken_inside_a_word(read: Callable[..., Document]) -> None:
    body = "会議は金曜日の午後 \r\n三時に始まります。\r\n"
    document = read(_flowed("format=flowed; delsp=yes", body), "kaigi.eml")
    assert document.text.splitlines()[-1] == "会議は金曜日の午後三時に始まります。"
