"""Turning what a user passes (files, folders, bytes, streams) into Sources and Tasks."""

from __future__ import annotations

import errno
import io
import logging
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from goblin_core.engines import Task
from goblin_core.errors import MissingFile
from goblin_core.file_names import readable_name
from goblin_core.source import Source

log = logging.getLogger(__name__)

#: Why an empty string is refused where a path is expected.
_EMPTY_PATH = "an empty path names no"

SourceLike = str | os.PathLike[str] | bytes | bytearray | memoryview | BinaryIO | Source


def as_source(value: Any, name: str | None = None) -> Source:
    """A Source for a path, bytes, a binary file object or a Source.

    >>> as_source(b"abc", "x.txt").display_name
    'x.txt'
    """
    if isinstance(value, Source):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return Source.from_bytes(value, name or "<bytes>")
    if isinstance(value, (str, os.PathLike)):
        if not os.fspath(value):
            # Path("") is the working folder: an unset variable must not read that.
            raise MissingFile(f"{_EMPTY_PATH} file", file="<empty path>")
        if isinstance(value, str) and is_url(value) and not os.path.lexists(value):
            # "No such file or directory" would send the caller looking for a file
            raise MissingFile("a URL, which extract does not fetch: download it and pass "
                              "the bytes or a binary file (extract_many with the Dask "
                              "executor, goblin-dask, has its workers read URLs)", file=value)
        return Source.from_path(value, name)
    if isinstance(value, io.IOBase) or hasattr(value, "read"):
        return Source.from_stream(value, name)
    raise TypeError(
        f"cannot extract from {type(value).__name__}: pass a path, bytes or a binary file"
    )


_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")


def is_url(path: str) -> bool:
    """True for ``s3://bucket/key``, ``https://host/x.pdf``, ``file:///x``; False for paths.

    >>> is_url("s3://bucket/a.pdf"), is_url("c:/a.pdf"), is_url("a.pdf")
    (True, False, False)
    """
    return bool(_URL.match(path))


@dataclass(frozen=True)
class InputProblem:
    """A path given as input that could not be walked (missing, a loop, unreadable)."""

    path: str
    kind: str
    message: str


#: What ``extract_many`` takes: one path (a file or a folder) or an iterable of them.
PathsLike = str | bytes | os.PathLike[str] | os.PathLike[bytes] | Iterable[
    str | bytes | os.PathLike[str] | os.PathLike[bytes]
]


