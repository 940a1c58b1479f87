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
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from goblin_core.config import Config
from goblin_core.errors import (
    CorruptDocument,
    EngineUnavailable,
    ExtractionTimeout,
    FileTooLarge,
)
from goblin_core.model import OCRResult
from goblin_core.source import Source
from goblin_ocr_textract.blocks import pages_from_blocks
from goblin_ocr_textract.clients import make_client, seconds_left
from goblin_ocr_textract.retries import with_retries

log = logging.getLogger(__name__)

_LONGEST_POLL = 30.0
#: The largest PDF asynchronous text detection reads (Textract's quota): a larger one
#: would be uploaded only for the job to fail.
MAX_DOCUMENT_BYTES = 500 * 1024**2

#: The most pages asynchronous text detection reads of one PDF (Textract's quota).
MAX_DOCUMENT_PAGES = 3000
#: Bytes at each end of a PDF looked at for its encryption dictionary: the trailer (or
#: the cross-reference stream standing for it) is at the end, and a linearized file's
#: first one near the start.
_TRAILER_BYTES = 64 * 1024

#: Blocks asked for per page of results: the most GetDocumentTextDetection gives.
_PAGE_SIZE = 1000


def detect_document(source: Source, config: Config) -> dict[int, OCRResult]:
    """Every page's text of a PDF (page number -> OCRResult) read by one asynchronous job.

    Raises EngineUnavailable without bucket, credentials or region;
    FileTooLarge for a PDF over the 500 MB Textract reads as one document;
    CorruptDocument when Textract fails the job; ExtractionTimeout when the job
    is still running after ``textract.poll_timeout`` or ``limits.timeout``,
    whichever is shorter (paging its results stops there too, keeping the
    lines read); botocore errors once retries are spent.

    >>> detect_document(Source.from_path("scan.pdf"), config)  # doctest: +SKIP
    {1: OCRResult(text='...', confidence=0.98), 2: ...}
    """
    options = config.section("textract")
    bucket = str(options["s3_bucket"])
    if not bucket:
        raise EngineUnavailable("textract.s3_bucket is not set: asynchronous detection needs "
                                "a bucket to upload the PDF to", file=source.display_name)
    if source.size > MAX_DOCUMENT_BYTES:
        raise FileTooLarge(f"{source.size:,} bytes, over the {MAX_DOCUMENT_BYTES:,} bytes "
                           "Textract reads as one document; its pages go as page images",
                           file=source.display_name)
    if encrypted(source):
        # the job would fail after the upload and its polls, the pages read by no one
        raise EngineUnavailable("the PDF is encrypted (a password, or only restrictions on "
                                "printing and copying), and Textract reads no encrypted PDF; "
                                "its pages go as page images", file=source.display_name)
    time_left = min(float(options["poll_timeout"]), seconds_left(config))
    job = _Job(source, options, time.monotonic() + time_left,
               int(config.limits["max_output_chars"]))
    s3 = make_client("s3", options, time_left=time_left)
    textract = make_client("textract", options, time_left=time_left)
    key = f"{options['s3_prefix']}{uuid.uuid4().hex}.pdf"
    with_retries(_upload, options, deadline=job.deadline, s3=s3, source=source, bucket=bucket,
                 key=key)
    try:
        started = with_retries(textract.start_document_text_detection, options,
                               deadline=job.deadline,
                               DocumentLocation={"S3Object": {"Bucket": bucket, "Name": key}})
        blocks = _wait_for_blocks(textract, str(started["JobId"]), job)
    finally:
        _delete(s3, bucket, key, options)
    return pages_from_blocks(blocks)


def encrypted(source: Source) -> bool:
    """Whether the PDF names an encryption dictionary in a trailer (``/Encrypt``), read
    at its ends only: a PDF whose only one is elsewhere passes for plain.

    >>> encrypted(Source.from_bytes(b"%PDF-1.4 ... trailer<</Root 1 0 R/Encrypt 9 0 R>>"))
    True
    """
    if source.size <= 2 * _TRAILER_BYTES:
        return b"/Encrypt" in source.read()
    return b"/Encrypt" in source.tail(_TRAILER_BYTES) or b"/Encrypt" in source.head(
        _TRAILER_BYTES)


