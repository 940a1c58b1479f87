"""Chain semantics: which engine runs, in what order, and what wins, page by page."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from goblin_core import (
    CorruptDocument,
    PageContent,
    Source,
    UnsupportedFormat,
    Verdict,
    extract,
)
from goblin_core.model import Document

from scripted_engines import (
    TEST_BYTES,
    TEST_MIME,
    FakeImage,
    FakeOCR,
    MarkerValidator,
    ScriptedParser,
    ScriptedRecovery,
    blank_page,
    registry_with,
    scan_page,
    text_page,
)

# -- priority, ties, config ------------------------------------------------------


def test_highest_priority_parser_reads_the_document() -> None:
    low = ScriptedParser("tests.low", [text_page(1, "from the low one")], priority=1)
    high = ScriptedParser("tests.high", [text_page(1, "from the high one")], priority=5)
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(low, high))
    assert document.text == "from the high one"
    assert document.pages[0].engine == "tests.high"
    assert low.opened == 0


def test_equal_priorities_are_ordered_by_name() -> None:
    zulu = ScriptedParser("tests.zulu", [text_page(1, "zulu")])
    alpha = ScriptedParser("tests.alpha", [text_page(1, "alpha")])
    registry = registry_with(zulu, alpha)
    ranked = [e.name for e in registry.ranked("parser", TEST_MIME)]
    assert ranked == ["tests.alpha", "tests.zulu"]
    assert extract(TEST_BYTES, name="a.test", registry=registry).text == "alpha"


def test_config_priority_override_reorders_engines() -> None:
    low = ScriptedParser("tests.low", [text_page(1, "low")], priority=1)
    high = ScriptedParser("tests.high", [text_page(1, "high")], priority=5)
    registry = registry_with(low, high)
    document = extract(TEST_BYTES, name="a.test", registry=registry,
                       engines={"tests.low": {"priority": 9}})
    assert document.text == "low"


def test_config_disables_an_engine(tmp_path: Path) -> None:
    low = ScriptedParser("tests.low", [text_page(1, "low")], priority=1)
    high = ScriptedParser("tests.high", [text_page(1, "high")], priority=5)
    config = tmp_path / "goblin.toml"
    config.write_text('[engines."tests.high"]\nenabled = false\n', encoding="utf-8")
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(low, high),
                       config=config)
    assert document.text == "low"
    assert high.opened == 0


def test_config_can_enable_and_prioritise_from_a_json_file(tmp_path: Path) -> None:
    low = ScriptedParser("tests.low", [text_page(1, "low")], priority=1)
    high = ScriptedParser("tests.high", [text_page(1, "high")], priority=5)
    config = tmp_path / "goblin.json"
    config.write_text('{"engines": {"tests.high": {"priority": 0}}}', encoding="utf-8")
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(low, high),
                       config=config)
    assert document.text == "low"


def test_unavailable_engine_is_skipped_and_its_reason_kept() -> None:
    missing = ScriptedParser("tests.missing", [text_page(1, "never")], priority=9,
                             unavailable="frobnicator not found: apt-get install frobnicator")
    fallback = ScriptedParser("tests.fallback", [text_page(1, "fallback text")])
    registry = registry_with(missing, fallback)
    document = extract(TEST_BYTES, name="a.test", registry=registry)
    assert document.text == "fallback text"
    assert missing.opened == 0
    entry = registry.get("tests.missing")
    assert entry is not None
    assert registry.availability(entry) == (False,
                                            "frobnicator not found: apt-get install frobnicator")


def test_only_unavailable_engines_make_an_error_naming_the_reason() -> None:
    missing = ScriptedParser("tests.missing", [text_page(1, "never")],
                             unavailable="frobnicator not found")
    with pytest.raises(UnsupportedFormat, match="frobnicator not found") as caught:
        extract(TEST_BYTES, name="a.test", registry=registry_with(missing))
    assert "a.test" in str(caught.value)


# -- whole-document fallback ----------------------------------------------------------


def test_parser_failing_to_open_falls_back_to_the_next() -> None:
    broken = ScriptedParser("tests.broken", priority=5,
                            open_error=CorruptDocument("xref table is damaged"))
    good = ScriptedParser("tests.good", [text_page(1, "good text from the second parser")])
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(broken, good))
    assert document.text == "good text from the second parser"
    assert document.pages[0].status == "clean"
    assert document.parsed_by == ("tests.good",)
    assert any(w.engine == "tests.broken" and "xref table is damaged" in w.message
               for w in document.report.warnings)


def test_a_non_goblin_exception_in_open_also_falls_back() -> None:
    buggy = ScriptedParser("tests.buggy", priority=5, open_error=KeyError("/Root"))
    good = ScriptedParser("tests.good", [text_page(1, "good text from the second parser")])
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(buggy, good))
    assert document.text == "good text from the second parser"
    assert any(w.kind == "KeyError" for w in document.report.warnings)


# pyo3 (the bridge of Rust extensions such as python-calamine) raises a panic as
# pyo3_runtime.PanicException, a BaseException so that ``except Exception`` misses it
PanicException = type("PanicException", (BaseException,), {"__module__": "pyo3_runtime"})


def test_a_rust_panic_in_open_or_mid_document_is_an_engine_failure() -> None:
    panics = ScriptedParser("tests.panics", priority=5,
                            open_error=PanicException("index out of range for slice"))
    dies = ScriptedParser("tests.dies", [text_page(1, "page one of three"),
                                         PanicException("range end index 220 out of range")],
                          page_count=3, priority=3)
    recovery = ScriptedRecovery("tests.recovery",
                                {2: "page two of three", 3: "page three of three"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(panics, dies, recovery))
    assert [p.text for p in document.pages] == [
        "page one of three", "page two of three", "page three of three"]
    assert any(w.engine == "tests.panics" and "PanicException: index out of range" in w.message
               for w in document.report.warnings)
    assert any("stopped after page 1" in e.message and "range end index" in e.message
               for e in document.report.errors)


def test_other_base_exceptions_still_go_through() -> None:
    interrupted = ScriptedParser("tests.interrupted", open_error=KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        extract(TEST_BYTES, name="a.test", registry=registry_with(interrupted))


def test_parser_failing_on_the_first_page_falls_back_to_the_next() -> None:
    stumbles = ScriptedParser("tests.stumbles", [ValueError("bad page tree")], priority=5)
    good = ScriptedParser("tests.good",
                          [text_page(1, "page number one"), text_page(2, "page number two")])
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(stumbles, good))
    assert [p.text for p in document.pages] == ["page number one", "page number two"]
    assert {p.engine for p in document.pages} == {"tests.good"}
    assert stumbles.documents[0].closed


def test_every_parser_failing_is_a_corrupt_document_naming_each() -> None:
    first = ScriptedParser("tests.first", open_error=CorruptDocument("no header"))
    second = ScriptedParser("tests.second", open_error=ValueError("bad trailer"))
    with pytest.raises(CorruptDocument) as caught:
        extract(TEST_BYTES, name="broken.test", registry=registry_with(first, second))
    message = str(caught.value)
    assert "broken.test" in message
    assert "tests.first" in message and "tests.second" in message


# -- per-page errors, recovery and ranking ------------------------------------------------


def test_page_error_after_the_first_page_goes_to_recovery() -> None:
    parser = ScriptedParser("tests.parser", [
        text_page(1, "the first page of the document"),
        PageContent(2, error="cannot decode content stream"),
        text_page(3, "the third page of the document"),
    ])
    recovery = ScriptedRecovery("tests.recovery", {2: "second page, recovered"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, recovery))
    assert recovery.calls == [[2]]
    assert [p.status for p in document.pages] == ["clean", "recovered", "clean"]
    page = document.pages[1]
    assert page.engine == "tests.recovery" and page.text == "second page, recovered"
    assert page.attempts[0].engine == "tests.recovery"
    failed = [a for a in page.attempts if a.engine == "tests.parser"]
    assert failed and failed[0].error_kind == "PageError"


def test_a_page_drawing_glyphs_its_parser_read_none_of_goes_to_recovery() -> None:
    # the parser drew 40 glyphs and could map none (a font it has no character map for)
    parser = ScriptedParser("tests.parser", [
        text_page(1, "the first page of the document"),
        PageContent(2, text="", glyphs=40, unmapped=40),
        PageContent(3, text="", glyphs=0),
    ])
    recovery = ScriptedRecovery("tests.recovery", {2: "second page, read with the map"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, recovery),
                       ocr="never")
    assert recovery.calls == [[2]]  # the blank page 3 draws nothing: not sent
    assert [p.status for p in document.pages] == ["clean", "recovered", "empty"]
    assert document.pages[1].engine == "tests.recovery"


def test_a_page_with_glyphs_its_parser_left_out_goes_to_recovery_until_one_wins() -> None:
    # the parser read most of page 2, but knows it left 4 glyphs out (their font has no
    # character map it knows): too few to make the page look broken, yet words are missing
    readable = "most of the second page reads well enough"
    parser = ScriptedParser("tests.parser", [
        text_page(1, "the first page of the document"),
        PageContent(2, text=readable, glyphs=len(readable) + 4, unmapped=4, unread=4),
    ])
    first = ScriptedRecovery("tests.first", {2: readable + " and its last words"}, priority=5)
    second = ScriptedRecovery("tests.second", {2: readable + " and its last words too"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, first, second),
                       ocr="never")
    assert first.calls == [[2]] and second.calls == []  # page 2 only, and once recovered
    assert [p.status for p in document.pages] == ["clean", "recovered"]
    assert document.pages[1].text.endswith("and its last words")
    primary = next(a for a in document.pages[1].attempts if a.engine == "tests.parser")
    assert primary.verdict == "ok"


def test_a_page_with_glyphs_left_out_keeps_its_text_when_no_engine_does_better() -> None:
    readable = "most of the second page reads well enough"
    parser = ScriptedParser("tests.parser", [
        PageContent(1, text=readable, glyphs=len(readable) + 4, unmapped=4, unread=4)])
    # a clean-looking reading that holds less than the parser's text loses more than
    # it finds
    recovery = ScriptedRecovery("tests.recovery", {1: "only a part of it"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, recovery),
                       ocr="never")
    assert recovery.calls == [[1]]
    assert document.pages[0].text == readable and document.pages[0].status == "clean"
    tried = next(a for a in document.pages[0].attempts if a.engine == "tests.recovery")
    assert tried.verdict == "ok" and any("not used" in r for r in tried.reasons)


def test_unrecovered_page_error_is_a_failed_page_and_the_rest_is_kept() -> None:
    parser = ScriptedParser("tests.parser", [
        text_page(1, "the first page of the document"), PageContent(2, error="unreadable")])
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser))
    assert [p.status for p in document.pages] == ["clean", "failed"]
    assert document.pages[1].reason == "error"
    assert "unreadable" in document.pages[1].reasons[0]
    assert document.status == "partially_recovered"


def test_parser_dying_mid_document_keeps_pages_and_sends_the_rest_to_recovery() -> None:
    parser = ScriptedParser("tests.parser",
                            [text_page(1, "page one of three"), RuntimeError("segment")],
                            page_count=3)
    recovery = ScriptedRecovery("tests.recovery",
                                {2: "page two of three", 3: "page three of three"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, recovery))
    assert [p.text for p in document.pages] == [
        "page one of three", "page two of three", "page three of three"]
    assert [p.status for p in document.pages] == ["clean", "recovered", "recovered"]
    assert any("stopped after page 1" in e.message for e in document.report.errors)


def test_garbage_goes_down_the_recovery_chain_and_the_best_candidate_wins() -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "GARBAGE ÿþ¤ and a lot of other text")])
    still_garbage = ScriptedRecovery("tests.still_garbage", {1: "GARBAGE again"}, priority=5)
    suspect = ScriptedRecovery("tests.suspect", {1: "SUSPECT yet readable"}, priority=1)
    document = extract(TEST_BYTES, name="a.test",
                       registry=registry_with(parser, MarkerValidator(), still_garbage, suspect))
    page = document.pages[0]
    # A garbage candidate keeps the page in the chain; suspect outranks any garbage,
    # however many characters the garbage has.
    assert still_garbage.calls == [[1]] and suspect.calls == [[1]]
    assert page.text == "SUSPECT yet readable" and page.status == "recovered"
    assert [(a.engine, a.verdict) for a in page.attempts] == [
        ("tests.parser", "garbage"),
        ("tests.still_garbage", "garbage"),
        ("tests.suspect", "suspect"),
    ]


def test_recovery_engines_read_the_copy_the_parser_mended() -> None:
    mended = Source.from_bytes(b"TEST the copy the parser mended", "a.test")

    class MendingParser(ScriptedParser):
        def open(self, source: Source, config: Any) -> Any:
            document = super().open(source, config)
            document.repaired = mended
            return document

    read: list[bytes] = []

    class ReadingRecovery(ScriptedRecovery):
        def recover(self, source: Source, page_numbers: Any, config: Any) -> dict[int, str]:
            read.append(source.bytes())
            return super().recover(source, page_numbers, config)

    parser = MendingParser("tests.parser", [text_page(1, "GARBAGE page")])
    recovery = ReadingRecovery("tests.recovery", {1: "page read from the copy"})
    document = extract(TEST_BYTES, name="a.test",
                       registry=registry_with(parser, MarkerValidator(), recovery))
    assert read == [b"TEST the copy the parser mended"]
    assert document.pages[0].text == "page read from the copy"
    assert document.name == "a.test"


def test_a_parser_s_hidden_character_count_reaches_the_page_whoever_wins_it() -> None:
    """The count describes the file's own text layer: it stays when recovery wins."""
    from dataclasses import replace

    layer = replace(text_page(1, "an OCR layer drawn invisible over a scan"), hidden_chars=34)
    broken = replace(text_page(2, "GARBAGE layer"), hidden_chars=12)
    parser = ScriptedParser("tests.parser", [layer, broken], page_count=2)
    recovery = ScriptedRecovery("tests.recovery", {2: "page two, readable"})
    document = extract(TEST_BYTES, name="a.test",
                       registry=registry_with(parser, MarkerValidator(), recovery))
    assert [(p.status, p.hidden_chars) for p in document.pages] == [
        ("clean", 34), ("recovered", 12)]
    assert document.to_dict()["pages"][0]["hidden_chars"] == 34


