"""Hook implementations of goblin-ocr-textract."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goblin_core import hookimpl
from goblin_ocr_textract.backend import TextractBackend
from goblin_ocr_textract.options import TEXTRACT_OPTIONS


@hookimpl
def goblin_register_ocr_backends(register: Callable[[Any], None]) -> None:
    register(TextractBackend())


@hookimpl
def goblin_register_options(register: Callable[..., None]) -> None:
    register("textract", TEXTRACT_OPTIONS, extra="textract",
             help="AWS Textract (cloud OCR, opt-in): region, credentials profile, S3 bucket, "
                  "retries.")
