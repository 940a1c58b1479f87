"""goblin with its default PDF chain and OCR off, in process."""

import logging
import os
from importlib.metadata import version

from peer_protocol import run_peer

import goblin_core

logging.disable(logging.WARNING)
registry = goblin_core.default_registry()
config = registry.config(ocr=os.environ.get("BENCH_OCR", "never"))


def extract(path: str) -> tuple[int, str]:
    document = goblin_core.extract(path, config=config, registry=registry)
    return len(document.pages), document.text


run_peer("goblin", version("goblin-core"), extract)
