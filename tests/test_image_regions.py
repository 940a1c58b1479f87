"""Images of text on pages of text: auto OCR reads the regions a parser names, alone, and
puts what reads as text where the image stands; the page keeps its engine and status."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from goblin_core import ImageRegion, OCRResult, PageContent, extract
from goblin_core.engines import BaseEngine
from goblin_core.image_regions import crop, insert_texts, region_text

from scripted_engines import TEST_BYTES, ScriptedParser, registry_with

BODY = "Section 1: Introduction\nHere is some introductory text.\nSection 2: Details\n"
MIDDLE = ImageRegion((0.1, 0.3, 0.7, 0.4), before="Section 2: Details")
FOOT = ImageRegion((0.2, 0.8, 0.8, 0.9))


@dataclass
class PageImage:
    """A rendered page of 1000 x 1000 pixels; a crop remembers where it was cut."""

    box: tuple[int, int, int, int] = (0, 0, 1000, 1000)

    @property
    def size(self) -> tuple[int, int]:
        return self.box[2] - self.box[0], self.box[3] - self.box[1]

    def crop(self, box: tuple[int, int, int, int]) -> PageImage:
        return PageImage(box)

    def close(self) -> None:
        pass


class RenderingParser(ScriptedParser):
    """A scripted parser whose documents render every page as a PageImage."""

    def open(self, source: Any, config: Any) -> Any:
        document = super().open(source, config)
        document.render = lambda page, dpi: PageImage()  # type: ignore[method-assign]
        return document


@dataclass
class BoxOCR(BaseEngine):
    """Reads scripted text by the pixel box of the image it is given."""

    texts: dict[tuple[int, int, int, int], tuple[str, float]]
    name: str = "tests.box_ocr"
    formats: tuple[str, ...] = ("*",)
    calls: list[tuple[int, int, int, int]] = field(default_factory=list)

    def recognize(self, image: Any, languages: str, config: Any) -> OCRResult:
        self.calls.append(image.box)
        text, confidence = self.texts.get(image.box, ("", 0.0))
        return OCRResult(text, confidence)


def _page(*regions: ImageRegion) -> PageContent:
    return PageContent(1, text=BODY, glyphs=len(BODY), images=len(regions),
                       image_regions=regions)


def _extract(backend: BoxOCR, *regions: ImageRegion, **options: Any) -> Any:
    registry = registry_with(RenderingParser("tests.parser", [_page(*regions)]), backend)
    return extract(TEST_BYTES, name="page.test", registry=registry, **options)


def test_a_region_of_text_goes_in_where_the_image_stands() -> None:
    ocr = BoxOCR({(100, 300, 700, 400): ("MIDDLE: Product Code: ABC-12345", 0.92),
                  (200, 800, 800, 900): ("Stamped: approved", 0.88)})
    document = _extract(ocr, MIDDLE, FOOT)
    page = document.pages[0]
    assert page.text == ("Section 1: Introduction\nHere is some introductory text.\n\n"
                         "MIDDLE: Product Code: ABC-12345\n\nSection 2: Details\n\n"
                         "Stamped: approved")
    # the page is still the parser's clean page; the OCR is in its attempts and parsed_by
    assert (page.engine, page.status) == ("tests.parser", "clean")
    read = [a for a in page.attempts if a.engine == "tests.box_ocr"]
    assert len(read) == 2 and all("image" in " ".join(a.reasons) for a in read)
    assert "tests.box_ocr" in document.parsed_by
    assert sorted(ocr.calls) == [(100, 300, 700, 400), (200, 800, 800, 900)]


def test_the_lines_of_a_region_the_text_layer_already_holds_are_not_read_twice() -> None:
    """A scan whose invisible OCR layer covers its first lines only: the image reads them
    again, and only the lines the layer lacks go into the page."""
    ocr = BoxOCR({(100, 300, 700, 400): ("Section 1: introduction\nHere is some introductory"
                                         " text.\nA line only the image has", 0.9),
                  (200, 800, 800, 900): ("SECTION 2 - DETAILS", 0.9)})
    page = _extract(ocr, MIDDLE, FOOT).pages[0]
    assert page.text == ("Section 1: Introduction\nHere is some introductory text.\n\n"
                         "A line only the image has\n\nSection 2: Details\n")
    reasons = [" ".join(a.reasons) for a in page.attempts if a.engine == "tests.box_ocr"]
    assert any("the page's own text already" in reason for reason in reasons)


@pytest.mark.parametrize(("text", "confidence"), [
    ("ii ;; ~~", 0.95),            # no word: a picture's noise
    ("Lorem ipsum dolor", 0.41),   # too unsure
    ("   ", 0.9),                  # nothing
])
def test_what_does_not_read_as_text_is_left_out(text: str, confidence: float) -> None:
    ocr = BoxOCR({(100, 300, 700, 400): (text, confidence)})
    page = _extract(ocr, MIDDLE).pages[0]
    assert page.text == BODY
    assert ocr.calls == [(100, 300, 700, 400)]


@pytest.mark.parametrize("options", [{"ocr": "never"}, {"ocr_image_regions": False},
                                     {"ocr": "always"}])
def test_regions_are_read_only_by_auto_ocr_when_asked(options: dict[str, Any]) -> None:
    ocr = BoxOCR({(100, 300, 700, 400): ("MIDDLE: Product Code", 0.9),
                  (0, 0, 1000, 1000): ("Whole page OCR", 0.9)})
    page = _extract(ocr, MIDDLE, **options).pages[0]
    assert (100, 300, 700, 400) not in ocr.calls
    assert "MIDDLE" not in page.text


def test_without_an_ocr_backend_the_page_keeps_its_text_quietly() -> None:
    registry = registry_with(RenderingParser("tests.parser", [_page(MIDDLE)]))
    document = extract(TEST_BYTES, name="page.test", registry=registry)
    assert document.pages[0].text == BODY and document.pages[0].status == "clean"
    assert not document.report.warnings


def test_a_region_cut_to_a_sliver_is_not_read() -> None:
    assert crop(PageImage(), ImageRegion((0.5, 0.5, 0.501, 0.9))) is None
    assert crop(PageImage(), MIDDLE) == PageImage((100, 300, 700, 400))


def test_texts_go_before_the_line_named_in_order_else_at_the_end() -> None:
    # two images stacked over one line both go before it, in order
    text = "A first\nB second\nA first again\n"
    assert insert_texts(text, [("A first", "one"), ("A first", "two"), ("Z", "three")]) == (
        "one\n\ntwo\n\nA first\nB second\nA first again\n\nthree")
    assert insert_texts(text, [("B second", "one"), ("A first", "two")]) == (
        "A first\n\none\n\nB second\n\ntwo\n\nA first again\n")
    # the line below may have lost or gained spaces in the page's text
    assert insert_texts("x\nSection   2:\tDetails", [("Section 2: Details", "img")]) == (
        "x\n\nimg\n\nSection   2:\tDetails")
    assert insert_texts("", [("", "only")]) == "only"


def test_noise_and_text_told_apart() -> None:
    assert region_text("Product Code ABC", 0.8) == "Product Code ABC"
    assert region_text("Product Code ABC", 0.5) == ""
    assert region_text("| 1 2 ~ ;", 0.99) == ""
    # a banner's title kept, the marks its emblem read as dropped
    assert region_text("DIARIO OFICIAL\n\nf\n[0/2  7  o\n\nMUNICIPIO DE X  SP", 0.9) == (
        "DIARIO OFICIAL\n\nMUNICIPIO DE X  SP")
