"""TextExtractor over plain-text files: tags, folders, odd names, custom parsers,
reports and the config round trip, as GoblinTools' README shows them."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from goblin_core.compat import (
    ArchiveLimits,
    GoblinConfig,
    OCRConfig,
    TextExtractor,
    configure,
)
from goblin_core.compat.settings import goblin_options


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding))
    return path


def test_file_mode_tags_the_path_as_given(tmp_path: Path) -> None:
    path = write(tmp_path / "nota.txt", "Valor global: R$ 1.234,56")
    text = TextExtractor().extract_from_file(str(path))
    assert text == f'file_path_pwd:"{path}"\nValor global: R$ 1.234,56'


def test_display_path_overrides_the_tag(tmp_path: Path) -> None:
    path = write(tmp_path / "nota.txt", "conteúdo")
    text = TextExtractor().extract_from_file(str(path), display_path="edital/nota.txt")
    assert text.startswith('file_path_pwd:"edital/nota.txt"\n')


def test_folder_mode_uses_relative_paths_in_sorted_order(tmp_path: Path) -> None:
    write(tmp_path / "b.txt", "segundo")
    write(tmp_path / "a.txt", "primeiro")
    write(tmp_path / "edital" / "anexo_1", "anexo sem extensão")
    write(tmp_path / "vazio.txt", "")
    text = TextExtractor().extract_from_folder(str(tmp_path))
    assert text == (
        'file_path_pwd:"a.txt"\nprimeiro\n\n'
        'file_path_pwd:"b.txt"\nsegundo\n\n'
        'file_path_pwd:"edital/anexo_1"\nanexo sem extensão'
    )
    assert str(tmp_path) not in text


def test_extensionless_files_are_read(tmp_path: Path) -> None:
    path = write(tmp_path / "anexo_2", "Licitação pública nº 12")
    assert TextExtractor().extract_from_file(str(path)).endswith("Licitação pública nº 12")


def test_content_beats_a_wrong_extension(tmp_path: Path) -> None:
    # GoblinTools handed this to its PDF parser and returned "".
    path = write(tmp_path / "proposta.pdf", "Proposta comercial em texto simples")
    text = TextExtractor().extract_from_file(str(path))
    assert text.endswith("\nProposta comercial em texto simples")


def test_tags_escape_quotes_and_newlines_in_names(tmp_path: Path) -> None:
    path = write(tmp_path / "x.txt", "texto")
    text = TextExtractor().extract_from_file(str(path), display_path='a "b"\nc.txt')
    assert text.splitlines()[0] == 'file_path_pwd:"a \\"b\\"\\nc.txt"'
    assert text.splitlines()[1] == "texto"


def test_missing_file_gives_empty_text_and_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    extractor = TextExtractor()
    with caplog.at_level(logging.WARNING):
        assert extractor.extract_from_file(str(tmp_path / "nada.txt")) == ""
    assert "nada.txt" in caplog.text
    assert extractor.last_extraction_report is None


def test_a_folder_given_as_a_file_gives_empty_text_and_no_report(tmp_path: Path) -> None:
    write(tmp_path / "pasta" / "a.txt", "texto")
    extractor = TextExtractor()
    assert extractor.extract_from_file(str(tmp_path / "pasta")) == ""
    assert extractor.last_extraction_report is None


def test_an_empty_file_is_reported_not_just_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = write(tmp_path / "vazio.txt", "")
    extractor = TextExtractor()
    with caplog.at_level(logging.ERROR):
        assert extractor.extract_from_file(str(path)) == ""
    report = extractor.last_extraction_report
    assert report is not None
    assert report.overall_status == "corrupt_unrecoverable"
    assert any("empty" in e for e in report.errors)
    assert "empty" in caplog.text


def test_plain_text_has_no_pdf_report(tmp_path: Path) -> None:
    path = write(tmp_path / "a.txt", "texto")
    extractor = TextExtractor()
    extractor.extract_from_file(str(path))
    assert extractor.last_extraction_report is None
    extractor.extract_from_folder(str(tmp_path))
    assert extractor.last_extraction_reports == {}


def test_folder_mode_skips_files_over_max_file_size(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write(tmp_path / "grande.txt", "x" * 500)
    write(tmp_path / "pequeno.txt", "ok")
    extractor = TextExtractor(config=GoblinConfig(max_file_size=100))
    with caplog.at_level(logging.WARNING):
        text = extractor.extract_from_folder(str(tmp_path))
    assert text == 'file_path_pwd:"pequeno.txt"\nok'
    assert "grande.txt" in caplog.text
    # As in GoblinTools, a file asked for by name is read whatever max_file_size says.
    assert extractor.extract_from_file(str(tmp_path / "grande.txt")).endswith("x" * 500)


def test_custom_parser_runs_inside_the_pipeline(tmp_path: Path) -> None:
    path = write(tmp_path / "dados.custom", "a;b;c")
    extractor = TextExtractor()
    extractor.add_parser(".custom", lambda p: Path(p).read_text().replace(";", " | "))
    assert extractor.extract_from_file(str(path)) == f'file_path_pwd:"{path}"\na | b | c'
    assert ".custom" in extractor.parsers
    assert ".pdf" in extractor.parsers


def test_custom_parser_replaces_a_builtin_extension(tmp_path: Path) -> None:
    path = write(tmp_path / "nota.txt", "original")
    extractor = TextExtractor()
    extractor.add_parser(".TXT", lambda p: "do parser próprio")
    assert extractor.extract_from_file(str(path)).endswith("\ndo parser próprio")


def test_a_failing_custom_parser_is_reported(tmp_path: Path) -> None:
    path = write(tmp_path / "x.quebrado", "dados")

    def broken(_: str) -> str:
        raise ValueError("formato inesperado")

    extractor = TextExtractor()
    extractor.add_parser(".quebrado", broken)
    assert extractor.extract_from_file(str(path)) == ""
    report = extractor.last_extraction_report
    assert report is not None and "formato inesperado" in " ".join(report.errors)


def test_an_empty_file_still_goes_to_its_custom_parser(tmp_path: Path) -> None:
    # The parser decides what an empty file means (it may read a sidecar, a
    # database row named after the file...): goblin's empty-file stop is not its call.
    (tmp_path / "pasta").mkdir()
    marker = tmp_path / "pasta" / "registro.ref"
    marker.write_bytes(b"")
    seen: list[str] = []

    def lookup(path: str) -> str:
        seen.append(path)
        return "linha do cadastro 42"

    extractor = TextExtractor()
    extractor.add_parser(".REF", lookup)
    assert extractor.extract_from_file(str(marker)) == (
        f'file_path_pwd:"{marker}"\nlinha do cadastro 42')
    assert seen == [str(marker)]
    assert extractor.extract_from_folder(str(tmp_path)) == (
        'file_path_pwd:"pasta/registro.ref"\nlinha do cadastro 42')

    def failing(_: str) -> str:
        raise ValueError("cadastro fora do ar")

    extractor.add_parser(".ref", failing)
    assert extractor.extract_from_file(str(marker)) == ""
    report = extractor.last_extraction_report
    assert report is not None and "cadastro fora do ar" in " ".join(report.errors)
    # Without a custom parser an empty file still has nothing to give.
    assert TextExtractor().extract_from_file(str(marker)) == ""


def test_builtin_parsers_are_callable(tmp_path: Path) -> None:
    path = write(tmp_path / "a.txt", "via parsers")
    assert TextExtractor().parsers[".txt"](str(path)) == "via parsers"


def test_config_round_trip(tmp_path: Path) -> None:
    config = GoblinConfig(
        max_file_size=50 * 1024 * 1024,
        ocr=OCRConfig(
            use_aws=True,
            aws_access_key="k",
            aws_secret_key="s",
            aws_region="us-west-2",
            tesseract_lang="por+eng",
            pdf_ocr_dpi=150,
            max_ocr_pages=10,
        ),
        archive_limits=ArchiveLimits(max_members=40),
    )
    target = tmp_path / "conf" / "goblin_config.json"
    config.to_file(target)
    data = json.loads(target.read_text())
    assert set(data) == {"max_file_size", "ocr", "archive_limits"}
    assert data["archive_limits"] == {
        "max_depth": 3,
        "max_members": 40,
        "max_member_bytes": 209715200,
        "max_total_bytes": 1073741824,
    }
    assert GoblinConfig.from_file(target) == config
    assert GoblinConfig.default() == GoblinConfig()
    with pytest.raises(FileNotFoundError):
        GoblinConfig.from_file(tmp_path / "none.json")


def test_config_reaches_goblin_options() -> None:
    config = GoblinConfig(
        max_file_size=1234,
        ocr=OCRConfig(tesseract_lang="eng", pdf_ocr_dpi=150),
        archive_limits=ArchiveLimits(
            max_depth=2, max_members=7, max_member_bytes=99, max_total_bytes=999
        ),
    )
    options = goblin_options(config, ocr=True, tables=True)
    assert options == {
        "ocr": "auto",
        "tables": True,
        "ocr_languages": "eng",
        "ocr_dpi": 150,
        "max_depth": 2,
        "max_members": 7,
        "max_member_size": 99,
        "max_total_bytes": 999,
    }
    assert goblin_options(config, ocr=False)["ocr"] == "never"


def test_constructor_aws_arguments_do_not_touch_the_callers_config() -> None:
    config = GoblinConfig(ocr=OCRConfig(tesseract_lang="eng"))
    extractor = TextExtractor(
        use_aws=True, aws_access_key="k", aws_secret_key="s", aws_session_token="t", config=config
    )
    assert extractor.config.ocr.use_aws is True
    assert extractor.config.ocr.aws_session_token == "t"
    assert extractor.config.ocr.tesseract_lang == "eng"
    assert config.ocr.use_aws is False


def test_only_markdown_tables_are_supported() -> None:
    with pytest.raises(ValueError, match="markdown"):
        TextExtractor(table_format="html")


def test_configure_hides_goblin_warnings_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    try:
        configure(suppress_warnings=True)
        with caplog.at_level(logging.WARNING):
            TextExtractor().extract_from_file(str(tmp_path / "missing.txt"))
            logging.getLogger("someone.else").warning("still shown")
        assert "missing.txt" not in caplog.text
        assert "still shown" in caplog.text
        configure()  # None leaves the setting alone
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            TextExtractor().extract_from_file(str(tmp_path / "missing.txt"))
        assert "missing.txt" not in caplog.text
    finally:
        configure(suppress_warnings=False)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        TextExtractor(suppress_warnings=None).extract_from_file(str(tmp_path / "missing.txt"))
    assert "missing.txt" in caplog.text


def test_validate_installation_reports_tesseract() -> None:
    status = TextExtractor().validate_installation()
    assert set(status) == {"tesseract"}
    assert isinstance(status["tesseract"], bool)


def test_helpers_on_a_missing_file_log_instead_of_raising(tmp_path: Path) -> None:
    from goblin_core.compat import OCRConfig, OCRProcessor

    missing = str(tmp_path / "none.pdf")
    assert TextExtractor().pdf_needs_ocr(missing)
    assert OCRProcessor(OCRConfig()).extract_text_from_pdf(missing) == ""
    assert OCRProcessor(OCRConfig()).extract_text_from_pdf_page_indices(missing, [0]) == {}


DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
PNG_HEADER = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 64


def test_an_image_left_unread_still_gets_its_report(tmp_path: Path) -> None:
    # Without ocr_handler and ocr_images an image yields no text, and its report
    # says so: one frame, not read.
    image = tmp_path / "scan.png"
    image.write_bytes(PNG_HEADER)
    extractor = TextExtractor()
    assert extractor.extract_from_file(str(image)) == ""
    report = extractor.last_extraction_report
    assert report is not None and report.path == str(image)
    assert report.overall_status == "corrupt_unrecoverable"
    assert [(p.index, p.status, p.engine) for p in report.pages] == [
        (0, "corrupt_unrecoverable", "")
    ]
    assert extractor.extract_from_folder(str(tmp_path)) == ""
    assert list(extractor.last_extraction_reports) == ["scan.png"]
    assert extractor.last_extraction_reports["scan.png"].overall_status == "corrupt_unrecoverable"


def test_an_image_given_as_bytes_is_reported_unread() -> None:
    from goblin_core.compat import extract_from_bytes

    result = extract_from_bytes(PNG_HEADER, "scan.png")
    assert result.text == ""
    assert list(result.reports) == ["scan.png"]
    assert result.overall_status == "corrupt_unrecoverable"


def test_the_last_report_after_a_folder_is_the_last_files(tmp_path: Path) -> None:
    image = tmp_path / "scans" / "scan.png"
    image.parent.mkdir()
    image.write_bytes(PNG_HEADER)
    extractor = TextExtractor()
    extractor.extract_from_folder(str(tmp_path))
    assert extractor.last_extraction_report is extractor.last_extraction_reports["scans/scan.png"]
    write(tmp_path / "texto.txt", "texto simples")
    write(tmp_path / "zz" / "ultimo.txt", "o último arquivo não tem relatório")
    extractor.extract_from_folder(str(tmp_path))
    assert extractor.last_extraction_report is None


def test_the_report_of_a_pdf_is_its_own_not_its_attachments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from goblin_core.model import Document, Page

    pdf = write(tmp_path / "edital.pdf", "%PDF-1.7 (read by the stand-in below)")
    name = str(pdf)
    page = Page(number=1, text="Edital", engine="pdf.pypdfium2", status="clean", confidence=1.0)

    def pdf_with_attachment(source: object, label: str, *_: object) -> Document:
        attachment = Document(name=f"{label}/anexo.png", mime="image/png")
        return Document(name=label, mime="application/pdf", pages=(page,),
                        parsed_by=("pdf.pypdfium2",), children=(attachment,))

    monkeypatch.setattr("goblin_core.compat.extractor._read", pdf_with_attachment)
    extractor = TextExtractor()
    assert extractor.extract_from_file(name) == f'file_path_pwd:"{name}"\nEdital'
    report = extractor.last_extraction_report
    assert report is not None and report.path == name
    assert report.overall_status == "clean" and len(report.pages) == 1
    # An image attached to a document is not a file GoblinTools would report unread.
    extractor.extract_from_folder(str(tmp_path))
    assert list(extractor.last_extraction_reports) == ["edital.pdf"]


def test_pdf_needs_ocr_is_false_for_text_that_reads(tmp_path: Path) -> None:
    # GoblinTools said True for anything pypdf could not open.
    text = write(tmp_path / "proposta.pdf", "Proposta comercial em texto simples")
    assert not TextExtractor().pdf_needs_ocr(str(text))


def test_text_under_an_extension_goblintools_did_not_list_is_read(tmp_path: Path) -> None:
    # GoblinTools found no parser for .log and returned "".
    notes = write(tmp_path / "pregao.log", "Sessão aberta\nPrazo de entrega: 30 dias")
    assert TextExtractor().extract_from_file(str(notes)).endswith("Prazo de entrega: 30 dias")


def test_a_file_a_limit_refuses_whole_says_why_in_its_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from goblin_core.errors import FileTooLarge

    path = write(tmp_path / "enorme.txt", "texto")
    refused = FileTooLarge("larger than limits.max_file_size", file=str(path))
    monkeypatch.setattr("goblin_core.compat.extractor._read", lambda *_: refused)
    extractor = TextExtractor()
    assert extractor.extract_from_file(str(path)) == ""
    report = extractor.last_extraction_report
    assert report is not None and report.overall_status == "corrupt_unrecoverable"
    assert "max_file_size" in report.errors[0]
    assert extractor.extract_from_folder(str(tmp_path)) == ""
    assert "max_file_size" in extractor.last_extraction_reports["enorme.txt"].errors[0]


def test_a_document_without_a_report_does_not_show_its_attachments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from goblin_core.model import Document, Page

    docx = write(tmp_path / "proposta.docx", "stand-in for a DOCX with a PDF inside")
    page = Page(number=1, text="Proposta", engine="office.docx", status="clean",
                confidence=1.0)

    def docx_with_pdf(source: object, label: str, *_: object) -> Document:
        inner = Document(name=f"{label}/anexo.pdf", mime="application/pdf", pages=(page,))
        return Document(name=label, mime=DOCX_MIME, pages=(page,), children=(inner,))

    monkeypatch.setattr("goblin_core.compat.extractor._read", docx_with_pdf)
    extractor = TextExtractor()
    assert extractor.extract_from_file(str(docx)).count("file_path_pwd:") == 2
    assert extractor.last_extraction_report is None  # GoblinTools keeps none for a DOCX
