"""Hostile and damaged archives, built inside the tests (never stored in the repository)."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import io
import os
import struct
import subprocess
import tarfile
import zipfile
import zlib
from pathlib import Path
from xml.sax.saxutils import escape

import py7zr

MIB = 1024 * 1024


def zeros_zip(path: Path, megabytes: int = 100, name: str = "zeros.bin") -> Path:
    """A deflate bomb: ``megabytes`` of zeros in one member (about 1000:1)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive, \
            archive.open(name, "w", force_zip64=True) as member:
        chunk = bytes(MIB)
        for _ in range(megabytes):
            member.write(chunk)
    return path


def nested_bomb(path: Path, copies: int = 16) -> Path:
    """A zip holding ``copies`` deflate bombs (the 42.zip shape, one level)."""
    inner = zeros_zip(path.with_suffix(".inner.zip"), 64).read_bytes()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for number in range(copies):
            archive.writestr(f"bomb{number}.zip", inner)
    os.unlink(path.with_suffix(".inner.zip"))
    return path


def gzip_bomb(path: Path, megabytes: int = 200) -> Path:
    with gzip.open(path, "wb", compresslevel=9) as out:
        chunk = bytes(MIB)
        for _ in range(megabytes):
            out.write(chunk)
    return path


def tar_gz_bomb(path: Path, megabytes: int = 200) -> Path:
    class Zeros(io.RawIOBase):
        def __init__(self, size: int) -> None:
            self.left = size

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
            count = min(len(buffer), self.left)
            buffer[:count] = bytes(count)
            self.left -= count
            return count

    with tarfile.open(path, "w:gz") as archive:
        info = tarfile.TarInfo("zeros.bin")
        info.size = megabytes * MIB
        archive.addfile(info, io.BufferedReader(Zeros(info.size)))
    return path


def sevenzip_bomb(path: Path, megabytes: int = 64) -> Path:
    with py7zr.SevenZipFile(path, "w") as archive:
        archive.writef(io.BytesIO(bytes(megabytes * MIB)), "zeros.bin")
    return path


