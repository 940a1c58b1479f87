"""A page image taller than textract.max_image_side goes to Textract in bands at full
size, cut between its lines: shrunk to fit, a long screenshot's text was too small to
read."""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw
from test_textract import DETECT, config, line

from goblin_core.model import OCRResult
from goblin_ocr_textract.backend import TextractBackend

if TYPE_CHECKING:
    from conftest import ThrottlingProxy


def _tall_page(width: int, height: int, spacing: int) -> Image.Image:
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    for top in range(40, height - 40, spacing):
        draw.rectangle((40, top, width - 40, top + 18), fill=0)
    return page


def _sent_images(proxy: ThrottlingProxy) -> list[Image.Image]:
    return [Image.open(io.BytesIO(base64.b64decode(json.loads(body)["Document"]["Bytes"])))
            for operation, body in proxy.requests if operation == DETECT]


def test_a_page_taller_than_the_limit_is_sent_in_bands_at_full_size(
    aws: Path, proxy: ThrottlingProxy, canned: Callable[..., None]
) -> None:
    canned([line("uma faixa")])
    page = _tall_page(800, 2500, 60)
    result = TextractBackend().recognize(page, "por", config(proxy, max_image_side=1000))
    sent = _sent_images(proxy)
    assert len(sent) == 3
    assert all(image.width == 800 and image.height <= 1000 for image in sent)
    assert sum(image.height for image in sent) >= 2400
    assert result.text == "uma faixa\numa faixa\numa faixa"
    assert result.confidence == 0.98


def test_a_page_that_fits_is_sent_whole_once(
    aws: Path, proxy: ThrottlingProxy, canned: Callable[..., None]
) -> None:
    canned([line("página inteira")])
    result = TextractBackend().recognize(_tall_page(800, 900, 60), "por",
                                         config(proxy, max_image_side=1000))
    assert [image.size for image in _sent_images(proxy)] == [(800, 900)]
    assert result == OCRResult("página inteira", 0.98)


def test_a_band_that_fails_keeps_the_text_of_those_before_it(
    aws: Path, proxy: ThrottlingProxy, canned: Callable[..., None]
) -> None:
    canned([line("faixa lida")])
    page = _tall_page(800, 2500, 60)
    backend = TextractBackend()
    settings = config(proxy, max_image_side=1000, max_attempts=1)
    original = backend._read_band
    calls: list[int] = []

    def failing_third(*args: object) -> tuple[str, float]:
        calls.append(1)
        if len(calls) == 3:
            proxy.throttle[DETECT] = 1
        return original(*args)  # type: ignore[arg-type]

    backend._read_band = failing_third  # type: ignore[method-assign]
    result = backend.recognize(page, "por", settings)
    assert result.text == "faixa lida\nfaixa lida"
    [(kind, message)] = result.warnings
    assert kind == "EngineFailed"
    assert "read 2 of the 3 bands a 800x2500 page image was cut in" in message


def test_a_blank_stretch_of_a_tall_page_is_not_sent(
    aws: Path, proxy: ThrottlingProxy, canned: Callable[..., None]
) -> None:
    canned([line("topo")])
    page = Image.new("L", (600, 3000), 255)
    ImageDraw.Draw(page).rectangle((40, 100, 560, 118), fill=0)
    result = TextractBackend().recognize(page, "por", config(proxy, max_image_side=1000))
    assert len(_sent_images(proxy)) == 1
    assert result.text == "topo"
