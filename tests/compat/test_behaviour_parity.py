"""goblin_core.compat behaves as GoblinTools 0.13.4 where a caller's code would notice:
what a call returns or raises on odd input, the order of a folder's text, the config
object an extractor keeps, report statuses and the log levels of its messages.

The first tests pin GoblinTools' behaviour on the facade alone. The last ones run
the same calls on goblintools and on the facade and compare the answers; like
test_signatures, they skip without goblintools on a developer's machine and FAIL
under CI (the ``compat`` nox session installs it).
"""

from __future__ import annotations

import logging
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import goblin_core.compat as compat
from goblin_core import hookimpl, load_registry
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.model import PageContent
from goblin_core.registry import Registry

UNKNOWN_BYTES = bytes(range(256)) * 4  # no sniffer claims it, no parser reads it


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


@pytest.fixture
def warnings_shown() -> Iterator[None]:
    """Warnings on, and back on after the test, whatever it configured."""
    compat.configure(suppress_warnings=False)
    yield
    compat.configure(suppress_warnings=False)


# -- the facade alone ---------------------------------------------------------------


@pytest.mark.parametrize("display_path", [Path("edital") / "nota.txt", 7])
def test_display_path_of_any_type_goes_into_the_tag(tmp_path: Path, display_path: Any) -> None:
    # GoblinTools formats display_path into the tag; a Path used to raise AttributeError.
    path = write(tmp_path / "nota.txt", "Valor global")
    text = compat.TextExtractor().extract_from_file(str(path), display_path=display_path)
    assert text == f'file_path_pwd:"{display_path}"\nValor global'


def test_the_extractor_keeps_the_callers_config_object(tmp_path: Path) -> None:
    config = compat.GoblinConfig()
    extractor = compat.TextExtractor(config=config)
    assert extractor.config is config
    # A change made afterwards reaches the extractor, as in GoblinTools.
    write(tmp_path / "grande.txt", "x" * 500)
    config.max_file_size = 100
    assert extractor.extract_from_folder(str(tmp_path)) == ""


def test_aws_arguments_still_leave_the_callers_config_alone() -> None:
    config = compat.GoblinConfig(ocr=compat.OCRConfig(tesseract_lang="eng"))
    extractor = compat.TextExtractor(use_aws=True, aws_access_key="k", aws_secret_key="s",
                                     config=config)
    assert extractor.config is not config and config.ocr.use_aws is False
    assert extractor.config.ocr.use_aws is True
    assert extractor.config.archive_limits is config.archive_limits


def test_a_folders_files_come_before_its_subfolders(tmp_path: Path) -> None:
    # GoblinTools walks top-down: a folder's files (sorted), then each subfolder.
    for name in ("z.txt", "a/b.txt", "a/c/d.txt", "a/e.txt", "b.txt"):
        write(tmp_path / name, f"texto de {name}")
    extractor = compat.TextExtractor()
    text = extractor.extract_from_folder(str(tmp_path))
    tags = [line for line in text.splitlines() if line.startswith("file_path_pwd:")]
    assert tags == [f'file_path_pwd:"{n}"' for n in
                    ("b.txt", "z.txt", "a/b.txt", "a/e.txt", "a/c/d.txt")]


@pytest.mark.parametrize(("call", "expected"), [
    (lambda: compat.OCRProcessor(compat.OCRConfig()).extract_text_from_image(None), ""),
    (lambda: compat.OCRProcessor(compat.OCRConfig()).extract_text_from_pdf(None), ""),
    (lambda: compat.OCRProcessor(compat.OCRConfig()).extract_text_from_pdf_by_pages(None), []),
    (lambda: compat.OCRProcessor(compat.OCRConfig()).extract_text_from_pdf_page_indices(
        None, [0]), {}),
    (lambda: compat.extract_pdf_tables(None), []),
    (lambda: compat.TextExtractor().extract_tables_from_pdf(None), []),
    (lambda: compat.TextExtractor().pdf_needs_ocr(None), True),
    (lambda: compat.is_meaningful_table(None), False),
    (lambda: compat.FileManager.delete_if_empty(None), False),
    (lambda: compat.FileManager.delete_folder(None), False),
], ids=["ocr_image", "ocr_pdf", "ocr_pdf_pages", "ocr_page_indices", "pdf_tables",
        "tables_from_pdf", "pdf_needs_ocr", "meaningful_table", "delete_if_empty",
        "delete_folder"])
