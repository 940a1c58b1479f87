"""GoblinTools' configuration objects and their translation into goblin options.

These stay plain (mutable) dataclasses because GoblinTools callers assign to
them (``config.ocr.use_aws = True``); goblin's own Config is built from them
per call and is immutable.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from goblin_core.compat.logging_policy import goblintools_logger

log = goblintools_logger("config")

TEXTRACT_ENGINE = "ocr.textract"
TEXTRACT_NAMESPACE = "textract"

#: GoblinTools credential field -> option names the textract plugin may declare for it.
_TEXTRACT_FIELDS: Mapping[str, tuple[str, ...]] = {
    "aws_access_key": ("access_key_id", "aws_access_key_id", "access_key", "aws_access_key"),
    "aws_secret_key": ("secret_access_key", "aws_secret_access_key", "secret_key",
                       "aws_secret_key"),
    "aws_session_token": ("session_token", "aws_session_token"),
    "aws_region": ("region", "region_name", "aws_region"),
    "use_default_aws_credentials": ("use_default_credentials", "default_credentials",
                                    "use_default_aws_credentials"),
}


@dataclass
class OCRConfig:
    """OCR settings: Tesseract language, or AWS Textract with its credentials."""

    use_aws: bool = False
    aws_access_key: str | None = None
    aws_secret_key: str | None = None
    aws_region: str = "us-east-1"
    tesseract_lang: str = "por"
    aws_session_token: str | None = None
    use_default_aws_credentials: bool = False
    pdf_ocr_dpi: int = 200
    max_ocr_pages: int | None = None

    @property
    def has_aws_credentials(self) -> bool:
        return bool(self.aws_access_key and self.aws_secret_key) or self.use_default_aws_credentials


@dataclass
class ArchiveLimits:
    """Caps for archive extraction; ``max_depth`` counts archive levels opened."""

    max_depth: int = 3
    max_members: int = 500
    max_member_bytes: int = 200 * 1024 * 1024
    max_total_bytes: int = 1024 * 1024 * 1024


@dataclass
class GoblinConfig:
    """GoblinTools' top-level configuration; JSON round trip with ``to_file``/``from_file``."""

    max_file_size: int = 100 * 1024 * 1024
    ocr: OCRConfig = None  # type: ignore[assignment]  # GoblinTools' signature: None means default
    archive_limits: ArchiveLimits = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.ocr is None:
            self.ocr = OCRConfig()
        if self.archive_limits is None:
            self.archive_limits = ArchiveLimits()

    @classmethod
    def from_file(cls, config_path: str | Path) -> GoblinConfig:
        """Load a JSON file written by ``to_file`` (or by GoblinTools)."""
        path = Path(config_path)
        if not path.exists():
            raise FileNotFoundError(f"Config file not found: {path}")
        data = json.loads(path.read_text(encoding="utf-8"))
        ocr = OCRConfig(**(data.pop("ocr", None) or {}))
        limits = ArchiveLimits(**(data.pop("archive_limits", None) or {}))
        return cls(ocr=ocr, archive_limits=limits, **data)

    def to_file(self, config_path: str | Path) -> None:
        """Write this configuration as indented JSON, creating parent folders."""
        path = Path(config_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(asdict(self), indent=2), encoding="utf-8")

    @classmethod
    def default(cls) -> GoblinConfig:
        return cls()


#: pdf2image's own resolution, GoblinTools' default.
DEFAULT_DPI = 200


def ocr_of(config: GoblinConfig) -> OCRConfig:
    """``config.ocr``, or the default when a caller set it to None after construction
    (GoblinTools reads it only when OCR runs, so a text file still reads)."""
    return config.ocr if config.ocr is not None else OCRConfig()


def limits_of(config: GoblinConfig) -> ArchiveLimits:
    """``config.archive_limits``, or the default when a caller set it to None (as
    GoblinTools' ExtractionBudget takes None)."""
    return config.archive_limits if config.archive_limits is not None else ArchiveLimits()


def _dpi(value: Any) -> int:
    """The OCR resolution asked for, pdf2image's default when it is no number (None)."""
    try:
        return int(float(value))
    except (TypeError, ValueError):
        return DEFAULT_DPI


def limit_options(limits: ArchiveLimits | None) -> dict[str, Any]:
    """goblin ``limits`` options for GoblinTools' archive limits."""
    limits = limits or ArchiveLimits()
    return {
        # GoblinTools counts the top-level archive as a level; goblin counts the
        # archives a member sits inside, which is the same number. GoblinTools opens
        # the top-level archive whatever the limit says (0 or less acts as 1).
        "max_depth": max(int(limits.max_depth), 1),
        "max_members": max(int(limits.max_members), 1),
        # A size below 0 refuses every member, as 0 does (GoblinTools compares sizes
        # with it); goblin's config refuses negative limits.
        "max_member_size": max(int(limits.max_member_bytes), 0),
        "max_total_bytes": max(int(limits.max_total_bytes), 0),
    }


def goblin_options(
    config: GoblinConfig,
    *,
    ocr: bool,
    tables: bool = False,
    namespaces: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``goblin_core.extract`` options that do what a GoblinTools config asks.

    ``namespaces`` are the registry's declared config namespaces, used to pass
    Textract credentials only under option names its plugin declares.
    ``max_file_size`` is not among them: GoblinTools applies it to the files of
    a folder and to bytes, never to a file asked for by name, and so does the
    facade (goblin's own ``limits.max_file_size`` still guards every read).
    """
    ocr_config = ocr_of(config)
    options: dict[str, Any] = {
        "ocr": "auto" if ocr else "never",
        "tables": bool(tables),
        "ocr_languages": ocr_config.tesseract_lang or "por",
        "ocr_dpi": max(_dpi(ocr_config.pdf_ocr_dpi), 50),
        **limit_options(config.archive_limits),
    }
    if ocr and ocr_config.use_aws:
        options.update(_textract_options(ocr_config, namespaces or {}))
    return options


def _textract_options(ocr: OCRConfig, namespaces: Mapping[str, Any]) -> dict[str, Any]:
    if not ocr.has_aws_credentials:
        log.warning("use_aws=True without AWS credentials (and use_default_aws_credentials "
                    "is off): OCR runs locally instead of on Textract")
        return {}
    options: dict[str, Any] = {
        "ocr_backends": [TEXTRACT_ENGINE],
        "engines": {TEXTRACT_ENGINE: {"enabled": True}},
    }
    namespace = namespaces.get(TEXTRACT_NAMESPACE)
    declared = set(getattr(namespace, "by_name", {}) or {})
    settings: dict[str, Any] = {}
    for field_name, candidates in _TEXTRACT_FIELDS.items():
        value = getattr(ocr, field_name)
        if value in (None, "", False):
            continue
        key = next((c for c in candidates if c in declared), None)
        if key is None:
            log.warning("the Textract plugin declares no option for %s; it is not passed on",
                        field_name)
            continue
        settings[key] = value
    if settings:
        options[TEXTRACT_NAMESPACE] = settings
    return options
