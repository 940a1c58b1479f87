"""Unpack archives into a folder, recursively and safely, the GoblinTools way.

``unpack("edital.zip", "out")`` writes every member of ``edital.zip`` into
``out``, unfolding archives found inside it, with names flattened
(``edital/arquivo.pdf`` -> ``edital_arquivo.pdf``). Members go through the
same checks as ``extract`` (``goblin_core.archive_safety``): traversal,
links, devices, bombs and nesting depth are refused while reading, and every
member ends up in the result as extracted, skipped or refused, with why.
Nothing is ever written outside ``dest``, nothing there is overwritten (a
name already taken is renamed and reported), and the only file ever deleted
is the archive the caller named, when ``remove_source=True`` and it unpacked
without error.
"""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from goblin_core.archive_safety import ArchiveBudget, expand_members, stopped_after_refusals
from goblin_core.config import Config
from goblin_core.detect import detect
from goblin_core.engines import ArchiveLimits
from goblin_core.errors import (
    CorruptDocument,
    GoblinError,
    PasswordRequired,
    UnsafeArchive,
    UnsupportedFormat,
)
from goblin_core.file_names import fitting_name
from goblin_core.formats import BY_EXTENSION, BY_MIME
from goblin_core.model import MemberEntry, ReportEntry
from goblin_core.registry import EngineEntry, Registry, default_registry
from goblin_core.source import Source

log = logging.getLogger(__name__)

#: ``progress(done, total, name)``; ``total`` is 0 while the count is not known yet.
Progress = Callable[[int, int, str], None]

_COPY_CHUNK = 1 << 20


@dataclass(frozen=True)
class UnpackResult:
    """What ``unpack`` did with one archive.

    ``written`` holds the files created in ``dest``; ``members`` every member
    met (nested archives included), extracted, skipped or refused, with the
    reason; ``renamed`` the (member, written name) pairs whose name was taken;
    ``errors`` and ``warnings`` the problems, each naming its member.
    ``source_removed`` says whether the archive itself was deleted.
    """

    archive: str
    dest: Path
    written: tuple[Path, ...] = ()
    members: tuple[MemberEntry, ...] = ()
    errors: tuple[ReportEntry, ...] = ()
    warnings: tuple[ReportEntry, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()
    source_removed: bool = False

    @property
    def ok(self) -> bool:
        """True when every member was handled without error."""
        return not self.errors

    def __len__(self) -> int:
        return len(self.written)


@dataclass
class _Log:
    """The MemberLog ``expand_members`` records its decisions into."""

    members: list[MemberEntry] = field(default_factory=list)
    errors: list[ReportEntry] = field(default_factory=list)
    warnings: list[ReportEntry] = field(default_factory=list)

    def error(self, kind: str, message: str, engine: str = "", page: int | None = None) -> None:
        self.errors.append(ReportEntry(kind, message, engine, page))

    def warn(self, kind: str, message: str, engine: str = "", page: int | None = None) -> None:
        self.warnings.append(ReportEntry(kind, message, engine, page))


@dataclass
class _Job:
    """State of one ``unpack`` call."""

    registry: Registry
    config: Config
    dest: Path
    flatten: bool
    budget: ArchiveBudget
    progress: Progress | None
    log: _Log = field(default_factory=_Log)
    written: list[Path] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)
    taken: set[str] = field(default_factory=set)
    folders: set[Path] = field(default_factory=set)


