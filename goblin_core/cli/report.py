"""``goblin report``: the trust report of files, folders or a batch manifest."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from goblin_core.batch import write_atomic
from goblin_core.cli.app import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    Terminated,
    cli,
    echo_err,
    effective_config,
    fail,
    one_line,
    os_cause,
    quoted,
    state_of,
)


@cli.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False), default=None,
              help="Write the report here ('-': standard output). Default: report.html for "
                   "the HTML page; standard output for --format json, as other commands "
                   "print their JSON.")
@click.option("--format", "fmt", type=click.Choice(["html", "json"]), default="html",
              show_default=True, help="A self-contained HTML page, or the same data as JSON.")
@click.option("--ocr", type=click.Choice(["auto", "never", "always", "extract_and_ocr"]),
              default=None, help="OCR strategy while extracting files and folders.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes for extraction (default: CPU count).")
@click.option("--thumbnails/--no-thumbnails", default=True, show_default=True,
              help="Embed small page images (rendered once, cached under ~/.cache/goblin).")
@click.option("-c", "--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Config file (TOML or JSON).")
@click.pass_context
def report(ctx: click.Context, paths: tuple[str, ...], output: str | None, fmt: str,
           ocr: str | None, jobs: int | None, thumbnails: bool, config_file: str | None) -> None:
    """Build the trust report: which pages are clean, recovered, OCR'd, empty, corrupt or failed.

    PATH is a file, a folder (read recursively) or the manifest.jsonl of a
    `goblin extract --output` batch (page detail comes from its JSON outputs).
    The HTML page needs no network: styles, script, data and images are inline.
    """
    from goblin_core.trust_report import build_report, report_html

    registry = state_of(ctx).get_registry()
    config = effective_config(registry, config_file, ocr=ocr)
    target = output or ("-" if fmt == "json" else "report.html")
    if target != "-":
        _check_target(ctx, Path(target))

    def progress(done: int, total: int, name: str) -> None:
        if sys.stderr.isatty():
            # a name's control characters must not reach the terminal raw
            click.echo(f"\r{done}/{total} {one_line(name)[:60]:<60}", err=True,
                       nl=done == total)

    unread: list[str] = []

    def unreadable(name: str, cause: str) -> None:  # a failed document of the report too
        unread.append(name)
        echo_err(f"error: {quoted(name)}: {one_line(cause)}")

    # the report of an earlier run written into a folder given is not one of its documents
    try:
        data = build_report(registry, config, list(paths), jobs=jobs, thumbnails=thumbnails,
                            progress=progress, unreadable=unreadable,
                            leave_out=None if target == "-" else target)
    except KeyboardInterrupt:
        echo_err("interrupted; the report was not written")
        ctx.exit(EXIT_INTERRUPTED)
    except Terminated as stopped:
        echo_err(f"stopped by {stopped.signal_name}; the report was not written")
        ctx.exit(stopped.exit_code)
    content = (json.dumps(data, ensure_ascii=False, indent=2) + "\n" if fmt == "json"
               else report_html(data))
    if target == "-":
        click.echo(content, nl=False)
    else:
        try:
            _write_report(Path(target), content)
        except OSError as exc:
            fail(ctx, target, f"the report could not be written: {os_cause(exc)}", EXIT_FAILED)
        summary = data["summary"]
        echo_err(f"report of {summary['documents']} documents, {summary['pages']} pages "
                 f"written to {target}")
    ctx.exit(EXIT_FAILED if unread else EXIT_OK)


def _write_report(target: Path, content: str) -> None:
    """The report written whole or not at all: an interrupted write left a partial page
    over the last good one. A target that is no regular file (a FIFO, /dev/null) is
    written to as it is, never replaced."""
    if target.exists() and not target.is_file():
        target.write_text(content, encoding="utf-8")
    else:
        write_atomic(target, content)


def _check_target(ctx: click.Context, target: Path) -> None:
    """Make the report's folder as ``extract --output`` makes its own, and fail before any
    extraction when the report could not be written there (exit 2)."""
    folder = target.parent
    if folder.is_dir():
        return
    if folder.exists():
        fail(ctx, str(target), f"-o FILE: {folder} is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(ctx, str(target), f"-o FILE: the folder {folder} cannot be created: {os_cause(exc)}")
