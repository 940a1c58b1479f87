"""SubRip timing lines as tools other than SubRip write them.

A file whose timings leave out the hours (``00:01,000``), put a colon before the
milliseconds (``00:00:01:000``) or draw the arrow with a dash character (``—>``) was
not known as SubRip, or pysubs2 took its timing lines for cue text: the cue numbers and
timings came out as words, with no warning.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from goblin_core import Document

Read = Callable[..., Document]


def _srt(first: str, second: str) -> bytes:
    return (f"1\n{first}\nOlá, tudo bem?\n\n2\n{second}\nAté amanhã.\n").encode()


@pytest.mark.parametrize(("first", "second"), [
    ("00:01,000 --> 00:02,500", "00:03,000 --> 00:04,000"),  # no hours
    ("00:00:01:000 --> 00:00:02:500", "00:00:03:000 --> 00:00:04:000"),  # colon before ms
    ("00:00:01,000 —> 00:00:02,500", "00:00:03,000 –> 00:00:04,000"),  # dash arrows
    ("00:00:01.5 --> 00:00:02.5", "00:00:03.25 --> 00:00:04.0"),  # short fractions
])
@pytest.mark.parametrize("name", ["legenda.srt", "legenda"])
def test_loose_timings_read_as_cues(read: Read, first: str, second: str, name: str) -> None:
    document = read(_srt(first, second), name)
    assert document.parsed_by == ("office.subtitles",)
    assert document.text.splitlines() == ["Olá, tudo bem?", "Até amanhã."]
    assert not document.report.warnings
    assert document.raw_metadata["duration_seconds"] == 4.0


def test_the_timings_are_read_as_written(read: Read) -> None:
    document = read(_srt("01:02,500 --> 01:04,250", "1:01:02:5 --> 1:01:03:75"), "x.srt")
    # 1 h 1 min 3.75 s: the last cue's end
    assert document.raw_metadata["duration_seconds"] == 3663.75
