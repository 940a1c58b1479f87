"""A subtitle cue line of digits alone (a countdown's "3", a year) is cue text, not the
number of the cue after it: it is read, in the last cue and in files without cue
numbers too, while cue numbers stay out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Read = Callable[..., Any]
NUMBERED = """1
00:00:01,000 --> 00:00:02,000
O ano era
1999

2
00:00:03,000 --> 00:00:04,000
Contagem:
3
"""
UNNUMBERED = """00:00:01,000 --> 00:00:02,000
Placar final
2

00:00:03,000 --> 00:00:04,000
Fim
"""


@pytest.mark.parametrize(("text", "lines"), [
    (NUMBERED, ["O ano era 1999", "Contagem: 3"]),
    (UNNUMBERED, ["Placar final 2", "Fim"]),
], ids=["numbered", "unnumbered"])
def test_a_cue_line_of_digits_alone_is_read(read: Read, text: str, lines: list[str]) -> None:
    assert read(text.encode(), "legenda.srt").text.splitlines() == lines
