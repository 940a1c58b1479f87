"""zip through the standard library, with Deflate64, WinZip AES and legacy-encoded names.

Members are decompressed lazily, one at a time, straight from the archive;
names stored without the UTF-8 flag are decoded with the encoding the
archive's names as a whole point to (GBK, Shift_JIS, cp437...). AES members
go through pyzipper (``aes_zip``), the rest through zipfile.
"""

from __future__ import annotations

import io
import stat
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

import zipfile_deflate64  # noqa: F401 - registers Deflate64 (method 9) with zipfile

from goblin_archives.aes_zip import AES_METHOD, AesReader
from goblin_archives.guarded import GuardedStream, translated
from goblin_archives.listing import ZIP_TAIL, refuse_oversized_listing, zip_declared_count
from goblin_archives.modes import kind_of_mode
from goblin_archives.names import decode_name, guess_encoding
from goblin_archives.passwords import password_for
from goblin_archives.scratch import ByteMeter
from goblin_archives.spanned_zip import spanned_members
from goblin_archives.volumes import later_volume, spanned_zip_set, volume_member, whole_file
from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits, BaseEngine, Member, MemberKind
from goblin_core.errors import PasswordRequired
from goblin_core.source import Source

_UTF8_FLAG = 0x800
_ENCRYPTED_FLAG = 0x1
_LOCAL_HEADER = b"PK\x03\x04"


class ZipHandler(BaseEngine):
    """ZIP and ZIP64 archives (stored, deflate, deflate64, bzip2, lzma)."""

    name = "archive.zip"
    formats = ("application/zip",)
    priority = 50

    def members(self, source: Source, limits: ArchiveLimits, config: Config) -> Iterator[Member]:
        reason = later_volume(source)
        if reason and source.head(4) != _LOCAL_HEADER:
            yield volume_member(source, reason)
            return
        spanned = spanned_zip_set(source)
        if spanned is not None:
            yield from spanned_members(spanned, source.display_name, limits, config)
            return
        with whole_file(source) as (opener, size):
            meter = ByteMeter(limits, max(size, 1), source.display_name)
            yield from _read(opener, meter, config)


def _read(opener: Callable[[], BinaryIO], meter: ByteMeter, config: Config) -> Iterator[Member]:
    display, limits = meter.display, meter.limits
    stream = opener()
    aes = AesReader(opener)
    try:
        declared = zip_declared_count(_tail(stream))
        if declared is not None:
            refuse_oversized_listing(declared, limits, display)
        with translated(display, "reading the zip directory"):
            archive = zipfile.ZipFile(stream)
        with archive:
            infos = archive.infolist()
            refuse_oversized_listing(len(infos), limits, display)
            names = _names(infos, str(config.get("archives", "name_encoding") or ""))
            password = password_for(config)
            for index, (info, name) in enumerate(zip(infos, names, strict=True)):
                meter.check_total()
                opened = _Opened(archive, aes, index, meter)
                yield _member(opened, info, name, display, password)
    finally:
        aes.close()
        stream.close()


def _tail(stream: BinaryIO) -> bytes:
    end = stream.seek(0, io.SEEK_END)
    stream.seek(max(0, end - ZIP_TAIL))
    tail = stream.read(ZIP_TAIL)
    stream.seek(0)
    return tail


@dataclass(frozen=True)
class _Opened:
    """The open archive a member comes from, and its place in the central directory."""

    archive: zipfile.ZipFile
    aes: AesReader
    index: int
    meter: ByteMeter


def _names(infos: list[zipfile.ZipInfo], forced: str) -> list[str]:
    legacy = [i for i in infos if not i.flag_bits & _UTF8_FLAG]
    if not legacy:
        return [i.filename for i in infos]
    # zipfile decoded these as cp437; encoding back gives the stored bytes.
    raw = {id(i): i.filename.encode("cp437") for i in legacy}
    encoding = guess_encoding(list(raw.values()), forced)
    return [decode_name(raw[id(i)], encoding) if id(i) in raw else i.filename for i in infos]


def _member(opened: _Opened, info: zipfile.ZipInfo, name: str, display: str,
            password: str | None) -> Member:
    encrypted = bool(info.flag_bits & _ENCRYPTED_FLAG)
    where = f"{display}/{name}"
    archive = opened.archive

    def opener() -> BinaryIO:
        if info.compress_type == AES_METHOD:
            with translated(where, "opening the AES member"):
                decrypted = opened.aes.open(opened.index, where, password)
            return GuardedStream(decrypted, where, meter=opened.meter)  # type: ignore[return-value]
        if encrypted and not password:
            raise PasswordRequired("the member is encrypted; set goblin.password "
                                   "(or archives.password)", file=where)
        with translated(where, "opening the member"):
            try:
                secret = password.encode() if encrypted and password else None
                inner = archive.open(info, pwd=secret)
            except RuntimeError as exc:  # zipfile's way of saying "bad password"
                raise PasswordRequired(f"the password does not open it ({exc}); "
                                       "check goblin.password", file=where) from exc
        return GuardedStream(inner, where, meter=opened.meter)  # type: ignore[return-value]

    mode = info.external_attr >> 16 if info.create_system == 3 else None
    return Member(
        name=name,
        open=opener,
        size=info.file_size,
        compressed_size=info.compress_size,
        kind=_kind(info, mode),
        mode=mode & 0o7777 if mode else None,
        link_target=_link_target(archive, info) if mode and stat.S_ISLNK(mode) else None,
        encrypted=encrypted,
    )


def _kind(info: zipfile.ZipInfo, mode: int | None) -> MemberKind:
    if info.is_dir():
        return "dir"
    return kind_of_mode(mode, "file") if mode else "file"


def _link_target(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> str | None:
    # A zip symlink's target is its (small) content; read at most a path's worth.
    if info.file_size > 4096 or info.flag_bits & _ENCRYPTED_FLAG:
        return None
    try:
        with archive.open(info) as handle:
            return handle.read(4096).decode("utf-8", "replace")
    except (OSError, zipfile.BadZipFile, RuntimeError, ValueError):
        return None
