"""zip through the standard library, with Deflate64, WinZip AES and legacy-encoded names.

Members are decompressed lazily, one at a time, straight from the archive;
names stored without the UTF-8 flag are decoded with the encoding the
archive's names as a whole point to (GBK, Shift_JIS, cp437...). AES members
go through pyzipper (``aes_zip``), the rest through zipfile.
"""

from __future__ import annotations

import copy
import io
import stat
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, BinaryIO

import zipfile_deflate64  # noqa: F401 - registers Deflate64 (method 9) with zipfile

from goblin_archives.aes_zip import AES_METHOD, AesReader
from goblin_archives.guarded import GuardedStream, translated
from goblin_archives.last_resort import last_resort_runs, noting_failures
from goblin_archives.listing import ZIP_TAIL, refuse_oversized_listing, zip_declared_count
from goblin_archives.modes import kind_of_mode
from goblin_archives.names import decode_name, guess_encoding
from goblin_archives.passwords import password_for
from goblin_archives.scratch import ByteMeter
from goblin_archives.spanned_zip import spanned_members
from goblin_archives.volumes import later_volume, spanned_zip_set, volume_member, whole_file
from goblin_archives.zip_end import CommentCut, hidden_end_record
from goblin_archives.zip_local import RebuiltZip, end_inside_first_member, rebuilt_directory
from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits, BaseEngine, Member, MemberKind
from goblin_core.errors import CorruptDocument, PasswordRequired, UnsafeArchive, UnsupportedFormat
from goblin_core.source import Source

_UTF8_FLAG = 0x800
_ENCRYPTED_FLAG = 0x1
_LOCAL_HEADER = b"PK\x03\x04"


class ZipHandler(BaseEngine):
    """ZIP and ZIP64 archives (stored, deflate, deflate64, bzip2, lzma)."""

    name = "archive.zip"
    formats = ("application/zip",)
    priority = 50

    @noting_failures
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
    record = hidden_end_record(stream)
    if record is not None:
        # zipfile would take a record inside the comment: read up to the zip's own.
        whole_opener = opener
        stream = CommentCut(stream, record)  # type: ignore[assignment]

        def opener() -> BinaryIO:
            return CommentCut(whole_opener(), record)  # type: ignore[return-value]

    damage: CorruptDocument | None = None
    if end_inside_first_member(stream):
        # zipfile would read a zip stored in the first member as the whole file
        rebuilt = rebuilt_directory(stream, limits.max_members + 1)
        damage = CorruptDocument(
            "the zip's own directory is missing (the file is cut short or damaged): the last "
            "end record in it belongs to a zip stored inside one of its members; "
            f"{rebuilt.members} whole member(s) were read through their local headers; not "
            f"read: {rebuilt.stopped}", file=display)
        if not rebuilt.members:
            stream.close()
            raise damage  # nothing here to read: the handler of last resort may do better
        cut_opener = opener
        stream = RebuiltZip(stream, rebuilt)  # type: ignore[assignment]

        def opener() -> BinaryIO:
            return RebuiltZip(cut_opener(), rebuilt)  # type: ignore[return-value]

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
            _refuse_undecodable_methods(infos, display, config)
            password = password_for(config)
            shared = _overlapping(infos, names)
            for index, (info, name) in enumerate(zip(infos, names, strict=True)):
                meter.check_total()
                opened = _Opened(archive, aes, index, meter, shared.get(index, ""))
                yield _member(opened, info, name, display, password)
        if damage is not None:
            raise damage
    finally:
        aes.close()
        stream.close()


#: Methods zipfile decodes (Deflate64 once zipfile-deflate64 registered it), and WinZip
#: AES, which pyzipper reads.
_DECODED_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2,
                              zipfile.ZIP_LZMA, 9, AES_METHOD})


