"""Japanese mail in ISO-2022-JP (JIS) written unencoded: 7-bit, so ASCII to the parser."""

from __future__ import annotations

from collections.abc import Callable

from goblin_core import Document


def _jis(text: str) -> bytes:
    return text.encode("iso2022_jp")


def test_unencoded_jis_headers_are_read_as_japanese(read: Callable[..., Document]) -> None:
    data = (b"From: " + _jis("山田太郎") + b" <yamada@example.jp>\r\nSubject: "
            + _jis("会議の議事録") + b"\r\nContent-Type: text/plain; charset=ISO-2022-JP\r\n\r\n"
            + _jis("本文です。") + b"\r\n")
    document = read(data, "gijiroku.eml")
    assert document.text.splitlines() == [
        "From: 山田太郎 <yamada@example.jp>", "Subject: 会議の議事録", "本文です。"]
    assert document.metadata["title"] == "会議の議事録"
    assert document.metadata["author"] == "山田太郎 <yamada@example.jp>"


def test_a_jis_body_without_its_charset_is_read_as_japanese(
    read: Callable[..., Document],
) -> None:
    data = b"From: yamada@example.jp\r\nSubject: memo\r\n\r\n" + _jis("本文です。") + b"\r\n"
    document = read(data, "memo.eml")
    assert document.text.splitlines()[-1] == "本文です。"
