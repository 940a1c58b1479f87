"""ocr.textract against a service that misbehaves: a small local HTTP server answers
Textract's calls as told (moto's S3 still holds the uploads of whole-PDF jobs)."""

from __future__ import annotations

import io
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import boto3
import pytest
from PIL import Image

from goblin_core import Source, load_registry
from goblin_core.config import Config
from goblin_core.deadline import document_deadline
from goblin_ocr_textract.backend import TextractBackend
from goblin_ocr_textract.encoding import encode_page

Answer = Callable[[str, dict[str, Any]], "tuple[int, Any] | None"]
BUCKET = "goblin-hostile"


class Service:
    """Answers each Textract call with ``answer(operation, request)``: (status, JSON or
    bytes), or None to accept the request and never answer."""

    def __init__(self) -> None:
        self.answer: Answer = lambda operation, request: (200, {})
        self.seen: list[str] = []
        self.stop = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def close(self) -> None:
        self.stop.set()
        self._server.shutdown()
        self._server.server_close()


def _handler(service: Service) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            return

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            operation = (self.headers.get("X-Amz-Target") or "").rpartition(".")[2]
            service.seen.append(operation)
            got = service.answer(operation, json.loads(body or b"{}"))
            if got is None:
                service.stop.wait(60)
                return
            status, data = got
            raw = data if isinstance(data, bytes) else json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/x-amz-json-1.1")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

    return Handler


@pytest.fixture
def service(aws: Path) -> Iterator[Service]:
    running = Service()
    yield running
    running.close()


def config(service: Service, limits: dict[str, Any] | None = None, **textract: Any) -> Config:
    values = {"endpoint_url": service.url, "backoff_initial": 0.01, "backoff_max": 0.05,
              "poll_interval": 0.01, **textract}
    return load_registry(load=["textract"]).config(textract=values, limits=limits or {})


def line(text: str, confidence: Any = 95.0, page: Any = 1) -> dict[str, Any]:
    return {"BlockType": "LINE", "Text": text, "Confidence": confidence, "Page": page}


def page() -> Image.Image:
    return Image.new("L", (300, 100), 255)


def timed(call: Callable[[], Any]) -> tuple[Any, float]:
    started = time.monotonic()
    return call(), time.monotonic() - started


# -- one page, DetectDocumentText ----------------------------------------------------


@pytest.mark.parametrize(("blocks", "text"), [
    (b'{"Blocks": [{"BlockType": "LINE", "Text": "a", "Confidence": NaN}]}', "a"),
    ({"Blocks": [line("low", -50.0), line("high", 1e300)]}, "low\nhigh"),
    ({"Blocks": [line("word", "high")]}, "word"),
    ({"Blocks": [line("p", page="two"), line("q", page=None)]}, "p\nq"),
    # botocore's parser refuses the whole answer
    ({"Blocks": [5, "x", None, {"BlockType": "LINE", "Text": 7}, line("lost")]}, ""),
    ({"Blocks": 5}, ""),
    ({"Blocks": [line("loop") | {"Id": "a", "Relationships": [{"Type": "CHILD", "Ids": ["a"]}]},
                 {"BlockType": "WORD", "Id": "b", "Relationships": [{"Type": "CHILD",
                                                                     "Ids": ["missing"]}]}]},
     "loop"),
    (b"\x00\xff this is not JSON", ""),
    (b"<html>502 Bad Gateway</html>", ""),
], ids=["nan", "out-of-range", "string", "page-not-a-number", "not-blocks", "not-a-list",
        "cycles", "not-json", "html"])
def test_malformed_answers_give_text_or_nothing_never_an_exception(
    service: Service, blocks: Any, text: str
) -> None:
    service.answer = lambda operation, request: (200, blocks)
    result = TextractBackend().recognize(page(), "eng", config(service))
    assert result.text == text
    assert 0.0 <= result.confidence <= 1.0


