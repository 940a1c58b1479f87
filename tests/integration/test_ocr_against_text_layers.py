"""Auto OCR of pages whose text layer is partly unread, with Tesseract for real: which
reading the page keeps, OCR's or its own."""

from __future__ import annotations

import io

import pytest

import goblin_core
from goblin_core.testing.corpus import contains_phrase, corpus_dir, require_binary

pikepdf = pytest.importorskip("pikepdf")
pytest.importorskip("reportlab")
from reportlab.pdfgen.canvas import Canvas  # noqa: E402

LINES = (
    "A Prefeitura Municipal torna público que realizará licitação na modalidade pregão",
    "presencial para aquisição de materiais de limpeza e higiene destinados às escolas,",
    "conforme especificações constantes do edital e seus anexos, em sessão pública.",
    "AVISO DE LICITAÇÃO PREGÃO PRESENCIAL CONTRATAÇÃO DE SERVIÇOS E PUBLICAÇÃO",
)


def _replacement_mapped_pdf(unread: str) -> bytes:
    """Helvetica lines whose ToUnicode map sends the letters ``unread`` to U+FFFD, as
    cairo writes it for glyphs it cannot name: PDFium reads them without a map error."""
    out = io.BytesIO()
    canvas = Canvas(out)
    canvas.setFont("Helvetica", 11)
    for index, line in enumerate(LINES):
        canvas.drawString(50, 780 - 16 * index, line)
    canvas.showPage()
    canvas.save()
    pdf = pikepdf.open(io.BytesIO(out.getvalue()))
    entries = []
    for code in range(0x20, 0x100):
        char = bytes([code]).decode("cp1252", errors="ignore")
        if char:
            entries.append(f"<{code:02X}> <{0xFFFD if char in unread else ord(char):04X}>")
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Goblin-Test-UCS def /CMapType 2 def\n"
        "1 begincodespacerange <00> <FF> endcodespacerange\n"
        + "".join(f"{len(chunk)} beginbfchar\n" + "\n".join(chunk) + "\nendbfchar\n"
                  for chunk in (entries[i:i + 100] for i in range(0, len(entries), 100)))
        + "endcmap CMapName currentdict /CIDInit defineresource pop end end\n"
    )
    for page in pdf.pages:
        for _, font in page.Resources.Font.items():
            font.ToUnicode = pdf.make_stream(cmap.encode("ascii"))
    saved = io.BytesIO()
    pdf.save(saved)
    return saved.getvalue()


def test_glyphs_mapped_to_the_replacement_character_send_the_page_to_ocr() -> None:
    require_binary("tesseract", "tesseract-ocr")
    document = goblin_core.extract(_replacement_mapped_pdf("çãÇÃ"), name="cedillas.pdf",
                                   ocr_languages="por")
    page = document.pages[0]
    layer = page.attempts[0]
    assert (layer.engine, layer.verdict, layer.reasons) == ("pdf.pypdfium2", "suspect",
                                                             ("unmapped",))
    # a clean render reads surely: the OCR text, with every letter, replaces the layer
    assert (page.status, page.engine, page.verdict) == ("ocr", "ocr.tesseract", "ok")
    assert document.report.ocr_pages == (1,)
    assert contains_phrase(page.text, "realizará licitação na modalidade pregão")
    assert contains_phrase(page.text, "AVISO DE LICITAÇÃO")


@pytest.mark.corpus
def test_a_page_of_formulas_keeps_its_layer_over_an_unsure_ocr() -> None:
    """GeoTopo's page 84: a few bracket pieces without a map make the layer suspect; OCR,
    unsure of the formulas (``M6biustransformation``), must not replace it."""
    require_binary("tesseract", "tesseract-ocr")
    path = corpus_dir(__file__) / "pdf" / "GeoTopo-komprimiert.pdf"
    document = goblin_core.extract(path, page_range="84", ocr_languages="deu")
    page = document.pages[0]
    ocr = next(a for a in page.attempts if a.engine == "ocr.tesseract")
    assert (ocr.verdict, ocr.reasons) == ("suspect", ("low_ocr_confidence",))
    assert (page.status, page.engine, page.verdict) == ("clean", "pdf.pypdfium2", "suspect")
    assert page.confidence > ocr.score
    assert contains_phrase(page.text, "σ heißt Möbiustransformation")
