"""``goblin formats``: the supported-formats table, generated from the registry."""

from __future__ import annotations

import importlib.metadata as importlib_metadata
from collections.abc import Mapping
from dataclasses import dataclass

import click
from rich.table import Table

from goblin_core.cli.app import cli, effective_config, escape_markup, state_of, stdout_console
from goblin_core.config import Config
from goblin_core.formats import KNOWN_FORMATS, KnownFormat, extra_for
from goblin_core.registry import EngineEntry, PluginInfo, Registry, load_registry

#: The distributions the ``all`` extra installs: docs/formats.md describes exactly these.
FIRST_PARTY_DISTRIBUTIONS = (
    "goblin-archives",
    "goblin-dask",
    "goblin-djvu",
    "goblin-office",
    "goblin-ocr-tesseract",
    "goblin-ocr-textract",
    "goblin-pdf",
)

#: The extra that installs each first-party plugin.
EXTRA_DISTRIBUTIONS: Mapping[str, str] = {
    "archives": "goblin-archives",
    "dask": "goblin-dask",
    "djvu": "goblin-djvu",
    "office": "goblin-office",
    "ocr": "goblin-ocr-tesseract",
    "pdf": "goblin-pdf",
    "textract": "goblin-ocr-textract",
}


@dataclass(frozen=True)
class FormatRow:
    """One row of the supported-formats table."""

    mime: str
    extensions: tuple[str, ...]
    description: str
    engines: tuple[EngineEntry, ...]
    extra: str

    def available_engines(self, registry: Registry) -> list[EngineEntry]:
        return [e for e in self.engines if registry.availability(e)[0]]


def _format_engines(
    registry: Registry, mime: str, config: Config | None
) -> tuple[EngineEntry, ...]:
    found: list[EngineEntry] = []
    for kind in ("parser", "archive"):
        found.extend(registry.ranked(kind, mime, config, with_unavailable=True))
    return tuple(found)


def format_rows(registry: Registry, config: Config | None = None) -> list[FormatRow]:
    """Every format goblin knows or an installed engine claims, with its engines in order.

    Engines are parsers then archive handlers, each best first; a format
    claimed only through a wildcard (``*``) is not listed on its own.
    """
    known: dict[str, KnownFormat] = {f.mime: f for f in KNOWN_FORMATS}
    claimed = {
        fmt for e in registry.entries if e.kind in ("parser", "archive") for fmt in e.formats
        if "*" not in fmt
    }
    rows = []
    for mime in sorted(set(known) | claimed):
        info = known.get(mime)
        engines = _format_engines(registry, mime, config)
        extra = (info.extra if info else extra_for(mime)) or _extra_of(engines)
        rows.append(FormatRow(
            mime=mime,
            extensions=info.extensions if info else (),
            description=info.description if info else "",
            engines=engines,
            extra=extra,
        ))
    return rows


def _extra_of(engines: tuple[EngineEntry, ...]) -> str:
    """The extra whose plugin holds the first of ``engines`` (a format goblin has no entry
    for, claimed by a first-party plugin's engine); '' for goblin-core's own or another's."""
    by_distribution = {d: extra for extra, d in EXTRA_DISTRIBUTIONS.items()}
    return next((by_distribution[e.distribution] for e in engines
                 if e.distribution in by_distribution), "")


def _status_text(registry: Registry, row: FormatRow) -> str:
    if row.available_engines(registry):
        return "yes"
    if row.engines:
        reasons = "; ".join(f"{e.name}: {registry.availability(e)[1]}" for e in row.engines)
        return f"no ({reasons})"
    plugin = _plugin_of_extra(registry, row.extra)
    if plugin is None:
        return f'no: pip install "goblin-core[{row.extra}]"' if row.extra else "no installed engine"
    if plugin.status == "blocked":
        return f"no: plugin {plugin.name} is blocked (GOBLIN_LOAD_PLUGINS, GOBLIN_DISABLE_PLUGINS)"
    if plugin.status == "broken":
        return f"no: plugin {plugin.name} is broken (see goblin plugins)"
    return "no installed engine"


def _plugin_of_extra(registry: Registry, extra: str) -> PluginInfo | None:
    distribution = EXTRA_DISTRIBUTIONS.get(extra)
    return next((p for p in registry.plugins if p.distribution == distribution), None)


