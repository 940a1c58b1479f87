"""The PDF version is written as the file writes it ("1.4"), by both parsers alike: PDFium
gave a number (14), the pypdf parser none."""

from __future__ import annotations

import io

import pytest
from pdf_builders import reportlab_pdf

from goblin_core import extract


def _with_header(data: bytes, version: bytes) -> bytes:
    return data.replace(data[:8], b"%PDF-" + version, 1)


@pytest.mark.parametrize("engines", [{}, {"pdf.pypdfium2": {"enabled": False}}])
@pytest.mark.parametrize("version", [b"1.4", b"1.7"])
def test_both_parsers_give_the_version_the_file_names(engines: dict[str, object],
                                                      version: bytes) -> None:
    data = _with_header(reportlab_pdf(("Texto da página.",)), version)
    document = extract(io.BytesIO(data), name="versao.pdf", ocr="never", engines=engines)
    assert document.raw_metadata["pdf_version"] == version.decode()
