"""``goblin extract``: files, folders, archives or stdin to text, markdown, html or JSON."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO, cast

import click
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from goblin_core.batch import MANIFEST_NAME, BatchWriter, kept_on_resume, read_manifest
from goblin_core.cli.app import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    Terminated,
    cli,
    echo_err,
    effective_config,
    escape_markup,
    fail,
    one_line,
    os_cause,
    quoted,
    silence_stdout,
    state_of,
    stderr_console,
)
from goblin_core.cli.run_options import call_options, password_option, settings_option
from goblin_core.config import Config
from goblin_core.engines import Task, run_executor
from goblin_core.errors import GoblinError
from goblin_core.executors.worker import error_document, problem_document
from goblin_core.inputs import InputProblem, distinct_names, is_url, walk_given
from goblin_core.model import Document, Page
from goblin_core.pipeline import (
    NO_OCR_BACKEND,
    RENDER_FAILED,
    TRUNCATED,
    page_cap,
    pages_passed_to,
)
from goblin_core.registry import Registry
from goblin_core.renderers import write_rendered
from goblin_core.source import copy_bounded

OCR_STRATEGIES = ("auto", "never", "always", "extract_and_ocr")

#: The executor batches run on (the one ``goblin_core.extract_many`` uses by default).
BATCH_EXECUTOR = "executor.local"

#: Output formats whose renderings of single documents concatenate into the
#: rendering of all of them, with this separator: these stream as documents finish.
STREAMING_SEPARATORS: Mapping[str, str] = {"text": "\n", "markdown": "\n", "jsonl": ""}


@dataclass(frozen=True)
class _Input:
    """One file to extract, in input order."""

    index: int
    display_name: str
    path: Path | None = None
    data: bytes | None = None
    problem: InputProblem | None = None
    #: A URL the executor's workers fetch themselves (``s3://``, ``https://``).
    url: str | None = None


def _collect_inputs(paths: Sequence[str], stdin_name: str, earlier: _EarlierResults | None,
                    max_file_size: int, scratch: Callable[[], Path],
                    reads_urls: bool = False) -> list[_Input]:
    """Every input file in order, but the output folder's earlier results.

    A folder walked that holds the output folder leaves out everything under it (the
    results of an earlier run into a folder inside the inputs); a folder walked that is
    the output folder or lies in it leaves out the earlier results the manifest there
    names, and the manifest, so ``-o`` may name the folder of the inputs itself. A file
    given by name is always read.

    A URL is handed on as it is when the executor's workers fetch URLs
    (``reads_urls``), and is a failed input otherwise: read as a path, the file
    system has no such file and ``//`` collapses in its name.

    Standard input is copied into a file in the folder ``scratch`` gives, no further
    than ``max_file_size`` + 1 bytes: a gigabyte piped in is not held in memory,
    twice, while it is read.
    """
    if "-" in paths:
        if len(paths) > 1:
            raise click.UsageError("'-' (read standard input) cannot be mixed with paths")
        spooled = scratch() / "stdin"
        try:
            with open(spooled, "wb") as out:
                copy_bounded(sys.stdin.buffer, max_file_size, stdin_name, out.write)
        except OSError as exc:
            raise GoblinError(f"standard input could not be copied to a temporary file "
                              f"({os_cause(exc)}); set TMPDIR to a folder with room",
                              file=stdin_name) from exc
        return [_Input(0, stdin_name, path=spooled)]
    found: list[_Input] = []
    folders = {raw for raw in paths if Path(raw).is_dir() and not is_url(raw)}
    for raw, item in walk_given(paths, reads_urls, "--executor dask (goblin-dask)"):
        if isinstance(item, str):
            found.append(_Input(len(found), item, url=item))
            continue
        if isinstance(item, InputProblem):
            found.append(_Input(len(found), item.path, problem=item))
            continue
        path, name = item
        if raw in folders and earlier is not None and earlier.holds(Path(raw), path):
            continue
        found.append(_Input(len(found), name, path=path))
    return _distinct_names(found)


class _EarlierResults:
    """What earlier runs wrote into the output folder, not to be read back as inputs."""

    def __init__(self, output: Path) -> None:
        self.folder = output.resolve()
        self._written: set[Path] | None = None
        self.left_out = 0

    def written(self) -> set[Path]:
        """The manifest and the result files it names (read once, when first needed)."""
        if self._written is None:
            try:
                rows = read_manifest(self.folder)
            except (OSError, ValueError):
                rows = {}  # a manifest that cannot be read is named when the run starts
            self._written = {(self.folder / str(row.get("output", ""))).resolve()
                             for row in rows.values() if row.get("output")}
            self._written.add(self.folder / MANIFEST_NAME)
        return self._written

    def holds(self, root: Path, path: Path) -> bool:
        """Whether ``path``, found by walking the folder ``root``, is an earlier result."""
        resolved = path.resolve()
        if not resolved.is_relative_to(self.folder):
            return False
        if root.resolve().is_relative_to(self.folder):
            # walking the output folder itself: only what a run wrote there is left out
            earlier = resolved in self.written() or (
                path.name.startswith(".goblin-") and path.name.endswith(".part"))
        else:
            earlier = True  # the output folder inside a folder given: all of it
        self.left_out += earlier
        return earlier


def _distinct_names(items: list[_Input]) -> list[_Input]:
    """Give files that share a display name (``a/x.pdf``, ``b/x.pdf`` given one by one)
    their path as given instead, so no result overwrites another."""
    names = distinct_names([i.display_name for i in items],
                           [str(i.path) if i.path is not None else None for i in items])
    return [_Input(item.index, name, item.path, item.data, item.problem, item.url)
            for item, name in zip(items, names, strict=True)]


def _problem_document(item: _Input) -> Document:
    assert item.problem is not None
    return problem_document(item.problem, item.display_name)


def _extract_one(item: _Input, registry: Registry, config: Config, isolate: bool) -> Document:
    """One input in this process (or one supervised worker with ``isolate``)."""
    from goblin_core.api import extract

    if item.problem is not None:
        return _problem_document(item)
    value: Any = item.data if item.data is not None else item.path
    try:
        return extract(value, name=item.display_name, config=config, isolate=isolate,
                       registry=registry)
    except GoblinError as exc:
        return error_document(Task(None, item.display_name), exc)


def _extract_in_process(
    items: Sequence[_Input], registry: Registry, config: Config, isolate: bool
) -> Iterator[tuple[int, Document]]:
    for item in items:
        yield item.index, _extract_one(item, registry, config, isolate)


def executor_name(choice: str) -> str:
    """The registry name of an executor named on the command line: dask -> executor.dask."""
    return choice if choice.startswith("executor.") else f"executor.{choice}"


def _extract_batch(
    items: Sequence[_Input],
    registry: Registry,
    config: Config,
    jobs: int | None,
    executor: str = BATCH_EXECUTOR,
) -> Iterator[tuple[int, Document]]:
    """Many inputs in worker processes, through the executor ``extract_many`` uses.

    The CLI hands the executor the files it already walked (rather than
    calling ``extract_many`` with the paths, which would walk them again), so
    the output folder can be left out and results map back by index.
    """
    for item in items:
        if item.problem is not None:
            yield item.index, _problem_document(item)
    tasks = [Task(path=i.url or str(i.path), display_name=i.display_name, index=i.index)
             for i in items if i.problem is None]
    entry = registry.get(executor)
    if entry is None:
        raise click.ClickException(f"no executor named {executor} is installed"
                                   f"{_installed_executors(registry)}")
    workers = jobs or min(os.cpu_count() or 1, len(tasks)) or 1
    for result in run_executor(entry.engine, tasks, config, workers):
        yield result.task.index, result.document


def _installed_executors(registry: Registry) -> str:
    names = [e.name.removeprefix("executor.") for e in registry.engines("executor")]
    return f"; installed: {', '.join(names)}" if names else ""


class _InputOrder:
    """Puts documents back in input order as they finish, so output is stable.

    Unordered (files in a folder), each document is ready as soon as it is
    done, so an interrupted batch keeps everything that finished.
    """

    def __init__(self, items: Sequence[_Input], *, ordered: bool = True) -> None:
        self.items = list(items)
        self.ordered = ordered
        self.waiting: dict[int, Document] = {}
        self.next_index = 0

    def add(self, index: int, document: Document) -> list[tuple[Document, _Input]]:
        """Record a finished document; return those now ready, in input order."""
        if not self.ordered:
            return [(document, self.items[index])]
        self.waiting[index] = document
        ready = []
        while self.next_index in self.waiting:
            ready.append((self.waiting.pop(self.next_index), self.items[self.next_index]))
            self.next_index += 1
        return ready


def _message(doc: Document, kind: str, message: str) -> str:
    """``Kind: message`` without the leading file name the message may repeat."""
    if message.startswith(f"{doc.name}: "):
        message = message[len(doc.name) + 2:]
    return f"{kind}: {message}"


def _problems(document: Document, config: Config) -> list[tuple[str, str]]:
    """(name, message) for each way a document in the tree was not read in full.

    A document failed; or it was cut short (time limit, ``limits.max_pages``,
    ``limits.max_output_chars``, a parser or archive handler that stopped part
    way, a member refused), each cause in its report's errors, or a parser left text
    out at a limit of its own (its ``Truncated`` warnings, one line for them all); or
    no page of it has usable text (corrupt_unrecoverable). Each one makes the exit
    status 1.
    """
    found = []
    for doc in document.walk():
        if doc.status == "failed":
            entry = doc.error
            found.append((doc.name, _message(doc, entry.kind, entry.message) if entry
                          else "no page could be read"))
            continue
        found.extend((doc.name, _message(doc, e.kind, e.message)) for e in doc.report.errors)
        found.extend((doc.name, _message(doc, w.kind, w.message))
                     for w in doc.report.warnings if _cut_by_a_limit(w.kind, config))
        cuts = [w for w in doc.report.warnings if w.kind == TRUNCATED]
        if cuts:  # one line for the cause, however many sheets or rows it cut
            more = f" (and {len(cuts) - 1} more cuts)" if len(cuts) > 1 else ""
            found.append((doc.name, _message(doc, TRUNCATED, cuts[0].message + more)))
        if doc.status == "corrupt_unrecoverable":
            found.append((doc.name, _unreadable_pages(doc, config)))
        elif not any(name == doc.name for name, _ in found):
            lost = _pages_lost(doc)
            if lost:
                found.append((doc.name, lost))
    return found


def _engine_error(page: Page) -> Any:
    """The last attempt at ``page`` that ended in an error (the OCR's, when OCR ran)."""
    return next((a for a in reversed(page.attempts) if a.error_kind), None)


def _pages_lost(doc: Document) -> str | None:
    """Why pages of a document read otherwise are missing: pages that failed, and pages
    left without text because an engine failed on them (OCR that timed out or crashed).
    None when every page was read or left so by choice (``--ocr never``)."""
    lost = [p for p in doc.pages
            if p.status == "failed" or (p.status == "corrupt" and _engine_error(p))]
    if not lost:
        return None
    first = lost[0]
    error = _engine_error(first)
    more = f" (and {len(lost) - 1} more)" if len(lost) > 1 else ""
    state = "not read" if first.status == "failed" else "has no text"
    if error is None:
        return f"PageFailed: page {first.number} {state}{more}"
    return f"{error.error_kind}: page {first.number} {state}: {error.error}{more}"


def _cut_by_a_limit(kind: str, config: Config) -> bool:
    """A page-count stop is a loss when the safety limit made it, not a --max-pages asked for."""
    return kind == "MaxPages" and page_cap(config.get("goblin", "max_pages"),
                                           config.get("limits", "max_pages"))[1]


def _unreadable_pages(doc: Document, config: Config) -> str:
    """Why no page of ``doc`` has usable text: its pages counted by status and reason."""
    counts = Counter(f"{p.status} ({p.reason})" if p.reason else p.status for p in doc.pages)
    pages = ", ".join(f"{n} {'page' if n == 1 else 'pages'} {what}"
                      for what, n in sorted(counts.items()))
    hint = ""
    needs_ocr = any(p.reason == "needs_ocr" for p in doc.pages)
    if config.get("goblin", "ocr") == "never" and needs_ocr:
        hint = "; OCR is off (--ocr never) and these pages need it"
    no_backend = [w for w in doc.report.warnings
                  if w.kind == "EngineUnavailable" and NO_OCR_BACKEND in w.message]
    if needs_ocr and no_backend:  # why the pages that need OCR did not get it
        hint += f"; {no_backend[0].message}"
    unrendered = [w for w in doc.report.warnings if w.kind == RENDER_FAILED]
    if unrendered:
        more = f" (and {len(unrendered) - 1} more)" if len(unrendered) > 1 else ""
        hint += f"; {unrendered[0].message}{more}"
    # a page that could not be rendered is named above already, with that cause
    failed = [] if unrendered else [(p, _engine_error(p)) for p in doc.pages if _engine_error(p)]
    if failed:
        page, error = failed[0]
        more = f" (and {len(failed) - 1} more pages)" if len(failed) > 1 else ""
        hint += f"; page {page.number}: {error.error_kind}: {error.error}{more}"
    return f"corrupt_unrecoverable: no page has usable text: {pages}{hint}"


def _unchanged_since_last_run(
    items: Sequence[_Input], output: Path, fmt: str
) -> tuple[list[_Input], dict[str, dict[str, Any]]]:
    """Split inputs into those to extract and manifest rows of those unchanged since."""
    previous = read_manifest(output)
    todo: list[_Input] = []
    kept: dict[str, dict[str, Any]] = {}
    for item in items:
        row = previous.get(item.display_name)
        if row and item.path is not None and kept_on_resume(row, output, str(item.path), fmt):
            kept[item.display_name] = row
        else:
            todo.append(_Input(len(todo), item.display_name, item.path, item.data, item.problem,
                               item.url))
    return todo, kept


class _Writer:
    """Sends rendered documents to stdout (streaming when the format allows) or to a folder.

    A folder gets one result file per document, written atomically, and a
    manifest.jsonl row per document (``goblin_core.batch``).
    """

    def __init__(
        self,
        registry: Registry,
        renderer: Any,
        config: Config,
        output: Path | None,
        out: TextIO,
        kept: dict[str, dict[str, Any]] | None = None,
        several: bool = False,
    ) -> None:
        self.kept = kept or {}
        self.renderer = renderer
        self.config = config
        self.out = out
        self.format = str(renderer.format)
        self.separator = STREAMING_SEPARATORS.get(self.format)
        self.folder = BatchWriter(registry, config, output, self.format) if output else None
        if self.folder is not None:
            self.folder.claim(self.kept)
        self.held: list[Document] = []
        # one page or array of several documents (html, json) is written as they come
        # where its renderer can: held until the last, a large batch was all in memory
        stream = getattr(renderer, "stream_documents", None)
        self.whole: Any = (stream(out, config) if several and output is None
                           and self.separator is None and callable(stream) else None)
        self.written = 0
        self.count = 0

    def add(self, document: Document, item: _Input) -> str:
        """Write one document; return why its result file could not be written, or ''."""
        if self.folder is not None:
            path = str(item.path) if item.path is not None else None
            try:
                self.folder.write(document, Task(path, document.name), document.report.seconds)
            except OSError as exc:
                # one result that cannot be written (a file where its folder should
                # be, a full disk) is that document's failure; the batch goes on
                where = f": {exc.filename}" if exc.filename else ""
                return f"its result could not be written: {os_cause(exc)}{where}"
            except GoblinError as exc:
                return f"its result could not be written: {exc.message}"
            self.written += 1
        elif self.whole is not None:
            self.whole.add(document)
            self.out.flush()
        elif self.separator is None:
            self.held.append(document)
        else:
            self._stream(document)
        return ""

    def _stream(self, document: Document) -> None:
        # a document that renders to nothing gets no separator either
        sink = _SeparatedSink(self.out, (self.separator or "") if self.count else "")
        write_rendered(self.renderer, [document], self.config, cast(TextIO, sink))
        if sink.wrote:
            self.out.flush()
            self.count += 1

    def finish(self) -> None:
        if self.folder is not None:
            self.folder.close(self.kept)
        if self.whole is not None:
            self.whole.close()
            self.out.flush()
        if self.held:
            write_rendered(self.renderer, self.held, self.config, self.out)
            self.out.flush()


class _SeparatedSink:
    """Writes to ``out``, putting ``separator`` before the first text written."""

    def __init__(self, out: TextIO, separator: str) -> None:
        self.out = out
        self.pending = separator
        self.wrote = False

    def write(self, text: str) -> int:
        if text:
            if self.pending:
                self.out.write(self.pending)
                self.pending = ""
            self.out.write(text)
            self.wrote = True
        return len(text)

    def flush(self) -> None:
        self.out.flush()


def _pick_renderer(registry: Registry, config: Config, fmt: str) -> Any:
    renderers = registry.ranked("renderer", None, config)
    for entry in renderers:
        if getattr(entry.engine, "format", None) == fmt:
            return entry.engine
    known = sorted({str(getattr(e.engine, "format", "")) for e in renderers} - {""})
    raise click.BadParameter(f"no renderer for {fmt!r}; installed formats: {', '.join(known)}",
                             param_hint="--format")


class _PageProgress:
    """The pages of the one document being read in this process, as they come: a long
    PDF, OCR'd, takes minutes, and the batch bar counts documents."""

    def __init__(self) -> None:
        self.bar = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            TextColumn("page {task.completed:.0f} of {task.fields[count]}"),
            TimeElapsedColumn(),
            console=stderr_console(),
            transient=True,
        )
        self.task = self.bar.add_task("reading", total=None, count="?")

    def page(self, page: Page, page_count: int | None, mime: str) -> None:
        # pages come once as read, then again as OCR'd: the bar starts over for OCR
        self.bar.update(self.task, completed=page.number, total=page_count,
                        count=page_count or "?",
                        description="OCR" if page.status == "ocr" else "reading")


