"""What ocr.easyocr tells the report: languages read without their model, a breakdown on
a page, and a call whose languages have no model at all.

The reader is a stand-in where the test is about goblin's side of the call (which models,
which warnings, which error), so these run without torch; the last test needs the real
backend and its models.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from goblin_core.config import Config
from goblin_core.errors import EngineFailed
from goblin_core.testing.corpus import skip_or_fail
from goblin_ocr_easyocr.backend import EasyOCRBackend
from goblin_ocr_easyocr.languages import DETECTOR_FILE


class StandInReader:
    """Answers ``readtext`` as EasyOCR does (box, text, confidence), or fails as torch can."""

    def __init__(self, failure: Exception | None = None) -> None:
        self.failure = failure

    def readtext(self, pixels: Any, detail: int, paragraph: bool) -> list[Any]:
        if self.failure is not None:
            raise self.failure
        return [([(10, 10), (200, 10), (200, 50), (10, 50)], "Invoice 4471", 0.9)]


def models(folder: Path, *names: str) -> Path:
    for name in (DETECTOR_FILE, *names):
        (folder / name).write_bytes(b"")
    return folder


def config(folder: Path, languages: str = "") -> Config:
    return Config({"easyocr": {"model_dir": str(folder), "languages": languages, "gpu": False},
                   "goblin": {"ocr_languages": "por+eng"}})


def backend_with(reader: StandInReader, folder: Path, codes: tuple[str, ...]) -> EasyOCRBackend:
    backend = EasyOCRBackend()
    backend._readers[(str(folder), codes, False)] = reader
    return backend


def page() -> Image.Image:
    return Image.new("L", (400, 100), 255)


def test_languages_without_a_model_are_a_missing_language_warning(tmp_path: Path) -> None:
    folder = models(tmp_path, "english_g2.pth")
    backend = backend_with(StandInReader(), folder, ("en",))
    result = backend.recognize(page(), "kor+eng", config(folder))
    assert result.text == "Invoice 4471"
    [(kind, message)] = result.warnings
    assert kind == "MissingLanguage"
    assert "ko" in message and "read with en only" in message


def test_every_language_with_its_model_gives_no_warning(tmp_path: Path) -> None:
    folder = models(tmp_path, "english_g2.pth")
    backend = backend_with(StandInReader(), folder, ("en",))
    assert backend.recognize(page(), "eng", config(folder)).warnings == ()


@pytest.mark.parametrize("failure", [RuntimeError("CUDA out of memory"),
                                     OSError("model file is damaged")])
def test_a_breakdown_on_the_page_is_engine_failed_naming_the_cause(
    tmp_path: Path, failure: Exception
) -> None:
    folder = models(tmp_path, "english_g2.pth")
    backend = backend_with(StandInReader(failure), folder, ("en",))
    with pytest.raises(EngineFailed, match=str(failure)) as raised:
        backend.recognize(page(), "eng", config(folder))
    assert "400x100" in str(raised.value)


@pytest.mark.parametrize("image", [Image.new("L", (0, 0)), b"not an image", None])
def test_an_image_without_pixels_is_the_empty_result(tmp_path: Path, image: Any) -> None:
    folder = models(tmp_path, "english_g2.pth")
    backend = backend_with(StandInReader(RuntimeError("must not be called")), folder, ("en",))
    assert backend.recognize(image, "eng", config(folder)).text == ""


def test_no_model_for_any_language_asked_makes_it_unavailable_for_the_call(
    tmp_path: Path
) -> None:
    backend = EasyOCRBackend()
    if not backend.available()[0]:
        skip_or_fail(f"EasyOCR cannot run here: {backend.available()[1]}")
    folder = models(tmp_path, "english_g2.pth")
    ok, reason = backend.available_for(config(folder, languages="ko"))
    assert not ok and "no model for ko" in reason
    assert backend.available_for(config(folder, languages="ko,en")) == (True, "")
    empty = tmp_path / "empty"
    empty.mkdir()
    ok, reason = backend.available_for(config(empty, languages="en"))
    assert not ok and DETECTOR_FILE in reason
