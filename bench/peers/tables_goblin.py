"""goblin's table extraction (tables=True, OCR off) on one PDF."""

import logging
from importlib.metadata import version

from peer_protocol import run_peer

import goblin_core

logging.disable(logging.WARNING)
registry = goblin_core.default_registry()
config = registry.config(ocr="never", tables=True)


def extract(path: str) -> tuple[int, str, dict[str, float]]:
    document = goblin_core.extract(path, config=config, registry=registry)
    tables = [t for page in document.pages for t in page.tables]
    cells = "\n".join(" ".join(row) for t in tables for row in t.rows)
    return len(document.pages), cells, {"tables": len(tables)}


run_peer("goblin tables", version("goblin-core"), extract)
