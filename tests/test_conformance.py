"""The conformance kit passes good plugins and fails a deliberately wrong engine of each kind."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from goblin_core import CorruptDocument, FileType, OCRResult, Source, Verdict, hookimpl
from goblin_core.engines import BaseEngine, Member, TextDocument
from goblin_core.testing import conformance
from goblin_core.testing.conformance import (
    ConformanceError,
    assert_engine_conformance,
    assert_formats_have_fixtures,
    assert_plugin_conforms,
    check_plugin,
    load_plugin,
)
from goblin_example_note import NOTE_MIME, render_note

NOTE_FIXTURES = {NOTE_MIME: (render_note(["alpha beta", "gamma delta"]), "gamma delta")}
EXAMPLE = load_plugin("example-note")


def plugin_of(kind: str, *engines: Any) -> object:
    """A plugin object registering ``engines`` through the hook of ``kind``."""
    hook = {
        "parser": "goblin_register_parsers",
        "sniffer": "goblin_register_sniffers",
        "validator": "goblin_register_validators",
        "ocr": "goblin_register_ocr_backends",
        "archive": "goblin_register_archive_handlers",
        "recovery": "goblin_register_recovery_engines",
        "renderer": "goblin_register_renderers",
    }[kind]

    def register_all(register: Callable[[Any], None]) -> None:
        for engine in engines:
            register(engine)

    register_all.__name__ = hook
    return type("TestPlugin", (), {hook: staticmethod(hookimpl(register_all))})()


def problems_of(kind: str, engine: Any, **kwargs: Any) -> list[conformance.Problem]:
    return check_plugin(load_plugin(plugin_of(kind, engine), name="wrong"), **kwargs)


def checks(problems: list[conformance.Problem]) -> set[str]:
    return {p.check for p in problems}


# -- good plugins pass --


def test_builtin_plugin_conforms() -> None:
    assert_plugin_conforms("goblin-core")


@pytest.mark.parametrize("entry", EXAMPLE.params())
def test_example_plugin_engine_conforms(entry: Any) -> None:
    assert_engine_conformance(entry, EXAMPLE.registry, fixtures=NOTE_FIXTURES)


def test_example_plugin_formats_have_fixtures() -> None:
    assert_formats_have_fixtures(EXAMPLE, NOTE_FIXTURES)


def test_isolation_fixture_plugin_conforms() -> None:
    assert_plugin_conforms("example-fixtures")


def test_params_name_every_engine_of_the_plugin() -> None:
    assert [p.id for p in EXAMPLE.params()] == ["note.parser", "note.sniffer"]


# -- plugins that do not register --


def test_plugin_that_is_not_installed_fails() -> None:
    problems = check_plugin("no-such-goblin-plugin")
    assert checks(problems) == {"registers"}
    assert "no plugin named" in problems[0].message


def test_plugin_with_unknown_hook_fails() -> None:
    class Misspelled:
        @hookimpl
        def goblin_register_parser(self, register: Callable[[Any], None]) -> None:
            register(GoodParser())

    problems = check_plugin(load_plugin(Misspelled(), name="misspelled"))
    assert checks(problems) == {"registers"}
    assert "broken" in problems[0].message and "goblin_register_parser" in problems[0].message


def test_plugin_reusing_a_builtin_engine_name_fails() -> None:
    clash = GoodParser()
    clash.name = "text.plain"
    problems = problems_of("parser", clash)
    assert "registers" in checks(problems)
    assert "already registered" in str(problems[0])


# -- static checks --


class GoodParser(BaseEngine):
    name = "test.good"
    formats = ("application/x-goblin-test",)

    def open(self, source: Source, config: Any) -> TextDocument:
        if not source.bytes().startswith(b"GOOD"):
            raise CorruptDocument("not a GOOD file", file=source.display_name)
        return TextDocument([source.bytes()[4:].decode()])


def test_good_parser_passes() -> None:
    assert problems_of("parser", GoodParser()) == []


@pytest.mark.parametrize(
    ("attribute", "value", "check"),
    [
        ("name", "NoDots", "name"),
        ("name", "has space.x", "name"),
        ("formats", ("pdf",), "formats"),
        ("formats", (), "formats"),
        ("formats", "application/pdf", "formats"),
        ("priority", "high", "priority"),
        ("priority", 2.5, "priority"),
    ],
)
def test_malformed_engine_attributes_fail(attribute: str, value: Any, check: str) -> None:
    engine = GoodParser()
    setattr(engine, attribute, value)
    assert check in checks(problems_of("parser", engine))


# -- available() --


class NetworkyParser(GoodParser):
    name = "test.networky"

    def available(self) -> tuple[bool, str]:
        try:
            socket.create_connection(("192.0.2.1", 443), timeout=0.2).close()
        except OSError:
            return False, "no connection to the licence server"
        return True, ""


class SlowParser(GoodParser):
    name = "test.slow"

    def available(self) -> tuple[bool, str]:
        time.sleep(1.0)
        return True, ""


class ChattyParser(GoodParser):
    name = "test.chatty"

    def available(self) -> tuple[bool, str]:
        return "yes"  # type: ignore[return-value]


class SilentParser(GoodParser):
    name = "test.silent"

    def available(self) -> tuple[bool, str]:
        return False, ""


class RaisingAvailable(GoodParser):
    name = "test.raising"

    def available(self) -> tuple[bool, str]:
        raise RuntimeError("binary check crashed")


@pytest.mark.parametrize(
    ("engine", "fragment"),
    [
        (NetworkyParser(), "used the network"),
        (SlowParser(), "took over 0.3s"),
        (ChattyParser(), "must return (bool, str)"),
        (SilentParser(), "without saying why"),
        (RaisingAvailable(), "raised RuntimeError"),
    ],
    ids=["network", "slow", "not-a-tuple", "no-reason", "raises"],
)
def test_misbehaving_available_fails(engine: Any, fragment: str) -> None:
    problems = problems_of("parser", engine, available_seconds=0.3)
    assert any(p.check == "available" and fragment in p.message for p in problems), problems


def test_network_guard_is_lifted_after_the_check() -> None:
    with conformance.blocked_network() as attempts, pytest.raises(conformance.NetworkBlocked):
        socket.getaddrinfo("example.org", 443)
    assert attempts
    assert socket.getaddrinfo is not None and "guard" not in socket.getaddrinfo.__name__


# -- parsers and archive handlers: bad input --


class CrashingParser(GoodParser):
    """Lets a library's own exception escape on garbage."""

    name = "test.crashing"

    def open(self, source: Source, config: Any) -> TextDocument:
        return TextDocument([source.bytes().decode("utf-8")])


