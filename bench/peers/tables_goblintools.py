"""GoblinTools 0.13.4's extract_pdf_tables (pdfplumber with its filters and repairs)."""

import logging

import goblintools
from goblintools import extract_pdf_tables
from peer_protocol import run_peer

logging.disable(logging.WARNING)


def extract(path: str) -> tuple[int, str, dict[str, float]]:
    tables = extract_pdf_tables(path)
    cells = "\n".join(" ".join(c or "" for c in row) for t in tables for row in t["rows"])
    # pages come from the reference peer: counting them here would be timed
    return 0, cells, {"tables": len(tables)}


run_peer("goblintools extract_pdf_tables", goblintools.__version__, extract)
