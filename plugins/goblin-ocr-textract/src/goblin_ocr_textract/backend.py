"""The AWS Textract OCR backend (``ocr.textract``): cloud OCR, opt-in only."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from goblin_core.config import Config, load_config_data
from goblin_core.engines import BaseEngine
from goblin_core.errors import ConfigError, GoblinError
from goblin_core.model import OCRResult
from goblin_core.page_bands import band_rows, confidence_by_length
from goblin_core.source import Source
from goblin_ocr_textract.blocks import pages_from_blocks
from goblin_ocr_textract.clients import NO_REGION, make_client, seconds_left
from goblin_ocr_textract.credentials import find_credentials, find_region
from goblin_ocr_textract.document import MAX_DOCUMENT_PAGES, detect_document, encrypted
from goblin_ocr_textract.encoding import encode_page
from goblin_ocr_textract.outages import OUTAGE_SECONDS, Outages, service_key
from goblin_ocr_textract.retries import with_retries

log = logging.getLogger(__name__)

#: What a call to Textract can fail with besides goblin's own errors: botocore's; a
#: body it cannot decode (a proxy's HTML page, bytes that are not UTF-8); and JSON of
#: the wrong shape, which botocore's parser meets with TypeError or AttributeError
#: ("Blocks": 5).
_SERVICE_ERRORS = (BotoCoreError, ClientError, ValueError, TypeError, AttributeError)


class TextractBackend(BaseEngine):
    """Page images through DetectDocumentText; whole PDFs through an S3 bucket when configured.

    ``cloud = True``: the core runs it only when ``goblin.ocr_backends`` names
    it or ``[engines."ocr.textract"] enabled = true``, never because
    credentials happen to exist. Textract picks the language itself
    (English, Spanish, German, Italian, Portuguese, French); ``languages``
    is not sent.
    """

    name = "ocr.textract"
    formats = ("*",)
    priority = 10
    cloud = True

    def __init__(self) -> None:
        self.outages = Outages()

    def available(self) -> tuple[bool, str]:
        """Credentials in the environment or shared files (no network, no instance metadata)."""
        found = find_credentials(_configured_profile())
        if found.credentials is None:
            return False, f"no AWS credentials (looked in {found.looked_in})"
        return True, ""

    def available_for(self, config: Config) -> tuple[bool, str]:
        """As ``available()``, counting credentials given in this call's ``[textract]``;
        and a region must be known, without which no page could be sent."""
        options = config.section("textract")
        profile = str(options.get("profile", ""))
        found = find_credentials(profile, options)
        if found.credentials is None and not options.get("use_default_credentials"):
            return False, f"no AWS credentials (looked in {found.looked_in})"
        if not find_region(str(options.get("region", "")), profile):
            return False, NO_REGION
        # with the SDK's chain allowed, a role is only found by asking for it, page by page
        return True, ""

    def recognize(self, image: Any, languages: str, config: Config) -> OCRResult:
        """One page image through DetectDocumentText; on failure the empty result, with an
        ``EngineFailed`` warning saying why."""
        options = config.section("textract")
        key = service_key(options)
        down = self.outages.current(key)
        if down:
            log.debug("Textract not asked for the page: it failed moments ago (%s)", down)
            return _unread(f"Textract was not asked for pages for {OUTAGE_SECONDS:.0f} s "
                           f"after it failed: {down}")
        max_side = int(options["max_image_side"])
        # A page no taller than it is wide is shrunk to fit whole: cut into bands, each
        # would be shrunk by its width nearly as much, for more requests.
        rows = (band_rows(image, max_side) if image.height > image.width
                else [(0, image.height)])
        readings: list[tuple[str, float]] = []
        try:
            # a service that stalls or throttles forever costs at most the document's time
            time_left = seconds_left(config)
            deadline = time.monotonic() + time_left
            client = make_client("textract", options, time_left=time_left)
            for top, bottom in rows:
                readings.append(self._read_band(client, image, (top, bottom), options,
                                                deadline))
        except (GoblinError, *_SERVICE_ERRORS) as exc:
            _log_failure(self.outages.record(key, exc), "the page", exc)
            if not readings:
                return _unread(f"Textract could not read a page: {exc}")
            # the bands read keep their text; the page says what it lacks
            return OCRResult("\n".join(text for text, _ in readings if text),
                             confidence_by_length(readings),
                             (("EngineFailed", f"Textract read {len(readings)} of the "
                               f"{len(rows)} bands a {image.width}x{image.height} page image "
                               f"was cut in, then failed: {exc}"),))
        if len(readings) == 1:
            return OCRResult(*readings[0])
        return OCRResult("\n".join(text for text, _ in readings if text),
                         confidence_by_length(readings))

    @staticmethod
    def _read_band(client: Any, image: Any, rows: tuple[int, int], options: Any,
                   deadline: float) -> tuple[str, float]:
        """The text and confidence of rows ``rows`` of the page (the whole page when they
        cover it): a page taller than ``max_image_side`` is sent in bands cut between its
        lines (goblin_core.page_bands), each at full size, not shrunk until its text is
        too small to read."""
        top, bottom = rows
        band = image if (top, bottom) == (0, image.height) else \
            image.crop((0, top, image.width, bottom))
        try:
            data = encode_page(band, int(options["max_image_bytes"]),
                               int(options["max_image_side"]))
        finally:
            if band is not image:
                band.close()
        answer = with_retries(client.detect_document_text, options, deadline=deadline,
                              Document={"Bytes": data})
        pages = pages_from_blocks(answer.get("Blocks", []))
        if not pages:
            return "", 0.0
        texts = [r.text for r in pages.values()]
        return "\n".join(texts), min(r.confidence for r in pages.values())

    def recognize_document(
        self, source: Source, page_numbers: Sequence[int], languages: str, config: Config
    ) -> dict[int, OCRResult]:
        """The pages of a whole PDF read by one asynchronous job (needs ``textract.s3_bucket``).

        Returns {} when no bucket is configured, fewer than
        ``textract.async_min_pages`` pages are wanted, the source is not a
        PDF, only part of it is being read, or a job cannot read it (encrypted,
        more than 3,000 pages), so callers fall back to page images. Failures
        are logged, not raised.
        """
        options = config.section("textract")
        if not options["s3_bucket"] or len(page_numbers) < int(options["async_min_pages"]):
            return {}
        if b"%PDF-" not in source.head(1024):
            return {}
        part = (_read_in_part(config) or _too_many_pages(page_numbers)
                or ("it is encrypted, and Textract reads no encrypted PDF"
                    if encrypted(source) else ""))
        if part:
            # a job would read, and AWS bill, every page of the PDF, or fail after the upload
            log.info("%s goes to Textract as page images, not as a whole: %s",
                     source.display_name, part)
            return {}
        # S3 may fail where page images would not: a job's failures are its own
        key = service_key(options, "s3", str(options["s3_endpoint_url"]),
                          str(options["s3_bucket"]))
        down = self.outages.current(key)
        if down:
            log.debug("Textract not asked to read %s: it failed moments ago (%s)",
                        source.display_name, down)
            return {}
        try:
            pages = detect_document(source, config)
        except (GoblinError, *_SERVICE_ERRORS) as exc:
            _log_failure(self.outages.record(key, exc), f"{source.display_name} as a whole", exc)
            return {}
        wanted = set(page_numbers)
        return {n: r for n, r in pages.items() if n in wanted}


def _read_in_part(config: Config) -> str:
    """Why only some pages of the document are read (one range of a document split over
    workers, a page limit asked for), or "" when all may be. A job would read each of
    the ranges' workers the whole PDF, and bill every page each time; page images cost
    the same a page, for the pages read only."""
    page_range = str(config.core.get("page_range", "") or "")
    if page_range:
        return f"only pages {page_range} are read here (goblin.page_range)"
    most = int(config.core.get("max_pages", 0) or 0)
    if most > 0:
        return f"at most {most} pages are read (goblin.max_pages)"
    return ""


def _too_many_pages(page_numbers: Sequence[int]) -> str:
    """Why a job cannot read the PDF, going by the pages asked for, or "": Textract reads
    no PDF of more than ``MAX_DOCUMENT_PAGES`` pages, and its job would fail after the
    upload."""
    last = max(page_numbers, default=0)
    if last > MAX_DOCUMENT_PAGES:
        return (f"it has {last:,} pages or more, and Textract reads at most "
                f"{MAX_DOCUMENT_PAGES:,} of a document")
    return ""


def _unread(why: str) -> OCRResult:
    """The empty result of a page Textract did not read, saying why in the document's
    report: a page left blank by a failed request would otherwise pass for a blank page."""
    return OCRResult("", 0.0, (("EngineFailed", why),))


def _log_failure(outage: bool, what: str, error: BaseException) -> None:
    """A failure that makes Textract unusable for a while is an error (the one line the
    command line prints without -v: pages quietly left to other backends, or to none,
    would hide a down endpoint or expired credentials); any other, a warning."""
    if outage:
        log.error("Textract could not read %s and is not asked again for %.0f s: %s", what,
                  OUTAGE_SECONDS, error)
    else:
        log.warning("Textract could not read %s: %s", what, error)


def _configured_profile() -> str:
    """textract.profile from the config file goblin reads ($GOBLIN_CONFIG), else ''."""
    try:
        data = load_config_data(None)
    except ConfigError as exc:
        log.debug("config file unreadable while checking Textract credentials: %s", exc)
        return ""
    section = data.get("textract")
    return str(section.get("profile", "")) if isinstance(section, dict) else ""
