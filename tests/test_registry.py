"""The plugin manager: loading, broken plugins, switches, the example third-party plugin."""

from __future__ import annotations

import importlib.metadata as importlib_metadata
import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

import goblin_core
from goblin_core import default_registry, extract, hookimpl, load_registry
from goblin_core.registry import BUILTIN_PLUGIN
from goblin_example_note import NOTE_MIME, render_note

from scripted_engines import TEST_BYTES, ScriptedParser, plugin_of, registry_with, text_page


def _plugin(registry: goblin_core.Registry, name: str) -> Any:
    return next(p for p in registry.plugins if p.name == name)


# -- the example third-party plugin ----------------------------------------------------


def test_installed_example_plugin_is_listed_with_its_distribution() -> None:
    registry = default_registry()
    info = _plugin(registry, "example-note")
    assert info.status == "loaded"
    assert info.distribution == "goblin-example-note"
    assert info.version == importlib_metadata.version("goblin-example-note")
    assert sorted(info.engines) == ["note.parser", "note.sniffer"]
    parser = registry.get("note.parser")
    assert parser is not None and parser.kind == "parser" and parser.formats == (NOTE_MIME,)


def test_extract_uses_the_example_plugin_whatever_the_file_is_called() -> None:
    data = render_note(["Dear diary,", "today goblin read my notes."], title="Diary")
    document = extract(data, name="diary.txt")
    assert document.mime == NOTE_MIME
    assert document.parsed_by == ("note.parser",)
    assert [p.text for p in document.pages] == ["Dear diary,", "today goblin read my notes."]
    assert document.metadata["title"] == "Diary"
    assert document.status == "clean"


def test_example_plugin_refuses_a_damaged_note_naming_the_file() -> None:
    truncated = render_note(["one", "two"]).split(b"%%")[0]
    with pytest.raises(goblin_core.CorruptDocument, match=r"cut\.gnote: .*truncated"):
        extract(truncated, name="cut.gnote")


