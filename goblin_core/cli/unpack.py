"""``goblin unpack``: archives unpacked safely into a folder (``goblin_core.unpack``)."""

from __future__ import annotations

from pathlib import Path

import click

from goblin_core.cli.app import (
    EXIT_FAILED,
    EXIT_OK,
    cli,
    echo_err,
    effective_config,
    fail,
    one_line,
    os_cause,
    quoted,
    state_of,
)
from goblin_core.cli.run_options import call_options, password_option, settings_option
from goblin_core.errors import GoblinError, PasswordRequired
from goblin_core.unpack import UnpackResult
from goblin_core.unpack import unpack as unpack_archive


@cli.command()
@click.argument("paths", nargs=-1, required=True, metavar="ARCHIVE... DEST")
@click.option("--flatten/--no-flatten", default=True, show_default=True,
              help="Make every member path one file name in DEST (edital/ata.pdf -> "
                   "edital_ata.pdf), or keep the folders under DEST.")
@click.option("--remove-source", is_flag=True,
              help="Delete each archive after it was unpacked without error.")
@password_option
@click.option("-c", "--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Config file (its [limits] bound what may come out of an archive).")
@settings_option
@click.pass_context
def unpack(
    ctx: click.Context, paths: tuple[str, ...], flatten: bool, remove_source: bool,
    password: str | None, config_file: str | None, settings: tuple[str, ...],
) -> None:
    """Unpack archives safely into DEST (the last argument), archives inside them too.

    Names that climb out (../), links, devices and bombs (size, ratio, member
    count, depth) are refused under the [limits] of the config; nothing is
    written outside DEST and nothing there is overwritten (a taken name is
    renamed). Each refused member is an error line on stderr.

    Exit status 1 when an archive, or a member of one, could not be unpacked
    (the others still are); 2 when DEST is a file or lies under one.
    """
    if len(paths) < 2:
        raise click.UsageError("give at least one ARCHIVE and the DEST folder")
    *archives, dest = paths
    _check_dest(ctx, Path(dest))
    registry = state_of(ctx).get_registry()
    config = effective_config(registry, config_file, **call_options(settings, password=password))
    failed = 0
    for archive in archives:
        try:
            result = unpack_archive(archive, dest, config=config, flatten=flatten,
                                    remove_source=remove_source, registry=registry)
        except GoblinError as exc:
            failed += 1
            hint = _PASSWORD_HINT if isinstance(exc, PasswordRequired) else ""
            echo_err(f"error: {quoted(archive)}: {one_line(_cause(exc, archive))}{hint}")
            continue
        except OSError as exc:
            failed += 1
            where = f" ({exc.filename})" if exc.filename and exc.filename != archive else ""
            echo_err(f"error: {quoted(archive)}: {os_cause(exc)}{where}")
            continue
        failed += _report(result, archive, Path(dest))
    ctx.exit(EXIT_FAILED if failed else EXIT_OK)


def _cause(exc: GoblinError, archive: str) -> str:
    """The error's message, with the file it names unless that is the archive itself."""
    if exc.file in (None, "", archive, Path(archive).name):
        return exc.message
    return str(exc)


def _check_dest(ctx: click.Context, dest: Path) -> None:
    """DEST must be a folder, or a path where one can be made (a usage error otherwise)."""
    for path in (dest, *dest.parents):
        if path.is_dir():
            return
        if path.exists():
            where = "it is a file" if path == dest else f"{path} is a file"
            fail(ctx, str(dest), f"DEST must be a folder, and {where}")


def _report(result: UnpackResult, archive: str, dest: Path) -> int:
    """Print what happened to one archive; return 1 when something was lost."""
    for entry in result.errors:
        echo_err(f"error: {quoted(archive)}: {entry.kind}: {one_line(entry.message)}")
    for entry in result.warnings:
        echo_err(f"warning: {quoted(archive)}: {entry.kind}: {one_line(entry.message)}")
    if not result.written:
        # "0 file(s)" alone reads like a failure: say why nothing came out
        # (a later volume of a set, members that are only folders or links).
        skipped = [m for m in result.members if m.action == "skipped"]
        for member in skipped[:_SKIPPED_SHOWN]:
            echo_err(f"skipped {quoted(member.name)}: {one_line(member.reason)}")
        if len(skipped) > _SKIPPED_SHOWN:
            echo_err(f"skipped {len(skipped) - _SKIPPED_SHOWN} more member(s)")
    removed = "; archive removed" if result.source_removed else ""
    echo_err(f"unpacked {quoted(archive)}: {len(result.written)} file(s) into {dest}{removed}")
    return 0 if result.ok else 1


_SKIPPED_SHOWN = 5
_PASSWORD_HINT = "; on the command line: --password SECRET or $GOBLIN_PASSWORD"
