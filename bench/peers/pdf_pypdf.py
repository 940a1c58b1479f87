"""pypdf's extract_text, page by page."""

import pypdf
from peer_protocol import run_peer


def extract(path: str) -> tuple[int, str]:
    reader = pypdf.PdfReader(path)
    if reader.is_encrypted:
        reader.decrypt("")
    return len(reader.pages), "\n".join(p.extract_text() or "" for p in reader.pages)


run_peer("pypdf", pypdf.__version__, extract)
