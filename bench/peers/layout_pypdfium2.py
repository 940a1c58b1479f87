"""Raw pypdfium2: each page's text in PDFium's own (content-stream) order."""

import pypdfium2 as pdfium
from peer_protocol import run_peer


def extract(path: str) -> tuple[int, str]:
    pdf = pdfium.PdfDocument(path)
    try:
        texts = []
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            texts.append(textpage.get_text_range())
            textpage.close()
            page.close()
        return len(texts), "\n".join(texts)
    finally:
        pdf.close()


run_peer("pypdfium2 (raw order)", pdfium.PYPDFIUM_INFO.version, extract)
