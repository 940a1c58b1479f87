"""pdfplumber's extract_text, page by page."""

import pdfplumber
from peer_protocol import run_peer


def extract(path: str) -> tuple[int, str]:
    with pdfplumber.open(path) as pdf:
        parts = []
        for page in pdf.pages:
            parts.append(page.extract_text() or "")
            page.close()
        return len(pdf.pages), "\n".join(parts)


run_peer("pdfplumber", pdfplumber.__version__, extract)
