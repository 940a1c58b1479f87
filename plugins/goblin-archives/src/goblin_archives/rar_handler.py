"""RAR 4 and 5 through rarfile, with Debian's ``unar`` as its decoder and bsdtar as fallback.

rarfile reads the headers itself (names, sizes, flags, encryption) and runs
the decoder tool to stream each compressed member out of a pipe. What
neither tool can decode (some solid or header-encrypted RAR 4 archives) is
an UnsupportedFormat saying so.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import rarfile

from goblin_archives.guarded import GuardedStream
from goblin_archives.listing import refuse_oversized_listing
from goblin_archives.passwords import password_for
from goblin_archives.scratch import Scratch
from goblin_archives.sniffers import rar_behind_program
from goblin_archives.volumes import later_volume, next_rar_volume, volume_member
from goblin_core.child_environment import child_environment
from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits, BaseEngine, Member, MemberKind
from goblin_core.errors import CorruptDocument, PasswordRequired, UnsupportedFormat
from goblin_core.source import Source

_SETUP_LOCK = threading.Lock()


def configure_tools() -> None:
    """Point rarfile at ``unar`` first and ``bsdtar`` second, never at unrar or 7z, and
    have it start them without goblin's secrets in their environment."""
    with _SETUP_LOCK:
        rarfile.custom_popen = _tool_process
        rarfile.UNAR_TOOL = "unar"
        rarfile.BSDTAR_TOOL = "bsdtar"
        try:
            rarfile.tool_setup(unrar=False, unar=True, bsdtar=True, sevenzip=False,
                               sevenzip2=False, force=True)
        except rarfile.RarCannotExec:
            return  # available() reports the missing tools


def _tool_process(argv: list[str]) -> subprocess.Popen[bytes]:
    """rarfile's decoder tool, started as rarfile starts it (its output one pipe, nothing to
    read) but with the environment every tool goblin runs gets: ``$GOBLIN_PASSWORD`` out."""
    try:
        return subprocess.Popen(argv, bufsize=0, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=child_environment())
    except OSError as exc:
        # what rarfile's own starter raises, so that it tries the next tool
        if exc.errno in (errno.ENOENT, errno.EACCES, errno.EPERM):
            raise rarfile.RarCannotExec(f"cannot run {argv[0]}: {exc.strerror}") from None
        raise


class RarHandler(BaseEngine):
    """RAR 4 and RAR 5 archives, multi-volume sets read from their first volume."""

    name = "archive.rar"
    formats = ("application/vnd.rar", "application/x-rar-compressed")
    priority = 50

    def available(self) -> tuple[bool, str]:
        if shutil.which("unar") or shutil.which("bsdtar"):
            return True, ""
        return False, "neither unar nor bsdtar found: apt-get install unar libarchive-tools"

    def members(self, source: Source, limits: ArchiveLimits, config: Config) -> Iterator[Member]:
        configure_tools()
        display = source.display_name
        password = password_for(config)
        path = source.path()
        try:
            archive, sealed = _open(path, display, password)
        except _LaterVolume as exc:
            yield volume_member(source, later_volume(source) or str(exc))
            return
        _check_next_volume(archive, display)
        if len(archive.volumelist()) > 1:
            yield from _members(archive, display, password, limits, sealed)
            return
        # unar guesses volume sets from sibling file names (a.rar beside b.rar can look
        # like one set); reading a lone archive through a private link stops that guess.
        with Scratch() as scratch:
            alone = scratch.path / "archive.rar"
            start = rar_behind_program(source)
            if start is None:
                os.symlink(os.path.abspath(path), alone)
            else:
                # A self-extractor: unar does not find the archive behind every program
                # (nor decrypt it there), so it is given the archive alone.
                _copy_from(path, start, alone)
            archive, sealed = _open(alone, display, password)
            yield from _members(archive, display, password, limits, sealed)


def _check_next_volume(archive: rarfile.RarFile, display: str) -> None:
    """Raise, naming the missing file, when the set continues past its last volume found.

    rarfile lists the volumes it finds beside the first; when the next is missing
    the listing ends with a member split across into it, and a lone first volume
    read through a private link would fail on the link's name.
    """
    volumes = archive.volumelist()
    last = len(volumes) - 1
    split = [info for info in archive.infolist()
             if info.volume == last and info.flags & rarfile.RAR_FILE_SPLIT_AFTER]
    if not split:
        return
    found = Path(volumes[-1]).name
    missing = next_rar_volume(found)
    raise CorruptDocument(
        f"part {last + 2} of the RAR set, {missing or 'the volume after ' + found}, is missing: "
        f"{split[0].filename!r} continues in it; put every part of the set beside "
        f"{Path(volumes[0]).name}", file=display)


