"""ocr.textract over real HTTP: boto3 -> throttling proxy -> moto's Textract and S3."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from PIL import Image, ImageDraw

import goblin_core
from goblin_core import PageContent, Source, hookimpl, load_registry
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, BaseParsedDocument
from goblin_core.registry import Registry
from goblin_core.testing.image_pages import ImagePage, ImagePagesPlugin
from goblin_ocr_textract.backend import TextractBackend
from goblin_ocr_textract.credentials import find_credentials, find_region

if TYPE_CHECKING:
    from conftest import ThrottlingProxy

moto_textract = pytest.importorskip("moto.textract.models")

BUCKET = "goblin-scans"
DETECT = "Textract.DetectDocumentText"
START = "Textract.StartDocumentTextDetection"
POLL = "Textract.GetDocumentTextDetection"


def line(text: str, page: int = 1, confidence: float = 98.0) -> dict[str, Any]:
    return {"BlockType": "LINE", "Text": text, "Confidence": confidence, "Page": page,
            "Id": f"{page}-{text}"}


def settings(proxy: ThrottlingProxy, **textract: Any) -> dict[str, Any]:
    values = {"endpoint_url": proxy.url, "backoff_initial": 0.01, "backoff_max": 0.05,
              "poll_interval": 0.01, **textract}
    return {"textract": values}


def config(proxy: ThrottlingProxy, **textract: Any) -> Config:
    return load_registry(load=["textract"]).config(**settings(proxy, **textract))


def page_png() -> bytes:
    page = Image.new("L", (600, 200), 255)
    ImageDraw.Draw(page).text((20, 80), "Scanned page", fill=0)
    out = io.BytesIO()
    page.save(out, format="PNG")
    return out.getvalue()


class ScannedPdf(BaseEngine):
    """A parser for PDFs whose three pages are images (this session has no goblin-pdf)."""

    name = "test.scanned-pdf"
    formats = ("application/pdf",)
    priority = 1000

    def open(self, source: Source, config: Config) -> BaseParsedDocument:
        return _ThreePages(source)


class _ThreePages(ImagePage):
    page_count = 3

    def pages(self) -> Iterator[PageContent]:
        for number in (1, 2, 3):
            yield PageContent(number, "", glyphs=0, images=1)

    def render(self, page: int, dpi: int) -> Image.Image:
        return Image.open(io.BytesIO(page_png()))


class _PdfPlugin:
    @hookimpl
    def goblin_register_parsers(self, register: Callable[[Any], None]) -> None:
        register(ScannedPdf())


def registry() -> Registry:
    return load_registry(load=["textract"], extra_plugins=[("test-pages", ImagePagesPlugin()),
                                                           ("test-pdf", _PdfPlugin())])


# -- the synchronous path ----------------------------------------------------------


def test_page_image_is_read_with_detect_document_text(aws: Path, proxy: ThrottlingProxy,
                                                      canned: Callable[..., None]) -> None:
    canned([line("CONTRATO Nº 33/2020"), line("PREFEITURA MUNICIPAL", confidence=90.0)])
    image = Image.open(io.BytesIO(page_png()))
    result = TextractBackend().recognize(image, "por+eng", config(proxy))
    assert result.text == "CONTRATO Nº 33/2020\nPREFEITURA MUNICIPAL"
    assert 0.9 < result.confidence < 0.98
    assert proxy.seen[DETECT] == 1


def test_throttling_is_retried_with_backoff(aws: Path, proxy: ThrottlingProxy,
                                            canned: Callable[..., None]) -> None:
    canned([line("after the storm")])
    proxy.throttle[DETECT] = 3
    result = TextractBackend().recognize(Image.open(io.BytesIO(page_png())), "eng", config(proxy))
    assert result.text == "after the storm"
    assert proxy.seen[DETECT] == 4


def test_throttling_past_the_attempt_limit_gives_no_text(
    aws: Path, proxy: ThrottlingProxy, canned: Callable[..., None],
    caplog: pytest.LogCaptureFixture,
) -> None:
    canned([line("never seen")])
    proxy.throttle[DETECT] = 10
    with caplog.at_level(logging.WARNING):
        result = TextractBackend().recognize(Image.open(io.BytesIO(page_png())), "eng",
                                             config(proxy, max_attempts=3))
    assert (result.text, result.confidence) == ("", 0.0)
    assert proxy.seen[DETECT] == 3
    assert "ThrottlingException" in caplog.text


def test_big_page_is_scaled_to_fit_the_request_limit(aws: Path, proxy: ThrottlingProxy,
                                                     canned: Callable[..., None]) -> None:
    canned([line("big page")])
    noise = Image.effect_noise((3000, 3000), 100).convert("L")
    small = config(proxy, max_image_bytes=200_000, max_image_side=2000)
    result = TextractBackend().recognize(noise, "eng", small)
    assert result.text == "big page"


# -- the asynchronous path through S3 ---------------------------------------------


@pytest.fixture
def bucket(aws: Path, moto: tuple[str, int]) -> Any:
    s3 = boto3.client("s3", endpoint_url=f"http://{moto[0]}:{moto[1]}", region_name="us-east-1")
    s3.create_bucket(Bucket=BUCKET)
    yield s3
    for item in s3.list_objects_v2(Bucket=BUCKET).get("Contents", []):
        s3.delete_object(Bucket=BUCKET, Key=item["Key"])
    s3.delete_bucket(Bucket=BUCKET)


def test_whole_pdf_goes_through_s3_and_one_job(bucket: Any, proxy: ThrottlingProxy,
                                               canned: Callable[..., None]) -> None:
    canned([line("first page", 1), line("second page", 2), line("third page", 3)])
    proxy.throttle[START] = 2
    source = Source.from_bytes(b"%PDF-1.7\n% three scanned pages\n", "scan.pdf")
    pages = TextractBackend().recognize_document(source, [1, 3], "por", config(
        proxy, s3_bucket=BUCKET, s3_prefix="in/", async_min_pages=2))
    assert {n: r.text for n, r in pages.items()} == {1: "first page", 3: "third page"}
    assert proxy.seen[START] == 3
    assert proxy.seen[POLL] >= 1
    assert proxy.seen["S3.PUT"] == 1 and proxy.seen["S3.DELETE"] == 1
    assert bucket.list_objects_v2(Bucket=BUCKET).get("KeyCount", 0) == 0


def test_pipeline_reads_a_long_scan_with_one_job(bucket: Any, proxy: ThrottlingProxy,
                                                canned: Callable[..., None]) -> None:
    canned([line("Capa do edital", 1), line("Edital de licitação", 2),
            line("Anexo I: planilha", 3)])
    doc = goblin_core.extract(b"%PDF-1.7\n% scanned\n", name="edital.pdf", registry=registry(),
                              ocr_backends=["ocr.textract"],
                              **settings(proxy, s3_bucket=BUCKET))
    assert [(p.status, p.engine, p.text) for p in doc.pages] == [
        ("ocr", "ocr.textract", "Capa do edital"), ("ocr", "ocr.textract", "Edital de licitação"),
        ("ocr", "ocr.textract", "Anexo I: planilha")]
    assert doc.report.ocr_pages == (1, 2, 3)
    assert proxy.seen[START] == 1
    assert proxy.seen[DETECT] == 0


def test_job_still_running_at_the_poll_timeout_gives_nothing(
    bucket: Any, proxy: ThrottlingProxy, canned: Callable[..., None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    canned([line("late")])
    monkeypatch.setattr(moto_textract.TextractBackend, "JOB_STATUS", "IN_PROGRESS")
    source = Source.from_bytes(b"%PDF-1.7\n", "slow.pdf")
    pages = TextractBackend().recognize_document(source, [1], "eng", config(
        proxy, s3_bucket=BUCKET, poll_interval=0.2, poll_timeout=1.0, async_min_pages=1))
    assert pages == {}
    assert proxy.seen[POLL] >= 2
    assert proxy.seen["S3.DELETE"] == 1


def test_no_bucket_means_page_images_only(aws: Path, proxy: ThrottlingProxy) -> None:
    source = Source.from_bytes(b"%PDF-1.7\n", "scan.pdf")
    assert TextractBackend().recognize_document(source, [1], "eng", config(proxy)) == {}
    assert sum(proxy.seen.values()) == 0


# -- opt-in only, and credentials --------------------------------------------------


def test_not_enabled_never_sends_a_page(aws: Path, proxy: ThrottlingProxy,
                                        canned: Callable[..., None]) -> None:
    canned([line("should not be read")])
    doc = goblin_core.extract(page_png(), name="scan.png", registry=registry(),
                              **settings(proxy))
    assert sum(proxy.seen.values()) == 0
    assert doc.report.ocr_pages == ()
    assert doc.pages[0].status == "corrupt"


@pytest.mark.parametrize("switch", ["ocr_backends", "engines"])
def test_enabled_textract_reads_the_page(aws: Path, proxy: ThrottlingProxy,
                                         canned: Callable[..., None], switch: str) -> None:
    canned([line("Ata da sessão pública de abertura das propostas")])
    options: dict[str, Any] = settings(proxy)
    if switch == "ocr_backends":
        options["ocr_backends"] = ["ocr.textract"]
    else:
        options["engines"] = {"ocr.textract": {"enabled": True}}
    doc = goblin_core.extract(page_png(), name="scan.png", registry=registry(), **options)
    page = doc.pages[0]
    assert (page.status, page.engine) == ("ocr", "ocr.textract")
    assert page.text == "Ata da sessão pública de abertura das propostas"
    assert doc.report.ocr_pages == (1,)
    assert proxy.seen[DETECT] == 1


def test_enabled_without_credentials_is_unavailable_with_one_warning(
    no_aws: Path, proxy: ThrottlingProxy
) -> None:
    ok, reason = TextractBackend().available()
    assert not ok
    assert "no AWS credentials" in reason
    doc = goblin_core.extract(page_png(), name="scan.png", registry=registry(),
                              ocr_backends=["ocr.textract"], **settings(proxy))
    warnings = [w for w in doc.report.warnings if w.engine == "ocr.textract"]
    assert len(warnings) == 1
    assert "no AWS credentials" in warnings[0].message
    assert sum(proxy.seen.values()) == 0


def test_credentials_from_a_shared_file_profile(no_aws: Path) -> None:
    (no_aws / "aws-credentials").write_text(
        "[scans]\naws_access_key_id = AKIDEXAMPLE\naws_secret_access_key = secret\n")
    (no_aws / "aws-config").write_text("[profile scans]\nregion = sa-east-1\n")
    assert find_credentials().credentials is None
    found = find_credentials("scans").credentials
    assert found is not None and found.access_key == "AKIDEXAMPLE"
    assert find_region(profile="scans") == "sa-east-1"


def test_profile_named_in_the_goblin_config_file_makes_it_available(
    no_aws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (no_aws / "aws-credentials").write_text(
        "[scans]\naws_access_key_id = AKIDEXAMPLE\naws_secret_access_key = secret\n")
    (no_aws / "goblin.toml").write_text('[textract]\nprofile = "scans"\n')
    monkeypatch.setenv("GOBLIN_CONFIG", str(no_aws / "goblin.toml"))
    assert TextractBackend().available() == (True, "")
