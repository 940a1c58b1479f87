"""Images read by the caller's own OCR handler, frame by frame, as GoblinTools does."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from goblin_core.compat import OCRConfig, OCRProcessor, TextExtractor, extract_from_bytes

Image = pytest.importorskip("PIL.Image")


class ScriptedOCR:
    """An OCR service of the caller's: answers in turn, remembers the frame sizes it saw."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.sizes: list[tuple[int, int]] = []

    def extract_text_from_image(self, image: Any) -> str:
        self.sizes.append(image.size)
        return self.answers.pop(0)


class DownOCR:
    def extract_text_from_image(self, image: Any) -> str:
        raise ConnectionError("serviço de OCR indisponível")


def frames(*sizes: tuple[int, int], fmt: str) -> bytes:
    pictures = [Image.new("RGB", size, "white") for size in sizes]
    buffer = io.BytesIO()
    pictures[0].save(buffer, format=fmt, save_all=len(pictures) > 1,
                     append_images=pictures[1:])
    return buffer.getvalue()


def reader(handler: Any) -> TextExtractor:
    extractor = TextExtractor(ocr_images=True)
    extractor.ocr_handler = handler
    return extractor


def test_every_frame_goes_to_the_callers_handler(tmp_path: Path) -> None:
    scan = tmp_path / "autos.tiff"
    scan.write_bytes(frames((30, 12), (24, 18), fmt="TIFF"))
    handler = ScriptedOCR("FOLHA 1 DOS AUTOS", "FOLHA 2 DOS AUTOS")
    extractor = reader(handler)
    text = extractor.extract_from_file(str(scan), display_path="autos.tiff")
    assert text == 'file_path_pwd:"autos.tiff"\nFOLHA 1 DOS AUTOS\n\nFOLHA 2 DOS AUTOS'
    assert handler.sizes == [(30, 12), (24, 18)]
    report = extractor.last_extraction_report
    assert report is not None and report.overall_status == "clean" and report.used_ocr
    assert [(p.index, p.engine) for p in report.pages] == [(0, "ocr"), (1, "ocr")]


def test_a_frame_the_handler_cannot_read_is_corrupt(tmp_path: Path) -> None:
    photo = tmp_path / "foto_sem_extensao"
    photo.write_bytes(frames((20, 20), fmt="JPEG"))
    extractor = reader(ScriptedOCR("   "))
    assert extractor.extract_from_file(str(photo)) == ""
    report = extractor.last_extraction_report
    assert report is not None and report.overall_status == "corrupt_unrecoverable"


def test_a_failing_handler_is_reported_not_raised(tmp_path: Path) -> None:
    photo = tmp_path / "recibo.png"
    photo.write_bytes(frames((16, 16), fmt="PNG"))
    extractor = reader(DownOCR())
    assert extractor.extract_from_file(str(photo)) == ""
    report = extractor.last_extraction_report
    assert report is not None and "indisponível" in " ".join(report.errors)


def test_bytes_and_folders_use_the_handler_too(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    def scripted(self: OCRProcessor, image: Any) -> str:
        return "CARIMBO DO PROTOCOLO"

    # A subclass or a patched method of the processor counts as the caller's own reader.
    monkeypatch.setattr(OCRProcessor, "extract_text_from_image", scripted)
    result = extract_from_bytes(frames((10, 10), fmt="PNG"), "protocolo.png",
                                ocr_handler=True, ocr_images=True)
    assert result.text == 'file_path_pwd:"protocolo.png"\nCARIMBO DO PROTOCOLO'
    (tmp_path / "pasta").mkdir()
    (tmp_path / "pasta" / "b.png").write_bytes(frames((10, 10), fmt="PNG"))
    extractor = TextExtractor(ocr_handler=True, ocr_images=True)
    assert extractor.extract_from_folder(str(tmp_path)) == (
        'file_path_pwd:"pasta/b.png"\nCARIMBO DO PROTOCOLO')


def test_goblins_own_processor_keeps_the_pipeline() -> None:
    from goblin_core.compat.ocr import reads_images_its_own_way

    assert not reads_images_its_own_way(OCRProcessor(OCRConfig()))
    assert reads_images_its_own_way(ScriptedOCR())
    assert not reads_images_its_own_way(object())
