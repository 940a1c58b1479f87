"""The trust report's page images: of the content that was read, or none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from goblin_core import Document, Source, extract
from goblin_core.registry import Registry
from goblin_core.trust_report.thumbnails import thumbnails_for

from scripted_engines import (
    TEST_BYTES,
    ScriptedDocument,
    ScriptedParser,
    registry_with,
    text_page,
)


class _Drawn(ScriptedDocument):
    """Pages drawn as small grey images, or as ``drawing`` returns."""

    def __init__(self, drawing: Any) -> None:
        super().__init__([text_page(1, "page one text"), text_page(2, "page two text")],
                         renders=True, delay=0.0, page_count=2)
        self.drawing = drawing

    def render(self, page: int, dpi: int) -> Any:
        return self.drawing(page)


class _DrawingParser(ScriptedParser):
    def __init__(self, drawing: Any) -> None:
        super().__init__("tests.drawing")
        self.drawing = drawing

    def open(self, source: Source, config: Any) -> _Drawn:
        return _Drawn(self.drawing)


def _grey(page: int) -> Any:
    return Image.new("L", (60, 80), 40 * page)


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOBLIN_CACHE", str(tmp_path / "cache"))


def _read(tmp_path: Path, registry: Registry) -> tuple[Path, Document]:
    """A test document written to ``a.test`` and read by ``registry``."""
    source = tmp_path / "a.test"
    source.write_bytes(TEST_BYTES)
    return source, extract(source, registry=registry)


def test_pages_are_drawn_and_cached(tmp_path: Path) -> None:
    registry = registry_with(_DrawingParser(_grey))
    source, document = _read(tmp_path, registry)
    images = thumbnails_for(registry, registry.config(), source, document)
    assert sorted(images) == [("a.test", 1), ("a.test", 2)]
    assert len(list((tmp_path / "cache" / "thumbnails").iterdir())) == 2


def test_a_file_changed_since_it_was_read_gets_no_images_and_caches_none(
    tmp_path: Path,
) -> None:
    """The images would be of other pages, and cached as the pages read: every later report
    of the content that was read would show them."""
    registry = registry_with(_DrawingParser(_grey))
    source, document = _read(tmp_path, registry)
    source.write_bytes(TEST_BYTES + b"another version of the file\n")
    assert thumbnails_for(registry, registry.config(), source, document) == {}
    assert not (tmp_path / "cache" / "thumbnails").exists()


def test_a_page_drawn_as_something_no_image_costs_only_its_own_image(tmp_path: Path) -> None:
    registry = registry_with(_DrawingParser(lambda page: object() if page == 1 else _grey(page)))
    source, document = _read(tmp_path, registry)
    assert sorted(thumbnails_for(registry, registry.config(), source, document)) == [
        ("a.test", 2)]


def test_a_cache_that_cannot_be_written_costs_no_image(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The cache saves the next report the drawing; this report has its images anyway."""
    in_the_way = tmp_path / "a file"
    in_the_way.write_bytes(b"")
    monkeypatch.setenv("GOBLIN_CACHE", str(in_the_way / "cache"))
    registry = registry_with(_DrawingParser(_grey))
    source, document = _read(tmp_path, registry)
    images = thumbnails_for(registry, registry.config(), source, document)
    assert sorted(images) == [("a.test", 1), ("a.test", 2)]
