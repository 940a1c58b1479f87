"""image.pillow: image files become documents whose pages are OCR'd."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pillow_heif
import pytest
from PIL import Image

import goblin_core
from goblin_core import FileTooLarge, GoblinError, Source, default_registry
from goblin_core.testing.corpus import contains_phrase, corpus_dir, normalize
from goblin_ocr_tesseract.images import ImageParser

LINES = (
    "The quick brown fox jumps over the lazy dog.",
    "Goblin reads scanned pages with Tesseract.",
    "Invoice number 4471 was paid on 12 March.",
    "Every page says which engine read it.",
)
DrawPage = Callable[..., Image.Image]


def encode(image: Image.Image, fmt: str, **params: object) -> bytes:
    out = io.BytesIO()
    image.save(out, format=fmt, **params)
    return out.getvalue()


def test_png_is_extracted_through_ocr(tesseract: str, page_image: DrawPage) -> None:
    doc = goblin_core.extract(encode(page_image(), "PNG"), name="scan.png")
    assert doc.mime == "image/png"
    assert [p.status for p in doc.pages] == ["ocr"]
    assert doc.pages[0].engine == "ocr.tesseract"
    assert 0.8 < doc.pages[0].confidence <= 1.0
    assert doc.report.ocr_pages == (1,)
    assert LINES[1] in normalize(doc.text)
    assert "image.pillow" in doc.parsed_by and "ocr.tesseract" in doc.parsed_by


@pytest.mark.parametrize("fmt", ["JPEG", "GIF", "BMP", "WEBP"])
def test_other_image_formats(tesseract: str, page_image: DrawPage, fmt: str) -> None:
    data = encode(page_image(LINES[:2]).convert("RGB"), fmt)
    doc = goblin_core.extract(data, name=f"scan.{fmt.lower()}")
    assert doc.mime.startswith("image/")
    assert LINES[0] in normalize(doc.text)


@pytest.mark.parametrize(("params", "mime"), [
    ({}, "image/jp2"),
    ({"no_jp2": True}, "image/x-jp2-codestream"),  # a bare codestream, as .j2k
])
def test_jpeg_2000_scans_are_read(tesseract: str, page_image: DrawPage, params: dict[str, bool],
                                  mime: str) -> None:
    """Archives of scans (and the images inside PDFs) are often JPEG 2000; no name is
    given, so only the content says what the file is."""
    data = encode(page_image(LINES[:2]), "JPEG2000", **params)
    doc = goblin_core.extract(data, name="scan")
    assert doc.mime == mime
    assert LINES[0] in normalize(doc.text)


def heic(image: Image.Image) -> bytes:
    """The image as a phone saves it, encoded without teaching Pillow HEIF: goblin must."""
    out = io.BytesIO()
    pillow_heif.from_pillow(image).save(out, quality=90)
    return out.getvalue()


@pytest.mark.parametrize(("encoder", "mime"), [
    (heic, "image/heic"),
    (lambda image: encode(image, "AVIF", quality=90), "image/avif"),
])
def test_phone_photo_formats_are_read(tesseract: str, page_image: DrawPage,
                                      encoder: Callable[[Image.Image], bytes], mime: str) -> None:
    """A phone photographs a page as HEIC (iPhones) or AVIF; no name is given, so only
    the content says what the file is."""
    doc = goblin_core.extract(encoder(page_image(LINES[:2]).convert("RGB")), name="IMG_0042")
    assert doc.mime == mime
    assert [p.status for p in doc.pages] == ["ocr"]
    assert LINES[0] in normalize(doc.text)


def test_a_damaged_heic_is_a_goblin_error(page_image: DrawPage) -> None:
    data = heic(page_image(LINES[:1]).convert("RGB"))
    damaged = data[:40] + bytes(len(data) - 40)
    with pytest.raises(GoblinError, match=r"photo\.heic: Pillow cannot identify"):
        ImageParser().open(Source.from_bytes(damaged, "photo.heic"),
                           default_registry().config()).render(1, 300)


def test_a_cut_jpeg_2000_says_its_page_cannot_be_rendered(tesseract: str,
                                                          page_image: DrawPage) -> None:
    """Pillow reads a cut JPEG 2000's header and fails only when it decodes the pixels:
    the page stays, and the report says why it has no text."""
    data = encode(page_image(LINES[:2]), "JPEG2000")
    doc = goblin_core.extract(data[: len(data) // 2], name="cut.jp2")
    assert [p.status for p in doc.pages] == ["corrupt"]
    [warning] = doc.report.warnings
    assert (warning.kind, warning.page) == ("RenderFailed", 1)
    assert "page 1 cannot be rendered for OCR (OSError" in warning.message


def test_multipage_tiff_has_one_page_per_frame(tesseract: str, page_image: DrawPage) -> None:
    first, second = page_image(LINES[:1]), page_image(LINES[3:4])
    data = encode(first, "TIFF", save_all=True, append_images=[second], compression="tiff_lzw")
    doc = goblin_core.extract(data, name="two.tif")
    assert len(doc.pages) == 2
    assert LINES[0] in normalize(doc.pages[0].text)
    assert LINES[3] in normalize(doc.pages[1].text)
    assert doc.report.ocr_pages == (1, 2)
    assert doc.metadata["page_count"] == 2


def test_pages_draw_one_image_and_no_text(page_image: DrawPage) -> None:
    source = Source.from_bytes(encode(page_image(), "PNG"), "a.png")
    with ImageParser().open(source, default_registry().config()) as parsed:
        pages = list(parsed.pages())
        assert [(p.number, p.text, p.glyphs, p.images) for p in pages] == [(1, "", 0, 1)]
        assert parsed.metadata["width"] > 0


def test_render_flattens_transparency_on_white(page_image: DrawPage) -> None:
    page = page_image(LINES[:1], mode="LA", ink=(0, 255), paper=(0, 0))
    source = Source.from_bytes(encode(page, "PNG"), "a.png")
    with ImageParser().open(source, default_registry().config()) as parsed:
        rendered = parsed.render(1, 300)
    assert rendered.mode == "L"
    assert rendered.getpixel((1, 1)) == 255
    assert rendered.getextrema()[0] == 0


def test_render_turns_exif_rotated_jpeg_upright(page_image: DrawPage) -> None:
    page = page_image(LINES[:1]).convert("RGB")
    exif = Image.Exif()
    exif[0x0112] = 6  # stored rotated: viewers turn it 90 degrees clockwise
    source = Source.from_bytes(encode(page, "JPEG", exif=exif), "a.jpg")
    with ImageParser().open(source, default_registry().config()) as parsed:
        rendered = parsed.render(1, 300)
    assert rendered.size == (page.height, page.width)


def test_a_heic_with_exif_orientation_is_turned_once(page_image: DrawPage) -> None:
    """libheif applies a photo's turn as it decodes (and says orientation 1 after): turned
    again from the EXIF, a phone's portrait scan would lie on its side."""
    page = page_image(LINES[:1]).convert("RGB")
    exif = Image.Exif()
    exif[0x0112] = 6
    out = io.BytesIO()
    pillow_heif.from_pillow(page).save(out, exif=exif.tobytes())
    source = Source.from_bytes(out.getvalue(), "IMG_0042.HEIC")
    with ImageParser().open(source, default_registry().config()) as parsed:
        rendered = parsed.render(1, 300)
    assert rendered.size == (page.height, page.width)


