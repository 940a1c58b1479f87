"""The EasyOCR backend (``ocr.easyocr``): local OCR on torch, below Tesseract by default."""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine
from goblin_core.errors import EngineFailed
from goblin_core.model import EMPTY_OCR, OCRResult
from goblin_ocr_easyocr.languages import easyocr_codes, readable
from goblin_ocr_easyocr.lines import detections, join_lines, mean_confidence
from goblin_ocr_easyocr.models import configured_options, missing_reason, model_dir, present_models

log = logging.getLogger(__name__)

_NEEDED_MODULES = (
    ("torch", "pip install torch torchvision (CPU builds are enough; see the plugin README)"),
    ("easyocr", "pip install easyocr"),
)


class EasyOCRBackend(BaseEngine):
    """EasyOCR (CRAFT detection, CRNN recognition) on the CPU, one torch thread per worker."""

    name = "ocr.easyocr"
    formats = ("*",)
    priority = 50
    cloud = False

    def __init__(self) -> None:
        # Loading a Reader costs seconds and hundreds of MB: one per model set, kept.
        self._readers: dict[tuple[str, tuple[str, ...], bool], Any] = {}
        self._warned: set[tuple[str, ...]] = set()

    def available(self) -> tuple[bool, str]:
        """torch, easyocr and the model files present; never imports torch, never downloads."""
        reason = _missing_module() or missing_reason(model_dir(configured_options()))
        return (not reason), reason

    def available_for(self, config: Config) -> tuple[bool, str]:
        """As ``available()``, for the model folder and languages this call's config asks
        for: unavailable when the folder lacks the models or none of the languages has
        one, so the report names what to install instead of the pages passing for blank."""
        options = config.section("easyocr")
        folder = model_dir(options)
        reason = _missing_module() or missing_reason(folder)
        if reason:
            return False, reason
        wanted = easyocr_codes(_languages(options, config))
        if not readable(wanted, present_models(folder)):
            return False, _no_model_message(wanted, folder)
        return True, ""

    def recognize(self, image: Any, languages: str, config: Config) -> OCRResult:
        """Read a page image; ``OCRResult("", 0.0)`` (with a log line) when it has no
        pixels or no model reads its languages. EasyOCR breaking down on the page (torch
        out of memory, a model file it cannot load) raises EngineFailed, so the page's
        attempts say why it has no OCR text; languages read without their model are
        the result's ``MissingLanguage`` warning."""
        if not _readable(image):
            return EMPTY_OCR
        options = config.section("easyocr")
        folder = model_dir(options)
        wanted = easyocr_codes(str(options["languages"]) or languages)
        codes = tuple(readable(wanted, present_models(folder)))
        if not codes:
            log.error("%s: %s", _no_model_message(wanted, folder),
                      missing_reason(folder) or "add the language's .pth file there")
            return EMPTY_OCR
        try:
            reader = self._reader(folder, codes, bool(options["gpu"]))
            pixels = _pixels(image)
            found = detections(reader.readtext(pixels, detail=1, paragraph=False))
        except (OSError, RuntimeError, ValueError) as exc:
            raise EngineFailed(f"EasyOCR failed on a {image.width}x{image.height} page "
                               f"image: {exc}") from None
        skipped = tuple(c for c in wanted if c not in codes)
        if skipped and skipped not in self._warned:
            self._warned.add(skipped)
            log.warning("EasyOCR has no model for %s in %s; reading with %s only",
                        "+".join(skipped), folder, "+".join(codes))
        warnings = ((("MissingLanguage",
                      f"EasyOCR has no model for {'+'.join(skipped)} in {folder}; read with "
                      f"{'+'.join(codes)} only (add the language's .pth file there)"),)
                    if skipped else ())
        return OCRResult(join_lines(found), mean_confidence(found), warnings)

    def _reader(self, folder: Path, codes: tuple[str, ...], gpu: bool) -> Any:
        key = (str(folder), codes, gpu)
        if key not in self._readers:
            import easyocr
            import torch

            # The executor owns the cores: one worker, one thread (as Tesseract).
            torch.set_num_threads(1)
            self._readers[key] = easyocr.Reader(
                list(codes), gpu=gpu, model_storage_directory=str(folder),
                user_network_directory=str(folder), download_enabled=False, verbose=False,
            )
        return self._readers[key]


def _pixels(image: Any) -> Any:
    import numpy

    if image.mode in ("RGBA", "LA", "P", "PA"):
        image = image.convert("RGBA")
        from PIL import Image

        white = Image.new("RGBA", image.size, (255, 255, 255, 255))
        white.alpha_composite(image)
        image = white
    return numpy.asarray(image.convert("RGB"))


def _missing_module() -> str:
    for module, hint in _NEEDED_MODULES:
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed: {hint}"
    return ""


def _languages(options: Any, config: Config) -> str:
    return str(options["languages"]) or str(config.section("goblin")["ocr_languages"])


def _no_model_message(wanted: list[str], folder: Path) -> str:
    return f"EasyOCR has no model for {'+'.join(wanted) or 'any language'} in {folder}"


def _readable(image: Any) -> bool:
    """Whether ``image`` is a PIL image with pixels; says why not in the log."""
    if not hasattr(image, "convert") or not getattr(image, "width", 0) \
            or not getattr(image, "height", 0):
        log.warning("EasyOCR was handed %s, not a page image with pixels: no OCR text",
                    type(image).__name__)
        return False
    return True
