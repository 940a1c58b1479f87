"""Raw pypdfium2: page text through PDFium's text page, nothing else."""

import pypdfium2 as pdfium
from peer_protocol import run_peer


def extract(path: str) -> tuple[int, str]:
    pdf = pdfium.PdfDocument(path)
    parts = []
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            parts.append(textpage.get_text_range())
            textpage.close()
            page.close()
        return len(pdf), "\n".join(parts)
    finally:
        pdf.close()


run_peer("pypdfium2", pdfium.PYPDFIUM_INFO.version, extract)
