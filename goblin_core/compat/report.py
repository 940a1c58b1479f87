"""GoblinTools' ExtractionReport, built from a goblin Document.

Vocabulary: a goblin page that is ``clean`` or ``empty`` (a blank page is not
corrupt) is GoblinTools' ``clean``; ``recovered`` and ``ocr`` are
``recovered``; ``corrupt`` and ``failed`` are ``corrupt_unrecoverable``.
Engines take GoblinTools' names: the primary text engine is ``pypdf``,
pdfplumber ``pdfplumber``, poppler ``poppler``, any OCR backend ``ocr``.
Page indexes are 0-based, as in GoblinTools.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from goblin_core.model import Document, Page
    from goblin_core.registry import Registry

CLEAN = "clean"
RECOVERED = "recovered"
CORRUPT_UNRECOVERABLE = "corrupt_unrecoverable"
OVERALL_CLEAN = "clean"
OVERALL_PARTIALLY_RECOVERED = "partially_recovered"
OVERALL_CORRUPT_UNRECOVERABLE = "corrupt_unrecoverable"

PAGE_STATUS = {
    "clean": CLEAN,
    "empty": CLEAN,
    "recovered": RECOVERED,
    "ocr": RECOVERED,
    "corrupt": CORRUPT_UNRECOVERABLE,
    "failed": CORRUPT_UNRECOVERABLE,
}

#: Overall status severity, worst last.
SEVERITY = {
    OVERALL_CLEAN: 0,
    OVERALL_PARTIALLY_RECOVERED: 1,
    OVERALL_CORRUPT_UNRECOVERABLE: 2,
}


@dataclass
class PageExtraction:
    """How one page's text was obtained: 0-based ``index``, ``status`` and ``engine``.

    ``goblin_status`` and ``confidence`` keep goblin's finer answer (``empty``,
    ``ocr``, the trust score in [0, 1]).
    """

    index: int
    status: str = CLEAN
    engine: str = "pypdf"
    broken_before: bool = False
    short_token_ratio: float = 0.0
    # Keyword-only extras: PageExtraction(**dataclasses.asdict(page)) rebuilds a page.
    goblin_status: str = field(default="", compare=False, kw_only=True)
    confidence: float = field(default=1.0, compare=False, kw_only=True)


@dataclass
class ExtractionReport:
    """Per-page provenance of one document and its overall trust.

    Besides GoblinTools' fields, ``errors`` lists what went wrong (never only
    logged) and ``document`` is the goblin Document it was built from.
    """

    path: str
    pages: list[PageExtraction] = field(default_factory=list)
    overall_status: str = OVERALL_CLEAN
    used_ocr: bool = False
    errors: list[str] = field(default_factory=list, compare=False, kw_only=True)

    # Not a dataclass field: dataclasses.asdict(report), which GoblinTools
    # users serialise reports with, must not copy a whole Document into it.
    @property
    def document(self) -> Any:
        """The goblin Document this report was built from (None for a failure)."""
        return self.__dict__.get("_document")

    @document.setter
    def document(self, value: Any) -> None:
        self.__dict__["_document"] = value

    @property
    def is_clean(self) -> bool:
        return self.overall_status == OVERALL_CLEAN

    def recompute_overall(self) -> None:
        """Derive ``overall_status`` and ``used_ocr`` from the pages."""
        statuses = {p.status for p in self.pages}
        if any(p.engine == "ocr" for p in self.pages):
            self.used_ocr = True
        # GoblinTools' rules, a status it does not know counting as clean; a
        # report without pages is corrupt only when it holds an error.
        if not statuses:
            self.overall_status = OVERALL_CORRUPT_UNRECOVERABLE if self.errors else OVERALL_CLEAN
        elif CORRUPT_UNRECOVERABLE in statuses:
            self.overall_status = (OVERALL_PARTIALLY_RECOVERED
                                   if statuses & {CLEAN, RECOVERED}
                                   else OVERALL_CORRUPT_UNRECOVERABLE)
        elif RECOVERED in statuses:
            self.overall_status = OVERALL_PARTIALLY_RECOVERED
        else:
            self.overall_status = OVERALL_CLEAN

    def demote_to_clean_if_fully_ocr_recovered(self) -> bool:
        """Call a scan that OCR read end to end ``clean`` (``used_ocr`` stays True).

        True when the status changed: every non-clean page was recovered by OCR.
        """
        if self.overall_status == OVERALL_CLEAN:
            return False
        non_clean = [p for p in self.pages if p.status != CLEAN]
        if not non_clean:
            return False
        if all(p.status == RECOVERED and p.engine == "ocr" for p in non_clean):
            self.overall_status = OVERALL_CLEAN
            return True
        return False


def engine_name(page: Page, primary: str, registry: Registry | None) -> str:
    """GoblinTools' name for the engine that produced a page."""
    engine = page.engine
    if not engine:
        return ""
    entry = registry.get(engine) if registry is not None else None
    if page.status == "ocr" or (entry is not None and entry.kind == "ocr"):
        return "ocr"
    if "pdfplumber" in engine:
        return "pdfplumber"
    if "poppler" in engine or "pdftotext" in engine:
        return "poppler"
    if engine == primary or page.status == "clean":
        return "pypdf"
    return engine.rsplit(".", 1)[-1]


