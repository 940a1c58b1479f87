"""Clients for page after page come from one boto3 session: a new session loads the
service's description again, 0.15 s a page."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from PIL import Image

from goblin_core import load_registry
from goblin_ocr_textract.backend import TextractBackend

if TYPE_CHECKING:
    from conftest import ThrottlingProxy


def test_pages_read_one_after_another_share_one_session(
    aws: Path, proxy: ThrottlingProxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[Any] = []

    class CountedSession(boto3.session.Session):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            made.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(boto3.session, "Session", CountedSession)
    backend = TextractBackend()
    config = load_registry(load=["textract"]).config(textract={"endpoint_url": proxy.url})
    for _ in range(5):
        backend.recognize(Image.new("L", (200, 80), 255), "eng", config)
    assert proxy.seen["Textract.DetectDocumentText"] == 5
    assert len(made) <= 1
