"""GoblinTools 0.13.4's README ("Brazilian Portuguese Support") hands an ``OCRConfig``
to ``TextExtractor(config=...)``; GoblinTools then raised AttributeError. Its OCR
settings are what the caller means, and they are applied."""

from __future__ import annotations

from pathlib import Path

from goblin_core.compat import OCRConfig, TextExtractor


def test_an_ocr_config_given_as_config_sets_the_ocr(tmp_path: Path) -> None:
    multi_config = OCRConfig(tesseract_lang="por+eng")
    extractor_multi = TextExtractor(ocr_handler=True, config=multi_config)
    assert extractor_multi.config.ocr is multi_config
    assert extractor_multi.ocr_handler is not None
    assert extractor_multi.goblin_config().core["ocr_languages"] == "por+eng"
    path = tmp_path / "documento_brasileiro.txt"
    path.write_text("Proposta de preços", encoding="utf-8")
    assert TextExtractor(config=OCRConfig(tesseract_lang="por")).extract_from_file(
        str(path), display_path="documento_brasileiro.txt") == (
        'file_path_pwd:"documento_brasileiro.txt"\nProposta de preços')