def unpack(
    archive: str | os.PathLike[str],
    dest: str | os.PathLike[str],
    *,
    config: Config | str | os.PathLike[str] | None = None,
    flatten: bool = True,
    remove_source: bool = False,
    progress: Progress | None = None,
    registry: Registry | None = None,
) -> UnpackResult:
    """Unpack ``archive`` into the folder ``dest`` (created when missing, and removed
    again when nothing of the archive could be unpacked), recursively.

    Archives inside the archive are unfolded in place of themselves. With
    ``flatten`` every path becomes one file name (``edital/arquivo.pdf`` ->
    ``edital_arquivo.pdf``); without it the folders are kept under ``dest``.
    ``progress(done, 0, name)`` is called after each file written. A file
    that is not an archive, or one that cannot be opened at all, raises a
    GoblinError; problems with single members are in the result.

    >>> result = unpack("edital.zip", "out")          # doctest: +SKIP
    >>> [p.name for p in result.written]               # doctest: +SKIP
    ['edital_arquivo.pdf']
    """
    registry = registry or default_registry()
    cfg = _config(registry, config)
    path = Path(archive)
    target = Path(dest)
    job = _Job(registry, cfg, target.resolve(), flatten,
               ArchiveBudget(ArchiveLimits.from_config(cfg)), progress)
    source = Source.from_path(path)
    handlers = _handlers(job, source)
    if not handlers:
        raise _cannot_unpack(job, source)
    # made only now: a file that is no archive leaves no empty folder behind
    made = _missing_folders(target)
    target.mkdir(parents=True, exist_ok=True)
    try:
        _expand(job, source, handlers, prefix="")
    except BaseException:
        _remove_empty(made)
        raise
    if not job.written and job.log.errors:
        # nor does an archive of which nothing could be unpacked
        _remove_empty(made)
    removed = _remove_source(path, job) if remove_source else False
    return UnpackResult(
        archive=str(path), dest=target, written=tuple(job.written),
        members=tuple(job.log.members), errors=tuple(job.log.errors),
        warnings=tuple(job.log.warnings), renamed=tuple(job.renamed), source_removed=removed,
    )


def _missing_folders(target: Path) -> list[Path]:
    """The folders ``target.mkdir(parents=True)`` would make, deepest first."""
    missing = []
    folder = target.absolute()
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing


