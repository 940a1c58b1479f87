"""Notes that hold header-like lines stay text; mails and mailboxes are still known.

A text whose first 4 KB held three lines such as "Date:", "Subject:" and "To:" anywhere
was taken for a mail, and the mail reader, finding no header block at its start, failed
it whole. A text opening "From now on..." followed by two "Name: value" lines was taken
for a mailbox, and its first three lines read as an envelope and headers, lost.
"""

from __future__ import annotations

import pytest

from goblin_core import Source, extract, load_registry
from goblin_core.detect import detect

CORE_ONLY = load_registry(load=[])

MINUTES = (b"Meeting minutes\n\nDate: 2024-05-01\nSubject: budget review\nTo: all staff\n\n"
           b"We agreed to cut costs by 10%.\n")
RULES = b"From now on the rules are these\nRule: one per line\nNote: keep it short\nThe end.\n"


@pytest.mark.parametrize(("name", "data"), [("minutes.txt", MINUTES), ("rules", RULES)],
                         ids=["header-lines-inside", "from-now-on"])
def test_notes_with_header_like_lines_are_read_as_text(name: str, data: bytes) -> None:
    found = detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(data, name))
    assert found.mime == "text/plain"
    assert extract(data, name=name, registry=CORE_ONLY).text.strip() == data.decode().strip()


MAIL = (b"Return-Path: <ana@example.org>\nFrom: ana@example.org\nTo: rui@example.org\n"
        b"Subject: ata\nDate: Mon, 1 Jan 2024 10:00:00 +0000\n\nSessao aberta.\n")


@pytest.mark.parametrize(
    ("data", "name", "mime"),
    [
        (MAIL, "message", "message/rfc822"),
        (b"\n\n" + MAIL, "message", "message/rfc822"),  # blank lines before the headers
        (b"DKIM-Signature: v=1; a=rsa-sha256\n" + MAIL, "message", "message/rfc822"),
        (b"From ana@example.org Mon Jan  1 10:00:00 2024\n" + MAIL, "saved.eml",
         "message/rfc822"),  # one message saved with its separator line
        (b"From ana@example.org Mon Jan  1 10:00:00 2024\n" + MAIL, "box", "application/mbox"),
        (b"From - Mon Jan 01 10:00:00 2024\n" + MAIL, "Inbox", "application/mbox"),
    ],
    ids=["mail", "blank-lines", "other-first-field", "eml-with-separator", "mbox",
         "thunderbird-mbox"],
)
def test_mails_and_mailboxes_are_still_known(data: bytes, name: str, mime: str) -> None:
    assert detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(data, name)).mime == mime
