"""Old mailboxes: the quoting writers add to lines starting with "From " is undone, and
headers written 8-bit keep their letters in the index."""

from __future__ import annotations

import mailbox
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

from goblin_core import Document


def test_body_lines_quoted_by_the_mbox_writer_read_as_they_were_written(
    read: Callable[..., Document], tmp_path: Path,
) -> None:
    box = mailbox.mbox(tmp_path / "caixa.mbox")
    message = EmailMessage()
    message["From"] = "a@example.org"
    message["Subject"] = "ata"
    message.set_content("Presentes:\nFrom the board, Ana and Rui.\nFim.\n")
    box.add(message)
    box.flush()
    box.close()
    data = (tmp_path / "caixa.mbox").read_bytes()
    assert b"\n>From the board" in data  # the writer quoted it
    document = read(data, "caixa.mbox")
    assert document.children[0].text.splitlines()[-3:] == [
        "Presentes:", "From the board, Ana and Rui.", "Fim."]


def test_mboxrd_quoting_loses_one_level_only(read: Callable[..., Document]) -> None:
    data = (b"From a@example.org Mon Jan  1 10:00:00 2024\r\nFrom: a@example.org\r\n"
            b"Subject: citado\r\n\r\n>From the start\r\n>>From a quoted line\r\n"
            b"> From: a reply's header\r\n")
    document = read(data, "caixa.mbox")
    assert document.children[0].text.splitlines()[-3:] == [
        "From the start", ">From a quoted line", "> From: a reply's header"]


def test_the_index_of_an_old_mailbox_keeps_the_letters_of_its_8bit_headers(
    read: Callable[..., Document],
) -> None:
    data = ("From a@example.org Mon Jan  1 10:00:00 2024\nFrom: José Conceição <a@example.org>\n"
            "Subject: Pregão eletrônico\nDate: Mon, 01 Jan 2024 10:00:00 +0000\n\ncorpo\n"
            ).encode("latin-1")
    document = read(data, "caixa.mbox")
    assert document.text.splitlines()[1] == (
        "2024-01-01T10:00:00Z\tJosé Conceição <a@example.org>\tPregão eletrônico")
