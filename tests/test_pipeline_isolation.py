"""One misbehaving engine never costs the others their work."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import pytest

from goblin_core import (
    CorruptDocument,
    FileType,
    PasswordRequired,
    Source,
    Verdict,
    extract,
    extract_many,
)
from goblin_core.engines import BaseEngine

from scripted_engines import (
    TEST_BYTES,
    FakeOCR,
    MarkerValidator,
    ScriptedParser,
    ScriptedRecovery,
    registry_with,
    scan_page,
    text_page,
)


def test_password_required_stops_the_parser_chain() -> None:
    locked = ScriptedParser("tests.locked", priority=5,
                            open_error=PasswordRequired("pass password='...'"))
    other = ScriptedParser("tests.other", [text_page(1, "text a second parser invents")])
    with pytest.raises(PasswordRequired, match=r"^secret\.test: pass password"):
        extract(TEST_BYTES, name="secret.test", registry=registry_with(locked, other))
    assert other.opened == 0


class _Refused(CorruptDocument):
    """A verdict on the file itself, as an engine that finds it unsafe or garbage gives."""

    final = True


@pytest.mark.parametrize("where", ["open", "first page"])
def test_a_final_verdict_on_the_file_stops_the_parser_chain(where: str) -> None:
    verdict = _Refused("XML nests deeper than limits.max_xml_depth (32); refused")
    strict = (ScriptedParser("tests.strict", priority=5, open_error=verdict) if where == "open"
              else ScriptedParser("tests.strict", [verdict], priority=5))
    forgiving = ScriptedParser("tests.forgiving", [text_page(1, "whatever the bytes spell")])
    with pytest.raises(_Refused, match=r"^deep\.test: XML nests deeper"):
        extract(TEST_BYTES, name="deep.test", registry=registry_with(strict, forgiving))
    assert forgiving.opened == 0


def test_a_raising_validator_is_ignored_for_that_page(caplog: pytest.LogCaptureFixture) -> None:
    class Raising(BaseEngine):
        name = "tests.raising_validator"

        def check(self, text: str, context: Any) -> Verdict:
            raise ZeroDivisionError("bad arithmetic")

    parser = ScriptedParser("tests.parser", [text_page(1, "perfectly good text here")])
    # Set on goblin's logger itself: another test may have quietened it process-wide.
    with caplog.at_level(logging.WARNING, logger="goblin_core"):
        document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, Raising()))
    assert document.pages[0].status == "clean"
    assert "tests.raising_validator" in caplog.text
    failed = [a for a in document.pages[0].attempts if a.engine == "tests.raising_validator"]
    assert len(failed) == 1 and failed[0].error_kind == "ZeroDivisionError"


def test_a_validator_returning_no_verdict_is_ignored_too() -> None:
    class Careless(BaseEngine):
        name = "tests.careless_validator"

        def check(self, text: str, context: Any) -> Verdict:
            return None  # type: ignore[return-value]

    parser = ScriptedParser("tests.parser", [text_page(1, "perfectly good text here")])
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, Careless()))
    assert document.pages[0].status == "clean"
    failed = [a for a in document.pages[0].attempts if a.engine == "tests.careless_validator"]
    assert failed and failed[0].error_kind == "TypeError"


def test_a_raising_sniffer_does_not_stop_detection() -> None:
    class Raising(BaseEngine):
        name = "tests.raising_sniffer"
        priority = 100

        def sniff(self, head: bytes, source: Source) -> FileType | None:
            raise IndexError("header too short")

    parser = ScriptedParser("tests.parser", [text_page(1, "detected all the same")])
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, Raising()))
    assert document.text == "detected all the same"


def test_a_raising_ocr_backend_is_recorded_and_the_next_one_reads_the_page() -> None:
    class Raising(FakeOCR):
        def recognize(self, image: Any, languages: str, config: Any) -> Any:
            raise RuntimeError("tesseract died")

    parser = ScriptedParser("tests.parser", [scan_page(1)], renders=True)
    raising = Raising("tests.raising_ocr", priority=5)
    good = FakeOCR("tests.good_ocr", {1: "words read from the scan"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, raising, good))
    page = document.pages[0]
    assert page.text == "words read from the scan" and page.engine == "tests.good_ocr"
    assert any(a.engine == "tests.raising_ocr" and a.error_kind == "RuntimeError"
               for a in page.attempts)
    assert set(document.parsed_by) == {"tests.parser", "tests.good_ocr"}


def test_timeout_during_recovery_keeps_the_pages_already_read() -> None:
    class Slow(ScriptedRecovery):
        def recover(self, source: Source, page_numbers: Any, config: Any) -> dict[int, str]:
            time.sleep(0.6)
            return super().recover(source, page_numbers, config)

    parser = ScriptedParser("tests.parser", [text_page(1, "the first page is fine"),
                                             text_page(2, "GARBAGE")], renders=True)
    ocr = FakeOCR("tests.ocr", {2: "never reached"})
    slow = Slow("tests.slow", {2: "late"})
    document = extract(TEST_BYTES, name="a.test", timeout=0.3,
                       registry=registry_with(parser, MarkerValidator(), slow, ocr))
    assert document.pages[0].text == "the first page is fine"
    assert "ExtractionTimeout" in document.report.error_kinds
    assert ocr.calls == []


def test_extract_many_reports_a_directory_loop_and_reads_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOBLIN_LOAD_PLUGINS", "")
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "a.txt").write_text("text in a looping tree", encoding="utf-8")
    (root / "sub" / "loop").symlink_to(root, target_is_directory=True)
    documents = list(extract_many([root], jobs=1))
    texts = {d.name: d.text for d in documents if d.pages}
    assert texts == {"sub/a.txt": "text in a looping tree"}
    loops = [d for d in documents if not d.pages]
    assert loops and all(d.report.errors for d in loops)
    assert any("already read" in d.report.errors[0].message for d in loops)


def test_a_sniffer_answering_something_else_than_a_file_type_is_ignored() -> None:
    class Careless(BaseEngine):
        name = "tests.careless_sniffer"
        priority = 100

        def sniff(self, head: bytes, source: Source) -> FileType | None:
            return "application/pdf"  # type: ignore[return-value]

    parser = ScriptedParser("tests.parser", [text_page(1, "detected all the same")])
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, Careless()))
    assert document.text == "detected all the same"


def test_an_ocr_backend_returning_no_result_is_recorded_and_skipped() -> None:
    class Careless(FakeOCR):
        def recognize(self, image: Any, languages: str, config: Any) -> Any:
            return None

    parser = ScriptedParser("tests.parser", [scan_page(1)], renders=True)
    careless = Careless("tests.careless_ocr", priority=5)
    good = FakeOCR("tests.good_ocr", {1: "words read from the scan"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, careless, good))
    page = document.pages[0]
    assert page.engine == "tests.good_ocr"
    assert any(a.engine == "tests.careless_ocr" and a.error_kind == "TypeError"
               for a in page.attempts)


def test_a_recovery_engine_returning_the_wrong_shape_is_recorded_and_skipped() -> None:
    class Careless(ScriptedRecovery):
        def recover(self, source: Source, page_numbers: Any, config: Any) -> Any:
            return ["not", "a", "mapping"]

    parser = ScriptedParser("tests.parser", [text_page(1, "GARBAGE")])
    careless = Careless("tests.careless_recovery", priority=5)
    good = ScriptedRecovery("tests.good", {1: "recovered by the next engine"})
    document = extract(TEST_BYTES, name="a.test",
                       registry=registry_with(parser, MarkerValidator(), careless, good))
    page = document.pages[0]
    assert page.text == "recovered by the next engine"
    assert any(a.engine == "tests.careless_recovery" and a.error_kind == "TypeError"
               for a in page.attempts)


class _NotAParsedDocument(ScriptedParser):
    def open(self, source: Source, config: Any) -> Any:
        self.opened += 1
        return "page one text"


class _PagesRaiseAtOnce(ScriptedParser):
    def open(self, source: Source, config: Any) -> Any:
        document = super().open(source, config)

        def pages() -> Any:
            raise ValueError("no page tree")

        document.pages = pages  # type: ignore[method-assign]
        return document


@pytest.mark.parametrize(
    "broken",
    [
        _NotAParsedDocument("tests.broken", priority=5),
        _PagesRaiseAtOnce("tests.broken", priority=5),
        ScriptedParser("tests.broken", ["a bare string"], priority=5),  # type: ignore[list-item]
    ],
    ids=["open-returns-a-string", "pages-raises-before-iterating", "pages-yields-strings"],
)
def test_a_parser_breaking_its_protocol_falls_back_to_the_next(broken: ScriptedParser) -> None:
    good = ScriptedParser("tests.good", [text_page(1, "text from the parser that works")])
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(broken, good))
    assert document.text == "text from the parser that works"
    assert any(w.engine == "tests.broken" for w in document.report.warnings)


def test_a_parser_yielding_a_non_page_mid_document_keeps_the_pages_before() -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "the first page is fine"),
                                             "not a page"])  # type: ignore[list-item]
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser))
    assert document.pages[0].text == "the first page is fine"
    assert any(e.kind == "TypeError" for e in document.report.errors)


def test_attachments_failing_after_the_pages_keep_the_pages() -> None:
    class BrokenAttachments(ScriptedParser):
        def open(self, source: Source, config: Any) -> Any:
            document = super().open(source, config)

            def attachments() -> Any:
                yield Source.from_bytes(b"an attached note with text", "note.txt")
                raise KeyError("/EmbeddedFiles")

            document.attachments = attachments  # type: ignore[method-assign]
            return document

    parser = BrokenAttachments("tests.parser", [text_page(1, "the body text is kept")])
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser))
    assert document.text == "the body text is kept"
    assert [c.text for c in document.children] == ["an attached note with text"]
    assert "KeyError" in document.report.error_kinds
