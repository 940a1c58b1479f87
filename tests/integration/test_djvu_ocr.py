"""DjVu with OCR installed: pages without a text layer are OCR'd, pages with one keep it."""

from __future__ import annotations

import io
import subprocess
import zipfile
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

import goblin_core
from goblin_core.testing.corpus import normalize, require_binary

SCANNED = "Invoice number 4471 was paid on 12 March."
LAYER = "Relatório anual de licitações"


@pytest.fixture
def book(tmp_path: Path) -> Path:
    """Two 300-dpi bitonal pages: the first with a hidden text layer, the second a bare scan."""
    for tool, package in (("cjb2", "djvulibre-bin"), ("djvm", "djvulibre-bin"),
                          ("djvused", "djvulibre-bin"), ("tesseract", "tesseract-ocr")):
        require_binary(tool, package)
    font = ImageFont.load_default(size=42)
    pages = []
    for number, line in enumerate(("a page whose layer is read", SCANNED), start=1):
        scan = Image.new("1", (1800, 600), 1)
        ImageDraw.Draw(scan).text((80, 250), line, font=font, fill=0)
        scan.save(tmp_path / f"p{number}.pbm")
        subprocess.run(["cjb2", "-dpi", "300", str(tmp_path / f"p{number}.pbm"),
                        str(tmp_path / f"p{number}.djvu")], check=True)
        pages.append(str(tmp_path / f"p{number}.djvu"))
    target = tmp_path / "book.djvu"
    subprocess.run(["djvm", "-c", str(target), *pages], check=True)
    script = f'select 1\nset-txt\n(page 0 0 1800 600 (line 80 300 1700 350 "{LAYER}"))\n.\nsave\n'
    (tmp_path / "set.dsed").write_text(script, encoding="utf-8")
    subprocess.run(["djvused", str(target), "-f", str(tmp_path / "set.dsed")], check=True)
    return target


def test_a_page_without_a_text_layer_is_ocrd_and_one_with_a_layer_keeps_it(book: Path) -> None:
    document = goblin_core.extract(book)
    layer, scan = document.pages
    assert (layer.engine, layer.status, layer.text) == ("djvu.djvulibre", "clean", LAYER)
    assert (scan.engine, scan.status) == ("ocr.tesseract", "ocr")
    assert SCANNED in normalize(scan.text)
    assert document.report.ocr_pages == (2,)


def test_a_djvu_in_a_zip_is_read_as_a_member(book: Path) -> None:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.write(book, "scans/book.djvu")
    document = goblin_core.extract(packed.getvalue(), name="scans.zip")
    [member] = document.children
    assert member.mime == "image/vnd.djvu"
    assert LAYER in member.text and SCANNED in normalize(member.text)


def test_the_goblintools_facade_reads_djvu_as_a_document_not_a_picture(book: Path) -> None:
    """GoblinTools reads images only when asked to OCR them; a DjVu's text layer is text."""
    from goblin_core.compat import TextExtractor

    extractor = TextExtractor()
    text = extractor.extract_from_file(str(book), display_path="book.djvu")
    assert text.startswith('file_path_pwd:"book.djvu"\n') and LAYER in text
    report = extractor.last_extraction_report
    assert report is not None and len(report.pages) == 2
    assert report.pages[0].engine != "ocr" and report.pages[0].status == "clean"