def _remove_empty(folders: list[Path]) -> None:
    """Remove the folders made for a run that wrote nothing, deepest first, each only
    while it is empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return


def unpack_many(
    archives: Iterable[str | os.PathLike[str]],
    dest: str | os.PathLike[str],
    *,
    config: Config | str | os.PathLike[str] | None = None,
    flatten: bool = True,
    remove_source: bool = False,
    progress: Progress | None = None,
    registry: Registry | None = None,
) -> list[UnpackResult]:
    """Unpack several archives into one folder; ``progress(done, total, name)`` after each.

    An archive that cannot be unpacked does not stop the batch: its result
    carries the error (and its source is never removed).
    """
    registry = registry or default_registry()
    cfg = _config(registry, config)
    paths = [Path(a) for a in archives]
    results: list[UnpackResult] = []
    for done, path in enumerate(paths, start=1):
        try:
            result = unpack(path, dest, config=cfg, flatten=flatten, remove_source=remove_source,
                            registry=registry)
        except GoblinError as exc:
            error = exc.with_file(str(path))
            result = UnpackResult(str(path), Path(dest),
                                  errors=(ReportEntry(error.kind, str(error)),))
        except OSError as exc:
            result = UnpackResult(str(path), Path(dest),
                                  errors=(ReportEntry("OSError", f"{path}: {exc}"),))
        results.append(result)
        if progress is not None:
            progress(done, len(paths), str(path))
    return results


def _config(registry: Registry, config: Config | str | os.PathLike[str] | None) -> Config:
    if isinstance(config, Config):
        return config
    return registry.config(config)


def _handlers(job: _Job, source: Source) -> list[EngineEntry]:
    detected = detect(job.registry, job.config, source)
    return job.registry.ranked("archive", detected.mime, job.config)


def _cannot_unpack(job: _Job, source: Source) -> UnsupportedFormat:
    """Why no handler reads ``source``: no archive, or its handler is missing or cannot run."""
    detected = detect(job.registry, job.config, source)
    known = BY_MIME.get(detected.mime)
    kind = f"{detected.mime} ({known.description})" if known else detected.mime
    claimed = job.registry.ranked("archive", detected.mime, job.config, with_unavailable=True)
    if claimed:
        reasons = "; ".join(f"{e.name}: {job.registry.availability(e)[1]}" for e in claimed)
        return UnsupportedFormat(f"no archive handler for {kind} can run here ({reasons})",
                                 file=source.display_name, mime=detected.mime)
    if known is not None and known.extra == "archives":
        return UnsupportedFormat(f"no installed archive handler reads {kind}",
                                 file=source.display_name, mime=detected.mime, extra="archives")
    return UnsupportedFormat(f"not an archive: it is {kind}; goblin extract reads documents",
                             file=source.display_name, mime=detected.mime)


def _expand(job: _Job, source: Source, handlers: list[EngineEntry], prefix: str) -> None:
    """Write the members of ``source`` with the first handler that reads it."""
    first_error: GoblinError | None = None
    for entry in handlers:
        produced, listed = 0, len(job.log.members)
        unwritten: _Unwritten | None = None
        try:
            for child in expand_members(entry, source, job.budget, job.config, job.log):
                _settle(job, unwritten)
                unwritten = None
                produced += 1
                try:
                    inner = child.display_name[len(source.display_name) + 1:]
                    unwritten = _place(job, child, _member_path(prefix, inner, child))
                finally:
                    child.cleanup()
            return
        except PasswordRequired:
            raise
        except MemoryError:
            raise
        except Exception as exc:  # a handler's own bug fails that handler, not the unpack
            error = exc if isinstance(exc, GoblinError) else CorruptDocument(
                f"{entry.name} failed: {type(exc).__name__}: {exc}")
            if produced or stopped_after_refusals(error, job.log.members, listed):
                job.log.error(error.kind, str(error.with_file(source.display_name)), entry.name)
                return
            if isinstance(error, UnsafeArchive):
                raise error from exc  # another handler would not make a hostile archive safe
            job.log.warn(error.kind, str(error.with_file(source.display_name)), entry.name)
            first_error = first_error or error
        finally:
            # the last member, or one the reader stopped after
            _settle(job, unwritten)
    if first_error is not None:
        raise first_error.with_file(source.display_name)


def _member_path(prefix: str, inner: str, child: Source) -> str:
    """Where the member ``inner`` of a nested archive unpacked under ``prefix`` goes: a
    compressor's one file (``doc.txt`` of ``doc.txt.gz``) takes the compressed file's
    place, as gunzip would put it, not a folder of that name holding it again."""
    if prefix and child.decompressed:
        folder = prefix.rstrip("/").rpartition("/")[0]
        return f"{folder}/{inner}" if folder else inner
    return prefix + inner


@dataclass(frozen=True)
class _Unwritten:
    """A member read from its archive whose file could not be written."""

    entry_at: int
    name: str
    reason: str


def _settle(job: _Job, unwritten: _Unwritten | None) -> None:
    """Record ``unwritten`` as refused in place of the "extracted" entry its archive's
    reader logs once it moves on from the member, so the member is listed once, as it
    ended."""
    if unwritten is None:
        return
    members = job.log.members
    at = unwritten.entry_at
    if at < len(members) and members[at].action == "extracted":
        members[at] = MemberEntry(unwritten.name, "refused", unwritten.reason, members[at].size)
    else:
        members.append(MemberEntry(unwritten.name, "refused", unwritten.reason))


def _place(job: _Job, child: Source, relative: str) -> _Unwritten | None:
    """Unfold ``child`` when it is an archive, else write it under ``dest``; what could not
    be written, if it could not."""
    handlers = _nested_handlers(job, child)
    if handlers:
        try:
            _expand(job, child, handlers, prefix=_strip_archive_extension(relative) + "/")
            return None
        except GoblinError as exc:
            # Could not unfold it (depth limit, password, damage): keep it as a file.
            job.log.error(exc.kind, f"{child.display_name}: not unpacked ({exc.message}); "
                          "written as it is")
    try:
        _write(job, child, relative)
    except OSError as exc:  # a full disk or a refused path costs this member only
        job.log.error("OSError", f"{child.display_name}: not written: {exc}")
        return _Unwritten(len(job.log.members), relative, f"not written: {exc}")
    return None


def _nested_handlers(job: _Job, child: Source) -> list[EngineEntry]:
    known = BY_EXTENSION.get(child.extension)
    if known is not None and known.extra not in (None, "archives"):
        return []  # a docx or an odt is a zip, but a document to keep whole
    try:
        detected = detect(job.registry, job.config, child)
    except GoblinError:
        return []
    if job.registry.ranked("parser", detected.mime, job.config):
        return []
    found = BY_MIME.get(detected.mime)
    if found is not None and found.extra not in (None, "archives"):
        return []
    return job.registry.ranked("archive", detected.mime, job.config)


def _strip_archive_extension(name: str) -> str:
    head, _, last = name.rpartition("/")
    stem = last
    for _ in range(2):  # x.tar.gz -> x
        base, dot, ext = stem.rpartition(".")
        known = BY_EXTENSION.get(ext.lower())
        if not dot or not base or known is None or known.extra != "archives":
            break
        stem = base
    return f"{head}/{stem}" if head else stem


def _write(job: _Job, child: Source, relative: str) -> None:
    name = _target_name(relative, job.flatten)
    final = _free_name(job, _free_folders(job, name))
    if final != name:
        job.renamed.append((relative, final))
        job.log.warn("Renamed", f"{child.display_name}: {name!r} was taken; written as {final!r}")
    target = job.dest / final
    _prepare_folder(job, target.parent)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(target, flags, 0o644)
    try:
        with os.fdopen(fd, "wb") as out:
            if not child.is_file:
                out.write(child.bytes())  # already in memory: one write, no copy
            else:
                with child.open() as data:
                    shutil.copyfileobj(data, out, _COPY_CHUNK)
    except BaseException:
        # A member cut short (disk full, a read error, Ctrl-C) must not stay behind
        # under its name looking whole; O_EXCL made the file ours to remove.
        target.unlink(missing_ok=True)
        raise
    job.written.append(target)
    job.taken.add(final)
    if job.progress is not None:
        job.progress(len(job.written), 0, final)


def _target_name(relative: str, flatten: bool) -> str:
    parts = [p for p in relative.split("/") if p not in ("", ".", "..")]
    if flatten:
        return fitting_name(("_".join(parts)) or "member")
    return "/".join(fitting_name(p) for p in parts) or "member"


def _free_name(job: _Job, name: str) -> str:
    """``name``, or ``stem_1.ext``, ``stem_2.ext``... when it is taken in ``dest``."""
    if not _taken(job, name):
        return name
    folder, _, base = name.rpartition("/")
    stem, dot, ext = base.rpartition(".")
    if not dot or not stem:
        stem, ext = base, ""
    suffix = f".{ext}" if ext else ""
    number = 1
    while True:
        candidate = f"{stem}_{number}{suffix}"
        candidate = f"{folder}/{candidate}" if folder else candidate
        if not _taken(job, candidate):
            return candidate
        number += 1


def _free_folders(job: _Job, name: str) -> str:
    """``name`` with each folder that is already a file (``a`` written, then ``a/b.txt``)
    renamed ``a_1``: the same one for every member under it."""
    parts = name.split("/")
    for depth in range(len(parts) - 1):
        if _usable_folder(job, "/".join(parts[: depth + 1])):
            continue
        number = 1
        while not _usable_folder(job, "/".join([*parts[:depth], f"{parts[depth]}_{number}"])):
            number += 1
        parts[depth] = f"{parts[depth]}_{number}"
    return "/".join(parts)


def _usable_folder(job: _Job, name: str) -> bool:
    path = job.dest / name
    if name in job.taken or path.is_symlink():
        return False
    return path.is_dir() or not os.path.lexists(path)


def _taken(job: _Job, name: str) -> bool:
    return name in job.taken or os.path.lexists(job.dest / name)


def _prepare_folder(job: _Job, folder: Path) -> None:
    """Create ``folder`` under ``dest`` once, checking (once) that it resolves inside ``dest``.

    Only goblin creates folders in ``dest`` while it unpacks, so a folder
    checked once stays inside; files are opened with O_NOFOLLOW|O_EXCL.
    """
    if folder in job.folders:
        return
    _check_inside(job.dest, folder / "_")
    folder.mkdir(parents=True, exist_ok=True)
    _check_inside(job.dest, folder.resolve() / "_")
    job.folders.add(folder)


def _check_inside(dest: Path, target: Path) -> None:
    resolved = target.parent.resolve() / target.name
    if not resolved.is_relative_to(dest):
        raise OSError(f"refusing to write {target}: it is outside {dest}")


def _remove_source(path: Path, job: _Job) -> bool:
    """Delete the archive the caller named, only when everything in it was unpacked."""
    if job.log.errors:
        job.log.warn("SourceKept", f"{path}: kept, because unpacking it reported errors")
        return False
    if not any(m.action == "extracted" for m in job.log.members):
        # A later volume of a set, an empty archive: nothing came out of it to keep.
        job.log.warn("SourceKept", f"{path}: kept, because nothing was unpacked from it")
        return False
    if path.is_symlink() or not path.is_file():
        job.log.warn("SourceKept", f"{path}: kept, because it is not a regular file")
        return False
    if any(w.resolve() == path.resolve() for w in job.written):
        return False
    path.unlink()
    return True
