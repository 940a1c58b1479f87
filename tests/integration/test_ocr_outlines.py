"""Text turned into outlines (paths, no glyphs): OCR'd under ocr="auto", not called empty."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest

import goblin_core
from goblin_core.testing.corpus import normalize, require_binary

reportlab = pytest.importorskip("reportlab")

LINES = ("Invoice number 4417 for office supplies", "Total amount due thirty days")


def _outlined_text_pdf(lines: tuple[str, ...], size: float = 28) -> bytes:
    """A page whose words are the outlines of Vera's glyphs, filled: what "convert text to
    outlines" in a design program writes. It holds no text object at all."""
    from fontTools.pens.basePen import BasePen
    from fontTools.ttLib import TTFont

    font = TTFont(str(Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"))
    glyphs, cmap = font.getGlyphSet(), font.getBestCmap()
    scale = size / font["head"].unitsPerEm
    ops: list[str] = []

    class PdfPen(BasePen):  # type: ignore[misc]
        def __init__(self, x: float, y: float) -> None:
            super().__init__(glyphs)
            self.x, self.y = x, y

        def _p(self, point: tuple[float, float]) -> str:
            return f"{self.x + point[0] * scale:.2f} {self.y + point[1] * scale:.2f}"

        def _moveTo(self, p: tuple[float, float]) -> None:
            ops.append(f"{self._p(p)} m")

        def _lineTo(self, p: tuple[float, float]) -> None:
            ops.append(f"{self._p(p)} l")

        def _curveToOne(self, a: tuple[float, float], b: tuple[float, float],
                        c: tuple[float, float]) -> None:
            ops.append(f"{self._p(a)} {self._p(b)} {self._p(c)} c")

        def _closePath(self) -> None:
            ops.append("h")

    for row, line in enumerate(lines):
        x, y = 40.0, 760.0 - row * size * 1.6
        for char in line:
            name = cmap[ord(char)]
            glyphs[name].draw(PdfPen(x, y))
            x += glyphs[name].width * scale
        ops.append("f")
    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(595, 842))
    page.Contents = pdf.make_stream(("0 g\n" + "\n".join(ops)).encode("ascii"))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_a_page_of_outlined_text_is_read_by_ocr() -> None:
    require_binary("tesseract", "tesseract-ocr")
    document = goblin_core.extract(_outlined_text_pdf(LINES), name="outlines.pdf",
                                   ocr_languages="eng")
    page = document.pages[0]
    assert (page.status, page.engine) == ("ocr", "ocr.tesseract")
    assert normalize(LINES[0]) in normalize(page.text)


def test_with_ocr_off_the_outlined_page_reads_as_empty() -> None:
    document = goblin_core.extract(_outlined_text_pdf(LINES), name="outlines.pdf", ocr="never")
    assert document.pages[0].text == ""
    assert document.pages[0].status == "empty"
