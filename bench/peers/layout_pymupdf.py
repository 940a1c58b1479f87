"""PyMuPDF's text sorted by position (get_text(sort=True))."""

import pymupdf
from peer_protocol import run_peer


def extract(path: str) -> tuple[int, str]:
    with pymupdf.open(path) as doc:
        texts = [page.get_text(sort=True) for page in doc]
    return len(texts), "\n".join(texts)


run_peer("PyMuPDF sort=True", pymupdf.VersionBind, extract)
