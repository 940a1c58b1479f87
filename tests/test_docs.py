"""docs/plugins.md documents every hook exactly, and its minimal plugin really works."""

from __future__ import annotations

import ast
import re
import tomllib
import types
from pathlib import Path

import pytest

import goblin_core
from goblin_core import hookspecs
from goblin_core.testing.conformance import check_plugin, load_plugin

ROOT = Path(__file__).resolve().parents[1]
PLUGINS_DOC = ROOT / "docs" / "plugins.md"


def _hookspecs() -> list[ast.FunctionDef]:
    tree = ast.parse(Path(hookspecs.__file__).read_text(encoding="utf-8"))
    return [node for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("goblin_")]


def _signature(node: ast.FunctionDef) -> str:
    returns = ast.unparse(node.returns) if node.returns else "None"
    return f"{node.name}({ast.unparse(node.args)}) -> {returns}"


def _protocol(node: ast.FunctionDef) -> str | None:
    """The engine method a hook's docstring gives under ``Protocol``."""
    doc = ast.get_docstring(node) or ""
    for line in doc.splitlines():
        if line.startswith("    ") and "->" in line:
            return line.split("#", 1)[0].strip()
    return None


def _code_blocks(language: str) -> list[str]:
    text = PLUGINS_DOC.read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


HOOKS = _hookspecs()


def test_every_hookspec_is_found() -> None:
    names = {node.name for node in HOOKS}
    assert len(names) == 10
    assert names == {n for n in dir(hookspecs) if n.startswith("goblin_register_")}


@pytest.mark.parametrize("node", HOOKS, ids=[n.name for n in HOOKS])
def test_hook_is_documented_with_its_exact_signature(node: ast.FunctionDef) -> None:
    text = PLUGINS_DOC.read_text(encoding="utf-8")
    assert f"### {node.name}\n" in text, f"docs/plugins.md has no section for {node.name}"
    section = text.split(f"### {node.name}\n", 1)[1].split("\n### ", 1)[0]
    assert _signature(node) in section, (
        f"docs/plugins.md does not show {_signature(node)} in the {node.name} section")


@pytest.mark.parametrize("node", [n for n in HOOKS if _protocol(n)],
                         ids=[n.name for n in HOOKS if _protocol(n)])
def test_hook_section_shows_the_protocol_of_what_it_registers(node: ast.FunctionDef) -> None:
    text = PLUGINS_DOC.read_text(encoding="utf-8")
    section = text.split(f"### {node.name}\n", 1)[1].split("\n### ", 1)[0]
    assert _protocol(node) in section


def test_historic_hook_is_called_historic() -> None:
    text = PLUGINS_DOC.read_text(encoding="utf-8")
    section = text.split("### goblin_register_options\n", 1)[1]
    assert "historic" in section.split("\n## ", 1)[0].lower()


def test_plugin_switches_are_documented() -> None:
    text = PLUGINS_DOC.read_text(encoding="utf-8")
    for needle in ("GOBLIN_LOAD_PLUGINS", "GOBLIN_DISABLE_PLUGINS", '[engines."',
                   "priority", "enabled", "goblin_core.testing.conformance"):
        assert needle in text


def test_minimal_plugin_pyproject_declares_the_goblin_entry_point() -> None:
    [pyproject] = [b for b in _code_blocks("toml") if "[project]" in b]
    data = tomllib.loads(pyproject)
    assert data["project"]["entry-points"]["goblin"] == {"memo": "goblin_memo.plugin"}
    assert "goblin-core" in data["project"]["dependencies"]


def _docs_plugin_module() -> types.ModuleType:
    [source] = [b for b in _code_blocks("python") if b.startswith("# goblin_memo/plugin.py")]
    module = types.ModuleType("goblin_memo_from_docs")
    exec(compile(source, "docs/plugins.md", "exec"), module.__dict__)
    return module


def test_minimal_plugin_passes_the_conformance_kit() -> None:
    module = _docs_plugin_module()
    fixtures = {module.MEMO_MIME: (b"MEMO/1\nfirst page\fsecond page", "second page")}
    problems = check_plugin(load_plugin(module, name="memo"), fixtures=fixtures)
    assert problems == []


def test_minimal_plugin_extracts_pages_and_takes_its_options() -> None:
    module = _docs_plugin_module()
    registry = goblin_core.load_registry(load=[], extra_plugins=[("memo", module)])
    data = "MEMO/1\nprimeira página\fsegunda página".encode("cp1252")
    document = goblin_core.extract(data, name="notes.memo", registry=registry,
                                   memo={"encoding": "cp1252"})
    assert [p.text for p in document.pages] == ["primeira página", "segunda página"]
    assert document.pages[0].engine == "memo.parser"
    with pytest.raises(goblin_core.CorruptDocument, match=r"notes\.memo: cannot decode"):
        goblin_core.extract(data, name="notes.memo", registry=registry)
    with pytest.raises(goblin_core.ConfigError, match=r"memo\.encodng"):
        goblin_core.extract(data, name="notes.memo", registry=registry, memo={"encodng": "x"})
