"""pdfminer.six's high-level extract_text (default LAParams)."""

from importlib.metadata import version

from pdfminer.high_level import extract_text
from peer_protocol import run_peer


def extract(path: str) -> tuple[int, str]:
    text = extract_text(path)
    # pdfminer ends every page with a form feed.
    return max(text.count("\f"), 1), text


run_peer("pdfminer.six", version("pdfminer.six"), extract)
