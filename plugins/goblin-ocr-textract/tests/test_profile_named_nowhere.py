"""Keys in the environment are used before any profile, as the README says: an
AWS_PROFILE naming no profile in the shared files does not stop the pages they send."""

from __future__ import annotations

from pathlib import Path

import pytest

from goblin_core import load_registry
from goblin_ocr_textract.backend import TextractBackend
from goblin_ocr_textract.clients import make_client


@pytest.mark.parametrize("profiles", ["", "[profile work]\nregion = us-east-1\n"])
def test_keys_in_the_environment_make_a_client_whatever_aws_profile_names(
        aws: Path, monkeypatch: pytest.MonkeyPatch, profiles: str) -> None:
    (aws / "aws-config").write_text(profiles, encoding="utf-8")
    monkeypatch.setenv("AWS_PROFILE", "nowhere")
    config = load_registry(load=["textract"]).config()
    assert TextractBackend().available_for(config) == (True, "")
    # before, every page failed here: "The config profile (nowhere) could not be found"
    client = make_client("textract", config.section("textract"))
    assert client.meta.region_name == "us-east-1"
    assert client._request_signer._credentials.access_key == "testing"


def test_the_settings_of_a_profile_that_exists_still_apply(
        aws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (aws / "aws-config").write_text("[profile work]\nendpoint_url = http://127.0.0.1:9\n",
                                    encoding="utf-8")
    monkeypatch.setenv("AWS_PROFILE", "work")
    config = load_registry(load=["textract"]).config()
    client = make_client("textract", config.section("textract"))
    assert client.meta.endpoint_url == "http://127.0.0.1:9"
