"""The py7zr side of the 7z handler: members decompressed under a byte meter.

Kept apart from the handler so py7zr (and the compression libraries it
loads) is imported only when a 7z archive is opened, not by every worker and
every goblin command at start-up.
"""

from __future__ import annotations

import itertools
import stat
from collections.abc import Callable, Sequence
from pathlib import Path, PurePosixPath
from typing import BinaryIO

import py7zr
import py7zr.exceptions
import py7zr.io

from goblin_archives.guarded import DECODE_ERRORS, translated
from goblin_archives.listing import refuse_oversized_listing
from goblin_archives.scratch import ByteMeter
from goblin_archives.sevenzip_count import members_counted
from goblin_core.archive_safety import safe_member_name
from goblin_core.engines import Member, MemberKind
from goblin_core.errors import CorruptDocument, GoblinError, PasswordRequired, UnsupportedFormat

#: What py7zr raises when a member cannot be decoded.
_DAMAGE: tuple[type[BaseException], ...] = (*DECODE_ERRORS, py7zr.exceptions.ArchiveError)


class _MeteredFile(py7zr.io.Py7zIO):
    """One member written to the scratch folder, every write counted."""

    def __init__(self, path: Path, name: str, meter: ByteMeter) -> None:
        self.path = path
        self.name = name
        self.meter = meter
        self.written = 0
        self._handle: BinaryIO | None = open(path, "wb")  # noqa: SIM115 - closed in close()

    def write(self, s: bytes | bytearray) -> int:
        self.written += len(s)
        self.meter.add(len(s), self.written, self.name)
        assert self._handle is not None
        return self._handle.write(s)

    def read(self, size: int | None = None) -> bytes:
        return b""

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.written

    def flush(self) -> None:
        if self._handle is not None:
            self._handle.flush()

    def size(self) -> int:
        return self.written

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


class _MeteredFactory(py7zr.io.WriterFactory):
    def __init__(self, folder: Path, meter: ByteMeter) -> None:
        self.folder = folder
        self.meter = meter
        self.counter = itertools.count()
        self.files: dict[str, _MeteredFile] = {}
        self.created: list[_MeteredFile] = []

    def create(self, filename: str) -> py7zr.io.Py7zIO:
        self.meter.count_file()
        # Scratch files are numbered, never named after the member: no name can escape.
        target = _MeteredFile(self.folder / f"m{next(self.counter)}", filename, self.meter)
        self.files[filename] = target
        self.created.append(target)
        return target

    def drop_unfinished(self) -> None:
        """Forget the member being written when decoding failed: it is cut short or bad."""
        if self.created:
            self.files.pop(self.created[-1].name, None)


def extract(opener: Callable[[], BinaryIO], display: str, password: str | None,
            meter: ByteMeter, folder: Path) -> tuple[list[py7zr.py7zr.ArchiveFile],
                                                     list[_MeteredFile | GoblinError | None],
                                                     GoblinError | None]:
    """Decompress every member of the archive ``opener`` reads into ``folder``.

    Returns the listing and, entry by entry, the file written (None for a member
    not decompressed: a folder, or a name the core refuses; the error for one the
    damage cost), and the damage that stopped decoding, naming the damaged member.
    py7zr stops at the first damage; the members after it are decoded again, so a
    damaged member costs only itself and the rest of its solid block.
    """
    factory = _MeteredFactory(folder, meter)
    files, targets, damage = _extract_round(opener, display, password, factory, None)
    lost: dict[str, GoblinError] = {}
    first_damage = damage
    while damage is not None and len(lost) < len(files):
        found = _written_by_entry(files, set(targets), factory.files)
        pending = [entry for entry, file in zip(files, found, strict=True)
                   if file is None and entry.filename in targets and not entry.is_directory
                   and entry.filename not in lost]
        if not pending:
            break
        _mark_lost(pending, files, lost, damage, display)
        retry = [entry.filename for entry in pending if entry.filename not in lost]
        if not retry:
            break
        _files, _targets, damage = _extract_round(opener, display, password, factory, retry)
    found = _written_by_entry(files, set(targets), factory.files)
    results: list[_MeteredFile | GoblinError | None] = [
        lost.get(entry.filename, file) if file is None else file
        for entry, file in zip(files, found, strict=True)]
    return files, results, first_damage


def _mark_lost(pending: list[py7zr.py7zr.ArchiveFile],
               files: list[py7zr.py7zr.ArchiveFile], lost: dict[str, GoblinError],
               damage: GoblinError, display: str) -> None:
    """Note the member ``damage`` fell in, and the members of its solid block after it.

    Decoding goes in listing order: the first member not written is where it
    stopped. When that member shares its block with one already lost, the
    damage is that one's, met again on the way: the rest of the block is lost.
    """
    entry = pending[0]
    block = [other for other in pending if other.folder is entry.folder]
    earlier = next((name for name in lost
                    if any(f.filename == name and f.folder is entry.folder for f in files)), None)
    if earlier is None:
        lost[entry.filename] = type(damage)(damage.message, file=f"{display}/{entry.filename}")
        block = block[1:]
        earlier = entry.filename
    elif not block:
        return
    for other in block:
        lost[other.filename] = CorruptDocument(
            f"not decoded: it follows the damaged member {earlier!r} in the same solid block, "
            "which decodes only front to back; the archive is damaged",
            file=f"{display}/{other.filename}")


