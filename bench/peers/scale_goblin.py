"""goblin's extract_many on a whole batch: BENCH_EXECUTOR, BENCH_JOBS workers, OCR off."""

import logging
import os
from importlib.metadata import version

from peer_protocol import run_batch

import goblin_core

logging.disable(logging.WARNING)
EXECUTOR = os.environ.get("BENCH_EXECUTOR", "executor.local")
JOBS = int(os.environ.get("BENCH_JOBS", "1"))


def batch(files: list[str]):
    for document in goblin_core.extract_many(files, jobs=JOBS, executor=EXECUTOR, ocr="never"):
        error = document.report.errors[0].message if document.report.errors else ""
        yield document.name, len(document.pages), "", {}, error


# Worker processes (Dask's nannies) may import this script again: run only as main.
if __name__ == "__main__":
    label = f"goblin {EXECUTOR.removeprefix('executor.')} jobs={JOBS}"
    run_batch(label, version("goblin-core"), batch)
