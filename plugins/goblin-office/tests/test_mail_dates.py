"""Date headers written in ISO 8601, as scripts that make mail write them."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from goblin_core import Document


@pytest.mark.parametrize(("written", "created"), [
    ("2024-03-15T14:30:00Z", "2024-03-15T14:30:00Z"),
    ("2024-03-15 14:30:00 -0300", "2024-03-15T17:30:00Z"),
    ("2024-03-15T14:30:00+01:00", "2024-03-15T13:30:00Z"),
    ("2024-03-15 14:30:00", "2024-03-15T14:30:00"),  # no zone: as written
])
def test_an_iso_8601_date_header_dates_the_message(
    read: Callable[..., Document], written: str, created: str,
) -> None:
    data = f"From: robo@example.org\r\nSubject: aviso\r\nDate: {written}\r\n\r\ncorpo\r\n"
    document = read(data.encode(), "aviso.eml")
    assert document.metadata["created"] == created
