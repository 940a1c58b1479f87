"""``goblin plugins``: installed plugins, their status and their engines."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import click
from rich.table import Table

from goblin_core.cli.app import cli, effective_config, escape_markup, state_of, stdout_console
from goblin_core.config import Config
from goblin_core.registry import EngineEntry, Registry


def engine_info(
    registry: Registry, entry: EngineEntry, config: Config | None = None
) -> dict[str, Any]:
    """One engine as ``goblin plugins --json`` shows it."""
    ok, reason = registry.availability(entry)
    priority = entry.priority
    enabled = True
    if config is not None:
        priority = config.engine_priority(entry.name, priority)
        enabled = config.engine_enabled(entry.name) is not False
    info: dict[str, Any] = {
        "name": entry.name,
        "kind": entry.kind,
        "priority": priority,
        "formats": list(entry.formats),
        "available": ok,
        "reason": reason,
        "enabled": enabled,
    }
    if entry.kind == "renderer":
        info["format"] = str(getattr(entry.engine, "format", ""))
    if entry.kind == "ocr":
        info["cloud"] = bool(getattr(entry.engine, "cloud", False))
    return info


def plugins_data(registry: Registry, config: Config | None = None) -> list[dict[str, Any]]:
    """Every plugin with its status, hooks and engines (the ``plugins --json`` document)."""
    data = []
    for plugin in registry.plugins:
        engines = [registry.get(name) for name in plugin.engines]
        data.append({
            "name": plugin.name,
            "distribution": plugin.distribution,
            "version": plugin.version,
            "status": plugin.status,
            "error": plugin.error,
            "hooks": list(plugin.hooks),
            "engines": [engine_info(registry, e, config) for e in engines if e is not None],
        })
    return data


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON (a list of plugins).")
@click.option("-c", "--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Config file whose [engines] overrides (priority, enabled) to show.")
@click.pass_context
def plugins(ctx: click.Context, as_json: bool, config_file: str | None) -> None:
    """List installed plugins and the engines each registers.

    For each plugin: distribution, version, status (loaded; broken, with the
    error; blocked by GOBLIN_LOAD_PLUGINS or GOBLIN_DISABLE_PLUGINS) and its
    engines with kind, priority, formats and whether they can run here.
    """
    registry = state_of(ctx).get_registry()
    config = effective_config(registry, config_file)
    data = plugins_data(registry, config)
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    console = stdout_console()
    for plugin in data:
        version = f" {plugin['version']}" if plugin["version"] else ""
        style = {"loaded": "green", "broken": "bold red", "blocked": "yellow"}[plugin["status"]]
        console.print(f"[bold]{plugin['name']}[/bold] ({plugin['distribution']}{version}) "
                      f"[{style}]{plugin['status']}[/{style}]")
        if plugin["error"]:
            console.print(f"  error: {plugin['error']}", markup=False)
        if plugin["engines"]:
            console.print(_engines_table(plugin["engines"]))
        console.print()


def _engines_table(engines: Sequence[Mapping[str, Any]]) -> Table:
    table = Table(show_edge=False, pad_edge=False, box=None, padding=(0, 2, 0, 2))
    for column in ("engine", "kind", "priority", "formats", "available"):
        table.add_column(column, overflow="fold")
    for engine in engines:
        state = "yes" if engine["available"] else f"no: {engine['reason']}"
        if not engine["enabled"]:
            state = "disabled in config"
        formats = ", ".join(engine["formats"])
        if len(engine["formats"]) > 3:
            formats = f"{len(engine['formats'])} formats (see --json)"
        table.add_row(engine["name"], engine["kind"], str(engine["priority"]),
                      escape_markup(formats), escape_markup(state))
    return table


