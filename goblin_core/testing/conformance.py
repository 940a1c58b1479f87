"""The conformance kit: checks every goblin plugin's tests run on its engines.

A plugin's test suite loads the plugin the way users get it (through its
``goblin`` entry point) and asks the kit whether each engine keeps the
contract of ``goblin_core.hookspecs``::

    import pytest
    from goblin_core.testing.conformance import (
        assert_engine_conformance, assert_formats_have_fixtures, load_plugin,
    )

    PLUGIN = load_plugin("pdf")            # the entry-point name

    @pytest.mark.parametrize("entry", PLUGIN.params())
    def test_engine_keeps_the_contract(entry):
        assert_engine_conformance(entry, PLUGIN.registry, fixtures=FIXTURES)

    def test_every_format_has_a_fixture():
        assert_formats_have_fixtures(PLUGIN, FIXTURES)

where ``FIXTURES`` maps each MIME type the plugin's parsers claim to
``(fixture, phrase)``: a path, bytes, or a function returning either, and a
phrase extraction must find in it.

What is checked, per engine: it registers (its plugin loads, is not broken,
registers at least one engine); its name is unique and dotted
(``family.engine``); its formats are MIME types (``type/sub``, ``type/*`` or
``*``); its priority is a whole number; ``available()`` answers
``(bool, str)`` quickly with sockets blocked, with a reason when it says no;
and the bad-input rule of its kind: parsers and archive handlers raise a
GoblinError subclass naming the file on garbage bytes and on a truncated
fixture (never another exception); sniffers return None on random bytes;
validators return a well-formed Verdict on weird strings; OCR backends return
``OCRResult("", 0.0)`` on a blank page and on an object that is no image.
Unavailable engines get only the static checks.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from goblin_core.config import Config, build_config
from goblin_core.engines import ArchiveLimits
from goblin_core.errors import GoblinError
from goblin_core.formats import BY_MIME
from goblin_core.model import OCRResult, PageContext, Verdict
from goblin_core.ranking import mapped_chars
from goblin_core.registry import EngineEntry, PluginInfo, Registry, load_registry
from goblin_core.source import Source

#: Seconds ``available()`` may take (it runs at every start-up).
AVAILABLE_SECONDS = 2.0
#: Seconds one bad-input call may take before the kit calls it hung.
BAD_INPUT_SECONDS = 30.0

FixtureSource = str | os.PathLike[str] | bytes | Callable[[], "str | os.PathLike[str] | bytes"]
Fixtures = Mapping[str, tuple[FixtureSource, str]]

_NAME = re.compile(r"^[a-z0-9][a-z0-9_+-]*(\.[a-z0-9][a-z0-9_+-]*)+$")
_MIME = re.compile(r"^[a-z0-9][a-z0-9!#$&^_.+-]*/([a-z0-9][a-z0-9!#$&^_.+-]*|\*)$")
_VERDICT_STATUSES = ("ok", "suspect", "garbage", "empty")

#: Strings no validator may choke on: empty, blank, controls, unmapped glyphs,
#: lone surrogates, right-to-left, combining marks, emoji, a very long page.
WEIRD_STRINGS: tuple[str, ...] = (
    "",
    " \n\t\f ",
    "\x00\x01\x02\x1b\x7f",
    "\ufffd" * 200,
    "\ue000\uf8ff" * 50,
    "\ud800 lone surrogate \udfff",
    "مرحبا بالعالم שלום עולם",
    "e\u0301\u0302\u0303\u0304" * 100,
    "🦉📄🔥 " * 100,
    "Licitação nº 12/2024 — R$ 1.234,56",
    "word " * 40_000,
)


class ConformanceError(AssertionError):
    """An engine or plugin breaks goblin's plugin contract; the message lists how."""


@dataclass(frozen=True)
class Problem:
    """One broken rule: which engine (or plugin), which check, what happened."""

    engine: str
    check: str
    message: str

    def __str__(self) -> str:
        return f"{self.engine} [{self.check}]: {self.message}"


@dataclass(frozen=True)
class LoadedPlugin:
    """A plugin loaded alone with goblin-core's built-in one, as the kit tests it."""

    name: str
    registry: Registry
    info: PluginInfo

    @property
    def entries(self) -> list[EngineEntry]:
        """The engines this plugin registered, by kind and name."""
        return [e for e in self.registry.engines() if e.plugin == self.name]

    def params(self) -> list[Any]:
        """``pytest.param`` per engine, with the engine name as id, for parametrize."""
        import pytest

        return [pytest.param(entry, id=entry.name) for entry in self.entries]


