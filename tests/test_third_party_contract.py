"""The plugin contract as a third party meets it: every mistake a plugin can make costs
that plugin (or that engine's answer) only, is reported with its cause, and never
crashes goblin or loses text already read."""

from __future__ import annotations

import importlib.metadata as importlib_metadata
import json
import math
from collections.abc import Callable, Iterable
from typing import Any, cast

import pytest

import goblin_core
from goblin_core import FileType, OCRResult, Option, PageContent, Table, Verdict, hookimpl
from goblin_core.cli.plugins import plugins_data
from goblin_core.engines import BaseEngine, Task, TaskResult, run_executor
from goblin_core.registry import Registry, load_registry

from scripted_engines import (
    TEST_BYTES,
    TEST_MIME,
    FakeOCR,
    ScriptedParser,
    registry_with,
    scan_page,
    text_page,
)


def _options_plugin(register_call: Callable[[Callable[..., None]], None]) -> object:
    class Plugin:
        @staticmethod
        @hookimpl
        def goblin_register_options(register: Callable[..., None]) -> None:
            register_call(register)

    return Plugin()


def _parsers_plugin(*engines: Any) -> object:
    class Plugin:
        @staticmethod
        @hookimpl
        def goblin_register_parsers(register: Callable[[Any], None]) -> None:
            for engine in engines:
                register(engine)

    return Plugin()


def _status(registry: Registry, name: str) -> tuple[str, str]:
    plugin = next(p for p in registry.plugins if p.name == name)
    return plugin.status, plugin.error


class _TextParser(BaseEngine):
    name = "third.parser"
    formats = (TEST_MIME,)
    priority = 1000

    def open(self, source: Any, config: Any) -> Any:
        from goblin_core.engines import TextDocument

        return TextDocument(["third party text"])


# -- registration ------------------------------------------------------------


def test_a_plugin_claiming_a_core_namespace_breaks_itself_not_goblin_core() -> None:
    hijack = _options_plugin(lambda register: register(
        "limits", [Option("max_pages", "int", 7, "not yours")]))
    registry = load_registry(load=[], extra_plugins=[("hijack", hijack)])
    status, error = _status(registry, "hijack")
    assert status == "broken" and "[limits]" in error
    assert _status(registry, "goblin-core")[0] == "loaded"
    assert "max_file_size" in registry.namespaces["limits"].by_name
    document = goblin_core.extract(b"still works", name="a.txt", registry=registry)
    assert document.text == "still works"


def test_options_register_takes_extra_and_help_as_documented() -> None:
    plugin = _options_plugin(lambda register: register(
        "zed", [Option("level", "int", 3, "A level.")], "zed-extra", "Zed options."))
    registry = load_registry(load=[], extra_plugins=[("zed", plugin)])
    assert _status(registry, "zed") == ("loaded", "")
    assert registry.namespaces["zed"].extra == "zed-extra"
    assert registry.namespaces["zed"].help == "Zed options."


def test_option_defaults_are_converted_and_a_bad_default_breaks_the_plugin() -> None:
    good = _options_plugin(lambda register: register(
        "zed", [Option("size", "bytes", "1MB", "A size."), Option("tags", "list", [], "Tags.")]))
    registry = load_registry(load=[], extra_plugins=[("zed", good)])
    config = registry.config()
    assert config.get("zed", "size") == 1024**2
    assert config.get("zed", "tags") == ()
    bad = _options_plugin(lambda register: register(
        "zed", [Option("mode", "choice", "medium", "How.", choices=("fast", "slow"))]))
    registry = load_registry(load=[], extra_plugins=[("zed", bad)])
    status, error = _status(registry, "zed")
    assert status == "broken" and "zed.mode" in error


def test_a_plugin_broken_in_its_options_contributes_no_engine() -> None:
    class Plugin:
        @staticmethod
        @hookimpl
        def goblin_register_parsers(register: Callable[[Any], None]) -> None:
            register(_TextParser())

        @staticmethod
        @hookimpl
        def goblin_register_options(register: Callable[..., None]) -> None:
            raise RuntimeError("options exploded")

    registry = registry_with(plugins=[("half", Plugin())])
    assert _status(registry, "half")[0] == "broken"
    assert registry.get("third.parser") is None
    assert not next(p for p in registry.plugins if p.name == "half").engines
    with pytest.raises(goblin_core.UnsupportedFormat):
        goblin_core.extract(TEST_BYTES, name="a.test", registry=registry)


def test_one_engine_name_registered_twice_by_one_plugin_breaks_it() -> None:
    registry = load_registry(load=[], extra_plugins=[
        ("twice", _parsers_plugin(_TextParser(), _TextParser()))])
    status, error = _status(registry, "twice")
    assert status == "broken" and "registered twice" in error
    assert registry.get("third.parser") is None


