"""Engine and segmentation modes that read no text say so instead of leaving pages empty."""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

from PIL import Image

import goblin_core
from goblin_core import default_registry
from goblin_ocr_tesseract.backend import TesseractBackend

DrawPage = Callable[..., Image.Image]


def _model(folder: Path, code: str, *, legacy: bool) -> None:
    """A ``code.traineddata`` whose component table says whether the legacy engine's
    templates (component 3) are there; Tesseract lists it by its name alone."""
    offsets = [-1, -1, -1, 64 if legacy else -1]
    header = struct.pack("<i", len(offsets)) + struct.pack(f"<{len(offsets)}q", *offsets)
    (folder / f"{code}.traineddata").write_bytes(header + b"\x00" * 64)


def test_the_legacy_engine_without_legacy_models_is_unavailable_with_the_reason(
        tesseract: str, tmp_path: Path) -> None:
    _model(tmp_path, "eng", legacy=False)
    _model(tmp_path, "por", legacy=True)
    for oem in (0, 2):
        config = default_registry().config(
            ocr_languages="por+eng", tesseract={"oem": oem, "tessdata_dir": str(tmp_path)})
        ready, reason = TesseractBackend().available_for(config)
        assert not ready
        assert f"tesseract.oem = {oem}" in reason
        assert "models of eng do not carry" in reason


def test_the_legacy_engine_with_legacy_models_is_available(tesseract: str,
                                                          tmp_path: Path) -> None:
    _model(tmp_path, "por", legacy=True)
    config = default_registry().config(
        ocr_languages="por", tesseract={"oem": 0, "tessdata_dir": str(tmp_path)})
    assert TesseractBackend().available_for(config) == (True, "")


def test_the_layout_only_segmentation_mode_says_it_reads_no_text(
        tesseract: str, page_image: DrawPage, tmp_path: Path) -> None:
    path = tmp_path / "scan.png"
    page_image().save(path)
    document = goblin_core.extract(path, ocr="always", tesseract={"psm": 2})
    [warning] = [w for w in document.report.warnings if w.kind == "EngineUnavailable"]
    assert "tesseract.psm = 2" in warning.message
    assert TesseractBackend().available_for(default_registry().config(
        tesseract={"psm": 3}))[0]