def load_plugin(plugin: str | object, *, name: str | None = None) -> LoadedPlugin:
    """Load one plugin: an entry-point name (``"pdf"``) or a module/object with hookimpls.

    Only that plugin and goblin-core's built-in plugin are loaded, so another
    installed plugin cannot hide or cause a problem.
    """
    if isinstance(plugin, str):
        registry = load_registry(load=[plugin], disable=())
        plugin_name = plugin
    else:
        plugin_name = name or str(getattr(plugin, "__name__", type(plugin).__name__))
        registry = load_registry(load=[], extra_plugins=[(plugin_name, plugin)])
    info = next((p for p in registry.plugins if p.name == plugin_name), None)
    if info is None:
        info = PluginInfo(plugin_name, plugin_name, "", status="broken",
                          error=f"no plugin named {plugin_name!r} is installed (entry-point "
                                "group 'goblin')")
    return LoadedPlugin(plugin_name, registry, info)


def _as_loaded(plugin: LoadedPlugin | str | object) -> LoadedPlugin:
    return plugin if isinstance(plugin, LoadedPlugin) else load_plugin(plugin)


# -- the checks ----------------------------------------------------------------


def plugin_problems(plugin: LoadedPlugin | str | object) -> list[Problem]:
    """Problems with a plugin as a whole: it must load, stay unbroken, register engines."""
    loaded = _as_loaded(plugin)
    info = loaded.info
    if info.status != "loaded":
        return [Problem(info.name, "registers", f"plugin is {info.status}: {info.error}")]
    if not loaded.entries and "goblin_register_options" not in info.hooks:
        return [Problem(info.name, "registers", "plugin registered no engine and no options")]
    return []


def engine_problems(
    entry: EngineEntry,
    registry: Registry | None = None,
    *,
    fixtures: Fixtures | None = None,
    lenient: bool = False,
    available_seconds: float = AVAILABLE_SECONDS,
) -> list[Problem]:
    """Every contract problem of one registered engine (empty when it conforms).

    ``lenient`` lets a parser of a forgiving format (plain text, CSV) read
    garbage bytes instead of refusing them; any exception it raises must
    still be a GoblinError.
    """
    problems = _static_problems(entry, registry)
    ok, available_problems = _available_problems(entry, available_seconds)
    problems += available_problems
    if not ok:
        return problems
    config = build_config(registry.namespaces if registry else {})
    check = _BAD_INPUT_CHECKS.get(entry.kind)
    if check is not None:
        problems += check(entry, config, fixtures or {}, lenient)
    return problems


def assert_engine_conformance(
    entry: EngineEntry,
    registry: Registry | None = None,
    *,
    fixtures: Fixtures | None = None,
    lenient: bool = False,
    available_seconds: float = AVAILABLE_SECONDS,
) -> None:
    """Raise ConformanceError listing every contract problem of ``entry``."""
    _raise(engine_problems(entry, registry, fixtures=fixtures, lenient=lenient,
                           available_seconds=available_seconds))


def check_plugin(
    plugin: LoadedPlugin | str | object,
    *,
    fixtures: Fixtures | None = None,
    lenient: Sequence[str] = (),
    available_seconds: float = AVAILABLE_SECONDS,
) -> list[Problem]:
    """Run the whole kit on a plugin; ``fixtures`` also turns on the fixture check."""
    loaded = _as_loaded(plugin)
    problems = plugin_problems(loaded)
    for entry in loaded.entries:
        problems += engine_problems(entry, loaded.registry, fixtures=fixtures,
                                    lenient=entry.name in lenient,
                                    available_seconds=available_seconds)
    if fixtures is not None:
        problems += fixture_problems(loaded, fixtures)
    return problems


def assert_plugin_conforms(
    plugin: LoadedPlugin | str | object,
    *,
    fixtures: Fixtures | None = None,
    lenient: Sequence[str] = (),
    available_seconds: float = AVAILABLE_SECONDS,
) -> None:
    """Raise ConformanceError listing every problem ``check_plugin`` finds."""
    _raise(check_plugin(plugin, fixtures=fixtures, lenient=lenient,
                        available_seconds=available_seconds))


