"""Corpus PDFs extracted once per test session through the real pipeline (OCR off)."""

from __future__ import annotations

import functools
from pathlib import Path

from goblin_core import extract
from goblin_core.model import Document
from goblin_core.testing.corpus import ManifestRow, find_corpus, manifest

HERE = Path(__file__).resolve().parent
CORPUS = find_corpus(HERE)

#: Features that mean the text layer is missing, unreadable or locked.
NOT_CLEAN_FEATURES = frozenset(
    {"garbage-text-layer", "scanned", "image-only", "no-extractable-text", "corrupt",
     "encrypted-pw"}
)


def has_unreadable_pages(row: ManifestRow) -> bool:
    """True when a feature says some pages have no usable text layer.

    ``mixed-scanned-text`` counts: its scanned pages draw an image and no text.
    """
    return bool(row.features & NOT_CLEAN_FEATURES) or "mixed-scanned-text" in row.features


def pdf_rows() -> list[ManifestRow]:
    """MANIFEST rows of the corpus PDFs (empty when the corpus is missing)."""
    if CORPUS is None:
        return []
    return [r for r in manifest(CORPUS) if r.file.startswith("pdf/")]


@functools.cache
def extracted(file: str) -> Document:
    """The Document for a corpus PDF, with its MANIFEST password when it has one."""
    assert CORPUS is not None
    row = next(r for r in pdf_rows() if r.file == file)
    options = {"password": row.password} if row.password else {}
    return extract(CORPUS / file, ocr="never", **options)


def all_text(document: Document) -> str:
    """The text of the document and of every embedded document."""
    return "\n".join(d.text for d in document.walk())
