"""pdfplumber's raw extract_tables (default settings), page by page."""

import pdfplumber
from peer_protocol import run_peer


def extract(path: str) -> tuple[int, str, dict[str, float]]:
    cells, count = [], 0
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            for table in page.extract_tables():
                count += 1
                cells += [" ".join(c or "" for c in row) for row in table]
            page.close()
        return len(pdf.pages), "\n".join(cells), {"tables": count}


run_peer("pdfplumber extract_tables", pdfplumber.__version__, extract)
