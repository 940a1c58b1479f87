"""The smallest limits.max_memory reads a corpus PDF in a worker with every plugin loaded.

An idle worker (interpreter and every plugin, no document) is resident above
the option's 64 MB minimum; the limit counts what the document adds.
"""

from __future__ import annotations

from goblin_core import extract
from goblin_core.testing.corpus import corpus_dir, manifest


def test_a_pdf_is_read_in_a_worker_under_the_smallest_memory_limit() -> None:
    root = corpus_dir(__file__)
    pdf = next(root / row.file for row in manifest(root) if row.file.endswith(".pdf"))
    in_process = extract(pdf, ocr="never", max_pages=3)
    isolated = extract(pdf, ocr="never", max_pages=3, isolate=True, max_memory="64MB")
    assert isolated.text == in_process.text
    assert not isolated.report.error_kinds