def _upload(s3: Any, source: Source, bucket: str, key: str) -> None:
    """The PDF streamed from its file (a scan can be hundreds of MB), from its start on
    every attempt."""
    with source.open() as body:
        s3.put_object(Bucket=bucket, Key=key, Body=body)


@dataclass(frozen=True)
class _Job:
    """What polling and paging a job need: the document, ``[textract]`` and the deadline."""

    source: Source
    options: Mapping[str, Any]
    deadline: float
    max_chars: int


def _wait_for_blocks(textract: Any, job_id: str, job: _Job) -> list[dict[str, Any]]:
    interval = float(job.options["poll_interval"])
    while True:
        answer = with_retries(textract.get_document_text_detection, job.options,
                              deadline=job.deadline, JobId=job_id, MaxResults=_PAGE_SIZE)
        status = answer.get("JobStatus")
        if status in ("SUCCEEDED", "PARTIAL_SUCCESS"):
            if status == "PARTIAL_SUCCESS":
                log.warning("Textract read %s only in part: %s", job.source.display_name,
                            answer.get("Warnings"))
            return _all_blocks(textract, job_id, answer, job)
        if status == "FAILED":
            raise CorruptDocument(f"Textract could not read it: {answer.get('StatusMessage')}",
                                  file=job.source.display_name)
        if time.monotonic() + interval > job.deadline:
            raise ExtractionTimeout(f"Textract job {job_id} still {status} after "
                                    "textract.poll_timeout (or limits.timeout) seconds",
                                    file=job.source.display_name)
        time.sleep(interval)
        interval = min(max(interval * 1.5, 1.0), _LONGEST_POLL)


def _all_blocks(
    textract: Any, job_id: str, first: Mapping[str, Any], job: _Job
) -> list[dict[str, Any]]:
    """The LINE blocks of every page of results (words and tables hold the same text
    again). Paging stops, keeping the lines read, at a token met again (it would page
    forever), at the job's deadline (a service that hands out new tokens forever), and
    once the lines hold more text than ``limits.max_output_chars`` (the document could
    not keep more)."""
    blocks = _lines(first)
    chars = sum(len(b["Text"]) for b in blocks)
    token = first.get("NextToken")
    seen: set[str] = set()
    while token:
        stop = _stop_paging(token, seen, chars, job)
        if stop:
            log.warning("Textract job %s of %s: %s; the results after %s blocks are not read",
                        job_id, job.source.display_name, stop, f"{len(blocks):,}")
            break
        seen.add(token)
        answer = with_retries(textract.get_document_text_detection, job.options,
                              deadline=job.deadline, JobId=job_id, MaxResults=_PAGE_SIZE,
                              NextToken=token)
        lines = _lines(answer)
        chars += sum(len(b["Text"]) for b in lines)
        blocks.extend(lines)
        token = answer.get("NextToken")
    return blocks


def _stop_paging(token: Any, seen: set[str], chars: int, job: _Job) -> str:
    """Why paging must stop before asking for ``token``; "" when it may go on."""
    if not isinstance(token, str) or token in seen:
        return f"the results page token {str(token)[:80]!r} came back twice"
    if time.monotonic() > job.deadline:
        return "textract.poll_timeout (or limits.timeout) ran out while paging"
    if chars > job.max_chars:
        return f"the lines passed limits.max_output_chars ({job.max_chars:,} characters)"
    return ""


def _lines(answer: Mapping[str, Any]) -> list[dict[str, Any]]:
    found = answer.get("Blocks")
    if not isinstance(found, list):
        return []
    return [b for b in found if isinstance(b, dict) and b.get("BlockType") == "LINE"
            and isinstance(b.get("Text"), str)]


def _delete(s3: Any, bucket: str, key: str, options: Mapping[str, Any]) -> None:
    try:
        with_retries(s3.delete_object, options, Bucket=bucket, Key=key)
    except (BotoCoreError, ClientError) as exc:
        log.warning("could not delete s3://%s/%s after Textract read it: %s", bucket, key, exc)
