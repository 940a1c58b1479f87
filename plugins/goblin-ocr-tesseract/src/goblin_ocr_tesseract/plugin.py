"""Hook implementations of goblin-ocr-tesseract."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goblin_core import hookimpl
from goblin_ocr_tesseract.backend import TesseractBackend
from goblin_ocr_tesseract.images import ImageParser
from goblin_ocr_tesseract.options import TESSERACT_OPTIONS


@hookimpl
def goblin_register_ocr_backends(register: Callable[[Any], None]) -> None:
    register(TesseractBackend())


@hookimpl
def goblin_register_parsers(register: Callable[[Any], None]) -> None:
    register(ImageParser())


@hookimpl
def goblin_register_options(register: Callable[..., None]) -> None:
    register("tesseract", TESSERACT_OPTIONS, extra="ocr",
             help="Tesseract OCR: languages, page segmentation, resolution, time per page.")
