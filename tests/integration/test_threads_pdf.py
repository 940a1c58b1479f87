"""Corpus PDFs extracted from several threads come back exactly as a serial run reads them.

PDFium is not thread-safe: without the process-wide lock ``extract`` holds,
threads got each other's or empty text, still marked clean.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from goblin_core import GoblinError, extract
from goblin_core.testing.corpus import corpus_dir, manifest

FILES = 16


def _pdfs() -> list[Path]:
    root = corpus_dir(__file__)
    rows = [row for row in manifest(root) if row.file.endswith(".pdf")]
    return [root / row.file for row in rows[:FILES]]


def _read(path: Path) -> tuple[str, str, tuple[str, ...]]:
    try:
        document = extract(path, ocr="never")
    except GoblinError as exc:
        return "error", exc.kind, ()
    return document.status, document.text, tuple(p.status for p in document.pages)


def test_threads_read_the_corpus_pdfs_exactly_as_a_serial_run() -> None:
    pdfs = _pdfs()
    assert len(pdfs) == FILES
    serial = [_read(path) for path in pdfs]
    with ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(_read, pdfs))
    different = [p.name for p, a, b in zip(pdfs, serial, threaded, strict=True) if a != b]
    assert different == []