def _garbage_pages(count: int) -> ScriptedParser:
    return ScriptedParser("tests.parser", [
        text_page(n, f"GARBAGE page {n} of the broken font") for n in range(1, count + 1)])


def test_a_recovery_engine_that_fails_its_probe_page_is_not_run_on_the_others() -> None:
    """Five broken pages: the first engine reads page 1 no better, so it reads nothing
    else; the next engine fixes page 1 and is then given the other four."""
    useless = ScriptedRecovery("tests.useless", {n: f"GARBAGE still {n}" for n in range(1, 6)},
                               priority=5)
    useful = ScriptedRecovery("tests.useful", {n: f"page {n}, readable" for n in range(1, 6)},
                              priority=1)
    registry = registry_with(_garbage_pages(5), MarkerValidator(), useless, useful)
    document = extract(TEST_BYTES, name="a.test", registry=registry)
    assert useless.calls == [[1]]
    assert useful.calls == [[1], [2, 3, 4, 5]]
    assert [p.status for p in document.pages] == ["recovered"] * 5
    skipped = [a for a in document.pages[3].attempts if a.engine == "tests.useless"]
    assert skipped[0].verdict == "skipped" and not skipped[0].error_kind
    assert "page 1 came out no better" in skipped[0].reasons[0]


class _ScoredGarbage(MarkerValidator):
    """Garbage scored higher when the text says it is less broken: two validators of a
    real plugin judge two engines' garbage on scales of their own."""

    def check(self, text: str, context: Any) -> Verdict:
        if "GARBAGE" in text and "less broken" in text:
            return Verdict("garbage", 0.3, ("garbage",))
        return super().check(text, context)


