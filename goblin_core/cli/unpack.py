"""``goblin unpack``: archives unpacked safely into a folder."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import click

from goblin_core.cli.app import (
    EXIT_FAILED,
    EXIT_OK,
    cli,
    echo_err,
    effective_config,
    one_line,
    quoted,
    state_of,
)
from goblin_core.errors import GoblinError


def _unpack_module() -> Any:
    # written alongside the archives plugin; imported late so the other commands
    # work in an installation that does not have it yet
    try:
        module = importlib.import_module("goblin_core.unpack")
    except ImportError as exc:
        raise click.ClickException(
            f"goblin unpack is not available in this installation ({exc}); "
            "upgrade goblin-core"
        ) from exc
    return module


@cli.command()
@click.argument("paths", nargs=-1, required=True, metavar="ARCHIVE... DEST")
@click.option("--flatten/--no-flatten", default=True, show_default=True,
              help="Unfold nested archives (a zip inside a zip) into DEST too.")
@click.option("--remove-source", is_flag=True,
              help="Delete each archive after it was unpacked without error.")
@click.option("-c", "--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Config file (its [limits] bound what may come out of an archive).")
@click.pass_context
def unpack(
    ctx: click.Context, paths: tuple[str, ...], flatten: bool, remove_source: bool,
    config_file: str | None,
) -> None:
    """Unpack archives safely into DEST (the last argument).

    Member names that climb out (../), links, bombs (size, ratio, member
    count) are refused under the [limits] of the config. Exit status 1 when an
    archive could not be unpacked; the others still are.
    """
    if len(paths) < 2:
        raise click.UsageError("give at least one ARCHIVE and the DEST folder")
    *archives, dest = paths
    module = _unpack_module()
    registry = state_of(ctx).get_registry()
    config = effective_config(registry, config_file)
    failed = 0
    for archive in archives:
        try:
            result = module.unpack(archive, dest, config=config, flatten=flatten,
                                   remove_source=remove_source)
        except GoblinError as exc:
            failed += 1
            echo_err(f"error: {quoted(archive)}: {one_line(str(exc))}")
            continue
        except OSError as exc:
            failed += 1
            echo_err(f"error: {quoted(archive)}: {exc.strerror or exc}")
            continue
        count = f"{len(result)} file(s) " if isinstance(result, Sequence) else ""
        echo_err(f"unpacked {quoted(archive)}: {count}into {dest}")
    ctx.exit(EXIT_FAILED if failed else EXIT_OK)


