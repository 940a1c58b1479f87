"""GoblinTools 0.13.4's TextExtractor on one Office file (OCR off)."""

import logging

import goblintools
from goblintools import TextExtractor
from peer_protocol import run_peer

logging.disable(logging.WARNING)
extractor = TextExtractor(ocr_handler=False)


def extract(path: str) -> tuple[int, str]:
    return 1, extractor.extract_from_file(path)


run_peer("goblintools", goblintools.__version__, extract)
