"""ExtractionReport from goblin Documents: GoblinTools' vocabulary, 0-based pages,
blank pages clean, errors kept."""

from __future__ import annotations

import pytest

from goblin_core import default_registry
from goblin_core.compat import ExtractionReport, PageExtraction
from goblin_core.compat.report import report_from_document, worst_status
from goblin_core.model import Attempt, Document, Page, Report, ReportEntry


def page(number: int, status: str, engine: str, text: str = "texto") -> Page:
    return Page(number=number, text=text, engine=engine, status=status,  # type: ignore[arg-type]
                confidence=0.9, attempts=(Attempt(engine, verdict="ok"),))


def document(*pages: Page, errors: tuple[ReportEntry, ...] = ()) -> Document:
    return Document(name="edital.pdf", mime="application/pdf", pages=pages,
                    parsed_by=("pdf.pypdfium2", "pdf.pdfplumber"), report=Report(errors=errors))


def test_statuses_and_engines_take_goblintools_names() -> None:
    doc = document(
        page(1, "clean", "pdf.pypdfium2"),
        page(2, "empty", "pdf.pypdfium2", text=""),
        page(3, "recovered", "pdf.pdfplumber"),
        page(4, "recovered", "pdf.poppler"),
        page(5, "ocr", "ocr.tesseract"),
        page(6, "corrupt", "pdf.pypdfium2"),
        page(7, "failed", ""),
    )
    report = report_from_document(doc, "edital.pdf", default_registry())
    assert [(p.index, p.status, p.engine) for p in report.pages] == [
        (0, "clean", "pypdf"),
        (1, "clean", "pypdf"),
        (2, "recovered", "pdfplumber"),
        (3, "recovered", "poppler"),
        (4, "recovered", "ocr"),
        (5, "corrupt_unrecoverable", ""),
        (6, "corrupt_unrecoverable", ""),
    ]
    assert report.pages[1].goblin_status == "empty"
    assert report.overall_status == "partially_recovered"
    assert report.used_ocr
    assert report.document is doc


def test_a_blank_page_is_not_corrupt() -> None:
    doc = document(page(1, "clean", "pdf.pypdfium2"), page(2, "empty", "pdf.pypdfium2", ""))
    report = report_from_document(doc, "x.pdf")
    assert report.overall_status == "clean" and report.is_clean


def test_a_scan_read_by_ocr_end_to_end_is_clean() -> None:
    doc = document(page(1, "ocr", "ocr.tesseract"), page(2, "ocr", "ocr.textract"))
    report = report_from_document(doc, "scan.pdf", default_registry())
    assert report.overall_status == "clean"
    assert report.used_ocr


def test_nothing_readable_is_corrupt_unrecoverable_with_its_errors() -> None:
    error = ReportEntry("CorruptDocument", "edital.pdf: page tree is damaged")
    doc = document(page(1, "corrupt", "pdf.pypdfium2"), errors=(error,))
    report = report_from_document(doc, "edital.pdf")
    assert report.overall_status == "corrupt_unrecoverable"
    assert report.errors == ["edital.pdf: page tree is damaged"]


@pytest.mark.parametrize(("statuses", "overall"), [
    ((), "clean"),
    (("clean", "clean"), "clean"),
    (("clean", "recovered"), "partially_recovered"),
    (("corrupt_unrecoverable", "recovered"), "partially_recovered"),
    (("corrupt_unrecoverable",), "corrupt_unrecoverable"),
])
def test_recompute_overall(statuses: tuple[str, ...], overall: str) -> None:
    report = ExtractionReport("a.pdf", [PageExtraction(i, s, "pdfplumber")
                                        for i, s in enumerate(statuses)])
    report.recompute_overall()
    assert report.overall_status == overall
    assert not report.used_ocr


def test_worst_status() -> None:
    reports = [ExtractionReport("a", overall_status="clean"),
               ExtractionReport("b", overall_status="partially_recovered")]
    assert worst_status(reports) == "partially_recovered"
    assert worst_status([]) == "clean"


def test_an_image_frame_read_by_ocr_is_clean() -> None:
    # OCR is how an image is read: its frame is clean, not recovered.
    image = Document(name="scan.png", mime="image/png",
                     pages=(page(1, "ocr", "ocr.tesseract"),), parsed_by=("image",))
    report = report_from_document(image, "scan.png", default_registry())
    assert [(p.index, p.status, p.engine) for p in report.pages] == [(0, "clean", "ocr")]
    assert report.overall_status == "clean" and report.used_ocr


def test_an_image_frame_ocr_could_not_read_is_still_ocrs() -> None:
    unread = Page(number=1, text="", engine="image", status="corrupt", confidence=0.0)
    image = Document(name="branco.png", mime="image/png", pages=(unread,), parsed_by=("image",))
    report = report_from_document(image, "branco.png", default_registry())
    assert [(p.index, p.status, p.engine) for p in report.pages] == [
        (0, "corrupt_unrecoverable", "ocr")]
    assert report.overall_status == "corrupt_unrecoverable" and report.used_ocr


def test_asdict_holds_the_report_not_the_document() -> None:
    import dataclasses
    import json

    doc = document(page(1, "clean", "pdf.pypdfium2"))
    report = report_from_document(doc, "edital.pdf")
    assert report.document is doc
    data = dataclasses.asdict(report)
    assert set(data) == {"path", "pages", "overall_status", "used_ocr", "errors"}
    assert json.loads(json.dumps(data))["pages"][0]["status"] == "clean"
    assert ExtractionReport("a.pdf").document is None


def test_a_report_rebuilds_from_its_asdict() -> None:
    # GoblinTools users store reports as JSON and rebuild them with the constructors.
    import dataclasses

    doc = document(page(1, "clean", "pdf.pypdfium2"), page(2, "recovered", "pdf.pdfplumber"))
    report = report_from_document(doc, "edital.pdf", default_registry())
    data = dataclasses.asdict(report)
    pages = [PageExtraction(**p) for p in data.pop("pages")]
    rebuilt = ExtractionReport(**data, pages=pages)
    assert rebuilt == report
    assert rebuilt.pages[1].goblin_status == "recovered" and rebuilt.errors == report.errors