def fixture_problems(plugin: LoadedPlugin | str | object, fixtures: Fixtures) -> list[Problem]:
    """Every MIME type the plugin's parsers claim needs a fixture that yields its phrase.

    Each fixture is extracted through the whole pipeline with only this
    plugin (and the built-in one) installed: it must be detected as that MIME
    type and some document of the result must contain the phrase.
    """
    from goblin_core.api import extract
    from goblin_core.testing.corpus import contains_phrase

    loaded = _as_loaded(plugin)
    problems: list[Problem] = []
    for mime, owners in _claimed(loaded).items():
        if mime not in fixtures:
            problems.append(Problem(owners[0], "fixtures",
                                    f"claims {mime} but the tests give no fixture for it"))
            continue
        source = _fixture_source(mime, fixtures[mime][0])
        phrase = fixtures[mime][1]
        try:
            document = extract(source, registry=loaded.registry)
        except GoblinError as exc:
            problems.append(Problem(owners[0], "fixtures", f"{mime} fixture failed: {exc}"))
            continue
        documents = list(document.walk())
        if not any(d.mime == mime for d in documents):
            seen = sorted({d.mime for d in documents})
            problems.append(Problem(owners[0], "fixtures",
                                    f"{mime} fixture was detected as {', '.join(seen)}"))
        if not any(contains_phrase(d.text, phrase) for d in documents):
            problems.append(Problem(owners[0], "fixtures",
                                    f"{mime} fixture does not yield the phrase {phrase!r}"))
    return problems


def assert_formats_have_fixtures(plugin: LoadedPlugin | str | object, fixtures: Fixtures) -> None:
    """Raise ConformanceError when a claimed format lacks a working fixture."""
    _raise(fixture_problems(plugin, fixtures))


def _claimed(loaded: LoadedPlugin) -> dict[str, list[str]]:
    claimed: dict[str, list[str]] = {}
    for entry in loaded.entries:
        if entry.kind != "parser" or not loaded.registry.availability(entry)[0]:
            continue
        for mime in entry.formats:
            if mime != "*" and not mime.endswith("/*"):
                claimed.setdefault(mime, []).append(entry.name)
    return claimed


def _raise(problems: Sequence[Problem]) -> None:
    if problems:
        lines = "\n".join(f"  - {p}" for p in problems)
        raise ConformanceError(f"{len(problems)} conformance problem(s):\n{lines}")


# -- static checks ---------------------------------------------------------------


def _static_problems(entry: EngineEntry, registry: Registry | None) -> list[Problem]:
    problems: list[Problem] = []
    engine, name = entry.engine, entry.name
    if not _NAME.match(name):
        problems.append(Problem(name, "name", "engine names are lower-case and dotted "
                                              "'family.engine' (pdf.pypdfium2)"))
    if registry is not None:
        same = [e for e in registry.entries if e.name == name]
        if len(same) != 1 or same[0] is not entry:
            problems.append(Problem(name, "unique name",
                                    "another engine in the registry has this name"))
    formats = getattr(engine, "formats", None)
    if not isinstance(formats, (tuple, list)) or not formats:
        problems.append(Problem(name, "formats",
                                f"formats must be a non-empty tuple, got {formats!r}"))
    else:
        bad = [f for f in formats if not isinstance(f, str) or not (f == "*" or _MIME.match(f))]
        if bad:
            problems.append(Problem(name, "formats",
                                    f"not MIME types (type/sub, type/* or *): {bad!r}"))
    priority = getattr(engine, "priority", 0)
    if isinstance(priority, bool) or not isinstance(priority, int):
        problems.append(Problem(name, "priority", f"priority must be an int, got {priority!r}"))
    return problems


# -- available() -------------------------------------------------------------------


class NetworkBlocked(OSError):
    """Raised by the kit's socket guard: engines must not use the network here."""