def _with_page_progress(documents: Iterator[tuple[int, Document]],
                        enabled: bool | None) -> Iterator[tuple[int, Document]]:
    if not (sys.stderr.isatty() if enabled is None else enabled):
        yield from documents
        return
    progress = _PageProgress()
    # the one document is read whole under the bar, which is gone before it is written
    with progress.bar, pages_passed_to(progress.page):
        read = list(documents)
    yield from read


def _progress(total: int, enabled: bool | None) -> Progress | None:
    show = sys.stderr.isatty() if enabled is None else enabled
    if not show or total < 2:
        return None
    return Progress(
        TextColumn("[bold]extracting"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("[red]{task.fields[failed]} failed"),
        TextColumn("{task.fields[rate]} pages/s"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        TextColumn("{task.description}"),
        console=stderr_console(),
        transient=True,
    )


@cli.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH... | -")
@click.option("-f", "--format", "fmt", default="text", show_default=True, metavar="FORMAT",
              help="Output format: text (one block per document headed "
                   'file_path_pwd:"name"), markdown, html, json (one object, or an array for '
                   "several), jsonl (one line per document, archive members unfolded), or any "
                   "format an installed renderer plugin adds.")
@click.option("--ocr", type=click.Choice(OCR_STRATEGIES), default=None,
              help="When to OCR pages. auto (default): only pages that draw something but yield "
                   "too little or broken text; never; always: OCR text for every page; "
                   "extract_and_ocr: keep both, the better one as the page text.")
@click.option("--tables", is_flag=True, default=None,
              help="Also extract tables from PDFs (spreadsheet and Office tables are always kept).")
@password_option
@click.option("--max-pages", type=click.IntRange(min=0), default=None, metavar="N",
              help="Read at most N pages per document (0: all).")
@click.option("-c", "--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Config file (TOML or JSON; default: $GOBLIN_CONFIG). "
                   "Command-line options win over it. See: goblin config.")
@settings_option
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None,
              metavar="DIR",
              help="Write one result file per document into DIR (created if missing), named "
                   "after the document (sub/a.pdf -> DIR/sub/a.pdf.txt); nothing is written "
                   "outside DIR. Without it, results go to standard output.")
@click.option("--resume", is_flag=True,
              help="With --output: skip documents whose result is already in DIR and whose "
                   "content is unchanged (by sha256 in DIR/manifest.jsonl); documents that "
                   "failed there, or have no page of usable text, are extracted again.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="Worker processes for several files (default: one per CPU core). "
                   "A single file runs in this process unless --isolate is given.")
@click.option("--executor", "executor_choice", default="local", show_default=True,
              metavar="NAME",
              help="Where a batch runs: local (supervised worker processes on this machine), "
                   "dask (a Dask cluster, with goblin-dask installed), or any executor a plugin "
                   "adds.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="With --executor dask: the scheduler to use, e.g. tcp://host:8786 (sets "
                   "dask.scheduler; without it a LocalCluster starts on this machine).")
@click.option("--isolate", is_flag=True,
              help="Run a single file in a supervised worker process too (hard timeout and "
                   "memory limit from [limits]); batches always use workers.")
@click.option("--name", "stdin_name", default="stdin", show_default=True, metavar="NAME",
              help="Name of the document read from standard input ('-'); its extension helps "
                   "detection when the content is ambiguous.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr for several files, then a summary of document and "
                   "page statuses (default: on when stderr is a terminal).")
@click.pass_context
def extract(
    ctx: click.Context,
    paths: tuple[str, ...],
    fmt: str,
    ocr: str | None,
    tables: bool | None,
    password: str | None,
    max_pages: int | None,
    config_file: str | None,
    settings: tuple[str, ...],
    output: Path | None,
    resume: bool,
    jobs: int | None,
    executor_choice: str,
    scheduler: str | None,
    isolate: bool,
    stdin_name: str,
    progress: bool | None,
) -> None:
    """Extract text from files, folders (walked recursively) and archives.

    PATH may be a file, a folder or '-' for standard input. Each document's
    pages are validated, recovered and OCR'd as needed; the output says which
    engine produced each page.

    \b
    Examples:
      goblin extract samples/hello.pdf
      goblin extract dossier.zip --format jsonl > dossier.jsonl
      goblin extract inbox/ -o results/ --format json --jobs 4
      goblin extract inbox/ -o results/ --executor dask --scheduler tcp://host:8786
      cat scan.pdf | goblin extract - --name scan.pdf --ocr always

    Exit status: 0 when every document was read in full; 1 when one failed,
    has no usable page or was cut short (time limit, limits.max_pages or
    max_output_chars, a parser that stopped), each named on stderr with the
    cause (the others are still written); 2 on a usage or config error;
    130 after Ctrl-C and 143 after SIGTERM, with what finished kept.
    """
    if resume and output is None:
        raise click.UsageError("--resume needs --output DIR (it reads DIR/manifest.jsonl)")
    registry = state_of(ctx).get_registry()
    options = call_options(settings, ocr=ocr, tables=tables, password=password,
                           max_pages=max_pages)
    if scheduler is not None:
        options.setdefault("dask", {})["scheduler"] = scheduler
    executor = executor_name(executor_choice)
    if registry.get(executor) is None:
        raise click.BadParameter(f"no executor named {executor} is installed"
                                 f"{_installed_executors(registry)}", param_hint="--executor")
    config = effective_config(registry, config_file, **options)
    renderer = _pick_renderer(registry, config, fmt)
    if output is not None and output.exists() and not output.is_dir():
        fail(ctx, str(output), "--output DIR is a file, not a folder")
    executor_entry = registry.get(executor)
    earlier = _EarlierResults(output) if output is not None else None
    items = _collect_inputs(paths, stdin_name, earlier,
                            int(config.section("limits")["max_file_size"]),
                            scratch=lambda: Path(ctx.with_resource(
                                tempfile.TemporaryDirectory(prefix="goblin-stdin-"))),
                            reads_urls=bool(getattr(executor_entry and executor_entry.engine,
                                                    "reads_urls", False)))
    kept: dict[str, dict[str, Any]] = {}
    if output is not None:
        _check_earlier_manifest(ctx, output / MANIFEST_NAME)
    if resume and output is not None:
        items, kept = _unchanged_since_last_run(items, output, str(renderer.format))
    if not items:
        left_out = earlier.left_out if earlier is not None else 0
        echo_err(f"nothing to extract: all {len(kept)} document(s) are unchanged in {output}"
                 if kept else
                 f"nothing to extract: the folders given hold only results of earlier runs "
                 f"into {output} ({left_out} file(s), left out)" if left_out else
                 "nothing to extract: the folders given hold no files")
        return
    if output is not None:
        _make_output_folder(ctx, output)
    try:
        writer = _Writer(registry, renderer, config, output, sys.stdout, kept,
                         several=len(items) > 1)
    except OSError as exc:
        # DIR/manifest.jsonl cannot be opened (a folder of that name, no permission)
        fail(ctx, str(exc.filename or output), os_cause(exc))
    runnable = [i for i in items if i.problem is None]
    if len(runnable) <= 1 and executor == BATCH_EXECUTOR:
        documents = _extract_in_process(items, registry, config, isolate)
        if not isolate:
            documents = _with_page_progress(documents, progress)
    else:
        documents = _extract_batch(items, registry, config, jobs, executor)
    try:
        failed = _consume(documents, items, writer, progress)
    except KeyboardInterrupt:
        echo_err("interrupted; documents finished before it were written")
        ctx.exit(EXIT_INTERRUPTED)
    except Terminated as stopped:
        echo_err(f"stopped by {stopped.signal_name}; documents finished before it were written")
        ctx.exit(stopped.exit_code)
    if output is not None:
        skipped = f" ({len(kept)} unchanged skipped)" if kept else ""
        echo_err(f"wrote {writer.written} result file(s) and {MANIFEST_NAME} to {output}{skipped}")
    ctx.exit(EXIT_FAILED if failed else EXIT_OK)


def _check_earlier_manifest(ctx: click.Context, manifest: Path) -> None:
    """A manifest.jsonl already in DIR must be a file of text: new rows join it (exit 2
    otherwise). A symbolic link there would take the rows wherever it points."""
    if manifest.is_symlink():
        fail(ctx, str(manifest), "a symbolic link, not a manifest; move it away or choose "
                                 "another --output DIR")
    if manifest.exists() and not manifest.is_file() and not manifest.is_dir():
        # a FIFO would hold the run on its open until something wrote to it
        fail(ctx, str(manifest), "not a manifest (not a regular file: a FIFO, socket or "
                                 "device); move it away or choose another --output DIR")
    try:
        with open(manifest, encoding="utf-8") as stream:
            for _ in stream:
                pass
    except (FileNotFoundError, NotADirectoryError):
        return  # no earlier run (a DIR that cannot be a folder is named when it is made)
    except UnicodeDecodeError:
        fail(ctx, str(manifest), "not a manifest (not UTF-8 text); move it away or choose "
                                 "another --output DIR")
    except OSError as exc:
        fail(ctx, str(manifest), f"cannot be read: {os_cause(exc)}")


def _make_output_folder(ctx: click.Context, output: Path) -> None:
    """Create ``--output DIR``; a DIR that cannot be a folder is a usage error (exit 2)."""
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        # a file where DIR or one of its parents should be, no permission...
        fail(ctx, str(output), f"--output DIR cannot be created: {os_cause(exc)}")


@dataclass
class _Tally:
    """Counts for the live progress bar and the closing summary of a batch."""

    documents: Counter[str] = field(default_factory=Counter)
    pages: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    #: Input documents with at least one error line.
    failed: int = 0
    started: float = field(default_factory=time.monotonic)

    def add(self, document: Document, failed: bool = False) -> None:
        """Count ``document`` (archive members and all); ``failed``: it was not read in
        full, however many causes it had (one input, one failure on the bar)."""
        self.failed += failed
        for doc in document.walk():
            if doc.pages or not doc.children:
                self.documents[doc.status] += 1
            self.pages.update(p.status for p in doc.pages)
            self.errors.update(entry.kind for entry in doc.report.errors)

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    def pages_per_second(self) -> float:
        seconds = self.seconds
        return sum(self.pages.values()) / seconds if seconds > 0 else 0.0

    def table(self) -> Table:
        """Documents and pages by status, errors by kind, time and throughput."""
        table = Table(title="goblin extract: summary", show_header=True, header_style="bold")
        table.add_column("")
        table.add_column("count", justify="right")
        table.add_column("by kind")
        table.add_row("documents", str(sum(self.documents.values())), _counts(self.documents))
        table.add_row("pages", str(sum(self.pages.values())), _counts(self.pages))
        table.add_row("errors", str(sum(self.errors.values())), _counts(self.errors) or "none")
        table.add_row("seconds", f"{self.seconds:.1f}", "")
        table.add_row("pages/s", f"{self.pages_per_second():.1f}", "")
        return table

    def summary(self) -> str:
        docs = sum(self.documents.values())
        pages = sum(self.pages.values())
        by_doc = ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in self.documents.most_common())
        by_page = ", ".join(f"{n} {s}" for s, n in self.pages.most_common())
        return (f"{docs} document(s) ({by_doc}), {pages} page(s) ({by_page or 'none'}) "
                f"in {self.seconds:.1f}s")


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{name.replace('_', ' ')} {n}" for name, n in counter.most_common())


