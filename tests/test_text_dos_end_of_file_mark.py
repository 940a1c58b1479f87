"""A text file closed with DOS's end-of-file mark (Ctrl-Z) reads without it: the mark
is no character of the text, and came out as a control code after the last line."""

from __future__ import annotations

import pytest

from goblin_core import extract, load_registry

CORE_ONLY = load_registry(load=[])


@pytest.mark.parametrize(
    "ending", [b"\x1a", b"\x1a\r\n", b"\x1a\x1a", b"\x1a" + b"\x00" * 64],
    ids=["mark", "mark-then-line-end", "two-marks", "mark-then-padding"],
)
def test_the_end_of_file_mark_is_not_read(ending: bytes) -> None:
    data = b"RELATORIO DE VENDAS\r\nLOJA 1  10,00\r\n" + ending
    text = extract(data, name="vendas.txt", registry=CORE_ONLY).text
    assert text.rstrip("\n") == "RELATORIO DE VENDAS\nLOJA 1  10,00"


def test_a_mark_inside_the_text_stays() -> None:
    # only the mark that closes the file is DOS's; one between lines is the text's
    text = extract(b"one\n\x1a\ntwo\n", name="marks.txt", registry=CORE_ONLY).text
    assert text.split("\n")[:3] == ["one", "\x1a", "two"]