def test_garbage_that_beats_garbage_on_the_probe_page_is_no_reason_to_read_the_rest() -> None:
    """The engine's text of page 1 wins on its score but is garbage still: it is not
    given the other pages (a slow engine would read them all for nothing); an engine
    that makes page 1 readable is."""
    slow = ScriptedRecovery("tests.slow", {n: f"GARBAGE {n}, less broken" for n in range(1, 6)},
                            priority=5)
    useful = ScriptedRecovery("tests.useful", {n: f"page {n}, readable" for n in range(1, 6)},
                              priority=1)
    registry = registry_with(_garbage_pages(5), _ScoredGarbage(), slow, useful)
    document = extract(TEST_BYTES, name="a.test", registry=registry, ocr="never")
    assert slow.calls == [[1]]
    assert useful.calls == [[1], [2, 3, 4, 5]]
    assert [p.status for p in document.pages] == ["recovered"] * 5
    skipped = [a for a in document.pages[1].attempts if a.engine == "tests.slow"]
    assert skipped[0].verdict == "skipped"
    assert skipped[0].reasons == (
        "not tried: page 1 came out no better with this engine (garbage, as before)",)


def test_garbage_that_beats_garbage_is_kept_on_the_probe_page() -> None:
    slow = ScriptedRecovery("tests.slow", {n: f"GARBAGE {n}, less broken" for n in range(1, 4)})
    registry = registry_with(_garbage_pages(3), _ScoredGarbage(), slow)
    document = extract(TEST_BYTES, name="a.test", registry=registry, ocr="never")
    assert slow.calls == [[1]]
    assert [p.engine for p in document.pages] == ["tests.slow", "tests.parser", "tests.parser"]
    assert [p.status for p in document.pages] == ["corrupt"] * 3