class GullibleParser(GoodParser):
    """Reads anything, garbage included."""

    name = "test.gullible"

    def open(self, source: Source, config: Any) -> TextDocument:
        return TextDocument([source.bytes().decode("latin-1")])


class AnonymousErrorParser(GoodParser):
    """Raises the right kind of error but does not say which file."""

    name = "test.anonymous"

    def open(self, source: Source, config: Any) -> TextDocument:
        raise CorruptDocument("broken")


class LatePageError(GoodParser):
    """Fails only while iterating pages, with a non-goblin exception."""

    name = "test.late"

    def open(self, source: Source, config: Any) -> TextDocument:
        class Pages(TextDocument):
            def pages(self) -> Iterator[Any]:
                raise IndexError("page table out of range")

        return Pages([])


@pytest.mark.parametrize(
    ("engine", "fragment"),
    [
        (CrashingParser(), "raised UnicodeDecodeError"),
        (GullibleParser(), "instead of raising a GoblinError"),
        (AnonymousErrorParser(), "does not name the file"),
        (LatePageError(), "raised IndexError"),
    ],
    ids=["crashes", "reads-garbage", "anonymous-error", "late-error"],
)
def test_parser_breaking_the_bad_input_rule_fails(engine: Any, fragment: str) -> None:
    problems = problems_of("parser", engine)
    assert any(p.check == "bad input" and fragment in p.message for p in problems), problems


def test_lenient_parser_may_read_garbage_but_not_crash() -> None:
    assert problems_of("parser", GullibleParser(), lenient=["test.gullible"]) == []
    assert problems_of("parser", CrashingParser(), lenient=["test.crashing"]) != []


