"""goblin_core.compat over real documents with every plugin: the README's
examples on PDFs, scans, images, Office files, misnamed and extensionless files,
archives and the bytes API, read from the shared corpus in place."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from goblin_core.compat import (
    ArchiveHandler,
    FileManager,
    TextExtractor,
    extract_from_bytes,
)
from goblin_core.testing.corpus import contains_phrase, corpus_dir, require_binary

CORPUS = corpus_dir(__file__)
GAZETTE = "pdf/qd-diario-oficial-pratania-2020-10-26.pdf"
SCAN = "pdf/qd-diario-oficial-pratania-scan-p2-p7.pdf"
PAGE_IMAGE = "images/qd-diario-oficial-pratania-p7.png"
NESTED = "archives/nested-mixed.zip"


def corpus_file(name: str) -> str:
    return str(CORPUS / name)


def place(tmp_path: Path, name: str, as_name: str) -> Path:
    """A copy of a corpus file under a temporary folder (the corpus is read-only)."""
    target = tmp_path / as_name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(CORPUS / name, target)
    return target


def test_pdf_file_mode_text_tag_and_report() -> None:
    extractor = TextExtractor()
    text = extractor.extract_from_file(corpus_file(GAZETTE), display_path="diario.pdf")
    assert text.startswith('file_path_pwd:"diario.pdf"\n')
    for phrase in ("LICITAÇÕES E CONTRATOS", "CONTRATO ADMINISTRATIVO Nº 33/2020"):
        assert contains_phrase(text, phrase)
    report = extractor.last_extraction_report
    assert report is not None and report.path == "diario.pdf"
    assert [p.index for p in report.pages] == list(range(8))
    assert report.overall_status == "clean" and not report.used_ocr
    assert {p.engine for p in report.pages} == {"pypdf"}


def test_folder_mode_tags_relative_paths_and_keeps_reports(tmp_path: Path) -> None:
    place(tmp_path, GAZETTE, "edital/diario.pdf")
    place(tmp_path, "tricky/pdf_standardized_text", "anexo_1")
    place(tmp_path, "tricky/misnamed-4.csv", "planilha.csv")
    place(tmp_path, NESTED, "pacote.zip")
    extractor = TextExtractor()
    text = extractor.extract_from_folder(str(tmp_path))
    tags = [line for line in text.splitlines() if line.startswith("file_path_pwd:")]
    # GoblinTools' order: the folder's files (an archive's members in its place),
    # then its subfolders.
    members = [t for t in tags if t.startswith('file_path_pwd:"pacote.zip/')]
    assert tags == ['file_path_pwd:"anexo_1"', *members, 'file_path_pwd:"planilha.csv"',
                    'file_path_pwd:"edital/diario.pdf"']
    assert str(tmp_path) not in text
    assert contains_phrase(text, "Number of freshwater ducks per year")  # an xlsx named .csv
    assert contains_phrase(text, "Sample Word Document")  # zip > tar.gz > docx
    assert contains_phrase(text, "After running tabula on this table.")  # zip > zip > 7z > pdf
    reports = extractor.last_extraction_reports
    assert "anexo_1" in reports and "edital/diario.pdf" in reports
    assert any(k.startswith("pacote.zip/") and k.endswith(".pdf") for k in reports)
    assert all(r.overall_status == "clean" for r in reports.values())


def test_misnamed_files_are_read_by_content(tmp_path: Path) -> None:
    extractor = TextExtractor()
    pdf_named_zip = extractor.extract_from_file(corpus_file("tricky/misnamed-1.zip"))
    assert contains_phrase(pdf_named_zip, "This is a")
    zip_named_pdf = extractor.extract_from_file(corpus_file("tricky/misnamed-2.pdf"),
                                                display_path="misnamed-2.pdf")
    assert contains_phrase(zip_named_pdf, "Stanley Cups")
    assert 'file_path_pwd:"misnamed-2.pdf/' in zip_named_pdf
    docx_named_doc = extractor.extract_from_file(corpus_file("tricky/misnamed-3.doc"))
    assert contains_phrase(docx_named_doc, "Lorem ipsum")


def test_broken_text_layer_is_reported_not_trusted() -> None:
    extractor = TextExtractor()
    extractor.extract_from_file(corpus_file("pdf/type3_font_nomapping.pdf"))
    report = extractor.last_extraction_report
    assert report is not None
    assert report.overall_status != "clean"
    assert all(p.status == "corrupt_unrecoverable" for p in report.pages)
    assert report.pages[0].goblin_status == "corrupt"


def test_scan_without_ocr_needs_ocr() -> None:
    extractor = TextExtractor()
    assert extractor.pdf_needs_ocr(corpus_file(SCAN))
    assert not extractor.pdf_needs_ocr(corpus_file(GAZETTE))
    assert extractor.extract_from_file(corpus_file(SCAN)) == ""
    report = extractor.last_extraction_report
    assert report is not None and report.overall_status == "corrupt_unrecoverable"


@pytest.mark.slow
def test_scan_with_ocr_handler() -> None:
    require_binary("tesseract", "tesseract-ocr")
    extractor = TextExtractor(ocr_handler=True)
    text = extractor.extract_from_file(corpus_file(SCAN), display_path="scan.pdf")
    assert contains_phrase(text, "LICITAÇÕES E CONTRATOS")
    report = extractor.last_extraction_report
    assert report is not None
    assert [p.engine for p in report.pages] == ["ocr", "ocr"]
    assert [p.status for p in report.pages] == ["recovered", "recovered"]
    assert report.used_ocr and report.overall_status == "clean"
    assert extractor.validate_installation() == {"tesseract": True}


@pytest.mark.slow
def test_images_are_ocrd_only_when_asked(tmp_path: Path) -> None:
    require_binary("tesseract", "tesseract-ocr")
    image = place(tmp_path, PAGE_IMAGE, "atestado")  # no extension: found by content
    assert TextExtractor(ocr_handler=True).extract_from_file(str(image)) == ""
    extractor = TextExtractor(ocr_handler=True, ocr_images=True)
    text = extractor.extract_from_file(str(image))
    assert contains_phrase(text, "LICITAÇÕES E CONTRATOS")
    report = extractor.last_extraction_report
    assert report is not None and [p.engine for p in report.pages] == ["ocr"]


def test_extract_from_bytes_of_an_archive() -> None:
    data = (CORPUS / NESTED).read_bytes()
    result = extract_from_bytes(data, "anexo.zip")
    assert contains_phrase(result.text, "Sample Word Document")
    assert 'file_path_pwd:"anexo.zip' not in result.text  # members tagged by their own path
    pdfs = [k for k in result.reports if k.endswith(".pdf")]
    assert pdfs and not pdfs[0].startswith("anexo.zip")
    assert result.overall_status == "clean"
    assert result.skipped == []


def test_extract_files_recursive_unfolds_nested_archives(tmp_path: Path) -> None:
    archive = place(tmp_path, NESTED, "in/pacote.zip")
    out = tmp_path / "out"
    assert FileManager.extract_files_recursive(str(archive), str(out))
    names = sorted(p.name for p in out.rglob("*") if p.is_file())
    assert any(n.endswith(".pdf") for n in names)
    assert any(n.endswith(".docx") for n in names)
    assert not any(n.endswith((".zip", ".7z", ".gz")) for n in names)
    assert archive.exists()  # never the caller's own archive
    text = TextExtractor().extract_from_folder(str(out))
    assert contains_phrase(text, "After running tabula on this table.")


def test_misnamed_files_in_extract_files_recursive(tmp_path: Path) -> None:
    out = tmp_path / "out"
    pdf_named_zip = place(tmp_path, "tricky/misnamed-1.zip", "in/documento.zip")
    zip_named_pdf = place(tmp_path, "tricky/misnamed-2.pdf", "in/pacote.pdf")
    office = place(tmp_path, "tricky/misnamed-3.doc", "in/relatorio.doc")
    for path in (pdf_named_zip, zip_named_pdf, office):
        assert FileManager.extract_files_recursive(str(path), str(out))
    names = sorted(p.name for p in out.rglob("*") if p.is_file())
    assert "documento.pdf" in names
    assert any(n.endswith(".csv") for n in names)  # a member of the zip named .pdf
    assert "relatorio.docx" in names  # an Office file is copied whole, never unpacked


def test_archive_handler_and_batch_extract(tmp_path: Path) -> None:
    first = place(tmp_path, NESTED, "in/a.zip")
    second = place(tmp_path, "tricky/misnamed-2.pdf", "in/b.zip")
    calls: list[tuple[int, int]] = []
    results = FileManager.batch_extract([str(first), str(second)], str(tmp_path / "out"),
                                        progress_callback=lambda d, t: calls.append((d, t)))
    assert results == [True, True] and calls == [(1, 2), (2, 2)]
    assert first.exists() and second.exists()
    assert ArchiveHandler.extract(str(first), str(tmp_path / "kept"), remove_source=False)
    assert first.exists()
    assert ArchiveHandler.extract(str(first), str(tmp_path / "removed"))
    assert not first.exists()


def test_archive_limits_from_the_config_are_reported_in_skipped() -> None:
    from goblin_core.compat import ArchiveLimits, GoblinConfig

    data = (CORPUS / NESTED).read_bytes()
    config = GoblinConfig(archive_limits=ArchiveLimits(max_depth=1))
    result = extract_from_bytes(data, "anexo.zip", config=config)
    assert len(result.skipped) == 2
    # In GoblinTools' words, as the migration guide promises for this limit.
    assert all("nesting deeper than 1 archive levels; not extracted" in reason
               for reason in result.skipped)
    assert contains_phrase(result.text, "Sample Word Document") is False
    assert result.overall_status == "corrupt_unrecoverable"  # what was left out is not clean
    tight = GoblinConfig(archive_limits=ArchiveLimits(max_members=1))
    assert any("max_members" in r for r in extract_from_bytes(data, "a.zip", config=tight).skipped)


def test_a_callers_ocr_handler_reads_a_scanned_pdf() -> None:
    # GoblinTools code plugs its own OCR object in (a service client, a test double);
    # a scan's text comes from it, once, for the whole file.
    class OwnOCR:
        def __init__(self) -> None:
            self.calls: list[str] = []

        def extract_text_from_pdf(self, pdf_path: str) -> str:
            self.calls.append(pdf_path)
            return "TEXTO DO SERVIÇO DE OCR"

        def extract_text_from_pdf_page_indices(self, pdf_path: str,
                                               indices: list[int]) -> dict[int, str]:
            raise AssertionError("a scan is read whole")

    extractor = TextExtractor(ocr_handler=True)
    handler = OwnOCR()
    extractor.ocr_handler = handler
    text = extractor.extract_from_file(corpus_file(SCAN), display_path="scan.pdf")
    assert text == 'file_path_pwd:"scan.pdf"\nTEXTO DO SERVIÇO DE OCR'
    assert handler.calls == [corpus_file(SCAN)]
    report = extractor.last_extraction_report
    assert report is not None and report.overall_status == "clean" and report.used_ocr
    assert {(p.status, p.engine) for p in report.pages} == {("recovered", "ocr")}