def test_a_page_a_recovery_engine_leaves_out_still_records_the_attempt() -> None:
    """An engine that reads page 2 but not page 1 (pdftotext failing on one page of a
    damaged file): page 1's record says the engine was tried and gave nothing."""
    partial = ScriptedRecovery("tests.partial", {2: "page 2, readable"})
    registry = registry_with(_garbage_pages(2), MarkerValidator(), partial)
    document = extract(TEST_BYTES, name="a.test", registry=registry)
    first, second = document.pages
    assert first.status == "corrupt" and second.status == "recovered"
    tried = [a for a in first.attempts if a.engine == "tests.partial"]
    assert len(tried) == 1 and not tried[0].verdict and not tried[0].chars
    assert not tried[0].error_kind
    assert "no text for this page" in tried[0].reasons[0]
    assert [a.verdict for a in second.attempts if a.engine == "tests.partial"] == ["ok"]


def test_recovery_probe_zero_and_short_documents_read_every_page_at_once() -> None:
    engine = ScriptedRecovery("tests.useless", {n: f"GARBAGE still {n}" for n in range(1, 6)})
    registry = registry_with(_garbage_pages(5), MarkerValidator(), engine)
    extract(TEST_BYTES, name="a.test", registry=registry, recovery_probe=0)
    assert engine.calls == [[1, 2, 3, 4, 5]]
    engine.calls.clear()
    short = registry_with(_garbage_pages(2), MarkerValidator(), engine)
    extract(TEST_BYTES, name="a.test", registry=short)
    assert engine.calls == [[1, 2]]


def test_candidates_rank_by_status_then_score_then_mapped_characters() -> None:
    from goblin_core import Verdict
    from goblin_core.ranking import Candidate, best

    def candidate(engine: str, status: str, score: float, text: str) -> Candidate:
        return Candidate(engine, "tests", text, Verdict(status, score))  # type: ignore[arg-type]

    assert best([candidate("a", "garbage", 0.9, "long " * 50),
                 candidate("b", "suspect", 0.2, "x")]).engine == "b"  # type: ignore[union-attr]
    assert best([candidate("a", "suspect", 0.5, "long " * 50),
                 candidate("b", "suspect", 0.6, "x")]).engine == "b"  # type: ignore[union-attr]
    assert best([candidate("a", "ok", 1.0, "short"),
                 candidate("b", "ok", 1.0, "much longer")]).engine == "b"  # type: ignore[union-attr]
    # A full tie keeps the earlier candidate: the primary engine's text is not replaced.
    assert best([candidate("a", "ok", 1.0, "same"),
                 candidate("b", "ok", 1.0, "same")]).engine == "a"  # type: ignore[union-attr]


def test_recovery_stops_once_no_page_is_garbage() -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "GARBAGE")])
    first = ScriptedRecovery("tests.first", {1: "fine text from the first"}, priority=5)
    second = ScriptedRecovery("tests.second", {1: "other fine text from the second"}, priority=1)
    extract(TEST_BYTES, name="a.test",
            registry=registry_with(parser, MarkerValidator(), first, second))
    assert first.calls == [[1]] and second.calls == []


def test_suspect_pages_are_reported_not_recovered() -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "SUSPECT text")])
    recovery = ScriptedRecovery("tests.recovery", {1: "better"})
    document = extract(TEST_BYTES, name="a.test",
                       registry=registry_with(parser, MarkerValidator(), recovery))
    assert recovery.calls == []
    assert document.pages[0].status == "clean"
    assert document.pages[0].verdict == "suspect"


def test_good_text_is_never_replaced_by_worse() -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "GARBAGE but long " * 20)])
    worse = ScriptedRecovery("tests.worse", {1: "GARBAGE"})
    document = extract(TEST_BYTES, name="a.test",
                       registry=registry_with(parser, MarkerValidator(), worse))
    page = document.pages[0]
    assert page.engine == "tests.parser"
    assert page.status == "corrupt" and page.reason == "garbage"
    assert len(page.attempts) == 2


def test_equal_status_and_score_prefers_more_mapped_characters() -> None:
    parser = ScriptedParser("tests.parser", [PageContent(1, error="unreadable")])
    short = ScriptedRecovery("tests.short", {1: "GARBAGE"}, priority=5)
    longer = ScriptedRecovery("tests.longer", {1: "GARBAGE with more characters"}, priority=1)
    document = extract(TEST_BYTES, name="a.test",
                       registry=registry_with(parser, MarkerValidator(), short, longer))
    assert document.pages[0].engine == "tests.longer"


def test_a_failing_recovery_engine_is_recorded_and_the_next_one_runs() -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "GARBAGE")])
    crashing = ScriptedRecovery("tests.crashing", error=OSError("tool crashed"), priority=5)
    good = ScriptedRecovery("tests.good", {1: "recovered"})
    document = extract(TEST_BYTES, name="a.test",
                       registry=registry_with(parser, MarkerValidator(), crashing, good))
    page = document.pages[0]
    assert page.text == "recovered"
    crashed = [a for a in page.attempts if a.engine == "tests.crashing"]
    assert crashed and crashed[0].error_kind == "OSError"


