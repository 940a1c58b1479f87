"""A mailbox is read message by message: its index from each message's headers, then
each message as its turn as a child comes, so a mailbox of gigabytes is never held whole
and every message is still reported."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

_GROWTH = """
import json, resource, sys
from goblin_core import extract
extract(b"From a@x Mon Jan  1 00:00:00 2024\\nSubject: warm\\n\\nwarm\\n", name="warm.mbox",
        ocr="never")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
document = extract(sys.argv[1], ocr="never")
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps({
    "mib": grown / 1024,
    "subjects": [row[2] for row in document.tables[0].rows[1:]],
    "bodies": [child.text.rsplit("\\n", 1)[-1] for child in document.children],
    "attachments": [len(child.children) for child in document.children],
}))
"""


def _grown(path: Path) -> dict[str, Any]:
    """Extract ``path`` in a fresh interpreter: how far its peak RSS grew, and what it read."""
    done = subprocess.run([sys.executable, "-c", _GROWTH, str(path)], capture_output=True,
                          text=True, timeout=300, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _message(number: int, attachment: bytes) -> bytes:
    # the attachment's base64 in long lines: the parser's cost is per line, the
    # mailbox's size is what is measured
    encoded = base64.b64encode(attachment)
    lines = b"\n".join(encoded[at:at + 65536] for at in range(0, len(encoded), 65536))
    return (b"From sender@example.com Mon Jan  1 00:00:00 2024\n"
            b"From: sender@example.com\nSubject: message %d\nMIME-Version: 1.0\n"
            b'Content-Type: multipart/mixed; boundary="B"\n\n'
            b"--B\nContent-Type: text/plain\n\nbody of message %d\n"
            b"--B\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n"
            b"Content-Disposition: attachment; filename=data%d.bin\n\n"
            % (number, number, number) + lines + b"\n--B--\n\n")


def test_a_large_mailbox_is_not_held_whole(tmp_path: Path) -> None:
    # 90 MB of mail: every message held at once grew the peak by about 100 MB
    path = tmp_path / "arquivo.mbox"
    attachment = os.urandom(1_100_000)
    with path.open("wb") as out:
        for number in range(1, 61):
            out.write(_message(number, attachment))
    assert path.stat().st_size > 80 * 1024**2
    found = _grown(path)
    assert found["subjects"] == [f"message {n}" for n in range(1, 61)]
    assert found["bodies"] == [f"body of message {n}" for n in range(1, 61)]
    assert found["attachments"] == [1] * 60
    assert found["mib"] < 50, found


_LARGE = (b"From a@example.com Mon Jan  1 00:00:00 2024\nSubject: small\n\nshort one\n\n"
          b"From b@example.com Mon Jan  1 00:00:00 2024\nSubject: large\n\n"
          + b"long line of text\n" * 2000 + b"\n"
          b"From c@example.com Mon Jan  1 00:00:00 2024\nSubject: last\n\nthe last one\n")


def test_a_message_over_the_member_size_limit_is_refused_unread(
        read: Callable[..., Any]) -> None:
    document = read(_LARGE, "caixa.mbox", limits={"max_member_size": 10_000})
    # the index still names every message; the large one is refused as any attachment
    # over the limit is, by its size
    assert [row[2] for row in document.tables[0].rows] == ["Subject", "small", "large", "last"]
    assert [child.name.rsplit("/", 1)[-1] for child in document.children] == [
        "0001.eml", "0003.eml"]
    assert document.children[1].text.endswith("the last one")
    assert [(m.name, m.action, m.reason, m.size) for m in document.report.members] == [
        ("caixa.mbox/0001.eml", "extracted", "", 26),
        ("caixa.mbox/0002.eml", "refused", "max_member_size", 36_016),
        ("caixa.mbox/0003.eml", "extracted", "", 28)]
    assert [e.kind for e in document.report.errors] == ["FileTooLarge"]


def test_a_message_within_the_limit_once_unquoted_is_read(read: Callable[..., Any]) -> None:
    # 36,032 bytes as written, 36,016 once its 16 ">From " lines read "From " again
    quoted = _LARGE.replace(b"long line of text\n" * 16, b">From line of text\n" * 16, 1)
    document = read(quoted, "caixa.mbox", limits={"max_member_size": 36_016})
    assert len(document.children) == 3 and not document.report.errors
    assert document.children[1].text.count("From line of text") == 16
    assert [m.size for m in document.report.members] == [26, 36_016, 28]


def test_a_blank_first_line_leaves_a_message_without_index_headers(
        read: Callable[..., Any]) -> None:
    # the index reads each message's headers as the mail reader does: none before a
    # blank first line
    box = (b"From a@example.com Mon Jan  1 00:00:00 2024\n\nSubject: not a header\n\n"
           b"From b@example.com Mon Jan  1 00:00:00 2024\r\nSubject: crlf\r\n\r\nbody\r\n")
    document = read(box, "caixa.mbox")
    assert [row[2] for row in document.tables[0].rows] == ["Subject", "", "crlf"]
    assert len(document.children) == 2


@pytest.mark.usefixtures("warm_plugins")
def test_headers_past_the_first_piece_are_still_indexed(read: Callable[..., Any]) -> None:
    received = b"".join(b"Received: from relay%d.example.com by mx.example.com\n" % n
                        for n in range(3000))
    box = (b"From a@example.com Mon Jan  1 00:00:00 2024\n" + received
           + b"Subject: after many relays\n\nbody\n")
    document = read(box, "caixa.mbox")
    assert document.tables[0].rows[1][2] == "after many relays"
