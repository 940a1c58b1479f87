"""The ``goblin`` command group, the state every command shares, and output helpers."""

from __future__ import annotations

import contextlib
import importlib.metadata as importlib_metadata
import io
import logging
import os
import shutil
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, TextIO

import click
from rich.console import Console

from goblin_core.config import Config
from goblin_core.errors import ConfigError, GoblinError
from goblin_core.registry import Registry, default_registry

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
#: Exit status after Ctrl-C, as shells report a SIGINT death.
EXIT_INTERRUPTED = 130

log = logging.getLogger(__name__)


@dataclass
class CliState:
    """What every command needs: the registry (loaded lazily) and the verbosity.

    Tests pass ``CliState(registry)`` as the click ``obj`` to run the CLI
    against engines they registered themselves.
    """

    registry: Registry | None = None
    verbose: int = 0
    _loader: Callable[[], Registry] = field(default=default_registry, repr=False)

    def get_registry(self) -> Registry:
        if self.registry is None:
            self.registry = self._loader()
        return self.registry


def state_of(ctx: click.Context) -> CliState:
    """The CliState of this invocation (a fresh one when the caller gave none)."""
    obj = ctx.find_object(CliState)
    if obj is None:
        obj = ctx.ensure_object(CliState)
    return obj


def effective_config(registry: Registry, path: str | None, **options: Any) -> Config:
    """The effective config; a config problem is a usage error (exit 2)."""
    try:
        config = registry.config(path, **{k: v for k, v in options.items() if v is not None})
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from exc
    for warning in config.warnings:
        echo_err(f"warning: {warning}")
    return config


def echo_err(message: str) -> None:
    """One ``goblin: ...`` line on stderr."""
    click.echo(f"goblin: {message}", err=True)


def fail(ctx: click.Context, path: str, cause: str, code: int = EXIT_USAGE) -> NoReturn:
    """End the command with one ``error: "path": cause`` line on stderr and ``code``.

    For problems with a path the user gave (an output folder that is a file,
    a manifest that is not JSON): click's usage errors would print the usage
    block around them, where one line naming the path says it all.
    """
    echo_err(f"error: {quoted(path)}: {one_line(cause)}")
    ctx.exit(code)


def os_cause(exc: OSError) -> str:
    """What went wrong, without the path the caller names itself."""
    return exc.strerror or str(exc)


def stderr_console() -> Console:
    """A rich console on stderr (progress bars)."""
    return Console(stderr=True, highlight=False)


class _StdoutConsole(Console):
    """A rich console that leaves a closed pipe to the command group, like every other write."""

    def on_broken_pipe(self) -> None:
        # rich's own answer is exit status 1; goblin stops quietly with 0 (see _Commands)
        self.quiet = True
        raise BrokenPipeError


def stdout_console() -> Console:
    """A rich console on stdout, at least 100 columns wide so tables stay readable in pipes."""
    # sys.stdout looked up per call, so CliRunner captures it
    return _StdoutConsole(file=sys.stdout, highlight=False, soft_wrap=False,
                          width=max(100, shutil.get_terminal_size((100, 24)).columns))


def one_line(text: str) -> str:
    r"""A name or message on one line, safe for a terminal.

    Backslashes and line breaks are escaped, and so is every other control
    character (an archive member named with terminal escape codes must not
    drive the terminal).

    >>> one_line("a\nb\x1b[2J")
    'a\\nb\\x1b[2J'
    """
    out = []
    for char in text:
        if char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif char == "\r":
            out.append("\\r")
        elif not char.isprintable():
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)


def quoted(name: str) -> str:
    """A name in double quotes, escaped as in ``file_path_pwd:"..."`` tags."""
    return '"' + one_line(name).replace('"', '\\"') + '"'


def escape_markup(text: str) -> str:
    """Text shown inside rich markup, with its square brackets escaped."""
    from rich.markup import escape

    return escape(text)


def core_version() -> str:
    """The installed goblin-core version."""
    try:
        return importlib_metadata.version("goblin-core")
    except importlib_metadata.PackageNotFoundError:
        return "0+unknown"