# -- OCR strategies ----------------------------------------------------------------------------


def _ocr_document(strategy: str, **options: object) -> tuple[object, FakeOCR, ScriptedParser]:
    parser = ScriptedParser("tests.parser", [
        text_page(1, "a page with plenty of real text"),
        scan_page(2),
        blank_page(3),
        text_page(4, "x", glyphs=40),
    ], renders=True)
    ocr = FakeOCR("tests.ocr", {1: "ocr of page one with text", 2: "scanned words on page two",
                                 3: "should never be read", 4: "ocr of a sparse page four"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, ocr),
                       ocr=strategy, **options)
    return document, ocr, parser


def test_auto_ocr_reads_only_pages_that_draw_but_yield_too_little() -> None:
    document, ocr, parser = _ocr_document("auto")
    assert sorted(ocr.calls) == [2, 4]
    statuses = [p.status for p in document.pages]  # type: ignore[attr-defined]
    assert statuses == ["clean", "ocr", "empty", "ocr"]
    assert document.pages[1].text == "scanned words on page two"  # type: ignore[attr-defined]
    assert document.report.ocr_pages == (2, 4)  # type: ignore[attr-defined]
    assert 3 not in parser.documents[0].rendered


def test_blank_page_is_empty_and_never_ocr_d_in_any_strategy() -> None:
    for strategy in ("auto", "always", "extract_and_ocr"):
        document, ocr, parser = _ocr_document(strategy)
        assert 3 not in ocr.calls, strategy
        assert 3 not in parser.documents[0].rendered, strategy
        assert document.pages[2].status == "empty", strategy  # type: ignore[attr-defined]


def test_never_ocr_leaves_scans_corrupt_needing_ocr() -> None:
    document, ocr, _ = _ocr_document("never")
    assert ocr.calls == []
    page = document.pages[1]  # type: ignore[attr-defined]
    assert (page.status, page.reason) == ("corrupt", "needs_ocr")
    assert document.status == "partially_recovered"  # type: ignore[attr-defined]


def test_always_ocr_uses_ocr_text_for_every_drawn_page() -> None:
    document, ocr, _ = _ocr_document("always")
    assert sorted(ocr.calls) == [1, 2, 4]
    pages = document.pages  # type: ignore[attr-defined]
    assert [p.status for p in pages] == ["ocr", "ocr", "empty", "ocr"]
    assert pages[0].text == "ocr of page one with text"
    assert pages[0].engine == "tests.ocr"


def test_extract_and_ocr_keeps_both_texts() -> None:
    document, ocr, _ = _ocr_document("extract_and_ocr")
    assert sorted(ocr.calls) == [1, 2, 4]
    first = document.pages[0]  # type: ignore[attr-defined]
    texts = {first.text, *(text for _, text in first.alternatives)}
    assert texts == {"a page with plenty of real text", "ocr of page one with text"}
    assert len(first.alternatives) == 1


def test_auto_ocr_reads_pages_with_too_many_unmapped_glyphs() -> None:
    broken = ("Ob\ufffdeto da licita\ufffd\ufffdo: aquisi\ufffd\ufffdo de materiais "
              "de constru\ufffd\ufffdo")
    parser = ScriptedParser("tests.parser", [
        text_page(1, broken, glyphs=70, unmapped=12),
        text_page(2, "a clean page with enough mapped characters", glyphs=40, unmapped=2),
    ], renders=True)
    ocr = FakeOCR("tests.ocr", {1: "Objeto da licitação: aquisição de materiais de construção",
                                 2: "never asked"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, ocr), ocr="auto")
    assert ocr.calls == [1]
    assert document.pages[0].status == "ocr"
    assert document.pages[0].text.startswith("Objeto da licitação")
    assert document.pages[1].status == "clean"


def _layer_against_ocr(confidence: float) -> Any:
    # a text layer with a few unmapped glyphs (a heading in a font without a map) beside a
    # scan; the backend reads both with ``confidence``
    layer = "\ufffd" * 12 + " " + "a page of real words set in a font that maps " * 3
    parser = ScriptedParser("tests.parser", [text_page(1, layer, unmapped=12), scan_page(2)],
                            renders=True)
    ocr = FakeOCR("tests.ocr", {1: "Heading a page of real words read", 2: "scanned words"},
                  confidence=confidence)
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, ocr),
                       ocr="auto")
    assert ocr.calls == [1, 2]
    return document


def test_ocr_read_with_low_confidence_is_suspect_and_keeps_a_layer_scoring_higher() -> None:
    # the validators judge how text is encoded: OCR in the wrong script, or of formulas,
    # passes them all; only the backend's own confidence says it misread
    layered, scanned = _layer_against_ocr(0.5).pages
    assert (layered.status, layered.engine) == ("clean", "tests.parser")
    assert layered.verdict == "suspect" and layered.confidence > 0.5
    ocr = next(a for a in layered.attempts if a.engine == "tests.ocr")
    assert (ocr.verdict, ocr.score, ocr.reasons) == ("suspect", 0.5, ("low_ocr_confidence",))
    # with nothing better to read, the doubtful reading is the page's text, marked so
    assert (scanned.status, scanned.text, scanned.verdict) == ("ocr", "scanned words",
                                                                "suspect")
    assert scanned.reasons == ("low_ocr_confidence",)


def test_ocr_read_with_confidence_replaces_a_suspect_layer() -> None:
    layered, scanned = _layer_against_ocr(0.95).pages
    assert (layered.status, layered.verdict, layered.text) == (
        "ocr", "ok", "Heading a page of real words read")
    assert (scanned.status, scanned.verdict) == ("ocr", "ok")


