"""Files damaged past what PDFium mends, and pages whose drawing did not survive:
the text that is still in the file is read, and what is lost is reported, never a
silent blank page."""

from __future__ import annotations

import io

import pikepdf
from pdf_builders import helvetica_pages, saved

from goblin_core import extract


def numbered_pages(count: int) -> bytes:
    """``count`` pages, each saying its number; reportlab writes every page object
    first and the content streams after them, as many writers do."""
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    canvas = Canvas(out, pageCompression=1)
    for number in range(1, count + 1):
        canvas.setFont("Helvetica", 11)
        for line in range(30):
            canvas.drawString(40, 800 - 20 * line, f"Folha {number} do processo, linha {line}")
        canvas.showPage()
    canvas.save()
    return out.getvalue()


def test_a_pdf_cut_short_is_read_up_to_the_cut_and_the_lost_pages_are_failed() -> None:
    whole = numbered_pages(10)
    cut = whole[: len(whole) * 6 // 10]
    document = extract(cut, name="cortado.pdf", ocr="never")
    assert document.parsed_by[0] == "pdf.pypdfium2"
    read = [p for p in document.pages if p.status == "clean"]
    lost = [p for p in document.pages if p.status == "failed"]
    assert read and lost and len(read) + len(lost) == 10
    for page in read:
        assert f"Folha {page.number} do processo, linha 29" in page.text
    assert all(not p.text for p in lost)
    assert [p.number for p in read] == list(range(1, len(read) + 1))
    assert document.status == "partially_recovered"
    assert document.raw_metadata["rebuilt"] is True
    assert any("qpdf rebuilt" in w.message and f"{len(lost)} page(s) lost" in w.message
               for w in document.report.warnings)
    assert any("part of the file that is lost" in a.error
               for a in lost[0].attempts if a.error)
    # the recovery engines read qpdf's copy too, where the damaged file failed them again
    assert not any("recovery engine" in w.message for w in document.report.warnings)
    assert any(a.engine == "pdf.pdfplumber" and not a.error for a in lost[0].attempts)


def test_a_page_whose_content_stream_does_not_decode_is_failed_not_blank() -> None:
    pdf = helvetica_pages(*(f"BT /F1 12 Tf 72 700 Td (Folha {n} do processo) Tj ET"
                            for n in (1, 2, 3)))
    pdf.pages[1].obj.Contents.write(b"\xff\xff not deflate", filter=pikepdf.Name.FlateDecode)
    document = extract(saved(pdf), name="folha-danificada.pdf", ocr="never")
    assert [(p.number, p.status) for p in document.pages] == [
        (1, "clean"), (2, "failed"), (3, "clean")]
    assert "Folha 3 do processo" in document.pages[2].text
    assert document.pages[1].reason == "error"
    assert any("content stream cannot be decoded" in (a.error or "")
               for a in document.pages[1].attempts)
    assert document.status == "partially_recovered"


def test_a_blank_page_stays_empty() -> None:
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (Capa) Tj ET", "", "q Q")
    document = extract(saved(pdf), name="em-branco.pdf", ocr="never")
    assert [p.status for p in document.pages] == ["clean", "empty", "empty"]
    assert document.status == "clean"
