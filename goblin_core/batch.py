"""Batch extraction to a folder: one result file per document and a JSONL manifest.

``run_batch`` feeds an executor, writes each result as soon as it arrives
(atomically: a file is either whole or absent) and appends a manifest row, so
an interrupted run keeps everything finished before the interruption.
``resume=True`` skips documents a run before read (see ``kept_on_resume``).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import secrets
import stat
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from goblin_core.config import Config
from goblin_core.engines import Task, run_executor
from goblin_core.errors import GoblinError
from goblin_core.executors.worker import problem_document
from goblin_core.file_names import fitting_name
from goblin_core.inputs import InputProblem, PathsLike, input_paths, tasks_for
from goblin_core.model import Document
from goblin_core.registry import Registry
from goblin_core.renderers import write_rendered

MANIFEST_NAME = "manifest.jsonl"
EXTENSIONS = {"text": "txt", "markdown": "md", "html": "html", "json": "json", "jsonl": "jsonl"}
#: Manifest statuses of documents a resumed run keeps: read in full, or in part with the
#: pages read kept. A document that failed, or has no page of usable text, is extracted
#: again: what stopped it (a missing binary or plugin, a time limit, a crash) may be gone.
DONE_STATUSES = frozenset({"clean", "partially_recovered"})


@dataclass(frozen=True)
class BatchProgress:
    """What a progress callback sees after each document."""

    done: int
    failed: int
    skipped: int
    total: int
    pages: int
    elapsed: float
    last: str

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta_seconds(self) -> float | None:
        finished = self.done + self.skipped
        if not self.done or finished >= self.total:
            return None
        per_document = self.elapsed / self.done
        return per_document * (self.total - finished)


@dataclass
class BatchSummary:
    """Totals of a batch run, for the summary table and the exit code."""

    total: int = 0
    done: int = 0
    failed: int = 0
    skipped: int = 0
    pages: int = 0
    seconds: float = 0.0
    statuses: Counter[str] = field(default_factory=Counter)
    page_statuses: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    interrupted: bool = False


def manifest_row(document: Document, task: Task, output: str, seconds: float) -> dict[str, Any]:
    """The manifest line of one document (its children's pages and errors included)."""
    docs = list(document.walk())
    engines = sorted({p.engine for d in docs for p in d.pages if p.engine})
    errors = [e for d in docs for e in d.report.errors]
    return {
        "path": task.display_name,
        "sha256": document.sha256 or _readable_sha256(task.path),
        "status": document.status,
        "pages": sum(len(d.pages) for d in docs),
        "page_statuses": dict(Counter(p.status for d in docs for p in d.pages)),
        "documents": len(docs),
        "engines": engines,
        "seconds": round(seconds, 4),
        "error": f"{errors[0].kind}: {errors[0].message}" if errors else "",
        "output": output,
    }


def output_name(display_name: str, fmt: str) -> str:
    """A relative output file name for a document, never escaping the output folder.

    >>> output_name("../a/b.pdf", "text")
    'a/b.pdf.txt'
    """
    parts = [p for p in display_name.replace("\\", "/").split("/") if p not in ("", ".", "..")]
    folders, name = parts[:-1], (parts[-1] if parts else "document")
    # each part no longer than a file system takes, the result's extension included
    return "/".join(fitting_name(p) for p in [*folders, f"{name}.{EXTENSIONS.get(fmt, fmt)}"])


def write_atomic(path: Path, content: str | Callable[[TextIO], None]) -> None:
    """Write ``content`` (text, or a function writing to a stream) to ``path`` whole or
    not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # created as open() would create it (mode 0o666 less the umask, as the manifest
    # is), where mkstemp's 0o600 would hide the results from the user's group
    tmp = path.parent / f".goblin-{secrets.token_hex(8)}.part"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            if isinstance(content, str):
                out.write(content)
            else:
                content(out)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _open_manifest(path: Path) -> TextIO:
    """``path`` opened to append rows, never through a symbolic link: a link planted as
    DIR/manifest.jsonl would have the rows written wherever it points."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
    try:
        # without waiting: a FIFO there would hold the run until something read it
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        if path.is_symlink():
            raise GoblinError(f"{path}: a symbolic link, not a manifest; move it away or "
                              "choose another output folder") from exc
        if path.exists() and not path.is_file() and not path.is_dir():
            raise _not_a_manifest(path) from exc  # a FIFO no one reads
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise _not_a_manifest(path)
    return os.fdopen(fd, "a", encoding="utf-8")


def _not_a_manifest(path: Path) -> GoblinError:
    return GoblinError(f"{path}: not a manifest (not a regular file); move it away or "
                       "choose another output folder")


def _readable_sha256(path: str | None) -> str:
    """The sha256 of the file at ``path``, or "" when it cannot be read: a document that
    failed because its file is gone or refuses reading (no permission, an I/O error)
    still gets its manifest row, which says so."""
    if not path:
        return ""
    try:
        return _file_sha256(path)
    except OSError:
        return ""


def _file_sha256(path: str) -> str:
    """The sha256 of the regular file at ``path``. Opened without waiting: a FIFO put in
    the file's place since it was walked would block the whole run on its open until
    something wrote to it (a regular file's reads do not mind the flag)."""
    digest = hashlib.sha256()
    with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_manifest(output_dir: Path) -> dict[str, dict[str, Any]]:
    """Rows of an existing manifest by path (a torn last line is ignored)."""
    rows: dict[str, dict[str, Any]] = {}
    manifest = output_dir / MANIFEST_NAME
    if manifest.is_symlink() or not manifest.is_file():
        return rows
    for line in manifest.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and "path" in row:
            rows[row["path"]] = row
    return rows


class BatchWriter:
    """Writes results and manifest rows into one output folder."""

    def __init__(self, registry: Registry, config: Config, output_dir: Path, fmt: str) -> None:
        renderers = [e for e in registry.ranked("renderer", None, config) if e.engine.format == fmt]
        if not renderers:
            raise GoblinError(f"no renderer for output format {fmt!r}")
        self.renderer = renderers[0].engine
        self.config = config
        self.output_dir = output_dir
        self.fmt = fmt
        output_dir.mkdir(parents=True, exist_ok=True)
        self._manifest = _open_manifest(output_dir / MANIFEST_NAME)
        # names of this run's results: a second document whose name comes out the same
        # (``../x.txt`` and ``x.txt``, ``a\\b.txt`` and ``a/b.txt``) is numbered, where a
        # result of an earlier run is replaced
        self._claimed: set[str] = {MANIFEST_NAME}

    def claim(self, kept: Mapping[str, Mapping[str, Any]]) -> None:
        """Hold the result files of the documents a resumed run keeps (manifest rows by
        path): a document extracted again must not take one of their names, which would
        replace a kept result with its own and leave two rows naming one file."""
        self._claimed.update(str(row["output"]) for row in kept.values() if row.get("output"))

    def write(self, document: Document, task: Task, seconds: float) -> dict[str, Any]:
        name = self._free_name(output_name(task.display_name, self.fmt))
        target = (self.output_dir / name).resolve()
        if self.output_dir.resolve() not in target.parents:
            raise GoblinError(f"output path escapes the output folder: {name}")
        write_atomic(target, lambda out: write_rendered(self.renderer, [document],
                                                         self.config, out))
        row = manifest_row(document, task, name, seconds)
        self._manifest.write(json.dumps(row, ensure_ascii=False) + "\n")
        self._manifest.flush()
        return row

    def _free_name(self, name: str) -> str:
        """``name``, or a numbered variant of it or of its folders where a file stands in
        the way of a folder or a folder in the way of a file: ``foo`` and ``foo.txt/bar``
        of one input both have results, ``foo.txt`` and ``foo.txt/bar.txt``.

        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as out:
        ...     writer = object.__new__(BatchWriter); writer.output_dir = Path(out)
        ...     writer._claimed = {MANIFEST_NAME}
        ...     (Path(out) / "foo.txt").mkdir()
        ...     writer._free_name("foo.txt"), writer._free_name("foo.txt")
        ('foo (2).txt', 'foo (3).txt')
        """
        parts = name.split("/")
        folder = self.output_dir
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            number = 1
            chosen = part
            # a folder may be entered if it is one; the result's file may replace a file
            # an earlier run wrote, not one of this run
            while ((folder / chosen).exists() and (folder / chosen).is_dir() == last) or (
                    last and "/".join([*parts[:index], chosen]) in self._claimed):
                number += 1
                stem, dot, extension = part.rpartition(".") if last else (part, "", "")
                chosen = f"{stem} ({number}){dot}{extension}" if stem else f"{part} ({number})"
            parts[index] = chosen
            folder = folder / chosen
        name = "/".join(parts)
        self._claimed.add(name)
        return name

    def close(self, kept: dict[str, dict[str, Any]]) -> None:
        """Close the manifest and rewrite it sorted by path, one row per document."""
        self._manifest.close()
        rows = read_manifest(self.output_dir)
        merged = {**kept, **rows}
        lines = [json.dumps(merged[k], ensure_ascii=False) for k in sorted(merged)]
        write_atomic(self.output_dir / MANIFEST_NAME, "\n".join(lines) + ("\n" if lines else ""))


def _plan(
    paths: PathsLike, output_dir: Path, fmt: str, resume: bool
) -> tuple[list[Task], list[InputProblem], dict[str, dict[str, Any]]]:
    previous = read_manifest(output_dir) if resume else {}
    tasks: list[Task] = []
    problems: list[InputProblem] = []
    kept: dict[str, dict[str, Any]] = {}
    for item in tasks_for(input_paths(paths)):
        if isinstance(item, InputProblem):
            problems.append(item)
            continue
        row = previous.get(item.display_name)
        if row and item.path and kept_on_resume(row, output_dir, item.path, fmt):
            kept[item.display_name] = row
            continue
        tasks.append(item)
    return tasks, problems, kept


def kept_on_resume(row: Mapping[str, Any], output_dir: Path, path: str, fmt: str) -> bool:
    """Whether a resumed run keeps the result the manifest row ``row`` names for the file at
    ``path``: the document was read (``DONE_STATUSES``), its result in format ``fmt`` is
    in ``output_dir``, and the file's content has the sha256 the row recorded."""
    if row.get("status") not in DONE_STATUSES:
        return False
    result = str(row.get("output", ""))
    if not result.endswith(f".{EXTENSIONS.get(fmt, fmt)}"):
        return False  # the last run wrote another format
    if not (output_dir / result).is_file():
        return False
    # a file unreadable now is extracted again, which says why
    return bool(row.get("sha256")) and row.get("sha256") == _readable_sha256(path)


def run_batch(
    registry: Registry,
    config: Config,
    paths: PathsLike,
    output_dir: str | os.PathLike[str],
    *,
    fmt: str = "text",
    jobs: int | None = None,
    executor: str = "executor.local",
    resume: bool = False,
    progress: Callable[[BatchProgress], None] | None = None,
) -> BatchSummary:
    """Extract every file under ``paths`` into ``output_dir``; return the totals.

    KeyboardInterrupt stops the run cleanly: finished documents stay written
    and in the manifest, so ``resume=True`` picks up where it stopped.
    """
    out = Path(output_dir)
    tasks, problems, kept = _plan(paths, out, fmt, resume)
    summary = BatchSummary(total=len(tasks) + len(problems) + len(kept), skipped=len(kept))
    entry = registry.get(executor)
    if entry is None:
        raise GoblinError(f"no executor named {executor!r} is installed (try executor.local)")
    writer = BatchWriter(registry, config, out, fmt)
    writer.claim(kept)
    started = time.monotonic()
    try:
        for problem in problems:
            doc = problem_document(problem)
            _account(summary, doc, writer.write(doc, Task(None, problem.path), 0.0))
        for task, document, seconds in _results(entry.engine, tasks, config, jobs):
            _account(summary, document, writer.write(document, task, seconds))
            if progress is not None:
                progress(BatchProgress(summary.done, summary.failed, summary.skipped,
                                       summary.total, summary.pages,
                                       time.monotonic() - started, task.display_name))
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        writer.close(kept)
        summary.seconds = round(time.monotonic() - started, 3)
    return summary


def _results(
    engine: Any, tasks: list[Task], config: Config, jobs: int | None
) -> Iterator[tuple[Task, Document, float]]:
    for result in run_executor(engine, tasks, config, jobs):
        yield result.task, result.document, result.seconds


def _account(summary: BatchSummary, document: Document, row: dict[str, Any]) -> None:
    summary.done += 1
    summary.pages += int(row["pages"])
    summary.statuses[document.status] += 1
    for doc in document.walk():
        summary.page_statuses.update(p.status for p in doc.pages)
        summary.errors.update(e.kind for e in doc.report.errors)
    if document.status == "failed":
        summary.failed += 1
