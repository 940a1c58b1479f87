"""GoblinTools 0.13.4's TextExtractor with local Tesseract OCR on."""

import logging

import goblintools
from goblintools import TextExtractor
from peer_protocol import run_peer

logging.disable(logging.WARNING)
extractor = TextExtractor(ocr_handler=True)


def extract(path: str) -> tuple[int, str]:
    text = extractor.extract_from_file(path)
    report = extractor.last_extraction_report
    pages = len(report.pages) if report is not None else 0
    return pages, text


run_peer("goblintools ocr", goblintools.__version__, extract)