def test_bad_input_gets_goblintools_answer_not_an_exception(
    call: Callable[[], Any], expected: Any, caplog: pytest.LogCaptureFixture
) -> None:
    # GoblinTools catches and logs these; code written for it has no except clause.
    with caplog.at_level(logging.ERROR):
        assert call() == expected


def test_an_image_that_cannot_be_encoded_gives_no_text(caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        def save(self, *args: Any, **kwargs: Any) -> None:
            raise OSError("cannot write this image")

    with caplog.at_level(logging.ERROR):
        assert compat.OCRProcessor(compat.OCRConfig()).extract_text_from_image(Broken()) == ""
    assert "cannot write this image" in caplog.text


@pytest.mark.parametrize(("statuses", "overall"), [
    (("clean", "reviewed"), "clean"),
    (("reviewed",), "clean"),
    (("corrupt_unrecoverable", "reviewed"), "corrupt_unrecoverable"),
    (("corrupt_unrecoverable", "clean"), "partially_recovered"),
    (("recovered", "reviewed"), "partially_recovered"),
])
def test_recompute_overall_follows_goblintools_rules(statuses: tuple[str, ...],
                                                     overall: str) -> None:
    # A status GoblinTools does not know (a caller's own) counts as clean.
    report = compat.ExtractionReport("a.pdf", [compat.PageExtraction(i, s, "pypdf")
                                               for i, s in enumerate(statuses)])
    report.recompute_overall()
    assert report.overall_status == overall


def test_an_unsupported_file_is_a_warning_that_configure_hides(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, warnings_shown: None
) -> None:
    # GoblinTools: "No parser available for file extension" is a warning, hidden by
    # configure(suppress_warnings=True); it used to be an error nothing could hide.
    path = write(tmp_path / "desenho.xyz", UNKNOWN_BYTES)
    extractor = compat.TextExtractor()
    with caplog.at_level(logging.DEBUG):
        assert extractor.extract_from_file(str(path)) == ""
        assert compat.extract_from_bytes(UNKNOWN_BYTES, "desenho.xyz").text == ""
    levels = [r.levelno for r in caplog.records if "desenho.xyz" in r.getMessage()]
    assert levels and max(levels) == logging.WARNING
    caplog.clear()
    compat.configure(suppress_warnings=True)
    with caplog.at_level(logging.DEBUG):
        assert extractor.extract_from_file(str(path)) == ""
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    # The report still says why.
    report = extractor.last_extraction_report
    assert report is not None and report.overall_status == "corrupt_unrecoverable"


def test_a_format_a_missing_plugin_reads_stays_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, warnings_shown: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Without the plugin GoblinTools' own format (a PDF) gives no text: say so loudly.
    core_only = load_registry(load=[])  # goblin-core alone, whatever else is installed
    monkeypatch.setattr("goblin_core.compat.extractor.default_registry", lambda: core_only)
    path = write(tmp_path / "edital.pdf", b"%PDF-1.4\n%%EOF\n")
    compat.configure(suppress_warnings=True)
    with caplog.at_level(logging.DEBUG):
        assert compat.TextExtractor().extract_from_file(str(path)) == ""
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert errors and "goblin-core[pdf]" in errors[0].getMessage()


class _ScanParser(BaseEngine):
    """A PDF 'parser' whose one page draws an image and holds no text: a scan."""

    name = "tests.scan-pdf"
    formats = ("application/pdf",)
    priority = 10_000

    def open(self, source: Any, config: Any) -> TextDocument:
        return TextDocument([PageContent(number=1, text="", glyphs=0, images=1)])


class _ScanPlugin:
    @hookimpl
    def goblin_register_parsers(self, register: Callable[[Any], None]) -> None:
        register(_ScanParser())


@pytest.fixture
def scan_registry(monkeypatch: pytest.MonkeyPatch) -> Registry:
    registry = load_registry(extra_plugins=[("tests-scan", _ScanPlugin())])
    monkeypatch.setattr("goblin_core.compat.extractor.default_registry", lambda: registry)
    return registry


def test_a_pdf_that_needs_ocr_is_warned_about(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, warnings_shown: None,
    scan_registry: Registry,
) -> None:
    # GoblinTools warns "requires OCR but no handler was provided" and
    # "text-layer confidence 'corrupt_unrecoverable'"; goblin stayed silent.
    path = write(tmp_path / "digitalizado.pdf", b"%PDF-1.4\n%%EOF\n")
    extractor = compat.TextExtractor()
    with caplog.at_level(logging.DEBUG):
        assert extractor.extract_from_file(str(path), display_path="digitalizado.pdf") == ""
    report = extractor.last_extraction_report
    assert report is not None and report.overall_status == "corrupt_unrecoverable"
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("digitalizado.pdf" in m and "'corrupt_unrecoverable'" in m
               and "ocr_handler=True" in m for m in warnings), warnings
    caplog.clear()
    compat.configure(suppress_warnings=True)
    with caplog.at_level(logging.DEBUG):
        extractor.extract_from_file(str(path))
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


class _OwnOCR:
    """A caller's OCR object, as GoblinTools code plugs one in (a service, a mock)."""

    def __init__(self, whole: Any = "TEXTO LIDO PELO OCR", pages: Any = None) -> None:
        self.whole, self.pages = whole, pages
        self.calls: list[tuple[str, Any]] = []

    def extract_text_from_pdf(self, pdf_path: str) -> Any:
        self.calls.append(("pdf", pdf_path))
        if isinstance(self.whole, Exception):
            raise self.whole
        return self.whole

    def extract_text_from_pdf_page_indices(self, pdf_path: str, indices: list[int]) -> Any:
        self.calls.append(("pages", list(indices)))
        return self.pages

    def extract_text_from_image(self, image: Any) -> str:
        return ""


def test_the_callers_ocr_handler_reads_a_scanned_pdf(tmp_path: Path,
                                                     scan_registry: Registry) -> None:
    # GoblinTools hands a PDF without usable text to ocr_handler.extract_text_from_pdf;
    # goblin used its own OCR backends and never called the caller's object.
    path = write(tmp_path / "digitalizado.pdf", b"%PDF-1.4\n%%EOF\n")
    extractor = compat.TextExtractor(ocr_handler=True)
    handler = _OwnOCR()
    extractor.ocr_handler = handler
    text = extractor.extract_from_file(str(path), display_path="digitalizado.pdf")
    assert text == 'file_path_pwd:"digitalizado.pdf"\nTEXTO LIDO PELO OCR'
    assert handler.calls == [("pdf", str(path))]
    report = extractor.last_extraction_report
    assert report is not None and report.overall_status == "clean" and report.used_ocr
    assert [(p.status, p.engine) for p in report.pages] == [("recovered", "ocr")]


class _MixedParser(_ScanParser):
    """Page 1 has a text layer, page 2 is a scanned image."""

    def open(self, source: Any, config: Any) -> TextDocument:
        return TextDocument([PageContent(number=1, text="Edital de licitação", glyphs=19),
                             PageContent(number=2, text="", glyphs=0, images=1)])


def test_the_callers_ocr_handler_reads_only_the_pages_that_need_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Plugin:
        @hookimpl
        def goblin_register_parsers(self, register: Callable[[Any], None]) -> None:
            register(_MixedParser())

    registry = load_registry(extra_plugins=[("tests-mixed-pdf", Plugin())])
    monkeypatch.setattr("goblin_core.compat.extractor.default_registry", lambda: registry)
    path = write(tmp_path / "misto.pdf", b"%PDF-1.4\n%%EOF\n")
    extractor = compat.TextExtractor(ocr_handler=True)
    handler = _OwnOCR(pages={1: "Página digitalizada"})
    extractor.ocr_handler = handler
    text = extractor.extract_from_file(str(path), display_path="misto.pdf")
    # GoblinTools joins a PDF's pages with one line break.
    assert text == 'file_path_pwd:"misto.pdf"\nEdital de licitação\nPágina digitalizada'
    assert handler.calls == [("pages", [1])]
    report = extractor.last_extraction_report
    assert report is not None
    assert [(p.status, p.engine) for p in report.pages] == [("clean", "pypdf"),
                                                            ("recovered", "ocr")]


def test_a_failing_ocr_handler_is_logged_not_raised(
    tmp_path: Path, scan_registry: Registry, caplog: pytest.LogCaptureFixture
) -> None:
    path = write(tmp_path / "digitalizado.pdf", b"%PDF-1.4\n%%EOF\n")
    extractor = compat.TextExtractor(ocr_handler=True)
    extractor.ocr_handler = _OwnOCR(whole=RuntimeError("serviço fora do ar"))
    with caplog.at_level(logging.ERROR):
        assert extractor.extract_from_file(str(path)) == ""
    assert "serviço fora do ar" in caplog.text
    report = extractor.last_extraction_report
    assert report is not None and report.overall_status == "corrupt_unrecoverable"


def test_goblins_own_processor_leaves_pdfs_to_the_pipeline() -> None:
    from goblin_core.compat.ocr import reads_pdfs_its_own_way

    class Subclass(compat.OCRProcessor):
        def extract_text_from_pdf(self, pdf_path: str) -> str:
            return "texto"

    assert not reads_pdfs_its_own_way(compat.OCRProcessor(compat.OCRConfig()))
    assert reads_pdfs_its_own_way(Subclass(compat.OCRConfig()))
    assert reads_pdfs_its_own_way(_OwnOCR())


def test_a_clean_pdf_is_not_warned_about(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, warnings_shown: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class TextParser(_ScanParser):
        def open(self, source: Any, config: Any) -> TextDocument:
            return TextDocument([PageContent(number=1, text="Edital de licitação", glyphs=19)])

    class Plugin:
        @hookimpl
        def goblin_register_parsers(self, register: Callable[[Any], None]) -> None:
            register(TextParser())

    registry = load_registry(extra_plugins=[("tests-text-pdf", Plugin())])
    monkeypatch.setattr("goblin_core.compat.extractor.default_registry", lambda: registry)
    path = write(tmp_path / "edital.pdf", b"%PDF-1.4\n%%EOF\n")
    with caplog.at_level(logging.DEBUG):
        assert compat.TextExtractor().extract_from_file(str(path)).endswith("Edital de licitação")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


# -- side by side with GoblinTools --------------------------------------------------


def test_same_tag_for_a_display_path_of_any_type(goblintools: Any, tmp_path: Path) -> None:
    path = write(tmp_path / "nota.txt", "Valor global: R$ 1.234,56\n")
    for display_path in (Path("edital") / "nota.txt", 7, "nota.txt"):
        theirs = goblintools.TextExtractor().extract_from_file(str(path), display_path)
        ours = compat.TextExtractor().extract_from_file(str(path), display_path)
        assert ours == theirs


def test_same_folder_order(goblintools: Any, tmp_path: Path) -> None:
    for name in ("z.txt", "a/b.txt", "a/c/d.txt", "a/e.txt", "b.txt", "a0/f.txt"):
        write(tmp_path / name, f"texto de {name}\n")

    def tags(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith("file_path_pwd:")]

    theirs = goblintools.TextExtractor().extract_from_folder(str(tmp_path))
    ours = compat.TextExtractor().extract_from_folder(str(tmp_path))
    assert tags(ours) == tags(theirs)
    assert ours == theirs


def test_same_config_object(goblintools: Any) -> None:
    theirs = goblintools.GoblinConfig()
    ours = compat.GoblinConfig()
    assert (goblintools.TextExtractor(config=theirs).config is theirs) == (
        compat.TextExtractor(config=ours).config is ours)


_NONE_CALLS: list[tuple[str, Callable[[Any], Any]]] = [
    ("ocr_image", lambda m: m.OCRProcessor(m.OCRConfig()).extract_text_from_image(None)),
    ("ocr_pdf_pages", lambda m: m.OCRProcessor(m.OCRConfig()).extract_text_from_pdf_by_pages(
        None)),
    ("pdf_tables", lambda m: m.extract_pdf_tables(None)),
    ("pdf_needs_ocr", lambda m: m.TextExtractor().pdf_needs_ocr(None)),
    ("meaningful_table", lambda m: m.is_meaningful_table(None)),
    ("meaningful_empty", lambda m: m.is_meaningful_table([])),
    ("delete_if_empty", lambda m: m.FileManager.delete_if_empty(None)),
    ("delete_folder", lambda m: m.FileManager.delete_folder(None)),
    ("file_missing", lambda m: m.TextExtractor().extract_from_file("/no/such/file.pdf")),
    ("folder_missing", lambda m: m.TextExtractor().extract_from_folder("/no/such/folder")),
    ("bytes_empty", lambda m: m.extract_from_bytes(b"", "a.pdf").text),
]


@pytest.mark.parametrize("call", [c for _, c in _NONE_CALLS], ids=[n for n, _ in _NONE_CALLS])
def test_same_answer_to_bad_input(goblintools: Any, call: Callable[[Any], Any],
                                  caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.CRITICAL):
        assert call(compat) == call(goblintools)


@pytest.mark.parametrize("statuses", [
    (), ("clean",), ("clean", "recovered"), ("recovered",), ("corrupt_unrecoverable",),
    ("corrupt_unrecoverable", "clean"), ("corrupt_unrecoverable", "recovered"),
    ("reviewed",), ("reviewed", "corrupt_unrecoverable"), ("reviewed", "recovered"),
])
def test_same_overall_status(goblintools: Any, statuses: tuple[str, ...]) -> None:
    def overall(m: Any) -> tuple[str, bool]:
        report = m.ExtractionReport("a.pdf", [m.PageExtraction(i, s, "pypdf")
                                              for i, s in enumerate(statuses)])
        report.recompute_overall()
        return report.overall_status, report.used_ocr

    assert overall(compat) == overall(goblintools)


def test_same_log_levels_for_an_unsupported_file(
    goblintools: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture, warnings_shown: None
) -> None:
    path = write(tmp_path / "desenho.xyz", UNKNOWN_BYTES)

    def levels(m: Any, logger: str | tuple[str, ...], suppress: bool) -> set[int]:
        m.configure(suppress_warnings=suppress)
        caplog.clear()
        try:
            with caplog.at_level(logging.DEBUG):
                m.TextExtractor().extract_from_file(str(path))
        finally:
            m.configure(suppress_warnings=False)
        return {r.levelno for r in caplog.records
                if r.name.startswith(logger) and r.levelno >= logging.WARNING}

    for suppress in (False, True):
        # The facade logs GoblinTools' messages under its logger names, goblin's own
        # under goblin_core.
        assert levels(compat, ("goblin_core", "goblintools"), suppress) == levels(
            goblintools, "goblintools", suppress)


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _nested_archives(folder: Path) -> Path:
    """Three levels of zips, an inner one in a subfolder, and a name two levels share."""
    level3 = _zip(folder / "src" / "level3.zip", {"deepest.txt": b"3"}).read_bytes()
    inner = _zip(folder / "src" / "inner.zip", {"deep.txt": b"2", "sub/deeper.txt": b"2",
                                                "level3.zip": level3}).read_bytes()
    return _zip(folder / "outer.zip", {"inner.zip": inner, "dir/inner2.zip": inner,
                                       "top.txt": b"1", "deep.txt": b"1"})


@pytest.mark.parametrize("depth", [2, 5])
def test_same_tree_from_nested_archives(goblintools: Any, zip_registry: Registry,
                                        tmp_path: Path, depth: int,
                                        caplog: pytest.LogCaptureFixture) -> None:
    def tree(m: Any) -> tuple[list[str], int, list[str]]:
        archive = _nested_archives(tmp_path / m.__name__)
        out = tmp_path / m.__name__ / "out"
        budget = m.ExtractionBudget(m.ArchiveLimits(max_depth=depth))
        assert m.FileManager.extract_files_recursive(str(archive), str(out), budget=budget)
        files = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
        return files, budget.members, budget.skipped

    with caplog.at_level(logging.CRITICAL):
        (files, members, skipped), (their_files, their_members, their_skipped) = (
            tree(compat), tree(goblintools))
    assert (files, members) == (their_files, their_members)
    # GoblinTools also lists dir/inner2.zip as too deep at depth 2, then opens it: its
    # walk for inner.zip's members goes over the whole folder, inner2.zip's included
    assert skipped == [line for line in their_skipped if not line.startswith("inner2.zip")]


def test_same_skipped_line_for_a_name_that_escapes(goblintools: Any, zip_registry: Registry,
                                                   tmp_path: Path,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    def skipped(m: Any) -> list[str]:
        archive = _zip(tmp_path / m.__name__ / "a.zip", {"../evil.txt": b"e", "ok.txt": b"o"})
        budget = m.ExtractionBudget()
        m.ArchiveHandler.extract(str(archive), str(tmp_path / m.__name__ / "out"), budget=budget)
        return budget.skipped

    with caplog.at_level(logging.CRITICAL):
        ours, theirs = skipped(compat), skipped(goblintools)
    # goblin's reason follows GoblinTools' words
    assert ours[0].startswith(theirs[0]) and len(ours) == len(theirs) == 1
