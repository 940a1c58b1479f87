"""Comparing a message goblin parsed with the standard library's whole parse of it."""

from __future__ import annotations

import email
import email.policy
from typing import Any


def assert_reads_as_the_library(ours: Any, message: bytes) -> None:
    """``ours`` has the headers, parts, payloads and file names the standard library's
    whole parse of ``message`` has."""
    library = email.message_from_bytes(message, policy=email.policy.default)
    assert ours.items() == library.items()
    assert [part.get_content_type() for part in ours.walk()] == \
        [part.get_content_type() for part in library.walk()]
    assert [str(part.get_payload()) for part in ours.walk() if not part.is_multipart()] == \
        [str(part.get_payload()) for part in library.walk() if not part.is_multipart()]
    assert [part.get_filename() for part in ours.walk()] == \
        [part.get_filename() for part in library.walk()]