def input_paths(paths: PathsLike) -> list[str]:
    """The paths to walk, as a list: one path alone is a list of one, never its characters.

    >>> input_paths("samples/hello.txt")
    ['samples/hello.txt']
    >>> input_paths([b"a.txt", "b"])
    ['a.txt', 'b']
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        return [os.fsdecode(paths)]
    return [os.fsdecode(path) for path in paths]


def walk_inputs(paths: PathsLike) -> Iterator[tuple[Path, str] | InputProblem]:
    """Yield (file, display name) for every file under the given paths, sorted.

    Folders are walked recursively, following links once: a link back to a
    folder already visited is reported as a loop instead of followed again.
    The display name of a file found in a folder is relative to that folder.
    Display names, and the paths problems name, are ``readable_name``s: text
    any output can hold, whatever bytes the file system names them with.
    """
    for item in _walk_paths(paths):
        if isinstance(item, InputProblem):
            yield InputProblem(readable_name(item.path), item.kind, item.message)
        else:
            yield item[0], readable_name(item[1])


def _walk_paths(paths: PathsLike) -> Iterator[tuple[Path, str] | InputProblem]:
    for raw in input_paths(paths):
        if not raw:
            yield InputProblem("<empty path>", "FileNotFound", f"{_EMPTY_PATH} file or folder")
            continue
        path = Path(raw)
        if path.is_dir():
            yield from _walk_dir(path)
        elif path.is_file():
            yield path, path.name
        elif path.exists():
            yield InputProblem(str(path), "UnsupportedFormat", "not a regular file or folder")
        elif path.is_symlink():
            yield InputProblem(str(path), "FileNotFound", _broken_link(path))
        else:
            yield InputProblem(str(path), "FileNotFound", "no such file or folder; check the path")


def _broken_link(path: Path) -> str:
    """Why a symbolic link leads nowhere: a loop, or a target that is gone."""
    try:
        path.resolve(strict=True)
    except RuntimeError:
        return "symbolic link loop"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop"
    return f"symbolic link to a missing target ({os.readlink(path)})"


def _walk_dir(root: Path) -> Iterator[tuple[Path, str] | InputProblem]:
    """The files under ``root`` and the entries that are none, in name order, each named
    relative to ``root`` (the folder itself by the path given)."""
    seen: set[tuple[int, int]] = set()
    stack = [root]
    found: list[tuple[str, tuple[Path, str] | InputProblem]] = []

    def problem(path: Path, kind: str, message: str) -> None:
        name = path.relative_to(root).as_posix() if path != root else str(root)
        found.append((name, InputProblem(name, kind, message)))

    while stack:
        folder = stack.pop()
        try:
            info = folder.stat()
        except OSError as exc:
            problem(folder, "OSError", exc.strerror or str(exc))
            continue
        key = (info.st_dev, info.st_ino)
        if key in seen:
            problem(folder, "DirectoryLoop",
                    "folder link leads back to a folder already read; skipped")
            continue
        seen.add(key)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            problem(folder, "OSError", exc.strerror or str(exc))
            continue
        for entry in entries:
            child = Path(entry.path)
            try:
                if entry.is_symlink() and not child.exists():
                    problem(child, "FileNotFound", _broken_link(child))
                elif entry.is_dir():
                    stack.append(child)
                elif entry.is_file():
                    name = child.relative_to(root).as_posix()
                    found.append((name, (child, name)))
                else:
                    problem(child, "UnsupportedFormat",
                            "not a regular file (a device, socket or pipe)")
            except OSError as exc:
                problem(child, "OSError", exc.strerror or str(exc))
    found.sort(key=lambda item: item[0])
    for _, item in found:
        yield item


def distinct_names(names: Sequence[str], paths: Sequence[str | None]) -> list[str]:
    """``names`` with those that more than one file shares replaced by the file's path as
    given (``a/x.pdf`` and ``b/x.pdf`` found as ``x.pdf`` under two folders), numbered
    when even those meet, so each document of one run has a name of its own: a result,
    a manifest row or a page image found by name belongs to that document alone.

    >>> distinct_names(["x.pdf", "y.pdf", "x.pdf"], ["a/x.pdf", "a/y.pdf", "b/x.pdf"])
    ['a/x.pdf', 'y.pdf', 'b/x.pdf']
    >>> distinct_names(["x.pdf", "x.pdf"], [None, None])
    ['x.pdf', 'x.pdf (2)']
    """
    counts = Counter(names)
    if all(n == 1 for n in counts.values()):
        return list(names)
    taken: set[str] = set()
    distinct = []
    for name, path in zip(names, paths, strict=True):
        if counts[name] > 1 and path is not None:
            name = readable_name(Path(path).as_posix())
        base, number = name, 2
        while name in taken:
            name, number = f"{base} ({number})", number + 1
        taken.add(name)
        distinct.append(name)
    return distinct


def walk_given(paths: PathsLike, reads_urls: bool,
               url_reader: str) -> Iterator[tuple[str, tuple[Path, str] | InputProblem | str]]:
    """Each path given with what ``walk_inputs`` finds under it, but every file once, and a
    URL that names no file here: the URL itself when the executor's workers fetch URLs
    (``reads_urls``), else a problem naming ``url_reader``, what does fetch them.

    A folder adds the files not already reached: given twice (``d`` and ``./d/``), or
    after a file in it, its files are not read again, where they came back twice under
    numbered names. A file given by name is read each time it is named (``cat a a``; a
    benchmark that repeats a file). Folders on the way are resolved, the file's own name
    is not: a link beside its target is a file of its own, as when its folder is walked.
    """
    seen: set[str] = set()
    folders: dict[Path, str] = {}
    for raw in input_paths(paths):
        if raw and is_url(raw) and not os.path.lexists(raw):
            yield raw, raw if reads_urls else InputProblem(
                raw, "FileNotFound",
                f"a URL, which this executor does not fetch; {url_reader} has its workers "
                "read URLs")
            continue
        walked = os.path.isdir(raw)
        for item in walk_inputs([raw]):
            if not isinstance(item, InputProblem):
                folder = item[0].parent
                if folder not in folders:
                    folders[folder] = os.path.realpath(folder)
                key = os.path.join(folders[folder], item[0].name)
                if walked and key in seen:
                    continue
                seen.add(key)
            yield raw, item


def tasks_for(paths: PathsLike, reads_urls: bool = False) -> Iterator[Task | InputProblem]:
    """Tasks for every file under ``paths``, numbered in order; problems passed through.

    Files that share a display name (two folders given, each with an ``x.pdf``) are
    named by their path as given instead (``distinct_names``). A URL that names no file
    here is a task of its own when the executor's workers fetch URLs (``reads_urls``),
    else a problem saying so: read as a path, it was "no such file or folder". A folder
    adds only the files not already reached (``walk_given``).
    """
    walked: list[tuple[Path | str, str] | InputProblem] = []
    for _, found in walk_given(paths, reads_urls, 'the Dask executor (goblin-dask, '
                               'executor="executor.dask")'):
        walked.append((found, found) if isinstance(found, str) else found)
    files = [item for item in walked if not isinstance(item, InputProblem)]
    names = iter(distinct_names([name for _, name in files], [str(path) for path, _ in files]))
    index = 0
    for item in walked:
        if isinstance(item, InputProblem):
            yield item
            continue
        yield Task(path=str(item[0]), display_name=next(names), index=index)
        index += 1
