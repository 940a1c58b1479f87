"""WebVTT cues that time each word (``<00:00:02.600>``), as karaoke captions and
YouTube's automatic captions write them: every cue's words read, the file's header kept,
and no cue reported unread."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Read = Callable[..., Any]
CAPTIONS = """WEBVTT - Aula de química
Kind: captions
Language: pt

00:00:01.000 --> 00:00:02.500
Bem-vindos<00:00:01.400><c> à</c><00:00:01.900><c> aula</c>

00:00:02.500 --> 00:00:04.000
<00:00:02.600>hoje <00:00:03.100>estudamos

00:00:04.000 --> 00:00:06.000
<00:00:04.200><c>ácidos</c><00:00:04.800><c> e</c><00:00:05.100><c> bases</c>
"""


def test_cues_timing_each_word_are_all_read_with_the_header(read: Read) -> None:
    document = read(CAPTIONS.encode(), "aula.vtt")
    assert document.text.splitlines() == ["Bem-vindos à aula", "hoje estudamos",
                                          "ácidos e bases"]
    assert document.metadata["title"] == "Aula de química"
    assert document.metadata["language"] == "pt"
    assert not document.report.warnings