class TruncationCrash(BaseEngine):
    """Reads the GOBLIN-NOTE format but crashes on a truncated file."""

    name = "test.truncation"
    formats = (NOTE_MIME,)

    def open(self, source: Source, config: Any) -> TextDocument:
        data = source.bytes()
        if not data.startswith(b"GOBLIN-NOTE v1\n"):
            raise CorruptDocument("not a note", file=source.display_name)
        header, body = data.split(b"\n\n", 1)
        declared = int(header.split(b"pages: ")[1].split(b"\n")[0])
        pages = body.decode().split("\n%%\n")
        return TextDocument([pages[i] for i in range(declared)])


def test_parser_crashing_on_a_truncated_fixture_fails() -> None:
    problems = problems_of("parser", TruncationCrash(), fixtures=NOTE_FIXTURES)
    assert any("truncated-" in p.message and "IndexError" in p.message for p in problems), problems


class GullibleArchive(BaseEngine):
    name = "test.gullible_archive"
    formats = ("application/zip",)

    def members(self, source: Source, limits: Any, config: Any) -> Iterator[Member]:
        data = source.bytes()
        yield Member("everything.bin", lambda: __import__("io").BytesIO(data), len(data))


class CrashingArchive(GullibleArchive):
    name = "test.crashing_archive"

    def members(self, source: Source, limits: Any, config: Any) -> Iterator[Member]:
        raise KeyError("central directory")


@pytest.mark.parametrize(
    ("engine", "fragment"),
    [(GullibleArchive(), "instead of raising a GoblinError"), (CrashingArchive(), "KeyError")],
    ids=["lists-garbage", "crashes"],
)
def test_archive_handler_breaking_the_bad_input_rule_fails(engine: Any, fragment: str) -> None:
    problems = problems_of("archive", engine)
    assert any(p.check == "bad input" and fragment in p.message for p in problems), problems


# -- sniffers --


class EagerSniffer(BaseEngine):
    name = "test.eager"

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        return FileType("application/x-anything", "any", 0.2)


class FragileSniffer(BaseEngine):
    name = "test.fragile"

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        head.decode("ascii")
        return None


@pytest.mark.parametrize(("engine", "fragment"),
                         [(EagerSniffer(), "not None"), (FragileSniffer(), "raised")],
                         ids=["answers-anything", "raises"])
def test_sniffer_breaking_the_bad_input_rule_fails(engine: Any, fragment: str) -> None:
    problems = problems_of("sniffer", engine)
    assert any(p.check == "bad input" and fragment in p.message for p in problems), problems


# -- validators --


class ShortSightedValidator(BaseEngine):
    name = "test.short_sighted"

    def check(self, text: str, context: Any) -> Verdict:
        return Verdict("ok", 1.0 / len(text))


class ScoreOutOfRange(BaseEngine):
    name = "test.score"

    def check(self, text: str, context: Any) -> Verdict:
        return Verdict("ok", 7.0)


class NotAVerdict(BaseEngine):
    name = "test.not_verdict"

    def check(self, text: str, context: Any) -> Any:
        return "ok"


class SurrogateHater(BaseEngine):
    name = "test.surrogates"

    def check(self, text: str, context: Any) -> Verdict:
        text.encode("utf-8")
        return Verdict("ok", 1.0)


@pytest.mark.parametrize(
    ("engine", "fragment"),
    [
        (ShortSightedValidator(), "ZeroDivisionError"),
        (ScoreOutOfRange(), "not in [0, 1]"),
        (NotAVerdict(), "not a Verdict"),
        (SurrogateHater(), "UnicodeEncodeError"),
    ],
    ids=["raises-on-empty", "score", "not-verdict", "surrogates"],
)
def test_validator_breaking_the_bad_input_rule_fails(engine: Any, fragment: str) -> None:
    problems = problems_of("validator", engine)
    assert any(p.check == "bad input" and fragment in p.message for p in problems), problems


# -- OCR backends --


class HallucinatingOCR(BaseEngine):
    name = "test.hallucinating"
    cloud = False

    def recognize(self, image: Any, languages: str, config: Any) -> OCRResult:
        return OCRResult("lorem ipsum", 0.9)


class RaisingOCR(BaseEngine):
    name = "test.raising_ocr"
    cloud = False

    def recognize(self, image: Any, languages: str, config: Any) -> OCRResult:
        if not hasattr(image, "size"):
            raise AttributeError("'object' has no attribute 'size'")
        return OCRResult("", 0.0)