def _goblin(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the real ``goblin`` command of this environment."""
    pytest.importorskip("goblin_core.cli")
    return subprocess.run([sys.executable, "-m", "goblin_core.cli", *args], capture_output=True,
                          text=True, timeout=120, check=False)


def test_plugins_cli_lists_the_example_plugin() -> None:
    result = _goblin("plugins", "--json")
    assert result.returncode == 0, result.stderr
    listed = json.loads(result.stdout)
    plugins = listed["plugins"] if isinstance(listed, dict) else listed
    note = next(p for p in plugins if p["name"] == "example-note")
    assert note["distribution"] == "goblin-example-note"
    assert note["status"] == "loaded"
    assert {e["name"] for e in note["engines"]} == {"note.parser", "note.sniffer"}
    parser = next(e for e in note["engines"] if e["name"] == "note.parser")
    assert parser["kind"] == "parser" and parser["formats"] == [NOTE_MIME]


def test_extract_cli_uses_the_example_plugin(tmp_path: Any) -> None:
    note = tmp_path / "list.gnote"
    note.write_bytes(render_note(["bread, cheese and candles"]))
    result = _goblin("extract", "--format", "json", str(note))
    assert result.returncode == 0, result.stderr
    assert "bread, cheese and candles" in result.stdout
    assert "note.parser" in result.stdout


# -- loading and isolation ---------------------------------------------------------------


def test_builtin_plugin_is_registered_after_third_party_plugins() -> None:
    registry = load_registry(load=["example-note"])
    assert [p.name for p in registry.plugins][-1] == BUILTIN_PLUGIN
    assert _plugin(registry, BUILTIN_PLUGIN).version == importlib_metadata.version("goblin-core")


def test_duplicate_engine_name_marks_the_later_plugin_broken() -> None:
    first = plugin_of(ScriptedParser("tests.same", [text_page(1, "from the first plugin")]))
    second = plugin_of(ScriptedParser("tests.same", [text_page(1, "from the second plugin")]),
                       ScriptedParser("tests.innocent", [text_page(1, "innocent")]))
    registry = load_registry(load=[], extra_plugins=[("first", first), ("second", second)])
    assert _plugin(registry, "first").status == "loaded"
    broken = _plugin(registry, "second")
    assert broken.status == "broken"
    assert "tests.same" in broken.error and "first" in broken.error
    # None of the broken plugin's engines are used, not even the innocent one.
    assert registry.get("tests.innocent") is None
    assert [e.name for e in registry.engines("parser")] == ["tests.same", "text.plain"]


def test_a_third_party_engine_cannot_take_a_builtin_name() -> None:
    impostor = plugin_of(ScriptedParser("text.plain", [text_page(1, "impostor")]))
    registry = load_registry(load=[], extra_plugins=[("impostor", impostor)])
    assert _plugin(registry, "impostor").status == "broken"
    assert _plugin(registry, BUILTIN_PLUGIN).status == "loaded"
    assert extract(b"real text", name="a.txt", registry=registry).text == "real text"


def test_plugin_whose_hook_raises_is_broken_and_the_others_still_work() -> None:
    class Exploding:
        @hookimpl
        def goblin_register_parsers(self, register: Callable[[Any], None]) -> None:
            register(ScriptedParser("tests.half", [text_page(1, "half registered")]))
            raise RuntimeError("cannot find my model files")

    working = ScriptedParser("tests.working", [text_page(1, "the working plugin's text")])
    registry = registry_with(working, plugins=[("exploding", Exploding())])
    info = _plugin(registry, "exploding")
    assert info.status == "broken"
    assert "RuntimeError: cannot find my model files" in info.error
    assert registry.get("tests.half") is None
    document = extract(TEST_BYTES, name="a.test", registry=registry)
    assert document.text == "the working plugin's text"


def test_engine_without_a_name_breaks_its_plugin() -> None:
    class Nameless:
        @hookimpl
        def goblin_register_parsers(self, register: Callable[[Any], None]) -> None:
            register(object())

    registry = load_registry(load=[], extra_plugins=[("nameless", Nameless())])
    assert _plugin(registry, "nameless").status == "broken"
    assert "has no name" in _plugin(registry, "nameless").error


def test_unknown_hook_is_reported_as_broken_by_check_pending() -> None:
    class Misspelled:
        @hookimpl
        def goblin_register_parser(self, register: Callable[[Any], None]) -> None:
            raise AssertionError("never called")

    registry = load_registry(load=[], extra_plugins=[("misspelled", Misspelled())])
    info = _plugin(registry, "misspelled")
    assert info.status == "broken"
    assert "goblin_register_parser" in info.error
    assert _plugin(registry, BUILTIN_PLUGIN).status == "loaded"


def _entry_point(name: str, value: str) -> importlib_metadata.EntryPoint:
    return importlib_metadata.EntryPoint(name=name, value=value, group="goblin")


def test_plugin_that_fails_to_import_is_broken_and_the_others_load() -> None:
    points = [
        _entry_point("ghost", "goblin_ghost_plugin_that_does_not_exist.plugin"),
        _entry_point("example-note", "goblin_example_note.plugin"),
    ]
    registry = load_registry(entry_points=lambda: points)
    ghost = _plugin(registry, "ghost")
    assert ghost.status == "broken"
    assert "cannot import" in ghost.error and "ModuleNotFoundError" in ghost.error
    assert _plugin(registry, "example-note").status == "loaded"
    assert extract(render_note(["still works"]), name="n.gnote", registry=registry).text == (
        "still works")


def test_plugin_raising_at_import_is_broken(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "goblin_raises_on_import.py").write_text(
        "raise ImportError('needs libfoo.so.3')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    point = _entry_point("raiser", "goblin_raises_on_import")
    registry = load_registry(entry_points=lambda: [point])
    assert _plugin(registry, "raiser").status == "broken"
    assert "needs libfoo.so.3" in _plugin(registry, "raiser").error


# -- GOBLIN_LOAD_PLUGINS and GOBLIN_DISABLE_PLUGINS ------------------------------------------


def test_load_env_picks_plugins_for_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOBLIN_LOAD_PLUGINS", "example-note")
    registry = default_registry()
    statuses = {p.name: p.status for p in registry.plugins}
    assert statuses["example-note"] == "loaded"
    assert statuses[BUILTIN_PLUGIN] == "loaded"
    others = {name for name, status in statuses.items()
              if name not in ("example-note", BUILTIN_PLUGIN)}
    assert others and all(statuses[name] == "blocked" for name in others)


def test_empty_load_env_loads_no_plugin_but_the_builtin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOBLIN_LOAD_PLUGINS", "")
    registry = default_registry()
    assert [p.name for p in registry.plugins if p.status == "loaded"] == [BUILTIN_PLUGIN]
    document = extract(render_note(["hidden"]), name="n.gnote")
    assert document.mime == "text/plain"  # no note sniffer: plain text with the header


def test_disable_env_blocks_a_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOBLIN_DISABLE_PLUGINS", "example-note, example-fixtures")
    registry = default_registry()
    assert _plugin(registry, "example-note").status == "blocked"
    assert _plugin(registry, "example-fixtures").status == "blocked"
    assert registry.get("note.parser") is None


def test_default_registry_follows_the_env_switches(monkeypatch: pytest.MonkeyPatch) -> None:
    assert default_registry().get("note.parser") is not None
    monkeypatch.setenv("GOBLIN_DISABLE_PLUGINS", "example-note")
    assert default_registry().get("note.parser") is None
    monkeypatch.delenv("GOBLIN_DISABLE_PLUGINS")
    assert default_registry().get("note.parser") is not None


def test_disabled_builtin_is_still_loaded() -> None:
    # goblin-core's own plugin is not an entry point: switches never remove it.
    registry = load_registry(load=[], disable=[BUILTIN_PLUGIN])
    assert _plugin(registry, BUILTIN_PLUGIN).status == "loaded"


def test_ranked_skips_disabled_and_unavailable_engines_but_can_list_them() -> None:
    hidden = ScriptedParser("tests.hidden", unavailable="needs a licence key")
    shown = ScriptedParser("tests.shown")
    registry = registry_with(hidden, shown)
    config = registry.config(engines={"tests.shown": {"enabled": False}})
    assert registry.ranked("parser", "application/x-goblin-test", config) == []
    names = [e.name for e in registry.ranked("parser", "application/x-goblin-test", None,
                                             with_unavailable=True)]
    assert names == ["tests.hidden", "tests.shown"]
