"""``extract`` called from several threads: one extraction at a time, each one right."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from goblin_core import Source, extract
from goblin_core.engines import BaseEngine, TextDocument

from scripted_engines import TEST_BYTES, TEST_MIME, registry_with


class NotThreadSafeParser(BaseEngine):
    """Reads the test format the way a native library without thread safety does.

    While two threads are inside it at once, the text each gets back is the
    other's: the failure PDFium shows (wrong text, still marked clean).
    """

    name = "tests.not_thread_safe"
    formats = (TEST_MIME,)

    def __init__(self) -> None:
        self.current = ""
        self.inside = 0
        self.most_inside = 0
        self.guard = threading.Lock()

    def open(self, source: Source, config: Any) -> TextDocument:
        with self.guard:
            self.inside += 1
            self.most_inside = max(self.most_inside, self.inside)
        self.current = source.display_name
        time.sleep(0.05)  # native work, the GIL released: another thread runs now
        text = f"text of {self.current}"
        with self.guard:
            self.inside -= 1
        return TextDocument([text])


class NestingParser(BaseEngine):
    """Extracts an embedded document through ``extract`` from inside its own ``open``."""

    name = "tests.nesting"
    formats = (TEST_MIME,)

    def __init__(self) -> None:
        self.registry: Any = None

    def open(self, source: Source, config: Any) -> TextDocument:
        inner = extract(b"the inner document", name="inner.txt", registry=self.registry)
        return TextDocument([f"outer around {inner.text}"])


def test_threads_get_exactly_the_texts_a_serial_run_gets() -> None:
    parser = NotThreadSafeParser()
    registry = registry_with(parser)
    names = [f"doc{index}.test" for index in range(12)]

    def one(name: str) -> tuple[str, str]:
        document = extract(TEST_BYTES, name=name, registry=registry)
        return document.text, document.status

    serial = [one(name) for name in names]
    with ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(one, names))
    assert serial == [(f"text of {name}", "clean") for name in names]
    assert threaded == serial
    assert parser.most_inside == 1


def test_an_extraction_nested_in_an_engine_on_the_same_thread_does_not_deadlock() -> None:
    parser = NestingParser()
    registry = registry_with(parser)
    parser.registry = registry
    results: list[str] = []
    worker = threading.Thread(
        target=lambda: results.append(extract(TEST_BYTES, name="o.test", registry=registry).text),
        daemon=True,
    )
    worker.start()
    worker.join(30)
    assert not worker.is_alive(), "a nested extract() on the same thread deadlocked"
    assert results == ["outer around the inner document"]
