"""Whole PDFs for an asynchronous job: streamed to S3 from their file, and never uploaded
when they are larger than Textract reads as one document."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from test_textract import config, line

from goblin_core import GoblinError, Source
from goblin_ocr_textract import document
from goblin_ocr_textract.backend import TextractBackend

if TYPE_CHECKING:
    from conftest import ThrottlingProxy

BUCKET = "goblin-versioned"


@pytest.fixture
def versioned(aws: Path, moto: tuple[str, int]) -> Iterator[Any]:
    """A bucket that keeps what was deleted from it, so a test can read the upload."""
    s3 = boto3.client("s3", endpoint_url=f"http://{moto[0]}:{moto[1]}", region_name="us-east-1")
    s3.create_bucket(Bucket=BUCKET)
    s3.put_bucket_versioning(Bucket=BUCKET, VersioningConfiguration={"Status": "Enabled"})
    yield s3
    listed = s3.list_object_versions(Bucket=BUCKET)
    for item in listed.get("Versions", []) + listed.get("DeleteMarkers", []):
        s3.delete_object(Bucket=BUCKET, Key=item["Key"], VersionId=item["VersionId"])
    s3.delete_bucket(Bucket=BUCKET)


def test_a_pdf_is_streamed_to_s3_from_its_file(
    versioned: Any, proxy: ThrottlingProxy, canned: Callable[..., None], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    canned([line("page one", 1), line("page two", 2)])
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 4096 + b"\n%%EOF\n")
    source = Source.from_path(scan)

    def whole(self: Source) -> bytes:
        raise AssertionError("the PDF was read whole into memory")

    monkeypatch.setattr(Source, "bytes", whole)
    pages = TextractBackend().recognize_document(source, [1, 2], "eng", config(
        proxy, s3_bucket=BUCKET, s3_endpoint_url=proxy.url, async_min_pages=1))
    assert {n: r.text for n, r in pages.items()} == {1: "page one", 2: "page two"}
    assert proxy.seen["S3.PUT"] == 1
    [upload] = versioned.list_object_versions(Bucket=BUCKET)["Versions"]
    kept = versioned.get_object(Bucket=BUCKET, Key=upload["Key"], VersionId=upload["VersionId"])
    assert kept["Body"].read() == scan.read_bytes()


def test_a_pdf_over_the_document_limit_is_not_uploaded(
    versioned: Any, proxy: ThrottlingProxy, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(document, "MAX_DOCUMENT_BYTES", 1024)
    source = Source.from_bytes(b"%PDF-1.7\n" + b"0" * 2048, "big.pdf")
    with caplog.at_level(logging.WARNING):
        pages = TextractBackend().recognize_document(source, [1, 2], "eng", config(
            proxy, s3_bucket=BUCKET, s3_endpoint_url=proxy.url, async_min_pages=1))
    assert pages == {}
    assert proxy.seen["S3.PUT"] == 0
    assert "Textract reads as one document" in caplog.text


def test_an_encrypted_pdf_is_not_uploaded_for_a_job_that_would_fail(
    versioned: Any, proxy: ThrottlingProxy, canned: Callable[..., None]
) -> None:
    # Textract reads no encrypted PDF, even one only restricted from printing: the job
    # failed after the upload and its polls
    canned([line("never read", 1)])
    trailer = b"trailer\n<</Size 9/Root 1 0 R/Encrypt 8 0 R/ID[<01><01>]>>\n%%EOF\n"
    for padding in (2048, 300_000):  # read whole, and read at its ends
        source = Source.from_bytes(b"%PDF-1.7\n" + b"0" * padding + trailer, "locked.pdf")
        pages = TextractBackend().recognize_document(source, [1, 2], "eng", config(
            proxy, s3_bucket=BUCKET, s3_endpoint_url=proxy.url, async_min_pages=1))
        assert pages == {}
    assert proxy.seen["S3.PUT"] == 0
    with pytest.raises(GoblinError, match="encrypted"):
        document.detect_document(source, config(proxy, s3_bucket=BUCKET,
                                                s3_endpoint_url=proxy.url))


def test_a_pdf_of_more_pages_than_a_job_reads_is_not_uploaded(
    versioned: Any, proxy: ThrottlingProxy, canned: Callable[..., None]
) -> None:
    canned([line("never read", 1)])
    source = Source.from_bytes(b"%PDF-1.7\n" + b"0" * 2048 + b"\n%%EOF\n", "long.pdf")
    wanted = list(range(1, 3_002))  # Textract reads at most 3,000 pages of one PDF
    pages = TextractBackend().recognize_document(source, wanted, "eng", config(
        proxy, s3_bucket=BUCKET, s3_endpoint_url=proxy.url, async_min_pages=1))
    assert pages == {}
    assert proxy.seen["S3.PUT"] == 0