@contextlib.contextmanager
def blocked_network() -> Iterator[list[str]]:
    """Make every socket connection and DNS lookup fail; yield the list of attempts."""
    attempts: list[str] = []

    def refuse(what: str) -> Callable[..., Any]:
        def guard(*args: Any, **kwargs: Any) -> Any:
            attempts.append(f"{what}{args[1:] if what.startswith('socket.') else args}")
            raise NetworkBlocked(f"goblin conformance kit: network use is not allowed ({what})")

        return guard

    targets: list[tuple[Any, str, str]] = [
        (socket.socket, "connect", "socket.connect"),
        (socket.socket, "connect_ex", "socket.connect_ex"),
        (socket, "create_connection", "create_connection"),
        (socket, "getaddrinfo", "getaddrinfo"),
    ]
    saved = [(owner, attr, getattr(owner, attr)) for owner, attr, _ in targets]
    for owner, attr, label in targets:
        setattr(owner, attr, refuse(label))
    try:
        yield attempts
    finally:
        for owner, attr, original in saved:
            setattr(owner, attr, original)


def _call_with_limit(
    func: Callable[[], Any], seconds: float
) -> tuple[bool, Any, BaseException | None]:
    """Run ``func`` in a thread; (finished in time, result, exception)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = func()
        except BaseException as exc:  # reported to the caller, who judges it
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True, name="goblin-conformance")
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        return False, None, None
    return True, box.get("result"), box.get("error")


def _available_problems(entry: EngineEntry, seconds: float) -> tuple[bool, list[Problem]]:
    name = entry.name
    started = time.monotonic()
    with blocked_network() as attempts:
        finished, answer, error = _call_with_limit(entry.engine.available, seconds)
    took = time.monotonic() - started
    problems: list[Problem] = []
    if attempts:
        problems.append(Problem(name, "available", f"available() used the network: {attempts[0]}"))
    if not finished:
        problems.append(Problem(name, "available", f"available() took over {seconds:g}s"))
        return False, problems
    if error is not None:
        problems.append(Problem(name, "available",
                                f"available() raised {type(error).__name__}: {error}"))
        return False, problems
    if (not isinstance(answer, tuple) or len(answer) != 2 or not isinstance(answer[0], bool)
            or not isinstance(answer[1], str)):
        problems.append(Problem(name, "available",
                                f"available() must return (bool, str), got {answer!r}"))
        return False, problems
    ok, reason = answer
    if not ok and not reason.strip():
        problems.append(Problem(name, "available", "unavailable without saying why"))
    if took > seconds:
        problems.append(Problem(name, "available", f"available() took {took:.2f}s"))
    return ok and not attempts, problems


# -- bad input, per kind -------------------------------------------------------------


def garbage_bytes(size: int = 4096, seed: int = 20240) -> bytes:
    """Deterministic random bytes that start like no known format and hold NULs."""
    body = random.Random(seed).randbytes(size)
    return b"\x00\x13\x37goblin-garbage\x00" + body


def _garbage_source(entry: EngineEntry) -> Source:
    ext = _extension_for(entry.formats)
    return Source.from_bytes(garbage_bytes(), f"garbage-{entry.name}{ext}")


def _extension_for(formats: Sequence[str]) -> str:
    for mime in formats:
        known = BY_MIME.get(mime)
        if known is not None and known.extensions:
            return f".{known.extensions[0]}"
    return ".bin"


def _truncated_sources(entry: EngineEntry, fixtures: Fixtures) -> list[Source]:
    found = []
    for mime in entry.formats:
        if mime in fixtures:
            whole = _fixture_source(mime, fixtures[mime][0]).bytes()
            if len(whole) >= 2:
                found.append(Source.from_bytes(whole[: len(whole) // 2],
                                               f"truncated-{_safe(mime)}{_extension_for([mime])}"))
    return found


def _safe(mime: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", mime.lower())


def _fixture_source(mime: str, fixture: FixtureSource) -> Source:
    value = fixture() if callable(fixture) else fixture
    if isinstance(value, bytes):
        return Source.from_bytes(value, f"fixture{_extension_for([mime])}")
    path = Path(value)
    return Source.from_path(path, path.name)


def _parser_problems(entry: EngineEntry, config: Config, fixtures: Fixtures,
                     lenient: bool) -> list[Problem]:
    problems = []
    garbage = _garbage_source(entry)
    problem = _expect_refusal(entry, garbage, lambda s: _read_all(entry, s, config), lenient)
    if problem:
        problems.append(problem)
    for truncated in _truncated_sources(entry, fixtures):
        problem = _expect_refusal(entry, truncated, lambda s: _read_all(entry, s, config), True)
        if problem:
            problems.append(problem)
    return problems


def _read_all(entry: EngineEntry, source: Source, config: Config) -> int:
    with entry.engine.open(source, config) as parsed:
        return sum(mapped_chars(page.text) for page in parsed.pages())


def _archive_problems(entry: EngineEntry, config: Config, fixtures: Fixtures,
                      lenient: bool) -> list[Problem]:
    limits = ArchiveLimits.from_config(config) if config.limits else ArchiveLimits()

    def list_members(source: Source) -> int:
        count = 0
        for member in entry.engine.members(source, limits, config):
            with member.open() as stream:
                stream.read()
            count += 1
        return count

    problems = []
    problem = _expect_refusal(entry, _garbage_source(entry), list_members, lenient)
    if problem:
        problems.append(problem)
    for truncated in _truncated_sources(entry, fixtures):
        problem = _expect_refusal(entry, truncated, list_members, True)
        if problem:
            problems.append(problem)
    return problems


def _expect_refusal(
    entry: EngineEntry, source: Source, read: Callable[[Source], int], may_succeed: bool
) -> Problem | None:
    """``read(source)`` must raise a GoblinError naming the file (or, if allowed, succeed)."""
    what = source.display_name
    finished, result, error = _call_with_limit(lambda: read(source), BAD_INPUT_SECONDS)
    source.cleanup()
    if not finished:
        return Problem(entry.name, "bad input", f"hung for over {BAD_INPUT_SECONDS:g}s on {what}")
    if error is None:
        if may_succeed:
            return None
        return Problem(entry.name, "bad input",
                       f"read {what} ({result} characters) instead of raising a GoblinError")
    if not isinstance(error, GoblinError):
        return Problem(entry.name, "bad input",
                       f"raised {type(error).__name__} ({error}) on {what}; "
                       "raise a goblin_core.errors.GoblinError subclass instead")
    if source.display_name not in str(error):
        return Problem(entry.name, "bad input",
                       f"{type(error).__name__} on {what} does not name the file: {error}")
    return None


def _sniffer_problems(entry: EngineEntry, config: Config, fixtures: Fixtures,
                      lenient: bool) -> list[Problem]:
    problems = []
    for seed in (1, 2, 3):
        data = garbage_bytes(8192, seed)
        source = Source.from_bytes(data, "random.bin")
        finished, answer, error = _call_with_limit(
            lambda d=data, s=source: entry.engine.sniff(d[:8192], s), BAD_INPUT_SECONDS)  # type: ignore[misc]
        if not finished:
            problems.append(Problem(entry.name, "bad input", "sniff() hung on random bytes"))
        elif error is not None:
            kind = type(error).__name__
            problems.append(Problem(entry.name, "bad input",
                                    f"sniff() raised {kind} on random bytes: {error}"))
        elif answer is not None:
            problems.append(Problem(entry.name, "bad input",
                                    f"sniff() answered {answer!r} for random bytes, not None"))
        if problems:
            break
    return problems


def _validator_problems(entry: EngineEntry, config: Config, fixtures: Fixtures,
                        lenient: bool) -> list[Problem]:
    mime = next((f for f in entry.formats if f != "*" and not f.endswith("/*")), "text/plain")
    options = config.section(entry.name.split(".", 1)[0])
    for text in WEIRD_STRINGS:
        for glyphs in (None, 0, len(text)):
            context = PageContext(number=1, mime=mime, glyphs=glyphs, images=0,
                                  unmapped=0, engine="conformance", options=options)
            problem = _verdict_problem(entry, text, context)
            if problem:
                return [problem]
    return []


def _verdict_problem(entry: EngineEntry, text: str, context: PageContext) -> Problem | None:
    shown = repr(text[:40])
    finished, verdict, error = _call_with_limit(lambda: entry.engine.check(text, context),
                                                BAD_INPUT_SECONDS)
    if not finished:
        return Problem(entry.name, "bad input", f"check() hung on {shown}")
    if error is not None:
        return Problem(entry.name, "bad input",
                       f"check() raised {type(error).__name__} on {shown}: {error}")
    if not isinstance(verdict, Verdict):
        return Problem(entry.name, "bad input", f"check() returned {verdict!r}, not a Verdict")
    if verdict.status not in _VERDICT_STATUSES:
        return Problem(entry.name, "bad input", f"verdict status {verdict.status!r} on {shown}")
    score = verdict.score
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0.0 <= score <= 1.0:
        return Problem(entry.name, "bad input", f"verdict score {score!r} is not in [0, 1]")
    return None


def _ocr_problems(entry: EngineEntry, config: Config, fixtures: Fixtures,
                  lenient: bool) -> list[Problem]:
    if not isinstance(getattr(entry.engine, "cloud", False), bool):
        return [Problem(entry.name, "ocr", "an OCR backend's 'cloud' must be True or False")]
    images: list[tuple[str, Any]] = [("an object that is no image", object())]
    blank = _blank_image()
    if blank is not None:
        images.insert(0, ("a blank white page", blank))
    languages = str(config.get("goblin", "ocr_languages", "eng"))
    for label, image in images:
        finished, result, error = _call_with_limit(
            lambda im=image: entry.engine.recognize(im, languages, config),  # type: ignore[misc]
            BAD_INPUT_SECONDS)
        if not finished:
            return [Problem(entry.name, "bad input", f"recognize() hung on {label}")]
        if error is not None:
            return [Problem(entry.name, "bad input",
                            f"recognize() raised {type(error).__name__} on {label}: {error}; "
                            'return OCRResult("", 0.0) instead')]
        if not isinstance(result, OCRResult) or result.text.strip() or result.confidence != 0.0:
            return [Problem(entry.name, "bad input",
                            f'recognize() returned {result!r} on {label}, not OCRResult("", 0.0)')]
    return []


def _blank_image() -> Any:
    try:
        from PIL import Image
    except ImportError:  # pillow comes with OCR plugins; without it only the no-image check runs
        return None
    return Image.new("L", (850, 1100), 255)


def _recovery_problems(entry: EngineEntry, config: Config, fixtures: Fixtures,
                       lenient: bool) -> list[Problem]:
    source = _garbage_source(entry)
    finished, result, error = _call_with_limit(lambda: entry.engine.recover(source, [1], config),
                                               BAD_INPUT_SECONDS)
    source.cleanup()
    if not finished:
        return [Problem(entry.name, "bad input", "recover() hung on garbage bytes")]
    if error is not None and not isinstance(error, GoblinError):
        return [Problem(entry.name, "bad input",
                        f"recover() raised {type(error).__name__} on garbage bytes: {error}")]
    if error is None and not _is_page_texts(result):
        return [Problem(entry.name, "bad input",
                        f"recover() must return {{page: text}}, got {result!r}")]
    return []


def _is_page_texts(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, int) and isinstance(v, str) for k, v in value.items()
    )


def _renderer_problems(entry: EngineEntry, config: Config, fixtures: Fixtures,
                       lenient: bool) -> list[Problem]:
    if not isinstance(getattr(entry.engine, "format", None), str):
        return [Problem(entry.name, "renderer", "a renderer needs a 'format' string")]
    finished, result, error = _call_with_limit(lambda: entry.engine.render([], config),
                                               BAD_INPUT_SECONDS)
    if not finished or error is not None or not isinstance(result, str):
        what = "hung" if not finished else f"gave {error!r}" if error else f"returned {result!r}"
        return [Problem(entry.name, "renderer", f"render([]) {what}; it must return a string")]
    return []


_BadInputCheck = Callable[[EngineEntry, Config, Fixtures, bool], list[Problem]]

_BAD_INPUT_CHECKS: Mapping[str, _BadInputCheck] = {
    "parser": _parser_problems,
    "archive": _archive_problems,
    "sniffer": _sniffer_problems,
    "validator": _validator_problems,
    "ocr": _ocr_problems,
    "recovery": _recovery_problems,
    "renderer": _renderer_problems,
}

__all__ = [
    "AVAILABLE_SECONDS",
    "WEIRD_STRINGS",
    "ConformanceError",
    "LoadedPlugin",
    "NetworkBlocked",
    "Problem",
    "assert_engine_conformance",
    "assert_formats_have_fixtures",
    "assert_plugin_conforms",
    "blocked_network",
    "check_plugin",
    "engine_problems",
    "fixture_problems",
    "garbage_bytes",
    "load_plugin",
    "plugin_problems",
]
