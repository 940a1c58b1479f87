"""An mbox is split at its envelope lines only: "From " + sender + asctime date, at the
start of the file or after a blank line; other lines starting with "From " are body text."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest

from goblin_office.mbox import message_spans

_SENTENCE = "From the minutes: the budget of R$ 1.234,56 was approved."


def _mbox(first_body: str, newline: str = "\n") -> bytes:
    text = (
        "From alice@example.com Mon Jan  1 10:00:00 2024\n"
        "From: Alice <alice@example.com>\nSubject: Minutes\n\n"
        f"{first_body}\n\n"
        "From bob@example.com Tue Jan  2 10:00:00 2024\n"
        "From: Bob <bob@example.com>\nSubject: Re: Minutes\n\nThanks.\n"
    )
    return text.replace("\n", newline).encode()


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_an_unescaped_from_line_in_a_body_stays_in_the_message(
    read: Callable[..., Any], newline: str
) -> None:
    document = read(_mbox(f"Hello all,\n{_SENTENCE}\nRegards", newline), "caixa.mbox")
    first, second = document.children
    assert _SENTENCE in first.text
    assert first.text.endswith("Regards")
    assert second.text.endswith("Thanks.")
    assert document.raw_metadata["messages"] == 2
    assert [row[2] for row in document.tables[0].rows] == ["Subject", "Minutes", "Re: Minutes"]


def test_a_from_line_after_a_blank_line_without_a_date_is_body_text(
    read: Callable[..., Any]
) -> None:
    document = read(_mbox(f"Hello all,\n\n{_SENTENCE}\n\nFrom me, regards"), "caixa.mbox")
    first, _ = document.children
    assert _SENTENCE in first.text
    assert first.text.endswith("From me, regards")
    assert document.raw_metadata["messages"] == 2


def test_an_envelope_shaped_line_inside_a_paragraph_is_body_text(
    read: Callable[..., Any]
) -> None:
    quoted = "From carol@example.com Wed Jan  3 10:00:00 2024"
    document = read(_mbox(f"Forwarded below:\n{quoted}\nEnd"), "caixa.mbox")
    assert quoted in document.children[0].text
    assert len(document.children) == 2


@pytest.mark.parametrize(
    "envelope",
    [
        "From MAILER-DAEMON Fri Jul  8 12:08:34 2011",  # Python's mailbox, procmail
        "From - Thu Jan 01 00:00:00 2024",  # Thunderbird
        "From 1781234567890123456@xxx Wed Apr 12 10:00:00 +0000 2023",  # Gmail's exports
        "From foo@bar Wed Dec 2 05:53 PST 1992",  # a zone name and no seconds
        "From foo@bar Mon, 1 Jan 2024 00:00:00 +0000",  # a mail Date in the envelope
    ],
)
def test_envelope_lines_of_known_writers_separate_messages(envelope: str) -> None:
    box = (
        f"{envelope}\nSubject: one\n\nbody one\n\n{envelope}\nSubject: two\n\nbody two\n"
    ).encode()
    messages = [box[start:stop] for start, stop in message_spans(io.BytesIO(box))]
    assert messages == [b"Subject: one\n\nbody one\n", b"Subject: two\n\nbody two\n"]


def test_text_before_the_first_envelope_line_is_no_message() -> None:
    box = b"junk\nFrom a@x Mon Jan  1 00:00:00 2024\nSubject: one\n\nbody\n"
    assert [box[a:b] for a, b in message_spans(io.BytesIO(box))] == [b"Subject: one\n\nbody\n"]


def test_a_line_longer_than_a_read_piece_is_read_whole() -> None:
    # lines are read in pieces of 64 KiB: one of them starts with an envelope's words
    long_line = b"x" * 65_536 + b"From c@x Wed Jan  3 00:00:00 2024" + b"x" * 200_000
    box = (b"From a@x Mon Jan  1 00:00:00 2024\nSubject: one\n\n" + long_line + b"\n\n"
           b"From b@x Tue Jan  2 00:00:00 2024\nSubject: two\n\nbody\n")
    first, second = [box[a:b] for a, b in message_spans(io.BytesIO(box))]
    assert first == b"Subject: one\n\n" + long_line + b"\n"
    assert second == b"Subject: two\n\nbody\n"