def _consume(
    documents: Iterable[tuple[int, Document]],
    items: Sequence[_Input],
    writer: _Writer,
    progress: bool | None,
) -> int:
    """Write documents in input order, report failures; return how many documents failed."""
    order = _InputOrder(items, ordered=writer.folder is None)
    bar = _progress(len(items), progress)
    task = bar.add_task("", total=len(items), failed=0, rate="0.0") if bar else None
    tally = _Tally()

    def emit(ready: Iterable[tuple[Document, _Input]]) -> None:
        for document, item in ready:
            problems = _problems(document, writer.config)
            for name, message in problems:
                echo_err(f"error: {quoted(name)}: {one_line(message)}")
            unwritten = writer.add(document, item)
            if unwritten:
                echo_err(f"error: {quoted(document.name)}: {one_line(unwritten)}")
            tally.add(document, failed=bool(problems or unwritten))

    try:
        if bar is not None:
            bar.start()
        for index, document in documents:
            emit(order.add(index, document))
            if bar is not None and task is not None:
                # the bar's text is rich markup: a name's brackets (a[/b].txt) are escaped
                bar.update(task, advance=1,
                           description=escape_markup(one_line(document.name)[-40:]),
                           failed=tally.failed, rate=f"{tally.pages_per_second():.1f}")
        writer.finish()
    except BrokenPipeError:
        # the reader went away (goblin extract ... | head): stop quietly
        silence_stdout()
    except (KeyboardInterrupt, Terminated):
        # what was finished stays written; the manifest is closed for a later look
        writer.finish()
        raise
    finally:
        if bar is not None:
            bar.stop()
    if bar is not None:
        # someone is watching the bar: tell them what the batch came to
        stderr_console().print(tally.table())
        echo_err(tally.summary())
    return tally.failed