def traversal_zip(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name in ("../escape.txt", "../../escape2.txt", "safe/../../dotdot.txt",
                     "..\\win-escape.txt", "/abs-escape.txt", "C:\\drive-escape.txt",
                     "ok.txt"):
            info = zipfile.ZipInfo(name)
            info.filename = name  # keep the hostile name exactly as written
            archive.writestr(info, f"payload of {name}")
    return path


def symlink_tar(path: Path) -> Path:
    with tarfile.open(path, "w") as archive:
        for name, target, kind in (("link-out", "/etc/passwd", tarfile.SYMTYPE),
                                   ("link-up", "../../outside", tarfile.SYMTYPE),
                                   ("hard-out", "/etc/shadow", tarfile.LNKTYPE)):
            info = tarfile.TarInfo(name)
            info.type = kind
            info.linkname = target
            archive.addfile(info)
        _add_file(archive, "link-up/pwned.txt", b"written through a link?")
        _add_file(archive, "plain.txt", b"plain text member")
    return path


def device_tar(path: Path) -> Path:
    with tarfile.open(path, "w") as archive:
        for name, kind in (("dev/null-copy", tarfile.CHRTYPE), ("dev/sda", tarfile.BLKTYPE),
                           ("pipe", tarfile.FIFOTYPE)):
            info = tarfile.TarInfo(name)
            info.type = kind
            info.devmajor, info.devminor = 1, 3
            archive.addfile(info)
        _add_file(archive, "suid.sh", b"#!/bin/sh\necho root\n", mode=0o6755)
    return path


def deep_zip(path: Path, depth: int = 40) -> Path:
    data = b"the bottom of the well"
    name = "bottom.txt"
    for level in range(depth):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr(name, data)
        data, name = buffer.getvalue(), f"level{depth - level}.zip"
    path.write_bytes(data)
    return path


def many_members_zip(path: Path, count: int = 200_000) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for number in range(count):
            archive.writestr(f"e{number}", b"")
    return path


def truncated(path: Path, data: bytes, keep: float = 0.5) -> Path:
    path.write_bytes(data[: max(1, int(len(data) * keep))])
    return path


def sevenzip_bytes(payload: bytes) -> bytes:
    buffer = io.BytesIO()
    with py7zr.SevenZipFile(buffer, "w") as archive:
        archive.writef(io.BytesIO(payload), "payload.txt")
    return buffer.getvalue()


def bzip2_bytes(payload: bytes) -> bytes:
    return bz2.compress(payload)


def text_payload(size: int = 400_000) -> bytes:
    words = [f"palavra{n % 977} licitação {n}".encode() for n in range(size // 20)]
    return b" ".join(words)[:size]


def tar_gz_bytes(members: dict[str, bytes]) -> bytes:
    """A gzipped tar of ``members`` (name -> content), in memory."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in members.items():
            _add_file(archive, name, data)
    return buffer.getvalue()


def _add_file(archive: tarfile.TarFile, name: str, data: bytes, mode: int = 0o644) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = mode
    archive.addfile(info, io.BytesIO(data))


#: Names that climb out, start at a root or a drive, or hold a NUL, with their payloads.
HOSTILE_NAMES = ("../../x", "/abs.txt", "C:\\drive.txt", "..\\win.txt", "sub/../../dd.txt")
SAFE_TEXT = b"the one harmless member"


def _hostile_members(nul: bool) -> list[tuple[str, bytes]]:
    names = [*HOSTILE_NAMES, *(["evil.txt\x00.pdf"] if nul else [])]
    return [(name, f"ESCAPED {name}".encode()) for name in names] + [("ok.txt", SAFE_TEXT)]


def hostile_names_zip(path: Path) -> Path:
    """A zip of every hostile name (the NUL one patched in: zipfile cuts names there)."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in _hostile_members(nul=True):
            archive.writestr(name.replace("\x00", "X"), data)
    path.write_bytes(path.read_bytes().replace(b"evil.txtX.pdf", b"evil.txt\x00.pdf"))
    return path


def hostile_names_tar(path: Path) -> Path:
    """A pax tar of every hostile name (the NUL one in a pax ``path`` record)."""
    with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as archive:
        for name, data in _hostile_members(nul=True):
            info = tarfile.TarInfo("placeholder" if "\x00" in name else name)
            if "\x00" in name:
                info.pax_headers = {"path": name}
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def hostile_names_7z(path: Path, folder: Path) -> Path:
    """A 7z of every hostile name: written under plain names by the ``7z`` binary, then
    renamed in the archive (py7zr and 7-Zip refuse to write such names from disk)."""
    folder.mkdir(exist_ok=True)
    plain = []
    for number, (name, data) in enumerate(_hostile_members(nul=False)):
        stored = "ok.txt" if name == "ok.txt" else f"m{number}"
        (folder / stored).write_bytes(data)
        plain.append((stored, name))
    run_quietly(["7z", "a", "-bd", str(path), *[s for s, _ in plain]], folder)
    renames = [x for stored, name in plain if stored != name for x in (stored, name)]
    run_quietly(["7z", "rn", "-bd", str(path), *renames], folder)
    return path


def hostile_names_rar(path: Path) -> Path:
    """A RAR 5 archive of the hostile names, members stored (no rar tool needed to build it).

    No NUL: RAR readers (rarfile, unar) end a name there, so all of them read the same
    shorter name.
    """
    path.write_bytes(rar5(_hostile_members(nul=False)))
    return path


def hostile_names_xar(path: Path) -> Path:
    """A xar of the hostile names, each one ``<name>`` element as written (xar tools
    build a tree of path components, so none of them writes such a name). No NUL: XML
    cannot hold one."""
    path.write_bytes(xar_bytes(_hostile_members(nul=False)))
    return path


def xar_bytes(members: list[tuple[str, bytes]]) -> bytes:
    """A xar archive of stored members: header, zlib-compressed XML table of contents,
    then the heap (the table's SHA-1 first, then each member's bytes)."""
    heap = bytearray(20)
    files = []
    for number, (name, data) in enumerate(members, start=1):
        digest = hashlib.sha1(data).hexdigest()
        files.append(
            f'<file id="{number}"><name>{escape(name)}</name><type>file</type><data>'
            f"<length>{len(data)}</length><offset>{len(heap)}</offset><size>{len(data)}</size>"
            '<encoding style="application/octet-stream"/>'
            f'<archived-checksum style="sha1">{digest}</archived-checksum>'
            f'<extracted-checksum style="sha1">{digest}</extracted-checksum></data></file>')
        heap += data
    toc = ('<?xml version="1.0" encoding="UTF-8"?><xar><toc>'
           '<checksum style="sha1"><offset>0</offset><size>20</size></checksum>'
           + "".join(files) + "</toc></xar>").encode()
    packed = zlib.compress(toc)
    heap[:20] = hashlib.sha1(packed).digest()
    header = struct.pack(">4sHHQQI", b"xar!", 28, 1, len(packed), len(toc), 1)
    return header + packed + bytes(heap)


def hostile_names_cpio(path: Path, folder: Path) -> Path:
    """A cpio (newc) of the hostile names, renamed on the way in by ``bsdtar -s``."""
    folder.mkdir(exist_ok=True)
    argv = ["bsdtar", "-P", "--format=newc", "-cf", str(path)]
    files = []
    for number, (name, data) in enumerate(_hostile_members(nul=False)):
        stored = "ok.txt" if name == "ok.txt" else f"m{number}"
        (folder / stored).write_bytes(data)
        files.append(stored)
        if stored != name:
            argv += ["-s", f",^{stored}$,{name.replace(chr(92), chr(92) * 2)},"]
    run_quietly([*argv, *files], folder)
    return path


def run_quietly(argv: list[str], folder: Path) -> None:
    """Run a tool that builds a fixture in ``folder``; its failure fails the test."""
    subprocess.run(argv, cwd=folder, check=True, capture_output=True)


def rar5(members: list[tuple[str, bytes]]) -> bytes:
    """A RAR 5 archive holding ``members`` stored (method 0), names exactly as given."""
    out = bytearray(b"Rar!\x1a\x07\x01\x00")
    out += _rar5_block(_vint(1) + _vint(0) + _vint(0))  # main header, no flags
    for name, data in members:
        raw = name.encode("utf-8")
        # file flags: CRC32 present; size; Unix mode; CRC; compression (stored); host Unix
        fields = (_vint(0x04) + _vint(len(data)) + _vint(0o100644)
                  + zlib.crc32(data).to_bytes(4, "little") + _vint(0) + _vint(1)
                  + _vint(len(raw)) + raw)
        out += _rar5_block(_vint(2) + _vint(0x02) + _vint(len(data)) + fields) + data
    out += _rar5_block(_vint(5) + _vint(0) + _vint(0))  # end of archive
    return bytes(out)


def _rar5_block(body: bytes) -> bytes:
    data = _vint(len(body)) + body
    return zlib.crc32(data).to_bytes(4, "little") + data


def _vint(number: int) -> bytes:
    """RAR 5's variable-length integer: 7 bits a byte, low first, the high bit says more."""
    groups = [number >> shift & 0x7F for shift in range(0, max(number.bit_length(), 1), 7)]
    return bytes(group | 0x80 for group in groups[:-1]) + bytes(groups[-1:])


def crc16_arc(data: bytes) -> int:
    """CRC-16/ARC, the checksum of LHA, ARC and Zoo members."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = crc >> 1 ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def lzh_bytes(members: list[tuple[str, bytes]]) -> bytes:
    """An LHA archive, level-0 headers, members stored (``-lh0-``), names as given."""
    out = bytearray()
    for name, data in members:
        raw = name.encode()
        body = (b"-lh0-" + struct.pack("<IIIBB", len(data), len(data), 0x5A210000, 0x20, 0)
                + bytes([len(raw)]) + raw + struct.pack("<H", crc16_arc(data)))
        out += bytes([len(body), sum(body) & 0xFF]) + body + data
    return bytes(out + b"\x00")


_ZOO_TAG = 0xFDC4A7DC
_ZOO_ENTRY = struct.Struct("<IBBIIHHHIIBBBBIH13s")  # a type 1 directory entry


def zoo_bytes(members: list[tuple[str, bytes]]) -> bytes:
    """A Zoo archive of stored members (type 1 entries: 8.3 names, up to 12 bytes).

    Each entry points at the next; an entry pointing nowhere ends the list.
    """
    start = 34
    out = bytearray(struct.pack("<20sIIiBB", b"ZOO 2.10 Archive.\x1a", _ZOO_TAG, start, -start,
                                1, 0))
    for name, data in members:
        here = len(out)
        data_at = here + _ZOO_ENTRY.size
        out += _ZOO_ENTRY.pack(_ZOO_TAG, 1, 0, data_at + len(data), data_at, 0x5A21, 0,
                               crc16_arc(data), len(data), len(data), 1, 0, 0, 0, 0, 0,
                               name.encode())
        out += data
    out += _ZOO_ENTRY.pack(_ZOO_TAG, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, b"")
    return bytes(out)


def arc_bytes(members: list[tuple[str, bytes]]) -> bytes:
    """An ARC archive (the DOS one of SEA) of stored members (method 2), names up to 12
    bytes as given."""
    out = bytearray()
    for name, data in members:
        out += struct.pack("<BB13sIHHHI", 0x1A, 2, name.encode(), len(data), 0x5A21, 0,
                           crc16_arc(data), len(data)) + data
    return bytes(out + b"\x1a\x00")


def alz_bytes(members: list[tuple[str, bytes]], deflate: bool = False) -> bytes:
    """An ALZip archive of members stored (method 0) or deflated (method 2)."""
    out = bytearray(b"ALZ\x01\x0a\x00\x00\x00")
    for name, data in members:
        raw = name.encode()
        packer = zlib.compressobj(9, zlib.DEFLATED, -15)
        packed = packer.compress(data) + packer.flush() if deflate else data
        # name length, attributes (archive), DOS time, 0x40: sizes take four bytes,
        # the method, CRC-32, packed and unpacked sizes
        out += (b"BLZ\x01" + struct.pack("<HBIBBBBIII", len(raw), 0x20, 0x5A210000, 0x40, 0,
                                         2 if deflate else 0, 0, zlib.crc32(data), len(packed),
                                         len(data))
                + raw + packed)
    return bytes(out + b"CLZ\x01" + bytes(8) + b"CLZ\x02")


_ADF_BLOCK = 512
_ADF_ROOT = 880  # the root block of a double-density disk, in its middle
_ADF_DATA = _ADF_BLOCK - 24  # bytes of a member in each data block of the old file system


def adf_bytes(members: list[tuple[str, bytes]]) -> bytes:
    """An Amiga double-density floppy image (880 KiB), old file system (OFS), holding
    ``members`` in its root folder (each under 72 data blocks, about 35 KB)."""
    disk = bytearray(_ADF_BLOCK * 2 * _ADF_ROOT)
    disk[:4] = b"DOS\x00"
    table = [0] * 72
    free = _ADF_ROOT + 1
    for name, data in members:
        header, free = free, free + 1
        chunks = [data[at:at + _ADF_DATA] for at in range(0, len(data), _ADF_DATA)]
        blocks = list(range(free, free + len(chunks)))
        free += len(chunks)
        for seq, (block, chunk) in enumerate(zip(blocks, chunks, strict=True), start=1):
            following = blocks[seq] if seq < len(blocks) else 0
            _adf_block(disk, block, struct.pack(">6I", 8, header, seq, len(chunk), following, 0)
                       + chunk)
        slot = _adf_hash(name)
        pointers = [0] * (72 - len(blocks)) + blocks[::-1]
        _adf_block(disk, header, struct.pack(">6I", 2, header, len(blocks), 0,
                                             blocks[0] if blocks else 0, 0)
                   + struct.pack(">72I", *pointers), {
                       0x144: struct.pack(">I", len(data)),
                       0x1B0: _bcpl(name),
                       0x1F0: struct.pack(">IiI", table[slot], _ADF_ROOT, 0),
                       0x1FC: struct.pack(">i", -3)})  # a file
        table[slot] = header
    _adf_block(disk, _ADF_ROOT, struct.pack(">6I", 2, 0, 0, 72, 0, 0)
               + struct.pack(">72I", *table), {
                   0x138: struct.pack(">i", -1),
                   0x1B0: _bcpl("ATAS"),
                   0x1FC: struct.pack(">i", 1)})  # the root
    return bytes(disk)


def _bcpl(text: str) -> bytes:
    raw = text.encode("latin-1")
    return bytes([len(raw)]) + raw


def _adf_hash(name: str) -> int:
    """The slot of ``name`` in a folder's hash table (upper case counts as lower)."""
    value = len(name)
    for char in name.upper():
        value = (value * 13 + ord(char)) & 0x7FF
    return value % 72


def _adf_block(disk: bytearray, number: int, start: bytes,
               fields: dict[int, bytes] | None = None) -> None:
    """Write one block: ``start`` at its front, ``fields`` at their offsets, then the
    checksum that makes its 128 longs add up to zero."""
    block = bytearray(_ADF_BLOCK)
    block[:len(start)] = start
    for offset, value in (fields or {}).items():
        block[offset:offset + len(value)] = value
    total = sum(struct.unpack(">128I", block)) & 0xFFFFFFFF
    block[20:24] = struct.pack(">I", -total & 0xFFFFFFFF)
    disk[number * _ADF_BLOCK:(number + 1) * _ADF_BLOCK] = block
