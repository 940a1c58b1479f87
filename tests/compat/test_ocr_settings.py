"""OCR settings: GoblinTools' OCRConfig and AWS arguments as goblin options."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from goblin_core import load_registry
from goblin_core.compat import GoblinConfig, OCRConfig, OCRProcessor, TextExtractor
from goblin_core.compat.settings import goblin_options
from goblin_core.hookspecs import hookimpl
from goblin_core.options import Option, make_namespace
from goblin_core.registry import Registry

TEXTRACT = make_namespace("textract", [
    Option("access_key_id", "str", "", "key"),
    Option("secret_access_key", "str", "", "secret"),
    Option("session_token", "str", "", "token"),
    Option("region", "str", "us-east-1", "region"),
])


def test_textract_runs_only_when_asked_with_credentials() -> None:
    config = GoblinConfig(ocr=OCRConfig(use_aws=True, aws_access_key="AK", aws_secret_key="SK",
                                        aws_session_token="TK", aws_region="sa-east-1"))
    options = goblin_options(config, ocr=True, namespaces={"textract": TEXTRACT})
    assert options["ocr_backends"] == ["ocr.textract"]
    assert options["engines"] == {"ocr.textract": {"enabled": True}}
    assert options["textract"] == {"access_key_id": "AK", "secret_access_key": "SK",
                                   "session_token": "TK", "region": "sa-east-1"}
    assert "textract" not in goblin_options(config, ocr=False, namespaces={"textract": TEXTRACT})
    local = goblin_options(GoblinConfig(), ocr=True, namespaces={"textract": TEXTRACT})
    assert "ocr_backends" not in local and "engines" not in local


def test_use_aws_without_credentials_stays_local(caplog: pytest.LogCaptureFixture) -> None:
    config = GoblinConfig(ocr=OCRConfig(use_aws=True))
    with caplog.at_level(logging.WARNING):
        options = goblin_options(config, ocr=True, namespaces={"textract": TEXTRACT})
    assert "ocr_backends" not in options
    assert "without AWS credentials" in caplog.text


def test_default_credentials_chain_is_opt_in() -> None:
    config = GoblinConfig(ocr=OCRConfig(use_aws=True, use_default_aws_credentials=True))
    options = goblin_options(config, ocr=True, namespaces={"textract": TEXTRACT})
    assert options["ocr_backends"] == ["ocr.textract"]
    # No key passed (none declared for the default chain): boto3 resolves them.
    assert options["textract"] == {"region": "us-east-1"}


def test_extractor_keeps_an_ocr_processor_when_asked() -> None:
    assert TextExtractor().ocr_handler is None
    extractor = TextExtractor(ocr_handler=True, use_aws=True, aws_access_key="AK",
                              aws_secret_key="SK")
    assert isinstance(extractor.ocr_handler, OCRProcessor)
    assert extractor.ocr_handler.config.aws_access_key == "AK"


class KeysOnlyCloudOCR:
    """A cloud OCR engine that finds no credentials of its own, only those a call gives."""

    name = "ocr.textract"
    formats = ("*",)
    priority = 10
    cloud = True

    def available(self) -> tuple[bool, str]:
        return False, "no credentials in the environment"

    def available_for(self, config: Any) -> tuple[bool, str]:
        given = config.section("textract")
        if given.get("access_key_id") and given.get("secret_access_key"):
            return True, ""
        return False, "no credentials given"


class KeysOnlyCloudPlugin:
    @hookimpl
    def goblin_register_ocr_backends(self, register: Any) -> None:
        register(KeysOnlyCloudOCR())

    @hookimpl
    def goblin_register_options(self, register: Any) -> None:
        register("textract", TEXTRACT.options)


@pytest.fixture
def keys_only_registry(monkeypatch: pytest.MonkeyPatch) -> Registry:
    registry = load_registry(load=[], extra_plugins=[("tests-cloud-ocr", KeysOnlyCloudPlugin())])
    for module in ("ocr", "extractor"):
        monkeypatch.setattr(f"goblin_core.compat.{module}.default_registry", lambda: registry)
    return registry


def test_keys_in_the_ocr_config_make_textract_usable(keys_only_registry: Registry) -> None:
    # Nothing in the environment: the keys the caller put in OCRConfig are what count.
    with_keys = OCRProcessor(OCRConfig(use_aws=True, aws_access_key="AK", aws_secret_key="SK"))
    assert with_keys.use_aws is True
    extractor = TextExtractor(ocr_handler=True, use_aws=True, aws_access_key="AK",
                              aws_secret_key="SK")
    assert extractor.validate_installation()["aws_textract"] is True
    assert OCRProcessor(OCRConfig(use_aws=False, aws_access_key="AK",
                                  aws_secret_key="SK")).use_aws is False


def test_ocr_processor_without_textract_does_not_claim_aws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bare = load_registry(load=[])
    monkeypatch.setattr("goblin_core.compat.ocr.default_registry", lambda: bare)
    processor = OCRProcessor(OCRConfig(use_aws=True, aws_access_key="AK", aws_secret_key="SK"))
    assert processor.use_aws is False
    assert OCRProcessor(OCRConfig()).use_aws is False


def test_use_aws_without_credentials_warns_when_the_processor_is_made(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="goblin_core.compat"):
        processor = OCRProcessor(OCRConfig(use_aws=True))
    assert processor.use_aws is False
    assert "falling back to local OCR" in caplog.text


def test_image_ocr_takes_a_numpy_array_and_strips_the_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("PIL")
    from goblin_core.model import Document, Page

    seen: list[tuple[Any, str | None]] = []

    def ocr(source: Any, name: str | None, max_pages: int = 0) -> Document:
        seen.append((source, name))
        page = Page(number=1, text="  HELLO WORLD\n", engine="ocr.tesseract", status="ocr",
                    confidence=0.9)
        return Document(name=name or "", mime="image/png", pages=(page,))

    processor = OCRProcessor(OCRConfig())
    monkeypatch.setattr(processor, "_document", ocr)
    pixels = np.full((8, 8, 3), 255, dtype=np.uint8)
    assert processor.extract_text_from_image(pixels) == "HELLO WORLD"
    source, name = seen[0]
    assert name == "image.png" and isinstance(source, bytes) and source.startswith(b"\x89PNG")


def test_pdf_ocr_separates_pages_with_a_blank_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from goblin_core.model import Document, Page

    def ocr(source: Any, name: str | None, max_pages: int = 0) -> Document:
        pages = tuple(Page(number=n, text=f"página {n}", engine="ocr.tesseract", status="ocr",
                           confidence=0.9) for n in (1, 2))
        return Document(name="scan.pdf", mime="application/pdf", pages=pages)

    processor = OCRProcessor(OCRConfig())
    monkeypatch.setattr(processor, "_document", ocr)
    assert processor.extract_text_from_pdf("scan.pdf") == "página 1\n\npágina 2"
    assert processor.extract_text_from_pdf_by_pages("scan.pdf") == ["página 1", "página 2"]


def test_validate_installation_answers_for_textract_when_it_is_asked_for() -> None:
    asked = TextExtractor(ocr_handler=True, use_aws=True, aws_access_key="AK",
                          aws_secret_key="SK").validate_installation()
    assert set(asked) == {"tesseract", "aws_textract"}
    assert isinstance(asked["aws_textract"], bool)
    no_keys = TextExtractor(ocr_handler=True, use_aws=True).validate_installation()
    assert set(no_keys) == {"tesseract"}
