"""No AWS credential reaches the log, not even at debug level, where botocore writes out
every request it signs."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PIL import Image

from goblin_core import load_registry
from goblin_ocr_textract.backend import TextractBackend

if TYPE_CHECKING:
    from conftest import ThrottlingProxy

KEY_ID = "AKIAGOBLINLOGPROBE01"
SECRET = "goblin/secret+access+key/that/must/not/show"
TOKEN = "IQoJb3JpZ2luX2VjEGoblinSessionTokenThatMustNotShow"


def test_debug_logs_of_a_textract_call_hold_no_credential(
    aws: Path, proxy: ThrottlingProxy, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", KEY_ID)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    monkeypatch.setenv("AWS_SESSION_TOKEN", TOKEN)
    config = load_registry(load=["textract"]).config(textract={"endpoint_url": proxy.url})
    with caplog.at_level(logging.DEBUG):
        TextractBackend().recognize(Image.new("L", (200, 80), 255), "eng", config)
    assert "x-amz-security-token:****" in caplog.text  # the signed request was logged
    for secret in (KEY_ID, SECRET, TOKEN):
        assert secret not in caplog.text