def page_extraction(page: Page, primary: str, registry: Registry | None) -> PageExtraction:
    """One goblin Page as a GoblinTools PageExtraction.

    A corrupt_unrecoverable page has engine "", as in GoblinTools: no engine
    gave text to trust (goblin's own engine stays on ``report.document``).
    """
    status = PAGE_STATUS.get(page.status, CORRUPT_UNRECOVERABLE)
    result = PageExtraction(
        index=page.number - 1,
        status=status,
        engine="" if status == CORRUPT_UNRECOVERABLE else engine_name(page, primary, registry),
        broken_before=page.status in ("recovered", "ocr")
        or any(a.verdict == "garbage" for a in page.attempts),
    )
    result.goblin_status = page.status
    result.confidence = page.confidence
    return result


#: image/* types that are paged documents with text of their own, not pictures for OCR.
_DOCUMENT_IMAGES = frozenset({"image/vnd.djvu"})


def is_picture(mime: str) -> bool:
    """Whether a type is an image GoblinTools reads only through OCR: DjVu, whose
    pages carry a text layer, is a document.

    >>> is_picture("image/png"), is_picture("image/vnd.djvu")
    (True, False)
    """
    return mime.startswith("image/") and mime not in _DOCUMENT_IMAGES


#: Warnings of goblin's that mean text is missing for a reason of the installation (an
#: OCR backend or its language data missing): GoblinTools logged such a failure, so the
#: facade logs it and keeps it in the report's errors.
MISSING_ENGINE_WARNINGS = frozenset({"EngineUnavailable"})


def missing_engines(document: Document) -> list[str]:
    """What goblin's report says an engine the document needed could not run."""
    return [w.message for w in document.report.warnings if w.kind in MISSING_ENGINE_WARNINGS]


def report_from_document(
    document: Document, path: str, registry: Registry | None = None
) -> ExtractionReport:
    """A GoblinTools ExtractionReport for one goblin Document (its own pages only)."""
    primary = document.parsed_by[0] if document.parsed_by else ""
    report = ExtractionReport(path=path)
    report.pages = [page_extraction(p, primary, registry) for p in document.pages]
    if is_picture(document.mime):
        # OCR is the only way to read an image: every frame is OCR's, even one it
        # could not read, and a frame it read is clean, not recovered.
        for page in report.pages:
            page.engine = "ocr"
            if page.goblin_status == "ocr":
                page.status = CLEAN
    report.errors = [e.message for e in document.report.errors] + missing_engines(document)
    report.document = document
    report.recompute_overall()
    # As GoblinTools 0.10.2+: a scan OCR read end to end is clean (used_ocr says how).
    report.demote_to_clean_if_fully_ocr_recovered()
    return report


def image_not_read_report(path: str) -> ExtractionReport:
    """The report of an image left unread because image OCR is off: one unread frame."""
    report = ExtractionReport(path=path, pages=[
        PageExtraction(index=0, status=CORRUPT_UNRECOVERABLE, engine="")
    ])
    report.errors = ["image not read: OCR of images is off "
                     "(TextExtractor(ocr_handler=True, ocr_images=True) reads it)"]
    report.recompute_overall()
    return report


def failure_report(path: str, message: str) -> ExtractionReport:
    """The report of a file that could not be read at all."""
    report = ExtractionReport(path=path, overall_status=OVERALL_CORRUPT_UNRECOVERABLE)
    report.errors = [message]
    return report


def worst_status(reports: list[ExtractionReport]) -> str:
    """The most severe overall status among reports (clean when there are none)."""
    worst = OVERALL_CLEAN
    for report in reports:
        if SEVERITY.get(report.overall_status, 0) > SEVERITY[worst]:
            worst = report.overall_status
    return worst