def test_trusted_ocr_confidence_is_an_option() -> None:
    parser = ScriptedParser("tests.parser", [scan_page(1)], renders=True)
    ocr = FakeOCR("tests.ocr", {1: "scanned words"}, confidence=0.5)
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, ocr),
                       ocr_trusted_confidence=0.4)
    assert document.pages[0].verdict == "ok"


class _FlatImage(FakeImage):
    """A rendered page of one colour, as PIL reports its extrema."""

    def getextrema(self) -> tuple[int, int]:
        return (0, 0)


class _FlatRenderingParser(ScriptedParser):
    def open(self, source: Any, config: Any) -> Any:
        document = super().open(source, config)
        document.render = lambda page, dpi: _FlatImage(page)  # type: ignore[method-assign]
        return document


def test_a_page_rendering_to_one_flat_colour_is_not_ocrd() -> None:
    # a huge image-only page of one colour took Tesseract a minute for no text
    parser = _FlatRenderingParser("tests.parser", [scan_page(1)], renders=True)
    ocr = FakeOCR("tests.ocr", {1: "text no flat page holds"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, ocr), ocr="auto")
    assert ocr.calls == []
    page = document.pages[0]
    # nothing shows on it (a blank scan): empty, as a page drawing nothing, not corrupt
    assert (page.status, page.reason) == ("empty", "")
    assert document.status == "clean"
    assert any("one flat colour" in r for a in page.attempts for r in a.reasons), page.attempts


@dataclass
class _Bitmap(FakeImage):
    """A rendered page with pixels: ``picture`` says which drawing it shows."""

    picture: int = 0
    mode: str = "L"
    size: tuple[int, int] = (4, 4)

    def tobytes(self) -> bytes:
        return bytes([self.picture]) * 16


class _RepeatingParser(ScriptedParser):
    """Renders ``pictures[page]``: pages showing the same picture render the same pixels."""

    def __init__(self, pictures: dict[int, int]) -> None:
        super().__init__("tests.parser", [scan_page(n) for n in pictures], renders=True)
        self.pictures = pictures

    def open(self, source: Any, config: Any) -> Any:
        document = super().open(source, config)
        document.render = lambda page, dpi: _Bitmap(page, picture=self.pictures[page])
        return document


def test_a_page_image_met_again_is_read_once() -> None:
    # a small PDF can draw one scanned page a thousand times: each copy took Tesseract
    # as long as the first; a picture no backend reads is not tried again either
    parser = _RepeatingParser({1: 7, 2: 7, 3: 9, 4: 7, 5: 3, 6: 3})
    ocr = FakeOCR("tests.ocr", {1: "the scanned form every copy shows", 3: "another page"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, ocr))
    assert ocr.calls == [1, 3, 5]
    assert [p.text for p in document.pages[:4]] == [
        "the scanned form every copy shows", "the scanned form every copy shows",
        "another page", "the scanned form every copy shows"]
    assert [p.status for p in document.pages] == ["ocr"] * 4 + ["corrupt"] * 2
    assert any("the same image as page 5" in r for a in document.pages[5].attempts
               for r in a.reasons)


def test_a_page_image_a_backend_failed_on_is_tried_again() -> None:
    class Flaky(FakeOCR):
        def recognize(self, image, languages, config):  # type: ignore[no-untyped-def]
            if not self.calls:
                self.calls.append(image.page)
                raise TimeoutError("the service did not answer")
            return super().recognize(image, languages, config)

    parser = _RepeatingParser({1: 7, 2: 7})
    ocr = Flaky("tests.ocr", {2: "read on the second try"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, ocr))
    assert ocr.calls == [1, 2]
    assert document.pages[1].text == "read on the second try"


def test_ocr_text_wins_only_when_it_ranks_higher() -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "GARBAGE " * 5, glyphs=40)],
                            renders=True)
    ocr = FakeOCR("tests.ocr", {1: "GARBAGE"})
    document = extract(TEST_BYTES, name="a.test",
                       registry=registry_with(parser, MarkerValidator(), ocr), ocr="auto")
    assert ocr.calls == [1]
    page = document.pages[0]
    assert page.engine == "tests.parser"
    assert {a.engine for a in page.attempts} == {"tests.parser", "tests.ocr"}


def test_cloud_ocr_backend_is_not_used_unless_named() -> None:
    parser = ScriptedParser("tests.parser", [scan_page(1)], renders=True)
    cloud = FakeOCR("tests.cloud", {1: "cloud text"}, priority=100, cloud=True)
    local = FakeOCR("tests.local", {1: "local text"})
    registry = registry_with(parser, cloud, local)

    document = extract(TEST_BYTES, name="a.test", registry=registry)
    assert document.pages[0].engine == "tests.local" and cloud.calls == []

    named = extract(TEST_BYTES, name="a.test", registry=registry, ocr_backends=["tests.cloud"])
    assert named.pages[0].engine == "tests.cloud"

    enabled = extract(TEST_BYTES, name="a.test", registry=registry,
                      engines={"tests.cloud": {"enabled": True}})
    assert enabled.pages[0].engine == "tests.cloud"


def test_pages_needing_ocr_without_a_backend_are_reported() -> None:
    parser = ScriptedParser("tests.parser", [scan_page(1)], renders=True)
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser))
    assert document.pages[0].status == "corrupt"
    assert any(w.kind == "EngineUnavailable" and "goblin-core[ocr]" in w.message
               for w in document.report.warnings)


def test_page_images_are_released_after_ocr() -> None:
    released = []

    class Recording(FakeOCR):
        def recognize(self, image, languages, config):  # type: ignore[no-untyped-def]
            released.append(image)
            return super().recognize(image, languages, config)

    parser = ScriptedParser("tests.parser", [scan_page(1), scan_page(2)], renders=True)
    extract(TEST_BYTES, name="a.test",
            registry=registry_with(parser, Recording("tests.ocr", {1: "a b c d e f g h i j k"})))
    assert len(released) == 2 and all(image.closed for image in released)
    assert parser.documents[0].closed