def _extract_round(opener: Callable[[], BinaryIO], display: str, password: str | None,
                   factory: _MeteredFactory, only: list[str] | None,
                   ) -> tuple[list[py7zr.py7zr.ArchiveFile], list[str], GoblinError | None]:
    """One pass of py7zr over the archive: the listing, the names it was asked to
    decode (``only``, else every name the core accepts) and the damage it stopped at."""
    damage: GoblinError | None = None
    stream = opener()
    try:
        with translated(display, "reading the 7z archive"):
            try:
                limits = factory.meter.limits
                with members_counted(lambda count: refuse_oversized_listing(count, limits,
                                                                            display)):
                    archive = py7zr.SevenZipFile(stream, mode="r", password=password)
            except py7zr.exceptions.PasswordRequired as exc:
                raise _password_error(display, password) from exc
            except py7zr.exceptions.ArchiveError as exc:
                raise _archive_error(display, exc, "read") from exc
            with archive:
                files = list(archive.files)
                refuse_oversized_listing(len(files), factory.meter.limits, display)
                if archive.needs_password() and not password:
                    raise _password_error(display, password)
                # py7zr stops the whole archive at the first name it finds unsafe; only
                # names the core accepts are decompressed, the others are listed so the
                # core refuses and reports them by their own name.
                targets = [f.filename for f in files if safe_member_name(f.filename)[0]]
                written_before = len(factory.created)
                try:
                    archive.extract(targets=only if only is not None else targets,
                                    factory=factory)
                except GoblinError:
                    raise  # a limit the meter enforced, not damage
                except py7zr.exceptions.PasswordRequired as exc:
                    raise _password_error(display, password) from exc
                except _DAMAGE as exc:
                    if password and archive.needs_password():
                        raise _password_error(display, password) from exc
                    unfinished = (factory.created[-1].name
                                  if len(factory.created) > written_before else None)
                    damage = _archive_error(display, exc, "extract", unfinished)
                    factory.drop_unfinished()
    finally:
        stream.close()
        for written in factory.created:
            written.close()
    return files, targets, damage


def _written_by_entry(files: Sequence[py7zr.py7zr.ArchiveFile], targets: set[str],
                      written: dict[str, _MeteredFile]) -> list[_MeteredFile | None]:
    """The file each entry was written to, found under the name py7zr gave its writer.

    py7zr names a repeated member ``name_0``, ``name_1``... in listing order, and
    drops ``.`` parts; the second copy of a name must not be read as the first.
    """
    seen: dict[str, int] = {}
    found: list[_MeteredFile | None] = []
    for entry in files:
        if entry.filename not in targets:
            found.append(None)
            continue
        count = seen.get(entry.filename)
        seen[entry.filename] = 0 if count is None else count + 1
        outname = entry.filename if count is None else f"{entry.filename}_{count}"
        parts = [p for p in PurePosixPath(outname).parts if p != "."]
        found.append(written.get(str(PurePosixPath(*parts))) if parts else None)
    return found


def _archive_error(display: str, exc: BaseException, doing: str,
                   member_name: str | None = None) -> GoblinError:
    """What py7zr's failure means: a method it lacks is no damage, a CRC names its member,
    as does a decoder failing inside ``member_name``."""
    if isinstance(exc, py7zr.exceptions.UnsupportedCompressionMethodError):
        return UnsupportedFormat(f"py7zr cannot {doing} it: {str(exc.message).rstrip('.')} "
                                 "(a compression method or filter py7zr does not decode)",
                                 file=display)
    if isinstance(exc, py7zr.exceptions.CrcError):
        what = f"the member {exc.filename!r}" if exc.filename else "a block of members"
        return CorruptDocument(f"{what} fails its CRC check: the archive is damaged",
                               file=display)
    reason = str(exc) if isinstance(exc, py7zr.exceptions.ArchiveError) else \
        f"{type(exc).__name__}: {exc}"
    what = f"the member {member_name!r}" if member_name else "it"
    return CorruptDocument(f"py7zr cannot {doing} {what} ({reason}); the archive is truncated "
                           "or damaged", file=display)


def _password_error(display: str, password: str | None) -> PasswordRequired:
    if password:
        return PasswordRequired("the password does not open this 7z archive; check goblin.password",
                                file=display)
    return PasswordRequired("the 7z archive is encrypted; set goblin.password "
                            "(or archives.password)", file=display)


def member(entry: py7zr.py7zr.ArchiveFile, written: _MeteredFile | GoblinError | None) -> Member:
    """The goblin Member for one listed entry and the file it was written to (or the
    damage that cost it, raised when it is opened)."""
    kind = _kind(entry)
    path = written.path if isinstance(written, _MeteredFile) else None

    def opener() -> BinaryIO:
        if isinstance(written, GoblinError):
            raise written
        if path is None:
            import io

            return io.BytesIO(b"")
        return open(path, "rb")

    target = None
    if kind == "symlink" and path is not None:
        target = path.read_bytes()[:4096].decode("utf-8", "replace")
    mode = entry.posix_mode
    return Member(
        name=entry.filename,
        open=opener,
        size=entry.uncompressed,
        compressed_size=None,
        kind=kind,
        mode=stat.S_IMODE(mode) if mode else None,
        link_target=target,
    )


def _kind(entry: py7zr.py7zr.ArchiveFile) -> MemberKind:
    if entry.is_directory:
        return "dir"
    if entry.is_symlink or entry.is_junction:
        return "symlink"
    if entry.is_socket:
        return "other"
    fmt = entry.st_fmt
    if fmt is not None and (stat.S_ISCHR(fmt) or stat.S_ISBLK(fmt)):
        return "device"
    if fmt is not None and stat.S_ISFIFO(fmt):
        return "fifo"
    return "file"
