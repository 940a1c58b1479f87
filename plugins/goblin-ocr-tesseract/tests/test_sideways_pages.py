"""Pages turned on their side that Tesseract reads, in part, as vertical text."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from PIL import Image

import goblin_ocr_tesseract.backend as backend
from goblin_core import default_registry
from goblin_core.testing.corpus import skip_or_fail
from goblin_ocr_tesseract.backend import TesseractBackend
from goblin_ocr_tesseract.languages import installed_languages
from goblin_ocr_tesseract.reading import Reading, RunSettings
from goblin_ocr_tesseract.words import Word

DrawPage = Callable[..., Image.Image]

#: A landscape price table: its short numbers give Tesseract little to judge by
TABLE = ["Item   Qty   Price   Total"] + [
    f"{i:04d}   {i * 3 % 17 + 1:3d}   {i * 7.25:8.2f}   {i * 3.5:9.2f}" for i in range(1, 12)]


def _tokens(text: str) -> list[str]:
    return sorted(re.findall(r"[\w.]+", text))


@pytest.mark.parametrize("angle", [90, 270])
def test_a_table_turned_on_its_side_reads_as_it_does_upright(
        tesseract: str, page_image: DrawPage, angle: int) -> None:
    if "osd" not in installed_languages(tesseract):
        skip_or_fail("Tesseract's orientation model needed: apt-get install tesseract-ocr-osd")
    table = page_image(TABLE, size=40)
    config = default_registry().config()
    upright = TesseractBackend().recognize(table, "por+eng", config)
    sideways = TesseractBackend().recognize(
        table.rotate(angle, expand=True, fillcolor=255), "por+eng", config)
    assert _tokens(sideways.text) == _tokens(upright.text)


def _reading(*boxes: tuple[str, int, int]) -> Reading:
    words = tuple(Word(text, 95.0, height, (0, 0, width, height))
                  for text, width, height in boxes)
    return Reading(" ".join(w.text for w in words), 0.95, len(words), table=words)


def test_a_reading_whose_long_words_stand_on_end_is_sideways() -> None:
    standing = _reading(("Price", 30, 100), ("Total", 30, 102), ("14.50", 29, 96), ("13", 30, 40))
    assert backend._sideways(standing)
    lying = _reading(("Price", 100, 30), ("Total", 102, 30), ("14.50", 96, 29), ("ill", 20, 30))
    assert not backend._sideways(lying)
    assert not backend._sideways(_reading(("Price", 30, 100)))  # one word says too little


def test_lines_running_up_a_page_are_not_levelled_as_a_tilt(
        monkeypatch: pytest.MonkeyPatch) -> None:
    turned: list[Image.Image] = []
    monkeypatch.setattr(backend, "_second_reading",
                        lambda image, settings: turned.append(image) or None)
    page = Image.new("L", (200, 100), 255)
    settings = RunSettings("tesseract", "eng", 3, 1, 0, 10.0)
    upright_lines = Reading("text", 0.9, 1, skew=-88.7)
    assert backend._levelled(page, settings, upright_lines, 1.0) is upright_lines
    assert turned == []
    tilted = Reading("text", 0.9, 1, skew=4.0)
    backend._levelled(page, settings, tilted, 1.0)
    assert len(turned) == 1