def test_a_plugin_that_fails_to_import_is_listed_broken_with_its_error() -> None:
    point = importlib_metadata.EntryPoint("ghost", "ghost_plugin_not_there.plugin", "goblin")
    registry = load_registry(entry_points=lambda: [point])
    status, error = _status(registry, "ghost")
    assert status == "broken" and "ModuleNotFoundError" in error
    assert _status(registry, "goblin-core")[0] == "loaded"


@pytest.mark.parametrize(("attribute", "value", "reason"), [
    ("priority", "high", "priority must be an int"),
    ("priority", 2.5, "priority must be an int"),
    ("formats", "application/x-goblin-test", "formats must be"),
    ("formats", (), "formats must be"),
])
def test_malformed_engine_attributes_never_crash_listing_or_ranking(
        attribute: str, value: Any, reason: str) -> None:
    engine = _TextParser()
    setattr(engine, attribute, value)
    fallback = ScriptedParser("tests.parser", [text_page(1, "read by the other parser")])
    registry = registry_with(fallback, plugins=[("odd", _parsers_plugin(engine))])
    entry = registry.get("third.parser")
    assert entry is not None
    ok, why = registry.availability(entry)
    assert not ok and reason in why
    config = registry.config()
    listed = {e["name"]: e for p in plugins_data(registry, config) for e in p["engines"]}
    assert listed["third.parser"]["available"] is False
    everything = registry.ranked("parser", TEST_MIME, config, with_unavailable=True)
    assert ("third.parser" in [e.name for e in everything]) is bool(value)
    document = goblin_core.extract(TEST_BYTES, name="a.test", registry=registry)
    assert document.text == "read by the other parser"


@pytest.mark.parametrize(("answer", "expected"), [
    (True, (True, "")),
    (False, (False, "available() said no without a reason")),
    ((True, None), (True, "")),
    ("yes", (False, "available() returned 'yes', not (bool, reason)")),
])
def test_available_answers_are_read_without_guessing(answer: Any,
                                                     expected: tuple[bool, str]) -> None:
    engine = _TextParser()
    engine.available = lambda: answer  # type: ignore[method-assign]
    registry = registry_with(plugins=[("odd", _parsers_plugin(engine))])
    entry = registry.get("third.parser")
    assert entry is not None
    assert registry.availability(entry) == expected


# -- detection -----------------------------------------------------------------


class _LoudSniffer(BaseEngine):
    name = "loud.sniffer"
    formats = ("*",)

    def __init__(self, confidence: float) -> None:
        self.confidence = confidence

    def sniff(self, head: bytes, source: Any) -> FileType | None:
        return FileType("application/x-bogus", "bogus", self.confidence)


@pytest.mark.parametrize("confidence", [7.0, -1.0, math.nan, math.inf])
def test_a_sniffer_confidence_outside_zero_to_one_is_ignored(confidence: float) -> None:
    registry = load_registry(load=[], extra_plugins=[("loud", _sniffers(_LoudSniffer(confidence)))])
    document = goblin_core.extract(b"plain words", name="a.txt", registry=registry)
    assert document.mime == "text/plain"
    assert document.text == "plain words"


def _sniffers(*engines: Any) -> object:
    class Plugin:
        @staticmethod
        @hookimpl
        def goblin_register_sniffers(register: Callable[[Any], None]) -> None:
            for engine in engines:
                register(engine)

    return Plugin()


# -- parsing -------------------------------------------------------------------


@pytest.mark.parametrize("bad_number", [-1, 0, 1])
def test_a_page_with_a_bad_number_keeps_its_text_under_the_next_number(bad_number: int) -> None:
    parser = ScriptedParser("tests.parser", [
        text_page(1, "first page words"),
        text_page(bad_number, "second page words"),
        text_page(3, "third page words"),
    ])
    document = goblin_core.extract(TEST_BYTES, name="a.test", registry=registry_with(parser))
    assert [p.number for p in document.pages] == [1, 2, 3]
    assert [p.text for p in document.pages] == [
        "first page words", "second page words", "third page words"]
    warning = next(w for w in document.report.warnings if w.kind == "BadPageNumber")
    assert warning.engine == "tests.parser" and warning.page == 2


def test_a_page_yielded_as_none_is_an_error_not_a_silent_end() -> None:
    pages = cast(list[PageContent], [text_page(1, "first page words"), None,
                                     text_page(3, "third page words")])
    parser = ScriptedParser("tests.parser", pages, page_count=3)
    document = goblin_core.extract(TEST_BYTES, name="a.test", registry=registry_with(parser))
    assert document.pages[0].text == "first page words"
    assert len(document.pages) == 3
    assert any("yielded NoneType" in e.message for e in document.report.errors)
    assert document.status != "clean"