# -- provenance and overall status -------------------------------------------------------------


def test_every_page_has_provenance_of_every_attempt() -> None:
    parser = ScriptedParser("tests.parser", [
        text_page(1, "fine text on page one"),
        text_page(2, "GARBAGE"),
        PageContent(3, error="broken"),
    ])
    recovery = ScriptedRecovery("tests.recovery", {2: "recovered two", 3: "recovered three"})
    document = extract(TEST_BYTES, name="a.test",
                       registry=registry_with(parser, MarkerValidator(), recovery))
    for page in document.pages:
        assert page.attempts, page.number
        for attempt in page.attempts:
            assert attempt.engine in ("tests.parser", "tests.recovery")
            assert attempt.distribution == "tests"
            assert attempt.seconds >= 0
    first = document.pages[0].attempts[0]
    assert (first.verdict, first.score, first.chars) == ("ok", 1.0, len("fine text on page one"))
    second = document.pages[1].attempts
    assert [(a.engine, a.verdict) for a in second] == [("tests.parser", "garbage"),
                                                       ("tests.recovery", "ok")]
    third = document.pages[2].attempts
    assert third[-1].error_kind == "PageError" and third[-1].error == "broken"


def test_provenance_names_the_real_distribution_and_version() -> None:
    from importlib.metadata import version

    from goblin_example_note import render_note

    document = extract(render_note(["hello"]), name="n.gnote")
    attempt = document.pages[0].attempts[0]
    assert attempt.engine == "note.parser"
    assert attempt.distribution == f"goblin-example-note=={version('goblin-example-note')}"
    text = extract(b"plain words", name="a.txt")
    assert text.pages[0].attempts[0].distribution == f"goblin-core=={version('goblin-core')}"


@pytest.mark.parametrize(
    ("pages", "expected"),
    [
        ([text_page(1, "good text on page one"), blank_page(2)], "clean"),
        ([text_page(1, "good text on page one"), text_page(2, "GARBAGE")],
         "partially_recovered"),
        ([text_page(1, "GARBAGE"), blank_page(2)], "corrupt_unrecoverable"),
        ([text_page(1, "GARBAGE"), PageContent(2, error="x")], "corrupt_unrecoverable"),
    ],
    ids=["clean-and-empty", "clean-and-corrupt", "corrupt-and-empty", "corrupt-and-failed"],
)
def test_overall_status_rule(pages: list[PageContent], expected: str) -> None:
    parser = ScriptedParser("tests.parser", pages)
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, MarkerValidator()),
                       ocr="never")
    assert document.status == expected


def test_recovered_pages_make_a_partially_recovered_document() -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "GARBAGE")])
    recovery = ScriptedRecovery("tests.recovery", {1: "fixed by the recovery engine"})
    document = extract(TEST_BYTES, name="a.test",
                       registry=registry_with(parser, MarkerValidator(), recovery))
    assert document.pages[0].status == "recovered"
    assert document.status == "partially_recovered"


def test_validators_combine_to_the_worst_status_and_lowest_score() -> None:
    from goblin_core import Verdict
    from goblin_core.engines import BaseEngine

    class Harsh(BaseEngine):
        name = "tests.harsh"
        formats = (TEST_MIME,)

        def check(self, text, context):  # type: ignore[no-untyped-def]
            return Verdict("suspect", 0.4, ("harsh",))

    class OtherFormat(Harsh):
        name = "tests.other_format"
        formats = ("application/pdf",)

        def check(self, text, context):  # type: ignore[no-untyped-def]
            return Verdict("garbage", 0.0, ("never applies",))

    parser = ScriptedParser("tests.parser", [text_page(1, "SUSPECT words")])
    document = extract(TEST_BYTES, name="a.test",
                       registry=registry_with(parser, MarkerValidator(), Harsh(), OtherFormat()))
    page = document.pages[0]
    assert page.verdict == "suspect"
    assert page.confidence == 0.4
    assert set(page.reasons) == {"suspect", "harsh"}


def test_running_out_of_memory_in_a_parser_is_not_taken_for_a_broken_file() -> None:
    greedy = ScriptedParser("tests.greedy", priority=10, open_error=MemoryError())
    fallback = ScriptedParser("tests.fallback", [text_page(1, "fine")])
    with pytest.raises(MemoryError):
        extract(TEST_BYTES, name="a.test", registry=registry_with(greedy, fallback))
    assert fallback.opened == 0


# -- metadata ------------------------------------------------------------------------


class _DatedParser(ScriptedParser):
    """Reports metadata the way libraries give it: datetimes, tuples, non-str keys."""

    def open(self, source: Any, config: Any) -> Any:
        document = super().open(source, config)
        document.metadata = {"created": datetime.datetime(2010, 5, 4, 6, 43, 54),
                             "revision": (1, 2), 7: "seven", "when": datetime.date(2011, 1, 2)}
        return document


def test_raw_metadata_is_json_safe_so_the_document_survives_a_json_round_trip() -> None:
    parser = _DatedParser("tests.dated", [text_page(1, "dated")])
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser))
    assert document.raw_metadata == {"created": "2010-05-04T06:43:54", "revision": [1, 2],
                                     "7": "seven", "when": "2011-01-02"}
    assert document.metadata["created"] == "2010-05-04T06:43:54"
    assert Document.from_dict(json.loads(json.dumps(document.to_dict()))) == document


