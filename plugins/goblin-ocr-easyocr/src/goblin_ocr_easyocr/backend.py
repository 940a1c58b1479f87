"""The EasyOCR backend (``ocr.easyocr``): local OCR on torch, below Tesseract by default."""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine
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
        for module, hint in _NEEDED_MODULES:
            if importlib.util.find_spec(module) is None:
                return False, f"{module} is not installed: {hint}"
        reason = missing_reason(model_dir(configured_options()))
        return (not reason), reason

    def recognize(self, image: Any, languages: str, config: Config) -> OCRResult:
        """Read a page image; ``OCRResult("", 0.0)`` (with a log line) when it cannot."""
        options = config.section("easyocr")
        folder = model_dir(options)
        codes = self._codes(str(options["languages"]) or languages, folder)
        if not codes:
            return EMPTY_OCR
        try:
            reader = self._reader(folder, codes, bool(options["gpu"]))
            pixels = _pixels(image)
            found = detections(reader.readtext(pixels, detail=1, paragraph=False))
        except (OSError, RuntimeError, ValueError) as exc:
            log.warning("EasyOCR could not read the page: %s", exc)
            return EMPTY_OCR
        return OCRResult(join_lines(found), mean_confidence(found))

    def _codes(self, languages: str, folder: Path) -> tuple[str, ...]:
        wanted = easyocr_codes(languages)
        usable = readable(wanted, present_models(folder))
        if not usable:
            log.error("EasyOCR has no model for %s in %s: %s", "+".join(wanted), folder,
                      missing_reason(folder) or "add the language's .pth file there")
            return ()
        skipped = tuple(c for c in wanted if c not in usable)
        if skipped and skipped not in self._warned:
            self._warned.add(skipped)
            log.warning("EasyOCR has no model for %s in %s; reading with %s only",
                        "+".join(skipped), folder, "+".join(usable))
        return tuple(usable)

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
