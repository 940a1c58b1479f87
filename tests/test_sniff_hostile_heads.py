"""Heads that made the magic sniffer's patterns backtrack without end are sniffed in
moments: each took time doubling with every comment or line, so a file of a few hundred
bytes held its run for ever.

Each head is sniffed in a child process, so a pattern that never ends fails the test
at its time limit instead of holding the suite.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

_SNIFF = """
import sys
from goblin_core import Source
from goblin_core.builtin.sniffer import MagicSniffer
data = sys.stdin.buffer.read()
found = MagicSniffer().sniff(data[:8192], Source.from_bytes(data, sys.argv[1]))
print(found.mime if found else None)
"""
#: Seconds a head may take, start of the interpreter included; each took for ever.
_CEILING = 20


@pytest.mark.parametrize(
    ("name", "head", "mime"),
    [
        ("comments.txt", b"<!-- a -->" * 60 + b"x\n", "text/plain"),
        ("comments", b"<!-- a -->" * 800 + b"x\n", "text/plain"),
        ("damaged-headers", b"%xPDF-1.0\n" * 40, "text/plain"),
        ("long-from-line", b"From " + b"a" * 2000 + b" 1:00" * 300 + b"\n", "text/plain"),
    ],
    ids=["comments-then-no-tag", "comments-no-extension", "header-like-lines",
         "separator-like-line"],
)
def test_a_hostile_head_is_sniffed_in_moments(name: str, head: bytes, mime: str) -> None:
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", _SNIFF, name], input=head,
                              capture_output=True, timeout=_CEILING, check=True)
    except subprocess.TimeoutExpired:
        pytest.fail(f"sniffing {name} took over {_CEILING} s")
    assert done.stdout.decode().strip() == mime
    assert time.monotonic() - started < _CEILING
