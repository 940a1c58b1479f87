"""A PDF read only in part (one range of a document split over workers, a page limit) is
never sent whole to an asynchronous job, which would read and bill every page of it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from test_textract import BUCKET, START, config, line

from goblin_core import Source
from goblin_ocr_textract.backend import TextractBackend

if TYPE_CHECKING:
    from conftest import ThrottlingProxy


@pytest.mark.parametrize("part", [{"page_range": "101-200"}, {"max_pages": 20}],
                         ids=["page-range", "max-pages"])
def test_a_pdf_read_in_part_goes_as_page_images(
    aws: Path, proxy: ThrottlingProxy, canned: Callable[..., None], part: dict[str, Any]
) -> None:
    canned([line("page", 1)])
    settings = config(proxy, s3_bucket=BUCKET, async_min_pages=2).with_options(**part)
    source = Source.from_bytes(b"%PDF-1.7\n% a long scan\n", "long.pdf")
    assert TextractBackend().recognize_document(source, [101, 102, 103], "eng", settings) == {}
    assert proxy.seen[START] == 0 and proxy.seen["S3.PUT"] == 0
