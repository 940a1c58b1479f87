"""``goblin doctor``: what can run here, what is missing, and how to fix it."""

from __future__ import annotations

import json
import logging
import os
import platform
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import click
from rich.table import Table

from goblin_core.cli.app import (
    EXIT_FAILED,
    EXIT_OK,
    cli,
    core_version,
    escape_markup,
    state_of,
    stdout_console,
)
from goblin_core.cli.plugins import plugins_data
from goblin_core.config import Config
from goblin_core.errors import ConfigError
from goblin_core.registry import EngineEntry, Registry

log = logging.getLogger(__name__)

#: Command-line tools goblin's plugins call, with the Debian package that installs each.
BINARIES: Mapping[str, str] = {
    "tesseract": "tesseract-ocr",
    "pdftotext": "poppler-utils",
    "pdftoppm": "poppler-utils",
    "gs": "ghostscript",
    "djvused": "djvulibre-bin",
    "djvutxt": "djvulibre-bin",
    "ddjvu": "djvulibre-bin",
    "7z": "p7zip-full",
    "bsdtar": "libarchive-tools",
    "unar": "unar",
    "lsar": "unar",
    "antiword": "antiword",
    "catdoc": "catdoc",
    "catppt": "catdoc",
    "xls2csv": "catdoc",
    "wpd2text": "libwpd-tools",
    "lzip": "lzip",
    "lzop": "lzop",
    "zpaq": "zpaq",
    "rzip": "rzip",
    "lrzip": "lrzip",
    "soffice": "libreoffice-writer-nogui (optional)",
}


