"""A parser for OCR backends' tests: a PNG becomes a document of one page that is its image.

OCR plugins are tested without an image parser installed (goblin-ocr-tesseract
brings the real one). Their tests register this one to send an image through
the whole pipeline::

    from goblin_core import load_registry
    from goblin_core.testing.image_pages import ImagePagesPlugin

    registry = load_registry(load=["easyocr"],
                             extra_plugins=[("test-pages", ImagePagesPlugin())])
    doc = goblin_core.extract(png_bytes, name="scan.png", registry=registry)

The page draws one image and no text, so ``auto`` OCR reads it.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, BaseParsedDocument
from goblin_core.hookspecs import hookimpl
from goblin_core.model import PageContent
from goblin_core.source import Source

if TYPE_CHECKING:
    from PIL import Image


class ImagePage(BaseParsedDocument):
    """One page, no text, one image: the source's bytes decoded by Pillow."""

    page_count = 1

    def __init__(self, source: Source) -> None:
        self.source = source

    def pages(self) -> Iterator[PageContent]:
        yield PageContent(1, "", glyphs=0, images=1)

    def render(self, page: int, dpi: int) -> Image.Image:
        # Pillow comes with the OCR plugins whose tests use this, not with the core.
        from PIL import Image

        return Image.open(io.BytesIO(self.source.bytes()))


class ImagePagesParser(BaseEngine):
    """PNGs as one-page documents, ahead of any installed image parser."""

    name = "test.page-images"
    formats = ("image/png",)
    priority = 1000

    def open(self, source: Source, config: Config) -> BaseParsedDocument:
        return ImagePage(source)


class ImagePagesPlugin:
    """The plugin object that registers ``ImagePagesParser`` (for ``extra_plugins``)."""

    @hookimpl
    def goblin_register_parsers(self, register: Callable[[Any], None]) -> None:
        register(ImagePagesParser())