def test_image_over_the_pixel_limit_is_refused(page_image: DrawPage) -> None:
    data = encode(page_image(), "PNG")
    with pytest.raises(FileTooLarge, match="max_image_pixels"):
        goblin_core.extract(data, name="bomb.png", max_image_pixels=1000)


def test_damaged_image_is_a_goblin_error(tmp_path: Path) -> None:
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00garbage" * 20)
    with pytest.raises(GoblinError, match=r"broken\.png"):
        goblin_core.extract(bad)


def test_truncated_image_keeps_the_document(page_image: DrawPage) -> None:
    data = encode(page_image().convert("RGB"), "JPEG")
    doc = goblin_core.extract(data[: len(data) // 3], name="cut.jpg")
    assert len(doc.pages) == 1


@pytest.mark.parametrize("fmt", ["PNG", "JPEG"])
def test_a_scan_cut_short_gives_the_lines_it_still_holds(tesseract: str, page_image: DrawPage,
                                                          fmt: str) -> None:
    data = encode(page_image(LINES * 3), fmt)
    cut = data[: len(data) * 3 // 5]
    doc = goblin_core.extract(cut, name=f"cortado.{fmt.lower()}")
    assert [p.status for p in doc.pages] == ["ocr"]
    assert LINES[0] in normalize(doc.text)
    assert len(normalize(doc.text)) < len(normalize(" ".join(LINES * 3)))
    assert [(w.kind, w.message) for w in doc.report.warnings] == [
        ("Truncated",
         "page 1: the image data is cut short; the part that decodes was read, the rest is blank")]
    assert doc.report.truncated  # the lines in the blank part are lost
    # Pillow's switch is back as it was: other images are not read leniently
    from PIL import ImageFile
    assert ImageFile.LOAD_TRUNCATED_IMAGES is False


def test_a_scan_tilted_ten_degrees_is_read(tesseract: str) -> None:
    # Tesseract alone reads nothing of it ("Empty page!!"): no line to measure the tilt by
    doc = goblin_core.extract(corpus_dir(__file__) / "images/testRotated+10.png")
    assert [p.status for p in doc.pages] == ["ocr"]
    assert contains_phrase(doc.text, "Its had resolving otherwise she contented therefore.")
    assert contains_phrase(doc.text, "Painful so he an comfort is manners.")


def test_exif_says_who_made_the_picture_and_when() -> None:
    exif = Image.Exif()
    exif[0x010E] = "Signed contract"
    exif[0x013B] = "Ana Lima"
    exif[0x0110] = "ScanMaster 9"
    exif[0x0132] = "2024:05:06 07:08:09"  # last changed
    detail = exif.get_ifd(0x8769)
    detail[0x9003] = "2023:01:02 03:04:05"  # taken
    detail[0x9011] = "-03:00"
    picture = encode(Image.new("L", (60, 40), 255), "JPEG", exif=exif)
    doc = goblin_core.extract(picture, name="photo.jpg", ocr="never")
    assert doc.metadata["title"] == "Signed contract"
    assert doc.metadata["author"] == "Ana Lima"
    assert doc.metadata["created"] == "2023-01-02T03:04:05-03:00"
    assert doc.metadata["modified"] == "2024-05-06T07:08:09"
    assert doc.raw_metadata["model"] == "ScanMaster 9"


def test_a_blank_or_impossible_exif_date_is_left_out() -> None:
    for stamp in ("0000:00:00 00:00:00", "2024:13:45 99:00:00", "    "):
        exif = Image.Exif()
        exif[0x0132] = stamp
        picture = encode(Image.new("L", (60, 40), 255), "JPEG", exif=exif)
        doc = goblin_core.extract(picture, name="photo.jpg", ocr="never")
        assert "created" not in doc.metadata and "modified" not in doc.raw_metadata, stamp


def test_png_text_chunks_give_title_author_and_time() -> None:
    from PIL.PngImagePlugin import PngInfo

    chunks = PngInfo()
    chunks.add_text("Title", "Floor plan")
    chunks.add_itxt("Author", "José Ramos")
    chunks.add_text("Creation Time", "Mon, 06 May 2024 07:08:09 +0200")
    picture = encode(Image.new("L", (60, 40), 255), "PNG", pnginfo=chunks)
    doc = goblin_core.extract(picture, name="plan.png", ocr="never")
    assert doc.metadata["title"] == "Floor plan"
    assert doc.metadata["author"] == "José Ramos"
    assert doc.metadata["created"] == "2024-05-06T07:08:09+02:00"
    free_form = PngInfo()
    free_form.add_text("Creation Time", "spring of 2019")
    doc = goblin_core.extract(encode(Image.new("L", (60, 40), 255), "PNG", pnginfo=free_form),
                              name="plan.png", ocr="never")
    assert doc.metadata["created"] == "spring of 2019"