def test_ocr_confirming_a_sparse_text_layer_keeps_the_layer_clean() -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "Test  test"), text_page(2, "Test test")],
                            renders=True)
    ocr = FakeOCR("tests.ocr", {1: "test Test\n", 2: "Test test\nand a caption drawn as curves"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, ocr), ocr="auto")
    assert ocr.calls == [1, 2]
    first, second = document.pages
    assert (first.status, first.engine, first.text) == ("clean", "tests.parser", "Test  test")
    assert {a.engine for a in first.attempts} == {"tests.parser", "tests.ocr"}
    assert (second.status, second.engine) == ("ocr", "tests.ocr")


def test_ocr_misreading_a_short_layer_does_not_replace_its_exact_codes() -> None:
    pages = [text_page(1, "Potato 0"), text_page(2, "Test test"), text_page(3, "Potato 0"),
             text_page(4, "Potato 0", unmapped=3), text_page(5, "ID 1lI0O")]
    parser = ScriptedParser("tests.parser", pages, renders=True)
    ocr = FakeOCR("tests.ocr", {1: "Potato O", 2: "Test best", 3: "Potato O Chips", 4: "Potato Q",
                                5: "ID 11100"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, ocr), ocr="auto")
    assert ocr.calls == [1, 2, 3, 4, 5]
    kept, also_kept, more, unmapped, code = document.pages
    assert (kept.status, kept.engine, kept.text) == ("clean", "tests.parser", "Potato 0")
    assert (also_kept.status, also_kept.text) == ("clean", "Test test")
    # a code made of letters OCR confuses with digits, every one misread
    assert (code.status, code.engine, code.text) == ("clean", "tests.parser", "ID 1lI0O")
    # OCR that reads more than the layer, or a layer missing characters, is a real alternative.
    assert (more.status, more.text) == ("ocr", "Potato O Chips")
    assert (unmapped.status, unmapped.engine) == ("ocr", "tests.ocr")


class _WarningParser(ScriptedParser):
    def open(self, source: Any, config: Any) -> Any:
        document = super().open(source, config)
        document.warnings = [("Truncated", f"row {n} cut: a limit") for n in range(60)]
        return document


def test_a_parsers_own_warnings_reach_the_report_bounded() -> None:
    parser = _WarningParser("tests.parser", [text_page(1, "Objeto da licitação")])
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser), ocr="never")
    warnings = document.report.warnings
    assert [(w.kind, w.engine, w.message) for w in warnings[:2]] == [
        ("Truncated", "tests.parser", "row 0 cut: a limit"),
        ("Truncated", "tests.parser", "row 1 cut: a limit")]
    assert len([w for w in warnings if w.kind == "Truncated"]) == 50
    assert "10 more warnings of the parser not listed" in warnings[-1].message
    assert document.pages[0].text == "Objeto da licitação"


def _outlined_page(number: int, segments: int) -> PageContent:
    """A page that draws paths only: text turned into outlines, or a drawing."""
    return PageContent(number=number, text="", glyphs=0, images=0, path_segments=segments)


def test_a_page_of_outlined_text_is_ocrd_and_a_drawing_without_words_stays_empty() -> None:
    parser = ScriptedParser("tests.parser", [_outlined_page(1, 6000), _outlined_page(2, 6000),
                                             _outlined_page(3, 40), blank_page(4)], renders=True)
    ocr = FakeOCR("tests.ocr", {1: "Sample vector text that should be read"})
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, ocr), ocr="auto")
    assert ocr.calls == [1, 2]  # a few lines (40 segments) or nothing at all: not OCR'd
    assert [(p.status, p.engine) for p in document.pages] == [
        ("ocr", "tests.ocr"), ("empty", "tests.parser"), ("empty", "tests.parser"),
        ("empty", "tests.parser")]


def test_outlined_pages_follow_the_threshold_and_ocr_never() -> None:
    pages = [_outlined_page(1, 6000)]
    for options, calls in (({"ocr": "never"}, []),
                           ({"ocr": "auto", "vector_segments_per_page": 0}, []),
                           ({"ocr": "auto", "vector_segments_per_page": 7000}, []),
                           ({"ocr": "always"}, [1])):
        ocr = FakeOCR("tests.ocr", {1: "Sample vector text"})
        parser = ScriptedParser("tests.parser", pages, renders=True)
        extract(TEST_BYTES, name="a.test", registry=registry_with(parser, ocr), **options)
        assert ocr.calls == calls, options


class _Rows:
    """A page image as a PIL image is to the digest: a mode, a size, bands, rows to crop
    and bytes; one byte a pixel, the last pixel set apart when ``mark``."""

    def __init__(self, size: tuple[int, int], mark: int = 0, top: int = 0,
                 mode: str = "L") -> None:
        self.size, self.mark, self.top, self.mode = size, mark, top, mode
        self.crops = 0

    def getbands(self) -> tuple[str, ...]:
        return tuple(self.mode)

    def crop(self, box: tuple[int, int, int, int]) -> _Rows:
        self.crops += 1
        left, top, right, bottom = box
        return _Rows((right - left, bottom - top), self.mark, self.top + top, self.mode)

    def tobytes(self) -> bytes:
        width, height = self.size
        pixels = bytearray(width * height * len(self.mode))
        if self.mark and pixels:
            pixels[-1] = self.mark
        return bytes(pixels)

    def __enter__(self) -> _Rows:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def test_a_large_page_image_is_hashed_in_strips_and_told_apart_by_its_pixels() -> None:
    from goblin_core import pipeline

    # 3,000 x 3,000 one-byte pixels: 9 MB, hashed a strip of rows at a time
    page = _Rows((3000, 3000))
    assert pipeline._pixels_key(page) == pipeline._pixels_key(_Rows((3000, 3000)))
    assert page.crops > 1
    assert pipeline._pixels_key(page) != pipeline._pixels_key(_Rows((3000, 3000), mark=1))
    assert pipeline._pixels_key(page) != pipeline._pixels_key(_Rows((3000, 3000), mode="LA"))
