"""docs/cli.md and docs/configuration.md name every command, option and core config option."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from goblin_core import load_registry
from goblin_core.cli import cli

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    following = text.find("\n## ", start + len(heading))
    return text[start: following if following != -1 else len(text)]


#: The commands docs/cli.md describes.
COMMANDS = ("config", "doctor", "extract", "formats", "plugins", "report", "unpack")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_and_its_options_are_in_cli_md(command: str) -> None:
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    section = _section(text, f"## `goblin {command}")
    for param in cli.commands[command].params:
        if isinstance(param, click.Option) and param.name != "help":
            assert any(opt in section for opt in param.opts), f"{command} {param.opts} undocumented"


@pytest.mark.parametrize("namespace", ["goblin", "limits"])
def test_every_core_option_is_in_configuration_md(namespace: str) -> None:
    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    section = _section(text, f"## `[{namespace}]`")
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE))
    declared = set(load_registry(entry_points=lambda: []).namespaces[namespace].by_name)
    assert documented == declared


@pytest.mark.parametrize("page", ["README.md", "docs/cli.md", "docs/configuration.md",
                                  "docs/architecture.md"])
def test_relative_links_point_at_files_that_exist(page: str) -> None:
    path = DOCS.parent / page
    links = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", path.read_text(encoding="utf-8"))
    assert links or page != "README.md"
    for link in links:
        assert (path.parent / link).exists(), f"{page} links to missing {link}"
