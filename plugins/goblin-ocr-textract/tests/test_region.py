"""ocr.textract with credentials but no region: unavailable, saying so, before any page."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from test_textract import page_png

import goblin_core
from goblin_core import load_registry
from goblin_core.testing.image_pages import ImagePagesPlugin

if TYPE_CHECKING:
    from conftest import ThrottlingProxy


def test_credentials_without_a_region_are_reported_as_no_region(
    no_aws: Path, proxy: ThrottlingProxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    registry = load_registry(load=["textract"],
                             extra_plugins=[("test-pages", ImagePagesPlugin())])
    document = goblin_core.extract(page_png(), name="scan.png", registry=registry,
                                   ocr_backends=["ocr.textract"],
                                   textract={"endpoint_url": proxy.url})
    [warning] = [w for w in document.report.warnings if w.engine == "ocr.textract"]
    assert "no AWS region" in warning.message and "AWS_REGION" in warning.message
    assert sum(proxy.seen.values()) == 0


def test_a_region_in_the_call_or_the_profile_is_enough(
    no_aws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    registry = load_registry(load=["textract"])
    backend = registry.get("ocr.textract")
    assert backend is not None
    given = registry.config(textract={"region": "sa-east-1"})
    assert backend.engine.available_for(given) == (True, "")
    (no_aws / "aws-config").write_text("[default]\nregion = eu-west-1\n")
    assert backend.engine.available_for(registry.config()) == (True, "")
