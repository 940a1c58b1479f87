"""A PDF's pages are joined as GoblinTools 0.13.4 joins them (``"\\n".join`` of every
page's text, a blank page included), in extract_from_file, extract_from_folder and
extract_from_bytes; an image's frames that gave text are joined by a blank line.
goblin's own Document keeps its blank line between pages."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from stand_in_pdf import PDF_BYTES, read_pdfs_as

import goblin_core.compat as compat
from goblin_core.registry import Registry

#: Five pages, the third and the last blank.
PAGES = ("Edital de licitação", "Objeto: cimento", "", "Anexo I", "")


@pytest.fixture
def paged_pdf(monkeypatch: pytest.MonkeyPatch) -> Registry:
    return read_pdfs_as(monkeypatch, PAGES)


GOBLINTOOLS_BODY = "\n".join(PAGES)


def test_pages_of_a_file_are_joined_by_one_line_break(tmp_path: Path,
                                                      paged_pdf: Registry) -> None:
    path = tmp_path / "edital.pdf"
    path.write_bytes(PDF_BYTES)
    text = compat.TextExtractor().extract_from_file(str(path), display_path="edital.pdf")
    assert text == f'file_path_pwd:"edital.pdf"\n{GOBLINTOOLS_BODY}'
    assert text.endswith("Anexo I\n")


def test_pages_of_a_folders_file_are_joined_by_one_line_break(tmp_path: Path,
                                                              paged_pdf: Registry) -> None:
    (tmp_path / "edital.pdf").write_bytes(PDF_BYTES)
    (tmp_path / "nota.txt").write_text("Valor global", encoding="utf-8")
    text = compat.TextExtractor().extract_from_folder(str(tmp_path))
    assert text == (f'file_path_pwd:"edital.pdf"\n{GOBLINTOOLS_BODY}\n\n'
                    'file_path_pwd:"nota.txt"\nValor global')


def test_pages_of_bytes_are_joined_by_one_line_break(paged_pdf: Registry) -> None:
    result = compat.extract_from_bytes(PDF_BYTES, "edital.pdf")
    assert result.text == f'file_path_pwd:"edital.pdf"\n{GOBLINTOOLS_BODY}'


def test_goblins_own_document_keeps_its_blank_line(tmp_path: Path,
                                                   paged_pdf: Registry) -> None:
    from goblin_core import extract

    path = tmp_path / "edital.pdf"
    path.write_bytes(PDF_BYTES)
    document = extract(str(path), registry=paged_pdf)
    assert document.text.startswith("Edital de licitação\n\nObjeto: cimento")


class _ScriptedOCR:
    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)

    def extract_text_from_image(self, image: Any) -> str:
        return self.answers.pop(0)


def test_only_the_frames_that_gave_text_are_joined(tmp_path: Path) -> None:
    # GoblinTools: "\n\n".join of the frames whose OCR gave text.
    image = pytest.importorskip("PIL.Image")
    pictures = [image.new("RGB", (20, 10), "white") for _ in range(3)]
    buffer = io.BytesIO()
    pictures[0].save(buffer, format="TIFF", save_all=True, append_images=pictures[1:])
    scan = tmp_path / "autos.tiff"
    scan.write_bytes(buffer.getvalue())
    extractor = compat.TextExtractor(ocr_images=True)
    extractor.ocr_handler = _ScriptedOCR("FOLHA 1", "", "FOLHA 3")
    text = extractor.extract_from_file(str(scan), display_path="autos.tiff")
    assert text == 'file_path_pwd:"autos.tiff"\nFOLHA 1\n\nFOLHA 3'


class _WholeFileOCR:
    def extract_text_from_pdf(self, pdf_path: str) -> str:
        return "TEXTO DO ARQUIVO INTEIRO"

    def extract_text_from_pdf_page_indices(self, pdf_path: str,
                                           indices: list[int]) -> dict[int, str]:
        return {}


def test_a_pdf_read_whole_by_the_callers_ocr_is_its_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GoblinTools returns extract_text_from_pdf's text as it is: no line per page.
    read_pdfs_as(monkeypatch, [None, None, None])
    path = tmp_path / "digitalizado.pdf"
    path.write_bytes(PDF_BYTES)
    extractor = compat.TextExtractor(ocr_handler=True)
    extractor.ocr_handler = _WholeFileOCR()
    text = extractor.extract_from_file(str(path), display_path="digitalizado.pdf")
    assert text == 'file_path_pwd:"digitalizado.pdf"\nTEXTO DO ARQUIVO INTEIRO'
