"""``goblin config``: every option of every namespace, with type, default, value and help."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import click
from rich.table import Table

from goblin_core.cli.app import cli, effective_config, escape_markup, state_of, stdout_console
from goblin_core.config import Config
from goblin_core.options import Namespace, Option
from goblin_core.registry import Registry


def _type_text(option: Option) -> str:
    text = option.type
    if option.choices:
        text += f": {' | '.join(option.choices)}"
    if option.minimum is not None or option.maximum is not None:
        low = "" if option.minimum is None else _bound(option, option.minimum)
        high = "" if option.maximum is None else _bound(option, option.maximum)
        text += f" [{low}..{high}]"
    return text


def _bound(option: Option, value: float) -> str:
    if option.type != "bytes" or value < 1024:
        return f"{value:g}"
    for unit in ("TB", "GB", "MB", "KB"):
        size = 1024 ** ("KMGT".index(unit[0]) + 1)
        if value >= size and value % size == 0:
            return f"{int(value // size)}{unit}"
    return f"{int(value)}"


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def config_data(registry: Registry, config: Config) -> dict[str, Any]:
    """The effective config: every namespace and option with type, default, value and help."""
    namespaces: dict[str, Any] = {}
    for name in _namespace_order(registry.namespaces):
        namespace = registry.namespaces[name]
        namespaces[name] = {
            "plugin": namespace.plugin,
            "help": namespace.help,
            "options": {
                option.name: {
                    "type": option.type,
                    "default": _plain(option.default),
                    "value": _shown_value(option, config.get(name, option.name)),
                    "help": option.help,
                    "secret": option.secret,
                    "choices": list(option.choices),
                    "minimum": option.minimum,
                    "maximum": option.maximum,
                }
                for option in namespace.options
            },
        }
    return {
        "namespaces": namespaces,
        "engines": {name: dict(values) for name, values in sorted(config.engines.items())},
        "warnings": list(config.warnings),
    }


#: What ``goblin config`` prints for a secret option that is set (a password, a key):
#: the output of a command is read over shoulders, pasted into issues and kept in logs
SECRET_SET = "(set, not shown)"


def _shown_value(option: Option, value: Any) -> Any:
    if option.secret and value not in ("", None, option.default):
        return SECRET_SET
    return _plain(value)


def _namespace_order(namespaces: Mapping[str, Namespace]) -> list[str]:
    core = [n for n in ("goblin", "limits") if n in namespaces]
    return core + sorted(n for n in namespaces if n not in core)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def config_toml(registry: Registry, config: Config) -> str:
    """The effective config as a commented TOML file a user can edit and pass with --config."""
    data = config_data(registry, config)
    lines = ["# goblin configuration (goblin extract --config FILE, or $GOBLIN_CONFIG)."]
    for name, namespace in data["namespaces"].items():
        lines += ["", f"# {namespace['help']}" if namespace["help"] else "", f"[{name}]"]
        for key, option in namespace["options"].items():
            kind = _type_text(registry.namespaces[name].by_name[key])
            lines.append(f"# {option['help']} ({kind}; default {_toml_value(option['default'])})")
            if option["secret"] and option["value"] == SECRET_SET:
                # left for the reader to fill in: a file to start from holds no secret
                lines.append(f"# {key} = \"...\"  {SECRET_SET}")
                continue
            lines.append(f"{key} = {_toml_value(option['value'])}")
    for engine, values in data["engines"].items():
        lines += ["", f'[engines."{engine}"]']
        lines += [f"{key} = {_toml_value(value)}" for key, value in values.items()]
    return "\n".join(line for line in lines if line is not None) + "\n"


@cli.command("config")
@click.option("-c", "--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Config file to apply (default: $GOBLIN_CONFIG).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--toml", "as_toml", is_flag=True,
              help="Print the effective config as a commented TOML file to start from.")
@click.pass_context
def config_command(
    ctx: click.Context, config_file: str | None, as_json: bool, as_toml: bool
) -> None:
    """Show every config option: type, default, current value and help.

    Options are grouped by namespace: [goblin] (behaviour), [limits] (safety
    limits) and one namespace per plugin. [engines."NAME"] tables set an
    engine's priority or enable/disable it. Values set by the file are marked.
    """
    registry = state_of(ctx).get_registry()
    config = effective_config(registry, config_file)
    if as_json:
        click.echo(json.dumps(config_data(registry, config), indent=2, ensure_ascii=False))
        return
    if as_toml:
        click.echo(config_toml(registry, config), nl=False)
        return
    _print_config(registry, config)


def _print_config(registry: Registry, config: Config) -> None:
    console = stdout_console()
    data = config_data(registry, config)
    for name, namespace in data["namespaces"].items():
        source = f" (from {namespace['plugin']})" if namespace["plugin"] else ""
        table = Table(title=escape_markup(f"[{name}]{source}  {namespace['help']}"),
                      title_justify="left", box=None, padding=(0, 2, 0, 0))
        table.add_column("option", no_wrap=True)
        table.add_column("type", overflow="fold", max_width=22)
        table.add_column("default", overflow="fold", max_width=14)
        table.add_column("value", overflow="fold", max_width=18)
        table.add_column("help", overflow="fold", ratio=1)
        for key, option in namespace["options"].items():
            value = escape_markup(_toml_value(option["value"]))
            if option["secret"] and option["value"] == SECRET_SET:
                value = f"[bold yellow]{escape_markup(SECRET_SET)}[/bold yellow]"
            elif option["value"] != option["default"]:
                value = f"[bold yellow]{value}[/bold yellow] (set)"
            table.add_row(key, escape_markup(_type_text(registry.namespaces[name].by_name[key])),
                          escape_markup(_toml_value(option["default"])), value,
                          escape_markup(option["help"]))
        console.print(table)
        console.print()
    if data["engines"]:
        engines = Table(title=escape_markup("[engines] overrides"), title_justify="left",
                        box=None, padding=(0, 2, 0, 0))
        for column in ("engine", "priority", "enabled"):
            engines.add_column(column)
        for engine, values in data["engines"].items():
            engines.add_row(engine, str(values.get("priority", "")), str(values.get("enabled", "")))
        console.print(engines)