def _refuse_undecodable_methods(infos: list[zipfile.ZipInfo], display: str,
                                config: Config) -> None:
    """Hand the whole archive to 7-Zip, the handler of last resort, when a member is stored
    with a method zipfile does not decode (PPMd, zstd, xz...) and 7-Zip can run: once
    members are read here it would not be asked."""
    methods = sorted({i.compress_type for i in infos} - _DECODED_METHODS)
    if methods and last_resort_runs(config, "zip"):
        raise UnsupportedFormat(f"{_method_names(methods)}, which zipfile does not decode",
                                file=display)


def _method_names(methods: list[int]) -> str:
    named = {93: "zstd", 95: "xz", 96: "JPEG", 97: "WavPack", 98: "PPMd"}
    return "stored with " + ", ".join(f"method {m}" + (f" ({named[m]})" if m in named else "")
                                      for m in methods)


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
    overlaps: str = ""


def _overlapping(infos: list[zipfile.ZipInfo], names: list[str]) -> dict[int, str]:
    """The entries whose stored bytes overlap another entry's, each with that entry's name.

    An honest zip stores each member once, after its own local header; entries
    sharing one compressed kernel (an overlapping-entry bomb: every entry tiny
    on its own, the archive a million times its size) point into each other.
    Each span is its shortest possible length (a 30-byte local header with no
    name or extra field, then the packed data), so no honest layout is flagged.
    """
    # Offsets count from the start of the entry's own disk (a segment of a spanned zip).
    spans = sorted((info.volume, info.header_offset, info.header_offset + 30 + info.compress_size,
                    index) for index, info in enumerate(infos))
    found: dict[int, str] = {}
    disk, reach, holder = -1, -1, -1
    for volume, start, end, index in spans:
        if volume != disk:
            disk, reach = volume, -1
        if start < reach:
            found[index] = names[holder]
            found.setdefault(holder, names[index])
        if end > reach:
            reach, holder = end, index
    return found


def _names(infos: list[zipfile.ZipInfo], forced: str) -> list[str]:
    # zipfile cuts ``filename`` at a NUL (``evil.txt\0.pdf`` becomes ``evil.txt``) where
    # other tools may not; the name as stored is judged, and refused, as a whole.
    # zipfile decoded names without the UTF-8 flag as cp437; encoding back gives the bytes.
    raw = {id(i): i.orig_filename.encode("cp437") for i in infos
           if not i.flag_bits & _UTF8_FLAG}
    unicode = {key: name for i in infos if (key := id(i)) in raw
               and (name := unicode_path(i.extra, raw[key])) is not None}
    legacy = [name for key, name in raw.items() if key not in unicode]
    if not legacy:
        return [unicode.get(id(i), i.orig_filename) for i in infos]
    encoding = guess_encoding(legacy, forced)
    return [unicode[id(i)] if id(i) in unicode
            else decode_name(raw[id(i)], encoding) if id(i) in raw else i.orig_filename
            for i in infos]


_UNICODE_PATH = 0x7075


def unicode_path(extra: bytes, stored: bytes) -> str | None:
    """The name an Info-ZIP Unicode Path extra field (0x7075) gives, when it is there and
    its CRC-32 matches ``stored``, the legacy name bytes it stands for (a tool that renamed
    the member without updating the field left a stale name, which APPNOTE says to ignore).

    >>> import zlib
    >>> field = b"\\x01" + zlib.crc32(b"??.txt").to_bytes(4, "little") + "文件.txt".encode()
    >>> unicode_path(b"up" + len(field).to_bytes(2, "little") + field, b"??.txt")
    '文件.txt'
    >>> unicode_path(b"up" + len(field).to_bytes(2, "little") + field, b"other.txt") is None
    True
    """
    pos = 0
    while pos + 4 <= len(extra):
        tag, size = struct.unpack_from("<HH", extra, pos)
        body = extra[pos + 4:pos + 4 + size]
        pos += 4 + size
        if tag != _UNICODE_PATH or len(body) < 5 or body[0] != 1:
            continue
        if struct.unpack_from("<I", body, 1)[0] != zlib.crc32(stored):
            return None
        try:
            return body[5:].decode("utf-8") or None
        except UnicodeDecodeError:
            return None
    return None


