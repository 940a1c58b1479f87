"""GoblinTools' ``extract_from_bytes``: in-memory bytes to tagged text and reports."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from goblin_core.compat.extractor import TextExtractor
from goblin_core.compat.logging_policy import goblintools_logger
from goblin_core.compat.report import ExtractionReport, worst_status
from goblin_core.compat.settings import GoblinConfig

log = goblintools_logger("bytes_api")


@dataclass
class BytesExtractionResult:
    """Text of every document (tagged), their reports, and what limits left out."""

    text: str = ""
    reports: dict[str, ExtractionReport] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)

    @property
    def overall_status(self) -> str:
        """The worst ``overall_status`` among the reports (``clean`` when there are none)."""
        return worst_status(list(self.reports.values()))


def safe_filename(filename: str | None) -> str:
    """The base name of a caller's file name (never a path), ``document`` when empty.

    >>> safe_filename("../../etc/passwd"), safe_filename("")
    ('passwd', 'document')
    """
    name = os.path.basename((filename or "").replace("\\", "/")).strip()
    return name if name not in ("", ".", "..") else "document"


def extract_from_bytes(
    data: bytes,
    filename: str,
    *,
    config: GoblinConfig | None = None,
    ocr_handler: bool = False,
    ocr_images: bool = False,
    suppress_warnings: bool | None = None,
) -> BytesExtractionResult:
    """Extract a document, image or archive held in memory; never raises.

    Archive members are tagged by their path inside the archive; nothing is
    written to disk except what a native engine needs. A fresh extractor per
    call makes it safe to call from several threads.
    """
    result = BytesExtractionResult()
    if not data:
        return result
    if not isinstance(data, (bytes, bytearray, memoryview)):
        log.error("Error extracting text from bytes (%s): expected bytes, got %s",
                  safe_filename(filename), type(data).__name__)
        return result
    config = config or GoblinConfig.default()
    name = safe_filename(filename)
    if len(data) > config.max_file_size:
        result.skipped.append(f"{name}: larger than max_file_size ({config.max_file_size} bytes)")
        return result
    extractor = TextExtractor(ocr_handler=ocr_handler, ocr_images=ocr_images, config=config,
                              suppress_warnings=suppress_warnings)
    tree = extractor.extract_tree(bytes(data), name, strip_root=True)
    result.text = tree.text
    result.reports = tree.reports
    result.skipped.extend(tree.skipped)
    return result