@dataclass
class Checkup:
    """What ``goblin doctor`` found: problems make it exit 1, notes do not."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


#: Kinds of engines that do a plugin's work (sniffers, validators and renderers only help).
WORKING_KINDS = ("parser", "archive", "ocr", "recovery", "table", "executor")


def _opt_in(entry: EngineEntry) -> bool:
    """Cloud OCR runs only when asked for: unavailable is its normal state."""
    return entry.kind == "ocr" and bool(getattr(entry.engine, "cloud", False))


def _asked_for(entry: EngineEntry, config: Config | None) -> bool:
    if config is None:
        return False
    return config.engine_enabled(entry.name) is True or entry.name in tuple(
        config.get("goblin", "ocr_backends", ()) or ()
    )


def checkup(registry: Registry, config: Config | None) -> Checkup:
    """Sort what cannot run into problems and notes.

    Problems: a broken plugin; a plugin none of whose working engines can
    run; a local OCR backend that cannot run (OCR is why it was installed); an
    engine the config asks for that cannot run. Everything else unavailable
    (a fallback engine, cloud OCR not set up) is a note.
    """
    found = Checkup()
    for plugin in registry.plugins:
        if plugin.status == "broken":
            found.problems.append(f"plugin {plugin.name} ({plugin.distribution}) is broken: "
                                  f"{plugin.error}")
            continue
        entries = [e for e in (registry.get(n) for n in plugin.engines) if e is not None]
        working = [e for e in entries if e.kind in WORKING_KINDS and not _opt_in(e)]
        if working and not any(registry.availability(e)[0] for e in working):
            reasons = "; ".join(f"{e.name}: {registry.availability(e)[1]}" for e in working)
            found.problems.append(f"plugin {plugin.name} is installed but none of its engines "
                                  f"can run ({reasons})")
            continue
        for entry in entries:
            _check_engine(registry, entry, config, found)
    return found


def _check_engine(registry: Registry, entry: EngineEntry, config: Config | None,
                  found: Checkup) -> None:
    ok, reason = registry.availability(entry)
    if ok:
        return
    if _asked_for(entry, config):
        found.problems.append(f"{entry.name} is enabled in config but cannot run: {reason}")
    elif _opt_in(entry):
        found.notes.append(f"{entry.name} (opt-in cloud OCR) is not set up: {reason}")
    elif entry.kind == "ocr":
        found.problems.append(f"OCR backend {entry.name} cannot run: {reason}")
    else:
        found.notes.append(f"{entry.name} cannot run: {reason}")


def tesseract_languages() -> list[str] | None:
    """Installed Tesseract languages, or None when tesseract is not on PATH."""
    binary = shutil.which("tesseract")
    if binary is None:
        return None
    try:
        result = subprocess.run([binary, "--list-langs"], capture_output=True, text=True,
                                timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.info("tesseract --list-langs failed: %s", exc)
        return []
    lines = (result.stdout or result.stderr).splitlines()
    return sorted(line.strip() for line in lines[1:] if line.strip() and " " not in line.strip())


def doctor_data(registry: Registry, config_file: str | None) -> dict[str, Any]:
    """Everything ``goblin doctor`` prints, as a JSON-ready dict."""
    config: Config | None = None
    config_problem = ""
    try:
        config = registry.config(config_file)
    except ConfigError as exc:
        config_problem = str(exc)
    found = checkup(registry, config)
    if config_problem:
        found.problems.insert(0, f"config: {config_problem}")
    return {
        "goblin_core": core_version(),
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "config_file": config_file or os.environ.get("GOBLIN_CONFIG") or "",
        "config_warnings": list(config.warnings) if config else [],
        "plugins": plugins_data(registry, config),
        "binaries": {name: shutil.which(name) or "" for name in BINARIES},
        "ocr_languages": tesseract_languages(),
        "problems": found.problems,
        "notes": found.notes,
    }


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@click.option("-c", "--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Config file to check (default: $GOBLIN_CONFIG).")
@click.pass_context
def doctor(ctx: click.Context, as_json: bool, config_file: str | None) -> None:
    """Check this installation: engines, binaries, OCR languages, config.

    Exit status 1 when something installed cannot be used: a broken plugin, a
    plugin none of whose engines can run, an engine the config asks for that
    cannot run, or an invalid config file.
    """
    registry = state_of(ctx).get_registry()
    data = doctor_data(registry, config_file)
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        _print_doctor(data)
    ctx.exit(EXIT_FAILED if data["problems"] else EXIT_OK)


def _print_doctor(data: Mapping[str, Any]) -> None:
    console = stdout_console()
    console.print(f"goblin-core {data['goblin_core']} on Python {data['python']} "
                  f"({data['platform']})", markup=False)
    console.print(f"config file: {data['config_file'] or '(none)'}", markup=False)
    engines = Table(title="Engines", title_justify="left", box=None, padding=(0, 2, 0, 0))
    for column in ("engine", "kind", "plugin", "available"):
        engines.add_column(column, overflow="fold")
    for plugin in data["plugins"]:
        for engine in plugin["engines"]:
            state = "[green]yes[/green]" if engine["available"] else \
                f"[red]no[/red]: {escape_markup(engine['reason'])}"
            engines.add_row(engine["name"], engine["kind"], plugin["name"], state)
    console.print(engines)
    binaries = Table(title="Command-line tools", title_justify="left", box=None,
                     padding=(0, 2, 0, 0))
    for column in ("tool", "found", "Debian package"):
        binaries.add_column(column)
    for name, where in data["binaries"].items():
        binaries.add_row(name, where or "[red]missing[/red]", BINARIES[name])
    console.print(binaries)
    languages = data["ocr_languages"]
    if languages is None:
        console.print("OCR languages: tesseract not found (apt-get install tesseract-ocr)")
    else:
        console.print(f"OCR languages: {', '.join(languages) or '(none)'}", markup=False)
    for warning in data["config_warnings"]:
        console.print(f"[yellow]config warning[/yellow]: {escape_markup(warning)}")
    for note in data["notes"]:
        console.print(f"[yellow]note[/yellow]: {escape_markup(note)}")
    for problem in data["problems"]:
        console.print(f"[bold red]problem[/bold red]: {escape_markup(problem)}")
    if not data["problems"]:
        console.print("[green]no problems found[/green]")