def _member(opened: _Opened, info: zipfile.ZipInfo, name: str, display: str,
            password: str | None) -> Member:
    encrypted = bool(info.flag_bits & _ENCRYPTED_FLAG)
    where = f"{display}/{name}"
    archive = opened.archive

    def opener() -> BinaryIO:
        if opened.overlaps:
            raise UnsafeArchive(f"its stored bytes overlap those of {opened.overlaps!r} (an "
                                "overlapping-entry zip bomb); not read", file=where)
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
                inner = _open_member(archive, info, secret)
            except NotImplementedError as exc:  # a RuntimeError, but no password problem
                raise UnsupportedFormat(f"{_method_names([info.compress_type])}, which "
                                        f"zipfile does not decode ({exc})", file=where) from exc
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


#: The MS-DOS attribute of a folder, in the low byte of a zip entry's external attributes.
_DOS_DIRECTORY = 0x10


def _open_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo,
                 secret: bytes | None) -> IO[bytes]:
    """``archive.open(info)``, forgiving a local header that spells the same name bytes
    without the UTF-8 flag the directory sets (or the other way round).

    zipfile compares the names decoded each with its own header's flag, so the same
    bytes read as UTF-8 in one and cp437 in the other differ, and the member was
    refused as damaged; 7-Zip, bsdtar and unzip compare no such thing.
    """
    try:
        return archive.open(info, pwd=secret)
    except zipfile.BadZipFile:
        local = _local_name(archive, info)
        if local is None or local[0] != _stored_name(info):
            raise
        spelled = copy.copy(info)
        spelled.orig_filename = local[0].decode("utf-8" if local[1] else "cp437")
        return archive.open(spelled, pwd=secret)


def _stored_name(info: zipfile.ZipInfo) -> bytes:
    """The name bytes the central directory holds for ``info``."""
    encoding = "utf-8" if info.flag_bits & _UTF8_FLAG else "cp437"
    return info.orig_filename.encode(encoding, "surrogateescape")


def _local_name(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple[bytes, bool] | None:
    """The name bytes of ``info``'s local header and whether it sets the UTF-8 flag."""
    handle = archive.fp
    if handle is None:
        return None
    handle.seek(info.header_offset)
    header = handle.read(30)
    if len(header) < 30 or header[:4] != _LOCAL_HEADER:
        return None
    flags, = struct.unpack_from("<H", header, 6)
    length, = struct.unpack_from("<H", header, 26)
    return handle.read(length), bool(flags & _UTF8_FLAG)


def _kind(info: zipfile.ZipInfo, mode: int | None) -> MemberKind:
    # ZipInfo.is_dir() fails on a member with an empty name, which a hostile zip may hold;
    # Windows tools end a folder's name with a backslash, or mark it by its attribute alone.
    if info.filename.endswith(("/", "\\")):
        return "dir"
    if mode and stat.S_ISFIFO(mode):
        # zip stores no fifos: `producer | zip out.zip -` records the mode of its standard
        # input, a pipe, over the bytes it read from it. unzip and bsdtar write a file.
        return "file"
    if mode and stat.S_IFMT(mode):
        return kind_of_mode(mode, "file")
    if info.external_attr & _DOS_DIRECTORY and info.file_size == 0:
        return "dir"
    return "file"


def _link_target(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> str | None:
    # A zip symlink's target is its (small) content; read at most a path's worth.
    if info.file_size > 4096 or info.flag_bits & _ENCRYPTED_FLAG:
        return None
    try:
        with archive.open(info) as handle:
            return handle.read(4096).decode("utf-8", "replace")
    except (OSError, zipfile.BadZipFile, RuntimeError, ValueError):
        return None
