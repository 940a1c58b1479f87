"""Credentials given as options make Textract available for that call only."""

from __future__ import annotations

from pathlib import Path

import pytest

from goblin_core import default_registry


@pytest.fixture(autouse=True)
def _no_ambient_credentials(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                 "AWS_PROFILE", "GOBLIN_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")


def test_keys_in_options_make_textract_available_for_that_call() -> None:
    registry = default_registry()
    backend = registry.get("ocr.textract")
    assert backend is not None
    plain = registry.config()
    given = registry.config(textract={"access_key_id": "AKIAEXAMPLE",
                                      "secret_access_key": "secret", "region": "us-east-1"})
    assert backend.engine.available()[0] is False
    ok, reason = backend.engine.available_for(plain)
    assert not ok and "no AWS credentials" in reason
    assert backend.engine.available_for(given) == (True, "")


def test_a_secret_without_its_key_is_not_enough() -> None:
    registry = default_registry()
    backend = registry.get("ocr.textract")
    assert backend is not None
    config = registry.config(textract={"secret_access_key": "secret"})
    assert backend.engine.available_for(config)[0] is False


def test_the_sdk_chain_is_asked_only_when_allowed() -> None:
    registry = default_registry()
    backend = registry.get("ocr.textract")
    assert backend is not None
    allowed = registry.config(textract={"use_default_credentials": True, "region": "us-east-1"})
    assert backend.engine.available_for(registry.config())[0] is False
    assert backend.engine.available_for(allowed) == (True, "")