def test_page_text_that_is_no_string_fails_that_page_only() -> None:
    parser = ScriptedParser("tests.parser", [
        text_page(1, "first page words"),
        PageContent(number=2, text=cast(str, None)),
        text_page(3, "third page words"),
    ])
    document = goblin_core.extract(TEST_BYTES, name="a.test", registry=registry_with(parser))
    assert [p.status for p in document.pages] == ["clean", "failed", "clean"]
    assert "NoneType" in document.pages[1].attempts[0].error
    assert document.pages[2].text == "third page words"


def test_pages_may_be_a_list() -> None:
    from goblin_core.engines import BaseParsedDocument

    class ListDocument(BaseParsedDocument):
        def pages(self) -> Any:
            return [PageContent(1, "from a list")]

    parser = ScriptedParser("tests.parser")
    parser.open = lambda source, config: ListDocument()  # type: ignore[method-assign]
    document = goblin_core.extract(TEST_BYTES, name="a.test", registry=registry_with(parser))
    assert document.text == "from a list"


# -- validators, OCR, tables -------------------------------------------------------


class _BadValidator(BaseEngine):
    name = "bad.validator"
    formats = (TEST_MIME,)

    def __init__(self, verdict: Any) -> None:
        self.verdict = verdict

    def check(self, text: str, context: Any) -> Any:
        return self.verdict


@pytest.mark.parametrize("verdict", [
    Verdict(cast(Any, "great"), 1.0),
    Verdict("ok", 5.0),
    Verdict("garbage", math.nan),
    Verdict("ok", cast(float, "high")),
])
def test_a_malformed_verdict_is_ignored_and_recorded(verdict: Verdict) -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "some fine page words")])
    registry = registry_with(parser, _BadValidator(verdict))
    document = goblin_core.extract(TEST_BYTES, name="a.test", registry=registry)
    page = document.pages[0]
    assert page.text == "some fine page words" and page.status == "clean"
    failure = next(a for a in page.attempts if a.engine == "bad.validator")
    assert failure.error_kind == "TypeError"


class _OddOCR(BaseEngine):
    formats = ("*",)

    def __init__(self, name: str, result: Any, priority: int) -> None:
        self.name = name
        self.result = result
        self.priority = priority

    def recognize(self, image: Any, languages: str, config: Any) -> Any:
        return self.result


def test_ocr_answers_without_text_or_with_nan_confidence_cost_only_that_answer() -> None:
    parser = ScriptedParser("tests.parser", [scan_page(1)], renders=True)
    registry = registry_with(
        parser,
        _OddOCR("odd.none_text", OCRResult(cast(str, None), 0.9), 30),
        _OddOCR("odd.nan", OCRResult("words read with no confidence", math.nan), 20),
        FakeOCR("tests.ocr", {1: "words read with confidence"}, confidence=0.9, priority=10),
    )
    document = goblin_core.extract(TEST_BYTES, name="a.test", registry=registry)
    page = document.pages[0]
    assert page.engine == "odd.nan" and page.status == "ocr"
    assert page.confidence == 0.0
    failure = next(a for a in page.attempts if a.engine == "odd.none_text")
    assert failure.error_kind == "TypeError"
    json.dumps(document.to_dict(), allow_nan=False)


class _Tables(BaseEngine):
    name = "odd.tables"
    formats = (TEST_MIME,)

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def tables(self, source: Any, page_numbers: Iterable[int], config: Any) -> Any:
        return self.answer


@pytest.mark.parametrize("answer", [
    {1: "nope"},
    {1: [("a", "b")]},
    [Table(rows=(("a",),))],
    None,
])
def test_a_malformed_table_answer_is_reported_and_the_text_kept(answer: Any) -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "page with a table")])
    registry = registry_with(parser, _Tables(answer))
    document = goblin_core.extract(TEST_BYTES, name="a.test", registry=registry, tables=True)
    assert document.text == "page with a table"
    assert document.pages[0].tables == ()
    assert any(w.engine == "odd.tables" for w in document.report.warnings)
    json.dumps(document.to_dict())


# -- executors -------------------------------------------------------------------


class _SizedExecutor(BaseEngine):
    """An executor that sizes itself, so its run() takes no jobs."""

    name = "executor.sized"

    def run(self, tasks: Iterable[Task], config: Any) -> Any:
        for task in tasks:
            source = task.path if task.path is not None else task.data or b""
            yield TaskResult(task, goblin_core.extract(source, name=task.display_name))


