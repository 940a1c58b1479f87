"""pdfminer.six with its layout analysis (default LAParams), page by page."""

from importlib.metadata import version

from pdfminer.high_level import extract_pages
from pdfminer.layout import LAParams, LTTextContainer
from peer_protocol import run_peer


def extract(path: str) -> tuple[int, str]:
    texts = []
    for page in extract_pages(path, laparams=LAParams()):
        texts.append("".join(e.get_text() for e in page if isinstance(e, LTTextContainer)))
    return len(texts), "\n".join(texts)


run_peer("pdfminer.six LAParams", version("pdfminer.six"), extract)
