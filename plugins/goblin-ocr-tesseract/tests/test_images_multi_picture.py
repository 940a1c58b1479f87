"""image.pillow on a JPEG holding more than one picture (a Multi-Picture Object): the
first is the photo, the others views of the same scene, not more pages."""

from __future__ import annotations

import io

from drawn_pages import draw_page

from goblin_core import Source, default_registry
from goblin_ocr_tesseract.images import ImageParser


def test_a_multi_picture_jpeg_is_one_page() -> None:
    photo = draw_page(mode="RGB")
    # what a phone writes after an HDR photo: a smaller grey map of the same scene
    gain_map = photo.convert("L").resize((photo.width // 2, photo.height // 2))
    data = io.BytesIO()
    photo.save(data, format="MPO", save_all=True, append_images=[gain_map])
    source = Source.from_bytes(data.getvalue(), "IMG_0042.jpg")
    with ImageParser().open(source, default_registry().config()) as parsed:
        assert parsed.metadata["format"] == "MPO"
        assert parsed.metadata["frames"] == 2
        assert parsed.page_count == 1
        assert [page.number for page in parsed.pages()] == [1]
        assert parsed.render(1, 300).size == photo.size