class ConfidentBlankOCR(BaseEngine):
    name = "test.confident"
    cloud = False

    def recognize(self, image: Any, languages: str, config: Any) -> OCRResult:
        return OCRResult("", 0.95)


class ProperOCR(BaseEngine):
    name = "test.proper_ocr"
    cloud = False

    def recognize(self, image: Any, languages: str, config: Any) -> OCRResult:
        return OCRResult("", 0.0)


@pytest.mark.parametrize(
    ("engine", "fragment"),
    [
        (HallucinatingOCR(), "lorem ipsum"),
        (RaisingOCR(), "raised AttributeError"),
        (ConfidentBlankOCR(), "0.95"),
    ],
    ids=["hallucinates", "raises", "confident-on-nothing"],
)
def test_ocr_backend_breaking_the_bad_input_rule_fails(engine: Any, fragment: str) -> None:
    problems = problems_of("ocr", engine)
    assert any(p.check == "bad input" and fragment in p.message for p in problems), problems


def test_ocr_backend_with_a_non_bool_cloud_flag_fails() -> None:
    engine = ProperOCR()
    engine.cloud = "maybe"  # type: ignore[assignment]
    assert "ocr" in checks(problems_of("ocr", engine))


def test_proper_ocr_backend_passes() -> None:
    assert problems_of("ocr", ProperOCR()) == []


# -- recovery engines and renderers --


class SloppyRecovery(BaseEngine):
    name = "test.sloppy_recovery"

    def recover(self, source: Source, pages: Any, config: Any) -> Any:
        return ["page one"]


class CrashingRecovery(BaseEngine):
    name = "test.crashing_recovery"

    def recover(self, source: Source, pages: Any, config: Any) -> Any:
        raise OSError("tool missing")


@pytest.mark.parametrize(("engine", "fragment"),
                         [(SloppyRecovery(), "{page: text}"), (CrashingRecovery(), "OSError")],
                         ids=["wrong-shape", "raises"])
def test_recovery_engine_breaking_the_rules_fails(engine: Any, fragment: str) -> None:
    problems = problems_of("recovery", engine)
    assert any(fragment in p.message for p in problems), problems


class FormatlessRenderer(BaseEngine):
    name = "test.formatless"

    def render(self, documents: Any, config: Any) -> str:
        return ""


def test_renderer_without_format_fails() -> None:
    assert "renderer" in checks(problems_of("renderer", FormatlessRenderer()))


# -- the fixture check --


def test_claimed_format_without_fixture_fails() -> None:
    with pytest.raises(ConformanceError, match="claims application/x-goblin-note but"):
        assert_formats_have_fixtures(EXAMPLE, {})


def test_fixture_without_the_phrase_fails() -> None:
    fixtures = {NOTE_MIME: (render_note(["alpha"]), "omega")}
    with pytest.raises(ConformanceError, match="does not yield the phrase 'omega'"):
        assert_formats_have_fixtures(EXAMPLE, fixtures)


def test_fixture_detected_as_another_format_fails() -> None:
    fixtures = {NOTE_MIME: (b"just text, alpha", "alpha")}
    with pytest.raises(ConformanceError, match="detected as text/plain"):
        assert_formats_have_fixtures(EXAMPLE, fixtures)


def test_fixture_may_be_a_path_or_a_factory(tmp_path: Any) -> None:
    path = tmp_path / "shopping.gnote"
    path.write_bytes(render_note(["eggs and milk"]))
    assert_formats_have_fixtures(EXAMPLE, {NOTE_MIME: (path, "eggs and milk")})
    assert_formats_have_fixtures(EXAMPLE, {NOTE_MIME: (lambda: str(path), "eggs and milk")})


def test_conformance_error_lists_every_problem() -> None:
    plugin = plugin_of("parser", CrashingParser(), AnonymousErrorParser())
    with pytest.raises(ConformanceError) as caught:
        assert_plugin_conforms(load_plugin(plugin, name="two-wrongs"))
    message = str(caught.value)
    assert "2 conformance problem(s)" in message
    assert "test.crashing" in message and "test.anonymous" in message