def _engine_names(registry: Registry, row: FormatRow, *, mark_unavailable: bool) -> str:
    names = []
    for entry in row.engines:
        name = entry.name
        if mark_unavailable and not registry.availability(entry)[0]:
            name += " (unavailable)"
        names.append(name)
    return ", ".join(names)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ") or " "


def formats_markdown(
    registry: Registry, *, for_docs: bool = False, config: Config | None = None
) -> str:
    """The supported-formats table as Markdown.

    ``for_docs`` leaves out what depends on this machine (availability), as
    docs/formats.md holds it; otherwise an "available here" column is added.
    """
    rows = format_rows(registry, config)
    header = ["MIME type", "Extensions", "Format", "Engines (in order)", "Extra"]
    if not for_docs:
        header.insert(4, "Available here")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        cells = [
            f"`{row.mime}`",
            ", ".join(f".{e}" for e in row.extensions),
            row.description,
            _engine_names(registry, row, mark_unavailable=not for_docs),
            f"`{row.extra}`" if row.extra else "(core)" if row.engines else "",
        ]
        if not for_docs:
            cells.insert(4, _status_text(registry, row))
        lines.append("| " + " | ".join(_md_cell(c) for c in cells) + " |")
    if not for_docs:
        return "\n".join(lines) + "\n"
    intro = (
        "# Supported formats\n\n"
        "<!-- Generated by `goblin formats --docs` from the registry with every plugin of\n"
        "     the `all` extra installed; tests/integration/test_formats_doc.py fails when\n"
        "     this file is stale. -->\n\n"
        "Every format goblin knows, the engines that read it in the order they are tried\n"
        "(parsers first, then archive handlers; higher priority first, ties by name) and the\n"
        "extra that installs them (`pip install \"goblin-core[pdf]\"`). `(core)` means\n"
        "goblin-core reads it with no extra. Run `goblin formats` to see what is available on\n"
        "your machine and why an engine is not; content decides the format, the extension\n"
        "only breaks ties (see docs/architecture.md).\n\n"
    )
    return intro + "\n".join(lines) + "\n"


def first_party_registry() -> Registry:
    """A registry of goblin-core and the ``all`` extra's plugins only (for docs/formats.md)."""
    names = [
        ep.name for ep in importlib_metadata.entry_points(group="goblin")
        if ep.dist is not None and ep.dist.name in FIRST_PARTY_DISTRIBUTIONS
    ]
    return load_registry(load=names, disable=())


@cli.command()
@click.option("--markdown", is_flag=True,
              help="Print a Markdown table instead of a terminal table.")
@click.option("--docs", is_flag=True,
              help="Print docs/formats.md: the goblin-core and first-party plugins only, without "
                   "this machine's availability (goblin formats --docs > docs/formats.md).")
@click.option("-c", "--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Config file whose [engines] overrides change the order shown.")
@click.pass_context
def formats(ctx: click.Context, markdown: bool, docs: bool, config_file: str | None) -> None:
    """The supported-formats table, generated from the installed plugins.

    For each MIME type: its extensions, the engines that read it in the order
    they are tried, whether one can run here (and why not), and the extra that
    installs it.
    """
    if docs:
        click.echo(formats_markdown(first_party_registry(), for_docs=True), nl=False)
        return
    registry = state_of(ctx).get_registry()
    config = effective_config(registry, config_file)
    if markdown:
        click.echo(formats_markdown(registry, config=config), nl=False)
        return
    table = Table(title="Formats goblin reads here", title_justify="left", box=None,
                  padding=(0, 2, 0, 0))
    table.add_column("MIME type", overflow="fold", ratio=3)
    table.add_column("extensions", overflow="fold", ratio=1)
    table.add_column("engines (in order)", overflow="fold", ratio=3)
    table.add_column("available", overflow="fold", ratio=2)
    table.add_column("extra", overflow="fold", ratio=1)
    missing = set()
    for row in format_rows(registry, config):
        status = _status_text(registry, row)
        if status.startswith("no: pip install"):
            status = "not installed"
            missing.add(row.extra)
        style = "green" if status == "yes" else "red" if row.engines else "dim"
        table.add_row(row.mime, " ".join(row.extensions),
                      _engine_names(registry, row, mark_unavailable=True),
                      f"[{style}]{escape_markup(status)}[/{style}]", row.extra)
    console = stdout_console()
    console.print(table)
    if missing:
        extras = ",".join(sorted(missing))
        console.print(f'Formats marked "not installed" need: pip install "goblin-core[{extras}]"',
                      markup=False)
