"""Whole PDFs through Textract's asynchronous text detection, by way of an S3 bucket.

Asynchronous detection reads a multi-page PDF in one job instead of one
request per page image. The PDF is uploaded under ``textract.s3_prefix`` in
``textract.s3_bucket``, the job is started and polled with growing waits,
its blocks are read page by page, and the upload is deleted afterwards.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Mapping
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from goblin_core.config import Config
from goblin_core.errors import CorruptDocument, EngineUnavailable, ExtractionTimeout
from goblin_core.model import OCRResult
from goblin_core.source import Source
from goblin_ocr_textract.blocks import pages_from_blocks
from goblin_ocr_textract.clients import make_client
from goblin_ocr_textract.retries import with_retries

log = logging.getLogger(__name__)

_LONGEST_POLL = 30.0


def detect_document(source: Source, config: Config) -> dict[int, OCRResult]:
    """Every page's text of a PDF (page number -> OCRResult) read by one asynchronous job.

    Raises EngineUnavailable without bucket, credentials or region;
    CorruptDocument when Textract fails the job; ExtractionTimeout after
    ``textract.poll_timeout``; botocore errors once retries are spent.

    >>> detect_document(Source.from_path("scan.pdf"), config)  # doctest: +SKIP
    {1: OCRResult(text='...', confidence=0.98), 2: ...}
    """
    options = config.section("textract")
    bucket = str(options["s3_bucket"])
    if not bucket:
        raise EngineUnavailable("textract.s3_bucket is not set: asynchronous detection needs "
                                "a bucket to upload the PDF to", file=source.display_name)
    s3 = make_client("s3", options)
    textract = make_client("textract", options)
    key = f"{options['s3_prefix']}{uuid.uuid4().hex}.pdf"
    with_retries(s3.put_object, options, Bucket=bucket, Key=key, Body=source.bytes())
    try:
        started = with_retries(textract.start_document_text_detection, options,
                               DocumentLocation={"S3Object": {"Bucket": bucket, "Name": key}})
        blocks = _wait_for_blocks(textract, started["JobId"], options, source)
    finally:
        _delete(s3, bucket, key, options)
    return pages_from_blocks(blocks)


def _wait_for_blocks(
    textract: Any, job_id: str, options: Mapping[str, Any], source: Source
) -> list[dict[str, Any]]:
    deadline = time.monotonic() + float(options["poll_timeout"])
    interval = float(options["poll_interval"])
    while True:
        answer = with_retries(textract.get_document_text_detection, options, JobId=job_id)
        status = answer.get("JobStatus")
        if status in ("SUCCEEDED", "PARTIAL_SUCCESS"):
            if status == "PARTIAL_SUCCESS":
                log.warning("Textract read %s only in part: %s", source.display_name,
                            answer.get("Warnings"))
            return _all_blocks(textract, job_id, answer, options)
        if status == "FAILED":
            raise CorruptDocument(f"Textract could not read it: {answer.get('StatusMessage')}",
                                  file=source.display_name)
        if time.monotonic() + interval > deadline:
            raise ExtractionTimeout(f"Textract job {job_id} still {status} after "
                                    "textract.poll_timeout seconds", file=source.display_name)
        time.sleep(interval)
        interval = min(max(interval * 1.5, 1.0), _LONGEST_POLL)


def _all_blocks(
    textract: Any, job_id: str, first: Mapping[str, Any], options: Mapping[str, Any]
) -> list[dict[str, Any]]:
    blocks = list(first.get("Blocks", []))
    token = first.get("NextToken")
    while token:
        answer = with_retries(textract.get_document_text_detection, options, JobId=job_id,
                              NextToken=token)
        blocks.extend(answer.get("Blocks", []))
        token = answer.get("NextToken")
    return blocks


def _delete(s3: Any, bucket: str, key: str, options: Mapping[str, Any]) -> None:
    try:
        with_retries(s3.delete_object, options, Bucket=bucket, Key=key)
    except (BotoCoreError, ClientError) as exc:
        log.warning("could not delete s3://%s/%s after Textract read it: %s", bucket, key, exc)
