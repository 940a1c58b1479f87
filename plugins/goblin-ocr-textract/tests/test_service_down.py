"""ocr.textract when the service is down or refuses the credentials: the first page finds
out, the pages after it are not sent again for a while, so a long scan keeps its time
for the local OCR backends."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from test_hostile_service import Service
from test_textract import registry

import goblin_core
from goblin_core import load_registry
from goblin_core.config import Config
from goblin_ocr_textract import outages
from goblin_ocr_textract.backend import TextractBackend


def served(answer: tuple[int, dict[str, Any]] | None) -> Iterator[Service]:
    """A local endpoint answering every call with ``answer`` (None: never answering)."""
    endpoint = Service()
    endpoint.answer = lambda operation, request: answer
    yield endpoint
    endpoint.close()


@pytest.fixture
def silent(aws: Path) -> Iterator[Service]:
    yield from served(None)


@pytest.fixture
def refusing(aws: Path) -> Iterator[Service]:
    yield from served((400, {"__type": "UnrecognizedClientException",
                             "message": "The security token included in the request is invalid."}))


@pytest.fixture
def failing(aws: Path) -> Iterator[Service]:
    yield from served((500, {"__type": "InternalServerError", "message": "Internal error"}))


@pytest.fixture
def throttling(aws: Path) -> Iterator[Service]:
    yield from served((400, {"__type": "ThrottlingException", "message": "Rate exceeded"}))


def config(endpoint: Service, **textract: Any) -> Config:
    values = {"endpoint_url": endpoint.url, "timeout": 1, "max_attempts": 2,
              "backoff_initial": 0.01, "backoff_max": 0.02, **textract}
    return load_registry(load=["textract"]).config(textract=values)


def page() -> Image.Image:
    return Image.new("L", (300, 100), 255)


def test_pages_after_one_that_found_the_endpoint_silent_are_not_sent(silent: Service) -> None:
    backend, settings = TextractBackend(), config(silent)
    assert backend.recognize(page(), "eng", settings).text == ""
    sent = len(silent.seen)
    assert sent == 2  # the first page waited out its attempts
    started = time.monotonic()
    for _ in range(5):
        assert backend.recognize(page(), "eng", settings).text == ""
    assert time.monotonic() - started < 1
    assert len(silent.seen) == sent


def test_credentials_refused_once_are_not_sent_again_with_each_page(refusing: Service) -> None:
    backend, settings = TextractBackend(), config(refusing)
    for _ in range(4):
        assert backend.recognize(page(), "eng", settings).text == ""
    assert len(refusing.seen) == 1


def test_server_errors_after_every_retry_are_not_met_again_with_each_page(
    failing: Service
) -> None:
    backend, settings = TextractBackend(), config(failing)
    for _ in range(4):
        assert backend.recognize(page(), "eng", settings).text == ""
    assert len(failing.seen) == 2  # the first page's two attempts


def test_the_service_is_asked_again_once_the_outage_is_old(
    refusing: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outages, "OUTAGE_SECONDS", 0.2)
    backend, settings = TextractBackend(), config(refusing)
    backend.recognize(page(), "eng", settings)
    time.sleep(0.3)
    backend.recognize(page(), "eng", settings)
    assert len(refusing.seen) == 2


def test_another_endpoint_is_still_asked(refusing: Service, throttling: Service) -> None:
    backend = TextractBackend()
    backend.recognize(page(), "eng", config(refusing))
    backend.recognize(page(), "eng", config(throttling))
    assert len(throttling.seen) == 2


def test_throttling_is_no_outage_each_page_is_still_tried(throttling: Service) -> None:
    backend, settings = TextractBackend(), config(throttling)
    for _ in range(3):
        backend.recognize(page(), "eng", settings)
    assert len(throttling.seen) == 6


def test_an_outage_is_logged_once_as_an_error_the_command_line_prints(
    refusing: Service, caplog: pytest.LogCaptureFixture
) -> None:
    backend, settings = TextractBackend(), config(refusing)
    with caplog.at_level(logging.DEBUG, logger="goblin_ocr_textract"):
        for _ in range(3):
            backend.recognize(page(), "eng", settings)
    [error] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "UnrecognizedClientException" in error.getMessage()
    assert "not asked again" in error.getMessage()


def test_each_page_left_unread_says_why(refusing: Service, throttling: Service) -> None:
    backend, settings = TextractBackend(), config(refusing)
    first, later = (backend.recognize(page(), "eng", settings) for _ in range(2))
    [(kind, why)] = first.warnings
    assert kind == "EngineFailed" and why.startswith("Textract could not read a page: ")
    assert "UnrecognizedClientException" in why
    [(kind, why)] = later.warnings
    assert kind == "EngineFailed" and "not asked" in why and "UnrecognizedClientException" in why
    [(_, why)] = backend.recognize(page(), "eng", config(throttling)).warnings
    assert "ThrottlingException" in why


def test_a_document_textract_could_not_read_says_so_in_its_report(refusing: Service) -> None:
    # no other OCR backend in this session: the pages stay without text, and the report
    # must tell a refused request from a blank scan
    doc = goblin_core.extract(b"%PDF-1.7\n% scanned\n", name="scan.pdf", registry=registry(),
                              ocr_backends=["ocr.textract"],
                              textract={"endpoint_url": refusing.url, "timeout": 1,
                                        "max_attempts": 2, "backoff_initial": 0.01,
                                        "backoff_max": 0.02})
    failed = [w for w in doc.report.warnings if w.kind == "EngineFailed"]
    assert [w.engine for w in failed] == ["ocr.textract"]
    assert failed[0].page == 1 and "security token" in failed[0].message
