"""Hook implementations of goblin-ocr-easyocr."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goblin_core import hookimpl
from goblin_ocr_easyocr.backend import EasyOCRBackend
from goblin_ocr_easyocr.options import EASYOCR_OPTIONS


@hookimpl
def goblin_register_ocr_backends(register: Callable[[Any], None]) -> None:
    register(EasyOCRBackend())


@hookimpl
def goblin_register_options(register: Callable[..., None]) -> None:
    register("easyocr", EASYOCR_OPTIONS, extra="easyocr",
             help="EasyOCR (opt-in local OCR on torch): model folder, languages, GPU.")