def _copy_from(path: Path, offset: int, target: Path) -> None:
    with open(path, "rb") as stream, open(target, "wb") as out:
        stream.seek(offset)
        shutil.copyfileobj(stream, out)


def _open(path: Path, display: str, password: str | None) -> tuple[rarfile.RarFile, bool]:
    """The open archive, and whether its headers are encrypted (then the password is proven)."""
    try:
        archive = rarfile.RarFile(str(path))
        # Encrypted headers: rarfile lists nothing until it has the password.
        sealed = archive.needs_password() and not archive.infolist()
        if sealed and not password:
            raise PasswordRequired("the RAR headers are encrypted; set goblin.password "
                                   "(or archives.password)", file=display)
        if archive.needs_password() and password:
            if sealed:
                _unseal(archive, password, display)
            else:
                archive.setpassword(password)
        return archive, sealed
    except rarfile.PasswordRequired as exc:
        if not password:
            raise PasswordRequired("the RAR headers are encrypted; set goblin.password "
                                   "(or archives.password)", file=display) from exc
        return _open_with_password(path, display, password), True
    except rarfile.NeedFirstVolume as exc:
        raise _LaterVolume(
            f"a later volume of a multi-volume RAR set ({exc}; read through its first volume, "
            ".part1.rar or .rar, kept in the same folder)") from exc
    except rarfile.NoCrypto as exc:
        raise UnsupportedFormat(f"encrypted RAR headers need the cryptography package: {exc}",
                                file=display) from exc
    except (rarfile.Error, OSError) as exc:
        raise CorruptDocument(f"rarfile cannot read it: {type(exc).__name__}: {exc}",
                              file=display) from exc


def _unseal(archive: rarfile.RarFile, password: str, display: str) -> None:
    """Decrypt the headers with ``password``; a wrong one garbles them, which is no damage."""
    try:
        archive.setpassword(password)
        listed = archive.infolist()
    except rarfile.Error as exc:
        raise PasswordRequired(f"the password does not open the RAR headers ({exc}); "
                               "check goblin.password", file=display) from exc
    if not listed:
        raise PasswordRequired("the password does not open the RAR headers; "
                               "check goblin.password", file=display)


class _LaterVolume(Exception):
    """The file is a later volume of a RAR set: skipped, read through the first volume."""


def _open_with_password(path: Path, display: str, password: str) -> rarfile.RarFile:
    try:
        archive = rarfile.RarFile(str(path), pwd=password)
        archive.infolist()
    except rarfile.Error as exc:
        raise PasswordRequired(f"the password does not open the RAR headers ({exc}); "
                               "check goblin.password", file=display) from exc
    return archive


def _members(archive: rarfile.RarFile, display: str, password: str | None,
             limits: ArchiveLimits, sealed: bool) -> Iterator[Member]:
    # When decoding fails: solid and header-encrypted archives are beyond unar at times;
    # a member-encrypted one most likely has the wrong password; the rest are damaged.
    hard = _SEALED if sealed else _SOLID if archive.is_solid() else ""
    with archive:
        infos = archive.infolist()
        refuse_oversized_listing(len(infos), limits, display)
        for info in infos:
            yield _member(archive, info, display, password, hard)
        cut = _cut_short(archive)
    if cut:
        # rarfile ends the listing where the file ends, in silence: a RAR cut inside a
        # header read as whole, one cut after its signature as an empty archive
        kept = (f"the {len(infos):,} members listed before it are read" if infos
                else "no member is listed")
        raise CorruptDocument(f"the RAR is cut short ({cut}): {kept}", file=display)


def _cut_short(archive: rarfile.RarFile) -> str:
    """Why the listing stopped short of the archive's end, or '' when it did not."""
    error = archive.strerror()
    if error:
        return str(error)
    volume = archive.volumelist()[-1] if archive.volumelist() else archive.filename
    if not archive.infolist() and volume and os.path.getsize(volume) <= _LONGEST_SIGNATURE:
        return "nothing follows its signature"
    return ""


