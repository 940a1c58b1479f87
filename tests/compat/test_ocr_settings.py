"""OCR settings: GoblinTools' OCRConfig and AWS arguments as goblin options."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from goblin_core.compat import GoblinConfig, OCRConfig, OCRProcessor, TextExtractor
from goblin_core.compat.settings import goblin_options
from goblin_core.options import Option, make_namespace

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


def test_ocr_processor_without_textract_does_not_claim_aws() -> None:
    processor = OCRProcessor(OCRConfig(use_aws=True, aws_access_key="AK", aws_secret_key="SK"))
    entry = processor.registry.get("ocr.textract")
    if entry is None or not processor.registry.availability(entry)[0]:
        assert processor.use_aws is False
    assert OCRProcessor(OCRConfig()).use_aws is False


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
