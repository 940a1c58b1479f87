"""goblin_core.time_left: what an engine's one long call has left of limits.timeout."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from goblin_core import OCRResult, extract, time_left
from goblin_core.engines import BaseEngine

from scripted_engines import TEST_BYTES, FakeImage, ScriptedParser, registry_with, scan_page


@dataclass
class _ClockedOCR(BaseEngine):
    """An OCR backend that notes what each call has left, and takes ``seconds`` a page."""

    name: str = "tests.clocked"
    seconds: float = 0.0
    formats: tuple[str, ...] = ("*",)
    left: list[float | None] = field(default_factory=list)

    def recognize(self, image: Any, languages: str, config: Any) -> OCRResult:
        self.left.append(time_left())
        time.sleep(self.seconds)
        return OCRResult(f"page {image.page} read" if isinstance(image, FakeImage) else "", 0.9)


def test_no_limit_applies_outside_an_extraction() -> None:
    assert time_left() is None


def test_an_engine_sees_the_documents_time_count_down() -> None:
    ocr = _ClockedOCR(seconds=0.05)
    parser = ScriptedParser("tests.parser", [scan_page(n) for n in (1, 2, 3)], renders=True)
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, ocr),
                       ocr="always", timeout=30)
    assert [p.text for p in document.pages] == [f"page {n} read" for n in (1, 2, 3)]
    left = [value for value in ocr.left if value is not None]
    assert len(left) == 3
    assert 29 < left[0] <= 30
    assert left[0] > left[1] > left[2] >= left[0] - 1
    assert time_left() is None  # the extraction's limit ends with it


def test_time_left_is_the_documents_not_the_calls() -> None:
    # each page's OCR starts with less time: past the limit it is zero, never negative
    ocr = _ClockedOCR(seconds=0.2)
    parser = ScriptedParser("tests.parser", [scan_page(n) for n in range(1, 6)], renders=True)
    extract(TEST_BYTES, name="a.test", registry=registry_with(parser, ocr), ocr="always",
            timeout=0.3)
    assert ocr.left and all(value is not None and 0 <= value <= 0.3 for value in ocr.left)
    assert len(ocr.left) < 5