#: RAR 5's signature; RAR 1.5 to 4's is a byte shorter. An archive is longer still: its
#: main header follows.
_LONGEST_SIGNATURE = 8
_MAX_LINK_BYTES = 4096

#: Why a member of a header-encrypted or a solid RAR may not decode though nothing is damaged.
_SEALED = ("the password opened the encrypted headers (the members are listed), but unar "
           "cannot decode the members of every header-encrypted RAR and bsdtar has no RAR "
           "decryption")
_SOLID = "unar and bsdtar cannot read every solid RAR"


def _member(archive: rarfile.RarFile, info: rarfile.RarInfo, display: str,
            password: str | None, hard: str) -> Member:
    where = f"{display}/{info.filename}"
    encrypted = info.needs_password()

    def opener() -> BinaryIO:
        if encrypted and not password:
            raise PasswordRequired("the member is encrypted; set goblin.password "
                                   "(or archives.password)", file=where)
        try:
            inner = archive.open(info, pwd=password if encrypted else None)
        except rarfile.RarWrongPassword as exc:
            raise PasswordRequired("the password does not open it; check goblin.password",
                                   file=where) from exc
        except (rarfile.Error, OSError) as exc:
            raise _unreadable(where, exc, hard, encrypted) from exc
        stream = GuardedStream(_RarStream(inner, where, hard, encrypted), where)
        return stream  # type: ignore[return-value]

    return Member(
        name=info.filename,
        open=opener,
        size=info.file_size,
        compressed_size=info.compress_size or None,
        kind=_kind(info),
        mode=_mode(info),
        link_target=_link_target(archive, info),
        encrypted=encrypted,
    )


class _RarStream:
    """rarfile's member stream; its decoder failures become goblin errors with the reason."""

    def __init__(self, inner: BinaryIO, where: str, hard: str, encrypted: bool) -> None:
        self._inner = inner
        self._where = where
        self._hard = hard
        self._encrypted = encrypted

    def read(self, size: int = -1) -> bytes:
        try:
            return self._inner.read(size)
        except rarfile.Error as exc:
            raise _unreadable(self._where, exc, self._hard, self._encrypted) from exc

    def close(self) -> None:
        self._inner.close()


def _unreadable(where: str, exc: Exception, hard: str, encrypted: bool) -> Exception:
    """What a decoder failure means; ``hard`` says why this archive may be beyond the tools."""
    tool = rarfile.CURRENT_SETUP.get_cmdline("open_cmd", "x")[0] if rarfile.CURRENT_SETUP else "?"
    reason = f"{tool} could not decode it ({type(exc).__name__}: {exc})"
    if encrypted and not hard:
        return PasswordRequired(f"{reason}: the password does not open it; check goblin.password",
                                file=where)
    if hard or isinstance(exc, rarfile.RarCannotExec):
        why = hard or "no RAR decoder could run"
        return UnsupportedFormat(
            f"{reason}; {why}; extract it with unrar and pass the folder", file=where,
        )
    return CorruptDocument(f"{reason}; the archive is damaged", file=where)


def _kind(info: rarfile.RarInfo) -> MemberKind:
    if info.is_dir():
        return "dir"
    if info.is_symlink():
        return "symlink"
    redir = getattr(info, "file_redir", None)
    if redir and redir[0] in (rarfile.RAR5_XREDIR_HARD_LINK, rarfile.RAR5_XREDIR_FILE_COPY):
        return "hardlink"
    return "file"


def _mode(info: rarfile.RarInfo) -> int | None:
    mode = getattr(info, "mode", None)
    if mode is None or info.host_os != rarfile.RAR_OS_UNIX:
        return None
    return int(mode) & 0o7777


def _link_target(archive: rarfile.RarFile, info: rarfile.RarInfo) -> str | None:
    redir = getattr(info, "file_redir", None)
    if redir:
        return str(redir[2])
    # Before RAR 5 a symlink's target is its content: a path, read only when that small.
    if info.is_symlink() and not info.needs_password() and info.file_size <= _MAX_LINK_BYTES:
        try:
            return archive.read(info).decode("utf-8", "replace")
        except (rarfile.Error, OSError):
            return None
    return None
