"""goblin's extract_many on a batch, with BENCH_OCR (always/auto) and BENCH_JOBS workers."""

import logging
import os
from importlib.metadata import version

from peer_protocol import run_batch

import goblin_core

logging.disable(logging.WARNING)
MODE = os.environ.get("BENCH_OCR", "auto")
JOBS = int(os.environ.get("BENCH_JOBS", "1"))


def ocr_pages(document: goblin_core.Document) -> int:
    """Pages (attachments' and members' too) an OCR engine was run on."""
    own = sum(1 for p in document.pages if any(a.engine.startswith("ocr.") for a in p.attempts))
    return own + sum(ocr_pages(child) for child in document.children)


def batch(files: list[str]):
    # extract_many names a document by its file name: map it back to the path given.
    by_name = {os.path.basename(f): f for f in files}
    for document in goblin_core.extract_many(files, jobs=JOBS, ocr=MODE):
        error = document.report.errors[0].message if document.report.errors else ""
        yield (by_name.get(document.name, document.name), len(document.pages), document.text,
               {"ocr_pages": ocr_pages(document)}, error)


# Worker processes (Dask's nannies) may import this script again: run only as main.
if __name__ == "__main__":
    run_batch(f"goblin ocr={MODE} jobs={JOBS}", version("goblin-core"), batch)
