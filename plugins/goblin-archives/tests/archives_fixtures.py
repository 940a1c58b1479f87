"""Hostile and damaged archives, built inside the tests (never stored in the repository)."""

from __future__ import annotations

import bz2
import gzip
import io
import os
import tarfile
import zipfile
from pathlib import Path

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


def _add_file(archive: tarfile.TarFile, name: str, data: bytes, mode: int = 0o644) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = mode
    archive.addfile(info, io.BytesIO(data))
