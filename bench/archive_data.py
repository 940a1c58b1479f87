"""The archives the archive suite extracts, built once into bench/.data/ from corpus files.

Corpus documents (PDFs, images, text; no archives, so nothing nests) are
repeated under ``copy-NNN/`` folders until the payload reaches the wanted
size, with fixed timestamps and a fixed order, so every build of the same
size gives the same members. The zip is written by ``zipfile`` (deflate),
the tar by ``tarfile``, the 7z by the ``7z`` binary (LZMA2, level 1).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import workloads
from environments import ROOT

DATA = ROOT / "bench" / ".data"
FOLDERS = ("pdf/", "images/", "text/")
EPOCH = (2024, 1, 1, 0, 0, 0)
EPOCH_SECONDS = 1704067200


def members(target_bytes: int) -> list[tuple[str, Path]]:
    """(archive name, corpus file) pairs adding up to at least ``target_bytes``."""
    base = workloads.corpus()
    files = sorted(f for f, _ in workloads.manifest() if f.startswith(FOLDERS))
    chosen: list[tuple[str, Path]] = []
    total, copy = 0, 0
    while total < target_bytes and files:
        for name in files:
            path = base / name
            chosen.append((f"copy-{copy:03d}/{name}", path))
            total += path.stat().st_size
        copy += 1
    return chosen


def build(megabytes: int) -> dict[str, Path]:
    """The zip, tar and 7z of about ``megabytes`` MB, built when missing."""
    DATA.mkdir(parents=True, exist_ok=True)
    stem = DATA / f"corpus-{megabytes}mb"
    out = {kind: stem.with_suffix(f".{kind}") for kind in ("zip", "tar", "7z")}
    if all(p.is_file() for p in out.values()):
        return out
    chosen = members(megabytes * 1024 * 1024)
    print(f"building {megabytes} MB archives from {len(chosen)} members", file=sys.stderr)
    _zip(out["zip"], chosen)
    _tar(out["tar"], chosen)
    _sevenzip(out["7z"], chosen)
    return out


def _zip(target: Path, chosen: list[tuple[str, Path]]) -> None:
    partial = target.with_suffix(".zip.part")
    with zipfile.ZipFile(partial, "w") as archive:
        for name, path in chosen:
            info = zipfile.ZipInfo(name, EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes(), compresslevel=6)
    partial.replace(target)


def _tar(target: Path, chosen: list[tuple[str, Path]]) -> None:
    partial = target.with_suffix(".tar.part")
    with tarfile.open(partial, "w", format=tarfile.PAX_FORMAT) as archive:
        for name, path in chosen:
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = path.stat().st_size, EPOCH_SECONDS, 0o644
            with open(path, "rb") as handle:
                archive.addfile(info, handle)
    partial.replace(target)


def _sevenzip(target: Path, chosen: list[tuple[str, Path]]) -> None:
    # 7z packs a folder: lay the members out with fixed times, pack, remove.
    stage = target.with_suffix(".stage")
    shutil.rmtree(stage, ignore_errors=True)
    for name, path in chosen:
        placed = stage / name
        placed.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, placed)
        os.utime(placed, (EPOCH_SECONDS, EPOCH_SECONDS))
    partial = target.with_suffix(".7z.part")
    partial.unlink(missing_ok=True)
    subprocess.run(["7z", "a", "-t7z", "-mx=1", "-bd", "-y", str(partial), "."], cwd=stage,
                   check=True, capture_output=True)
    shutil.rmtree(stage)
    partial.replace(target)