def test_run_executor_passes_jobs_only_to_executors_that_take_it() -> None:
    config = load_registry(load=[]).config()
    tasks = [Task(None, "a.txt", data=b"hello")]
    results = list(run_executor(_SizedExecutor(), tasks, config, jobs=2))
    assert results[0].document.text == "hello"


class _ExecutorPlugin:
    @hookimpl
    def goblin_register_executors(self, register: Callable[[Any], None]) -> None:
        register(_SizedExecutor())


def test_an_executor_without_jobs_runs_batches_from_the_api_the_batch_writer_and_the_cli(
        tmp_path: Any) -> None:
    from click.testing import CliRunner

    from goblin_core.batch import run_batch
    from goblin_core.cli.app import CliState, cli

    (tmp_path / "a.txt").write_text("hello from a\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("hello from b\n", encoding="utf-8")
    registry = load_registry(load=[], extra_plugins=[("sized", _ExecutorPlugin())])
    paths = [tmp_path / "a.txt", tmp_path / "b.txt"]
    documents = list(goblin_core.extract_many(paths, jobs=2, executor="executor.sized",
                                              registry=registry))
    assert sorted(d.text for d in documents) == ["hello from a\n", "hello from b\n"]
    summary = run_batch(registry, registry.config(), paths, tmp_path / "out", jobs=2,
                        executor="executor.sized")
    assert (summary.done, summary.failed) == (2, 0)
    result = CliRunner().invoke(cli, ["extract", str(paths[0]), str(paths[1]), "--executor",
                                      "sized", "--jobs", "2"], obj=CliState(registry))
    assert result.exit_code == 0, result.output
    assert "hello from a" in result.output and "hello from b" in result.output


# -- renderers -------------------------------------------------------------------


class _BrokenRenderer(BaseEngine):
    format = "broken"

    def __init__(self, name: str, answer: Any) -> None:
        self.name = name
        self.answer = answer

    def render(self, documents: Any, config: Any) -> Any:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize(("answer", "cause"), [
    (KeyError("pages"), "renderer tests.broken failed: KeyError: 'pages'"),
    (None, "renderer tests.broken returned NoneType, not text"),
])
def test_a_renderer_that_fails_is_one_clear_error(tmp_path: Any, answer: Any,
                                                  cause: str) -> None:
    from click.testing import CliRunner

    from goblin_core.cli.app import CliState, cli

    class Plugin:
        @hookimpl
        def goblin_register_renderers(self, register: Callable[[Any], None]) -> None:
            register(_BrokenRenderer("tests.broken", answer))

    (tmp_path / "a.txt").write_text("hello\n", encoding="utf-8")
    registry = load_registry(load=[], extra_plugins=[("broken", Plugin())])
    result = CliRunner().invoke(cli, ["extract", str(tmp_path / "a.txt"), "-f", "broken"],
                                obj=CliState(registry))
    assert result.exit_code == 1
    assert cause in result.output and "Traceback" not in result.output
    # into a folder: that document's result is not written, and the run says why
    result = CliRunner().invoke(cli, ["extract", str(tmp_path / "a.txt"), "-f", "broken",
                                      "-o", str(tmp_path / "out")], obj=CliState(registry))
    assert result.exit_code == 1 and cause in result.output


# -- recovery engines ------------------------------------------------------------


class _OverEagerRecovery(BaseEngine):
    """Answers for pages nobody asked about, and with a number for one it was asked."""

    name = "tests.eager"
    formats = (TEST_MIME,)

    def recover(self, source: Any, page_numbers: Any, config: Any) -> dict[Any, Any]:
        return {1: "page one, recovered", 2: 42, 3: None, 99: "a page that is not there"}


def test_a_recovery_engine_s_stray_answers_are_ignored_and_named() -> None:
    from scripted_engines import MarkerValidator, ScriptedParser, text_page

    parser = ScriptedParser("tests.parser", [text_page(1, "GARBAGE one"),
                                             text_page(2, "GARBAGE two"),
                                             text_page(3, "GARBAGE three")])
    registry = registry_with(parser, MarkerValidator(), _OverEagerRecovery())
    document = goblin_core.extract(b"TEST pages", name="a.test", registry=registry, ocr="never",
                                   recovery_probe=0)  # all three pages asked at once
    assert document.pages[0].text == "page one, recovered"
    assert [p.status for p in document.pages[1:]] == ["corrupt", "corrupt"]
    warnings = [w.message for w in document.report.warnings if w.kind == "BadAnswer"]
    assert warnings == [
        "recovery engine tests.eager answered for pages it was not asked for (99); ignored",
        "recovery engine tests.eager gave page(s) 2 something other than text; ignored"]
