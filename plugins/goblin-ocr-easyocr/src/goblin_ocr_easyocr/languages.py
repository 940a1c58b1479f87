"""Tesseract language codes mapped to EasyOCR's, and the model each one needs."""

from __future__ import annotations

from collections.abc import Iterable

#: Tesseract (ISO 639-2) code -> EasyOCR code, for the languages goblin's users read most.
TESSERACT_TO_EASYOCR = {
    "eng": "en", "por": "pt", "spa": "es", "fra": "fr", "deu": "de", "ita": "it",
    "nld": "nl", "ces": "cs", "pol": "pl", "ron": "ro", "swe": "sv", "dan": "da",
    "nor": "no", "fin": "fi", "tur": "tr", "vie": "vi", "ind": "id", "rus": "ru",
    "ukr": "uk", "ara": "ar", "hin": "hi", "kor": "ko", "jpn": "ja", "chi_sim": "ch_sim",
    "chi_tra": "ch_tra", "tha": "th",
}

#: EasyOCR recognition model file per language group (easyocr's own grouping).
_MODEL_FILES = {
    "en": "english_g2.pth",
    "ch_sim": "zh_sim_g2.pth", "ch_tra": "zh_tra_g2.pth",
    "ja": "japanese_g2.pth", "ko": "korean_g2.pth", "th": "thai.pth",
    "ru": "cyrillic_g2.pth", "uk": "cyrillic_g2.pth",
    "ar": "arabic.pth", "hi": "devanagari.pth",
}
_LATIN_MODEL = "latin_g2.pth"

DETECTOR_FILE = "craft_mlt_25k.pth"


def easyocr_codes(languages: str) -> list[str]:
    """``por+eng`` -> ``["pt", "en"]``; codes EasyOCR already uses pass through.

    >>> easyocr_codes("por+eng+xyz")
    ['pt', 'en', 'xyz']
    """
    codes: list[str] = []
    for code in languages.replace(",", "+").split("+"):
        code = code.strip()
        mapped = TESSERACT_TO_EASYOCR.get(code, code)
        if mapped and mapped not in codes:
            codes.append(mapped)
    return codes


def model_file(code: str) -> str:
    """The recognition model EasyOCR loads for a language (Latin scripts share one)."""
    return _MODEL_FILES.get(code, _LATIN_MODEL)


def readable(codes: Iterable[str], present: set[str]) -> list[str]:
    """The codes whose recognition model file is in ``present``.

    EasyOCR reads English with any Latin model, so "en" also counts when
    only latin_g2.pth is there.
    """
    chosen = []
    for code in codes:
        if model_file(code) in present or (code == "en" and _LATIN_MODEL in present):
            chosen.append(code)
    return chosen