def test_confidence_of_lines_out_of_range_is_clamped_per_line(service: Service) -> None:
    service.answer = lambda operation, request: (200, {"Blocks": [line("abc", -50.0),
                                                                  line("def", 1e300)]})
    result = TextractBackend().recognize(page(), "eng", config(service))
    assert result.confidence == 0.5


def test_an_answer_over_max_response_bytes_is_not_parsed(
    service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    blocks = [line(f"line {i}") for i in range(40_000)]
    service.answer = lambda operation, request: (200, {"Blocks": blocks})
    with caplog.at_level(logging.WARNING):
        result = TextractBackend().recognize(page(), "eng",
                                             config(service, max_response_bytes="1MB"))
    assert result.text == ""
    assert "textract.max_response_bytes" in caplog.text


@pytest.mark.parametrize("answer", [
    (429, b""),
    (429, {"__type": "TooManyRequestsException", "message": "slow down"}),
], ids=["429-no-body", "TooManyRequestsException"])
def test_http_429_is_throttling_and_retried(service: Service, answer: tuple[int, Any]) -> None:
    service.answer = lambda operation, request: answer
    result = TextractBackend().recognize(page(), "eng", config(service, max_attempts=3))
    assert result.text == ""
    assert service.seen.count("DetectDocumentText") == 3


def test_throttling_forever_stops_at_the_document_time_limit(service: Service) -> None:
    service.answer = lambda operation, request: (400, {"__type": "ThrottlingException",
                                                       "message": "Rate exceeded"})
    result, seconds = timed(lambda: TextractBackend().recognize(page(), "eng", config(
        service, {"timeout": 3}, max_attempts=1000, backoff_initial=0.5, backoff_max=1.0)))
    assert result.text == ""
    assert seconds < 10
    assert 1 < len(service.seen) < 1000


def test_throttling_forever_stops_when_the_documents_time_is_up(service: Service) -> None:
    # limits.timeout is a minute per call; the document being extracted has 3 s left
    service.answer = lambda operation, request: (400, {"__type": "ThrottlingException",
                                                       "message": "Rate exceeded"})
    with document_deadline(time.monotonic() + 3):
        result, seconds = timed(lambda: TextractBackend().recognize(page(), "eng", config(
            service, {"timeout": 60}, max_attempts=1000, backoff_initial=0.5,
            backoff_max=1.0)))
    assert result.text == ""
    assert seconds < 10
    assert 1 < len(service.seen) < 1000


def test_no_call_is_made_once_the_documents_time_is_up(
    service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING), document_deadline(time.monotonic() - 1):
        result = TextractBackend().recognize(page(), "eng", config(service))
    assert result.text == ""
    assert service.seen == []
    assert "limits.timeout" in caplog.text


def test_a_service_that_never_answers_is_given_up_within_the_time_limit(
    service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    service.answer = lambda operation, request: None
    with caplog.at_level(logging.WARNING):
        result, seconds = timed(lambda: TextractBackend().recognize(page(), "eng", config(
            service, {"timeout": 3}, timeout=30, max_attempts=10)))
    assert result.text == ""
    assert seconds < 12
    assert "timeout" in caplog.text.lower()


def test_invalid_credentials_are_not_retried(service: Service,
                                             caplog: pytest.LogCaptureFixture) -> None:
    service.answer = lambda operation, request: (400, {
        "__type": "UnrecognizedClientException",
        "message": "The security token included in the request is invalid."})
    with caplog.at_level(logging.WARNING):
        result = TextractBackend().recognize(page(), "eng", config(service))
    assert result.text == ""
    assert service.seen == ["DetectDocumentText"]
    assert "UnrecognizedClientException" in caplog.text


def test_a_page_that_cannot_fit_the_request_limit_is_refused_before_sending(
    service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    noise = Image.effect_noise((40, 20_000), 100).convert("L")
    with caplog.at_level(logging.WARNING):
        result = TextractBackend().recognize(noise, "eng", config(
            service, max_image_bytes="64KB", max_image_side=10_000))
    assert result.text == ""
    assert service.seen == []
    assert "textract.max_image_bytes" in caplog.text


def test_a_huge_noisy_page_is_encoded_within_seconds() -> None:
    noise = Image.effect_noise((12_000, 12_000), 100).convert("L")
    data, seconds = timed(lambda: encode_page(noise, 10 * 1024**2, 10_000))
    assert len(data) <= 10 * 1024**2
    assert Image.open(io.BytesIO(data)).size[0] <= 10_000
    assert seconds < 15


# -- whole PDFs, asynchronous jobs -------------------------------------------------


@pytest.fixture
def bucket(aws: Path, moto: tuple[str, int]) -> Iterator[str]:
    url = f"http://{moto[0]}:{moto[1]}"
    s3 = boto3.client("s3", endpoint_url=url, region_name="us-east-1")
    s3.create_bucket(Bucket=BUCKET)
    yield url
    for item in s3.list_objects_v2(Bucket=BUCKET).get("Contents", []):
        s3.delete_object(Bucket=BUCKET, Key=item["Key"])
    s3.delete_bucket(Bucket=BUCKET)


def read_whole(service: Service, s3_url: str, limits: dict[str, Any] | None = None,
               **textract: Any) -> dict[int, Any]:
    options = {"s3_bucket": BUCKET, "s3_endpoint_url": s3_url, "async_min_pages": 1,
               **textract}
    source = Source.from_bytes(b"%PDF-1.7\n% scanned\n", "scan.pdf")
    pages: dict[int, Any] = TextractBackend().recognize_document(
        source, [1, 2], "eng", config(service, limits, **options))
    return pages


def job(results: Callable[[int, dict[str, Any]], dict[str, Any]]) -> Answer:
    calls = [0]

    def answer(operation: str, request: dict[str, Any]) -> tuple[int, Any]:
        if operation == "StartDocumentTextDetection":
            return 200, {"JobId": "job-1"}
        calls[0] += 1
        return 200, results(calls[0], request)
    return answer


def test_a_results_token_met_again_stops_paging_and_keeps_the_lines(
    service: Service, bucket: str
) -> None:
    service.answer = job(lambda n, request: {
        "JobStatus": "SUCCEEDED", "Blocks": [line(f"line {n}", page=n)],
        "NextToken": "same-token"})
    pages, seconds = timed(lambda: read_whole(service, bucket))
    assert {n: r.text for n, r in pages.items()} == {1: "line 1", 2: "line 2"}
    assert service.seen.count("GetDocumentTextDetection") == 2
    assert seconds < 20


def test_results_tokens_without_end_stop_at_the_document_time_limit(
    service: Service, bucket: str
) -> None:
    service.answer = job(lambda n, request: {
        "JobStatus": "SUCCEEDED", "Blocks": [line(f"line {n}", page=1 + n % 2)],
        "NextToken": f"token-{n}"})
    pages, seconds = timed(lambda: read_whole(service, bucket, {"timeout": 3}))
    assert seconds < 10
    assert pages[1].text.startswith("line 2\nline 4")


def test_results_past_max_output_chars_are_not_paged_through(
    service: Service, bucket: str
) -> None:
    service.answer = job(lambda n, request: {
        "JobStatus": "SUCCEEDED", "Blocks": [line("x" * 1000)], "NextToken": f"token-{n}"})
    pages = read_whole(service, bucket, {"max_output_chars": 10_000})
    assert service.seen.count("GetDocumentTextDetection") <= 12
    assert len(pages[1].text) >= 10_000


def test_a_job_in_progress_forever_is_given_up_at_the_document_time_limit(
    service: Service, bucket: str
) -> None:
    service.answer = job(lambda n, request: {"JobStatus": "IN_PROGRESS"})
    pages, seconds = timed(lambda: read_whole(service, bucket, {"timeout": 3}))
    assert pages == {}
    assert seconds < 10
    assert service.seen.count("GetDocumentTextDetection") >= 2
