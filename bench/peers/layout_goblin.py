"""goblin's reading order: PDFium glyph boxes regrouped into columns, every page rebuilt."""

from importlib.metadata import version

import pypdfium2 as pdfium
from peer_protocol import run_peer

from goblin_pdf.layout import LayoutSettings, read_page_layout

SETTINGS = LayoutSettings(layout="reading_order", marked_content="none")


def extract(path: str) -> tuple[int, str]:
    pdf = pdfium.PdfDocument(path)
    try:
        texts = []
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            raw = textpage.get_text_range()
            texts.append(read_page_layout(page, textpage, raw, SETTINGS).text)
            textpage.close()
            page.close()
        return len(texts), "\n".join(texts)
    finally:
        pdf.close()


run_peer("goblin reading order", version("goblin-pdf"), extract)
