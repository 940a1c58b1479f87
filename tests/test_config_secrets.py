"""``goblin config`` says whether a password or key is set, never what it is."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from goblin_core import hookimpl, load_registry
from goblin_core.cli import CliState, cli
from goblin_core.options import Option
from goblin_core.registry import Registry

SECRET = "Xk9-not-for-screens"


class _KeyedPlugin:
    @hookimpl
    def goblin_register_options(self, register):  # type: ignore[no-untyped-def]
        register("vault", [Option("token", "str", "", "Token for the vault.", secret=True),
                           Option("region", "str", "", "Region of the vault.")])


def _registry() -> Registry:
    return load_registry(entry_points=lambda: [], extra_plugins=[("vault", _KeyedPlugin())])


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "goblin.toml"
    path.write_text(f'[goblin]\npassword = "{SECRET}"\n'
                    f'[vault]\ntoken = "{SECRET}"\nregion = "sa-east-1"\n', encoding="utf-8")
    return path


def _run(args: list[str]) -> Result:
    return CliRunner().invoke(cli, args, obj=CliState(_registry()))


@pytest.mark.parametrize("form", [[], ["--json"], ["--toml"]])
def test_config_never_prints_a_secret_value(tmp_path: Path, form: list[str]) -> None:
    result = _run(["config", "-c", str(_config(tmp_path)), *form])
    assert result.exit_code == 0, result.output
    assert SECRET not in result.output
    assert "sa-east-1" in result.output  # an option that is no secret is shown as set


def test_config_json_says_a_secret_is_set_and_marks_it(tmp_path: Path) -> None:
    data = json.loads(_run(["config", "--json", "-c", str(_config(tmp_path))]).stdout)
    password = data["namespaces"]["goblin"]["options"]["password"]
    token = data["namespaces"]["vault"]["options"]["token"]
    assert password["secret"] and token["secret"]
    assert password["value"] == token["value"] == "(set, not shown)"
    assert data["namespaces"]["vault"]["options"]["region"]["secret"] is False


def test_config_json_shows_an_unset_secret_as_empty(tmp_path: Path) -> None:
    data = json.loads(_run(["config", "--json"]).stdout)
    assert data["namespaces"]["goblin"]["options"]["password"]["value"] == ""


def test_config_toml_leaves_a_set_secret_commented_out_for_the_reader(tmp_path: Path) -> None:
    text = _run(["config", "--toml", "-c", str(_config(tmp_path))]).stdout
    parsed = tomllib.loads(text)
    assert "password" not in parsed["goblin"]
    assert "token" not in parsed["vault"]
    assert parsed["vault"]["region"] == "sa-east-1"
    assert '# password = "..."  (set, not shown)' in text
