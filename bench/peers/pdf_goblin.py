"""goblin with its default PDF chain and OCR off, in process."""

import logging
import os
from importlib.metadata import version

import pikepdf  # noqa: F401
import pypdf  # noqa: F401
from peer_protocol import run_peer

import goblin_core

# Imports are not timed for any peer: the module goblin loads the first time a page is
# rebuilt from its glyph boxes (it brings NumPy), pypdf, which counts forms and
# decrypts encrypted streams to look for bombs, and pikepdf, which reads the XMP packet
# of a PDF whose information dictionary names no title or author, are imported here
# with the rest.
import goblin_pdf.layout.rebuild  # noqa: F401

logging.disable(logging.WARNING)
registry = goblin_core.default_registry()
# BENCH_PDF_FAST=1: PDFium's own text order, no column check and no structure tree
fast = ({"pdf": {"layout": "raw", "marked_content": "none"}}
        if os.environ.get("BENCH_PDF_FAST") else {})
config = registry.config(ocr=os.environ.get("BENCH_OCR", "never"), **fast)


def extract(path: str) -> tuple[int, str]:
    document = goblin_core.extract(path, config=config, registry=registry)
    return len(document.pages), document.text


run_peer("goblin (layout raw)" if fast else "goblin", version("goblin-core"), extract)
