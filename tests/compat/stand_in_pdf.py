"""A stand-in PDF parser for the facade's tests, so they need no PDF plugin."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from goblin_core import hookimpl, load_registry
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.model import PageContent
from goblin_core.registry import Registry

#: The smallest bytes goblin-core detects as a PDF.
PDF_BYTES = b"%PDF-1.4\n%%EOF\n"


class StandInPDF(BaseEngine):
    """Reads every PDF as the pages it is given: text, or a scanned image when None."""

    name = "tests.stand-in-pdf"
    formats = ("application/pdf",)
    priority = 1000

    def __init__(self, pages: Sequence[str | None]) -> None:
        self.pages = tuple(pages)

    def open(self, source: Any, config: Any) -> TextDocument:
        return TextDocument([
            PageContent(number=n, text="", glyphs=0, images=1) if text is None
            else PageContent(number=n, text=text, glyphs=len(text))
            for n, text in enumerate(self.pages, start=1)])


def read_pdfs_as(monkeypatch: pytest.MonkeyPatch, pages: Sequence[str | None]) -> Registry:
    """Make the facade's extractor read every PDF as ``pages``; the registry it uses."""
    engine = StandInPDF(pages)

    class Plugin:
        @hookimpl
        def goblin_register_parsers(self, register: Callable[[Any], None]) -> None:
            register(engine)

    registry = load_registry(extra_plugins=[("tests-stand-in-pdf", Plugin())])
    monkeypatch.setattr("goblin_core.compat.extractor.default_registry", lambda: registry)
    return registry
