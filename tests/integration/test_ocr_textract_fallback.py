"""Textract enabled without credentials: one warning, and Tesseract reads the page."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

import goblin_core
from goblin_core.testing.corpus import normalize, require_binary

TEXT = "Proposal opened at the public session"


def scan() -> bytes:
    page = Image.new("L", (1400, 300), 255)
    ImageDraw.Draw(page).text((60, 120), TEXT, font=ImageFont.load_default(size=48), fill=0)
    out = io.BytesIO()
    page.save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
def no_aws(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
                 "GOBLIN_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "credentials"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "config"))


@pytest.mark.parametrize("switch", [
    {"ocr_backends": ["ocr.textract"]},
    {"engines": {"ocr.textract": {"enabled": True}}},
], ids=["ocr_backends", "engines"])
def test_textract_without_credentials_falls_back_to_tesseract(
    no_aws: None, switch: dict[str, Any]
) -> None:
    require_binary("tesseract", "tesseract-ocr")
    registry = goblin_core.load_registry()
    doc = goblin_core.extract(scan(), name="scan.png", registry=registry, ocr_languages="eng",
                              **switch)
    page = doc.pages[0]
    assert (page.status, page.engine) == ("ocr", "ocr.tesseract")
    assert TEXT in normalize(page.text)
    warnings = [w for w in doc.report.warnings if w.engine == "ocr.textract"]
    assert len(warnings) == 1
    assert "no AWS credentials" in warnings[0].message
    assert "using local OCR" in warnings[0].message


def test_textract_is_never_used_just_because_credentials_exist(
    no_aws: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page Tesseract finds no text on would go to the next backend of the chain."""
    require_binary("tesseract", "tesseract-ocr")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    picture = Image.new("L", (800, 600), 255)
    ImageDraw.Draw(picture).ellipse((200, 150, 600, 450), fill=90)
    out = io.BytesIO()
    picture.save(out, format="PNG")
    # An endpoint nobody listens on: a request would show up as a failed attempt.
    doc = goblin_core.extract(out.getvalue(), name="photo.png",
                              registry=goblin_core.load_registry(), ocr_languages="eng",
                              textract={"endpoint_url": "http://127.0.0.1:9", "max_attempts": 1})
    engines = [a.engine for a in doc.pages[0].attempts]
    assert "ocr.tesseract" in engines
    assert "ocr.textract" not in engines
    assert "ocr.textract" not in doc.parsed_by
