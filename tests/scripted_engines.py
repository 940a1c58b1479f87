"""Scripted engines and small helpers the core tests register in their own registries."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from goblin_core import (
    CorruptDocument,
    FileType,
    OCRResult,
    PageContent,
    Source,
    Verdict,
    hookimpl,
    load_registry,
)
from goblin_core.engines import BaseEngine, BaseParsedDocument
from goblin_core.registry import Registry

#: The made-up format the scripted engines read; files start with ``TEST``.
TEST_MIME = "application/x-goblin-test"
TEST_BYTES = b"TEST document for the goblin pipeline tests\n"

_HOOK_BY_METHOD = (
    ("sniff", "goblin_register_sniffers"),
    ("open", "goblin_register_parsers"),
    ("check", "goblin_register_validators"),
    ("recover", "goblin_register_recovery_engines"),
    ("recognize", "goblin_register_ocr_backends"),
    ("members", "goblin_register_archive_handlers"),
    ("tables", "goblin_register_table_engines"),
)


def hook_for(engine: Any) -> str:
    """The registration hook an engine belongs to, from the method it has."""
    for method, hook in _HOOK_BY_METHOD:
        if callable(getattr(engine, method, None)):
            return hook
    raise TypeError(f"{engine!r} is no known kind of engine")


def plugin_of(*engines: Any) -> object:
    """A plugin object whose hooks register ``engines`` (kind taken from their methods)."""
    by_hook: dict[str, list[Any]] = {}
    for engine in engines:
        by_hook.setdefault(hook_for(engine), []).append(engine)
    attributes: dict[str, Any] = {}
    for hook, chosen in by_hook.items():

        def register_all(register: Callable[[Any], None], _chosen: list[Any] = chosen) -> None:
            for engine in _chosen:
                register(engine)

        register_all.__name__ = hook
        attributes[hook] = staticmethod(hookimpl(register_all))
    return type("ScriptedPlugin", (), attributes)()


def registry_with(*engines: Any, plugins: Sequence[tuple[str, object]] = ()) -> Registry:
    """Built-in plugin + a ``tests`` plugin registering ``engines`` (+ more plugins)."""
    extra = [("tests", plugin_of(ScriptSniffer(), *engines)), *plugins]
    return load_registry(load=[], extra_plugins=extra)


class ScriptSniffer(BaseEngine):
    """Knows the test format by its ``TEST`` signature."""

    name = "tests.sniffer"
    formats = (TEST_MIME,)

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        return FileType(TEST_MIME, "test", 0.99) if head.startswith(b"TEST") else None


@dataclass
class FakeImage:
    """What the scripted documents render: stands for a page bitmap."""

    page: int
    closed: bool = False

    def close(self) -> None:
        self.closed = True


#: A page script item: the PageContent to yield, or an exception to raise there.
PageScript = PageContent | BaseException


class ScriptedDocument(BaseParsedDocument):
    """Yields the scripted pages; ``render`` returns a FakeImage when asked to."""

    def __init__(self, pages: Sequence[PageScript], renders: bool, delay: float,
                 page_count: int | None) -> None:
        self._pages = list(pages)
        self._renders = renders
        self._delay = delay
        self.page_count = page_count if page_count is not None else len(self._pages)
        self.metadata = {"title": "Scripted"}
        self.rendered: list[int] = []
        self.closed = False

    def pages(self) -> Iterator[PageContent]:
        for item in self._pages:
            if self._delay:
                time.sleep(self._delay)
            if isinstance(item, BaseException):
                raise item
            yield item

    def render(self, page: int, dpi: int) -> Any:
        self.rendered.append(page)
        return FakeImage(page) if self._renders else None

    def close(self) -> None:
        self.closed = True


class ScriptedParser(BaseEngine):
    """A parser of the test format that does exactly what the test scripts.

    ``open_error`` is raised by ``open``; ``pages`` are yielded in order, an
    exception in the list being raised at that point.
    """

    formats = (TEST_MIME,)

    def __init__(
        self,
        name: str,
        pages: Sequence[PageScript] = (),
        *,
        priority: int = 0,
        open_error: BaseException | None = None,
        renders: bool = False,
        delay: float = 0.0,
        page_count: int | None = None,
        unavailable: str = "",
    ) -> None:
        self.name = name
        self.priority = priority
        self.pages = list(pages)
        self.open_error = open_error
        self.renders = renders
        self.delay = delay
        self.page_count = page_count
        self.unavailable = unavailable
        self.opened = 0
        self.documents: list[ScriptedDocument] = []

    def available(self) -> tuple[bool, str]:
        return (False, self.unavailable) if self.unavailable else (True, "")

    def open(self, source: Source, config: Any) -> ScriptedDocument:
        self.opened += 1
        if not source.head(4) == b"TEST":
            raise CorruptDocument("not a TEST file", file=source.display_name)
        if self.open_error is not None:
            raise self.open_error
        document = ScriptedDocument(self.pages, self.renders, self.delay, self.page_count)
        self.documents.append(document)
        return document


def text_page(number: int, text: str, *, glyphs: int | None = None, images: int = 0,
              unmapped: int = 0) -> PageContent:
    """A page as a parser of a drawn format reports it (glyphs default to the text length)."""
    drawn = len(text.replace(" ", "")) if glyphs is None else glyphs
    return PageContent(number=number, text=text, glyphs=drawn, images=images, unmapped=unmapped)


def blank_page(number: int) -> PageContent:
    """A page that draws nothing at all."""
    return PageContent(number=number, text="", glyphs=0, images=0)


def scan_page(number: int) -> PageContent:
    """A page that draws one image and no text: a scan."""
    return PageContent(number=number, text="", glyphs=0, images=1)


class MarkerValidator(BaseEngine):
    """Judges by markers in the text: GARBAGE, SUSPECT; otherwise ok.

    A stand-in for the real text-layer validators, whose exact thresholds
    are the PDF plugin's business, not the pipeline's.
    """

    name = "tests.markers"
    formats = (TEST_MIME,)

    def check(self, text: str, context: Any) -> Verdict:
        if "GARBAGE" in text:
            return Verdict("garbage", 0.1, ("garbage",))
        if "SUSPECT" in text:
            return Verdict("suspect", 0.6, ("suspect",))
        return Verdict("ok", 1.0)


@dataclass
class ScriptedRecovery(BaseEngine):
    """A recovery engine returning scripted texts for the pages it is asked about."""

    name: str
    texts: Mapping[int, str] = field(default_factory=dict)
    priority: int = 0
    error: BaseException | None = None
    formats: tuple[str, ...] = (TEST_MIME,)
    calls: list[list[int]] = field(default_factory=list)

    def recover(self, source: Source, page_numbers: Sequence[int], config: Any) -> dict[int, str]:
        self.calls.append(list(page_numbers))
        if self.error is not None:
            raise self.error
        return {n: self.texts[n] for n in page_numbers if n in self.texts}


@dataclass
class FakeOCR(BaseEngine):
    """An OCR backend reading scripted text per page image, recording every call."""

    name: str
    texts: Mapping[int, str] = field(default_factory=dict)
    confidence: float = 0.9
    priority: int = 0
    cloud: bool = False
    formats: tuple[str, ...] = ("*",)
    calls: list[int] = field(default_factory=list)

    def recognize(self, image: Any, languages: str, config: Any) -> OCRResult:
        if not isinstance(image, FakeImage):
            return OCRResult("", 0.0)
        self.calls.append(image.page)
        text = self.texts.get(image.page, "")
        return OCRResult(text, self.confidence if text else 0.0)
