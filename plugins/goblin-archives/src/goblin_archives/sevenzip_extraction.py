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
                                                     list[_MeteredFile | None],
                                                     GoblinError | None]:
    """Decompress every member of the archive ``opener`` reads into ``folder``.

    Returns the listing and, entry by entry, the file written (None for a member
    not decompressed: a folder, or a name the core refuses), and the damage that
    stopped decoding: then the listing ends before the member it fell in, so the
    members decoded whole before it are still read.
    """
    factory = _MeteredFactory(folder, meter)
    damage: GoblinError | None = None
    stream = opener()
    try:
        with translated(display, "reading the 7z archive"):
            try:
                archive = py7zr.SevenZipFile(stream, mode="r", password=password)
            except py7zr.exceptions.PasswordRequired as exc:
                raise _password_error(display, password) from exc
            except py7zr.exceptions.ArchiveError as exc:
                raise _archive_error(display, exc, "read") from exc
            with archive:
                files = list(archive.files)
                refuse_oversized_listing(len(files), meter.limits, display)
                if archive.needs_password() and not password:
                    raise _password_error(display, password)
                # py7zr stops the whole archive at the first name it finds unsafe; only
                # names the core accepts are decompressed, the others are listed so the
                # core refuses and reports them by their own name.
                targets = [f.filename for f in files if safe_member_name(f.filename)[0]]
                try:
                    archive.extract(targets=targets, factory=factory)
                except GoblinError:
                    raise  # a limit the meter enforced, not damage
                except py7zr.exceptions.PasswordRequired as exc:
                    raise _password_error(display, password) from exc
                except _DAMAGE as exc:
                    if password and archive.needs_password():
                        raise _password_error(display, password) from exc
                    damage = _archive_error(display, exc, "extract")
                    factory.drop_unfinished()
    finally:
        stream.close()
        for written in factory.created:
            written.close()
    found = _written_by_entry(files, set(targets), factory.files)
    if damage is not None:
        # py7zr decodes in listing order: the first member it should have written and
        # did not is where the damage is; nothing after it was decoded.
        lost = next((index for index, (entry, file) in enumerate(zip(files, found, strict=True))
                     if file is None and entry.filename in targets
                     and not entry.is_directory), len(files))
        files, found = files[:lost], found[:lost]
    return files, found, damage


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


def _archive_error(display: str, exc: BaseException, doing: str) -> GoblinError:
    """What py7zr's failure means: a method it lacks is no damage, a CRC names its member."""
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
    return CorruptDocument(f"py7zr cannot {doing} it ({reason}); the archive is truncated or "
                           "damaged", file=display)


def _password_error(display: str, password: str | None) -> PasswordRequired:
    if password:
        return PasswordRequired("the password does not open this 7z archive; check goblin.password",
                                file=display)
    return PasswordRequired("the 7z archive is encrypted; set goblin.password "
                            "(or archives.password)", file=display)


def member(entry: py7zr.py7zr.ArchiveFile, written: _MeteredFile | None) -> Member:
    """The goblin Member for one listed entry and the file it was written to."""
    kind = _kind(entry)
    path = written.path if written is not None else None

    def opener() -> BinaryIO:
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