class _Commands(click.Group):
    """The command group; turns errors no command foresaw into one line, not a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            # the reader went away (goblin plugins | head): what it read was all it
            # wanted, so every command stops quietly with status 0
            silence_stdout()
            ctx.exit(EXIT_OK)
        except KeyboardInterrupt:
            # Ctrl-C in a command that does not say itself what it kept: the status a
            # shell gives a process SIGINT ended (130), which click's "Aborted!" and
            # status 1 would have made look like a failed run
            echo_err("interrupted")
            ctx.exit(EXIT_INTERRUPTED)
        except GoblinError as exc:
            # a command let a goblin error through: its message names the file already
            log.debug("%s", exc, exc_info=True)
            # the kind leads, as on a document's error line (``FileTooLarge: ...``)
            kind = "" if type(exc) is GoblinError else f"{exc.kind}: "
            if exc.file:
                fail(ctx, exc.file, kind + exc.message, EXIT_FAILED)
            # an error of the run, not of a file (a Dask scheduler out of reach): no
            # made-up path in quotes before it
            echo_err(f"error: {one_line(kind + exc.message)}")
            ctx.exit(EXIT_FAILED)
        except OSError as exc:
            # the file system refused something (a full disk, a file where a folder
            # was expected): name the path and the cause, keep the traceback for -vv
            log.debug("%s", exc, exc_info=True)
            if exc.filename:
                fail(ctx, str(exc.filename), os_cause(exc), EXIT_FAILED)
            echo_err(f"error: {one_line(os_cause(exc))}")
            ctx.exit(EXIT_FAILED)
        finally:
            _flush_stdout()


def _flush_stdout() -> None:
    """Flush now, so a closed pipe shows here rather than as a traceback at interpreter exit."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()


def silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    # a stdout without a file descriptor (captured in tests) has nothing to flush
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


@click.group(
    cls=_Commands,
    name="goblin",
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(core_version(), "-V", "--version", prog_name="goblin")
@click.option("-v", "--verbose", count=True,
              help="Log what goblin and its plugins do on stderr (-v: info and warnings, "
                   "-vv: debug). Without it only errors are logged.")
@click.pass_context
def cli(ctx: click.Context, verbose: int) -> None:
    """goblin turns any pile of documents into trustworthy text, page by page.

    Every page says which engine produced its text and how far to trust it
    (clean, recovered, ocr, empty, corrupt or failed).

    \b
    Start with:
      goblin extract report.pdf                  text of one file
      goblin extract folder/ -o out/ --jobs 4    one result file per document
      goblin extract scans.zip --ocr always      OCR every page of every member
      goblin formats                             what this installation reads
      goblin doctor                              what is missing, and how to fix it
    """
    state = state_of(ctx)
    state.verbose = verbose
    _setup_logging(verbose)


def _setup_logging(verbose: int) -> None:
    # The CLI prints every failure itself, one line per file, so by default
    # only errors of goblin and its plugins are logged; -v adds info, -vv debug.
    level = logging.ERROR if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    root = logging.getLogger()
    handler = next((h for h in root.handlers if isinstance(h, _CliLogHandler)), None)
    if handler is None:
        handler = _CliLogHandler()
        handler.setFormatter(logging.Formatter("goblin: %(levelname)s: %(name)s: %(message)s"))
        root.addHandler(handler)
    # the handler filters too: a library that sets its own logger's level (Dask's
    # distributed.* loggers say INFO) would otherwise print past the root's
    handler.setLevel(level)
    root.setLevel(level)


class _CliLogHandler(logging.StreamHandler[TextIO]):
    """Writes to the current stderr (CliRunner swaps it between invocations)."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


class Terminated(BaseException):
    """The process was told to stop (SIGTERM, or SIGHUP when the terminal went away).

    Raised where the signal lands, so a command stops as it does on Ctrl-C: the
    ``finally`` blocks run, which is how a batch closes its worker processes and
    its manifest instead of dying with them still at work. A BaseException, like
    KeyboardInterrupt, so that no ``except Exception`` swallows it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def signal_name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        """128 + the signal number, as a shell reports a process the signal ended."""
        return 128 + self.signum


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def _stop_cleanly_on_termination() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Terminated` while the block runs.

    Only a signal left at its default is taken over: one the caller ignores
    (``nohup`` ignores SIGHUP) stays ignored. Outside the main thread signals
    cannot be caught, and the defaults stay.
    """
    previous: dict[signal.Signals, Any] = {}
    for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is None or signal.getsignal(signum) is not signal.SIG_DFL:
            continue
        try:
            previous[signum] = signal.signal(signum, _raise_terminated)
        except ValueError:
            break
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``goblin`` console script.

    A command stopped by SIGTERM or SIGHUP exits with 128 + the signal number
    after closing its workers; ``goblin extract`` first says so and keeps every
    result it had written.
    """
    try:
        with _stop_cleanly_on_termination():
            cli.main(args=list(argv) if argv is not None else None, prog_name="goblin")
    except Terminated as stopped:
        sys.exit(stopped.exit_code)


