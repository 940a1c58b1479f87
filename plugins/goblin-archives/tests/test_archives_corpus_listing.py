"""Every corpus archive: the member names goblin reports equal what bsdtar or 7z list."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import goblin_core
from goblin_core.errors import GoblinError
from goblin_core.model import Document
from goblin_core.testing.corpus import find_corpus, manifest, require_binary

CORPUS = find_corpus(__file__)
_SINGLE_FILE_MIMES = {"application/gzip", "application/x-bzip2", "application/x-xz",
                      "application/x-lzma", "application/zstd", "application/x-lz4",
                      "application/x-compress"}
#: Files no tool and no goblin handler can list as a whole: asserted in their own tests.
_OWN_TESTS = {"archives/rar5-vols.part2.rar", "archives/rar5-vols.part3.rar",
              "archives/test-documents-enc.rar",
              "tricky/testZIP_corrupted_oom.zip"}


#: Later volumes of a set: skipped, not errors (their own test below).
_LATER_VOLUMES = {"archives/rar5-vols.part2.rar", "archives/rar5-vols.part3.rar"}

#: A segment of a split zip: neither tool lists it; its own test below checks the members.
_SEGMENTS = {"archives/test-documents-spanned.zip"}


def _corpus_archives() -> list[str]:
    if CORPUS is None:
        return ["<corpus missing>"]
    rows = manifest(CORPUS)
    return [r.file for r in rows
            if r.file.startswith(("archives/", "tricky/"))
            and r.file not in _OWN_TESTS | _SEGMENTS
            and (r.kind == "archive" or _archive_like(r.features))]


def _archive_like(features: frozenset[str]) -> bool:
    fmt = next((f.split(":", 1)[1] for f in features if f.startswith("fmt:")), "")
    damaged = any(f.startswith(("corrupt", "truncated")) for f in features)
    return fmt.split("-")[0] in {"zip", "tar", "gzip", "rar5", "rar4"} and not damaged


def _password(file: str) -> str:
    assert CORPUS is not None
    row = next(r for r in manifest(CORPUS) if r.file == file)
    return row.password or ""


@pytest.mark.parametrize("file", _corpus_archives())
def test_member_names_match_the_native_tools(file: str, corpus: Path) -> None:
    path = corpus / file
    doc = goblin_core.extract(path, ocr="never", password=_password(file))
    assert doc.mime in {"application/zip", "application/x-tar", "application/x-7z-compressed",
                        "application/vnd.rar", "application/x-cpio",
                        "application/vnd.ms-cab-compressed"} | _SINGLE_FILE_MIMES
    ours = _goblin_files(doc)
    if doc.mime in _SINGLE_FILE_MIMES and not _is_tar_inside(doc):
        assert ours == {_single_name(path)}
        return
    theirs = _tool_files(path, _password(file))
    if theirs is None:
        pytest.skip(f"neither bsdtar nor 7z lists {file}")
    assert _same_names(ours, theirs), f"goblin {sorted(ours)} != tool {sorted(theirs)}"


def _goblin_files(doc: Document) -> set[str]:
    return {m.name.rstrip("/") for m in doc.report.members
            if not (m.action == "skipped" and m.reason == "directory")}


def _is_tar_inside(doc: Document) -> bool:
    return any("/" in m.name or m.action == "skipped" for m in doc.report.members) or len(
        doc.report.members) > 1


def _single_name(path: Path) -> str:
    """The member 7z names for a single-file compressor (the stored gzip name, or the stem)."""
    seven = require_binary("7z", "p7zip-full")
    out = subprocess.run([seven, "l", "-slt", str(path)], capture_output=True, text=True,
                         check=False).stdout
    entries = _seven_entries(out)
    if entries:
        return entries[0][0]
    return path.name.rsplit(".", 1)[0]


def _tool_files(path: Path, password: str) -> set[str] | None:
    bsdtar = require_binary("bsdtar", "libarchive-tools")
    listed = subprocess.run([bsdtar, "-tvf", str(path)], capture_output=True, check=False)
    if listed.returncode == 0 and listed.stdout.strip():
        return {name for name, is_dir in _bsdtar_entries(listed.stdout) if not is_dir}
    seven = require_binary("7z", "p7zip-full")
    args = [seven, "l", "-slt", f"-p{password or '-'}", str(path)]
    listed = subprocess.run(args, capture_output=True, check=False)
    entries = _seven_entries(listed.stdout.decode("utf-8", "surrogateescape"))
    if listed.returncode != 0 or not entries:
        return None
    return {name for name, is_dir in entries if not is_dir}


# mode, links, owner and group (which may hold spaces), size, then "Mon dd  yyyy" or "Mon dd hh:mm"
_BSDTAR_LINE = re.compile(r"^(\S+) .*? [A-Z][a-z]{2} [ \d]\d (?: \d{4}|\d\d:\d\d) (.*)$")


def _bsdtar_entries(output: bytes) -> list[tuple[str, bool]]:
    entries = []
    for line in output.decode("utf-8", "surrogateescape").splitlines():
        found = _BSDTAR_LINE.match(line)
        if found is None:
            continue
        name = re.split(r" -> | link to ", found.group(2), maxsplit=1)[0]
        entries.append((name.rstrip("/"), found.group(1).startswith("d")))
    return entries


def _seven_entries(output: str) -> list[tuple[str, bool]]:
    body = output.split("----------", 1)[-1] if "----------" in output else ""
    entries = []
    for block in body.split("\n\n"):
        fields = dict(line.split(" = ", 1) for line in block.splitlines() if " = " in line)
        if "Path" in fields:
            entries.append((fields["Path"], fields.get("Folder") == "+"))
    return entries


# Code pages archivers write names in: the one goblin chose is among them.
_NAME_CODE_PAGES = ("utf_8", "gb18030", "cp932", "shift_jis", "big5hkscs", "big5", "cp949",
                    "euc_kr", "cp850", "cp437", "cp852", "cp866", "cp737", "cp1250", "cp1251",
                    "cp1252")


def _same_names(ours: set[str], theirs: set[str]) -> bool:
    """Equal, where the tool printed a legacy-encoded name as octal escapes of its bytes."""
    if ours == theirs:
        return True
    plain = {t for t in theirs if "\\" not in t}
    escaped = theirs - plain
    if not plain <= ours:
        return False
    rest = ours - plain
    raw = {_unescape(t) for t in escaped}
    return any({name.encode(enc, "replace") for name in rest} == raw for enc in _NAME_CODE_PAGES)


def _unescape(text: str) -> bytes:
    out = bytearray()
    for piece in re.split(r"(\\[0-7]{3})", text):
        if re.fullmatch(r"\\[0-7]{3}", piece):
            out.append(int(piece[1:], 8))
        else:
            out += piece.encode("utf-8", "surrogateescape")
    return bytes(out)


def test_listing_covers_every_format_of_the_corpus(corpus: Path) -> None:
    files = _corpus_archives()
    for suffix in (".zip", ".tar", ".tgz", ".tbz2", ".tar.Z", ".tar.xz", ".7z", ".rar", ".cab",
                   ".cpio", ".gz", ".bz2", ".xz", ".zst", ".lz4"):
        assert any(f.endswith(suffix) for f in files), suffix


def test_corpus_archives_cannot_crash_extract(corpus: Path) -> None:
    for file in sorted(_OWN_TESTS - _LATER_VOLUMES):
        with pytest.raises(GoblinError) as caught:
            goblin_core.extract(corpus / file, ocr="never", password=_password(file))
        assert file.rsplit("/", 1)[-1] in str(caught.value)


def test_a_zip_segment_gives_the_members_it_holds_and_refuses_the_rest(corpus: Path) -> None:
    doc = goblin_core.extract(corpus / "archives/test-documents-spanned.zip", ocr="never")
    actions = {m.name: m.action for m in doc.report.members}
    assert actions["testTXT.txt"] == "extracted"
    assert actions["testEXCEL.xls"] == "refused"
    refused = [m for m in doc.report.members if m.action == "refused"]
    assert refused and all("truncated or damaged" in m.reason for m in refused)
    assert any(c.name.endswith("testTXT.txt") for c in doc.children)


@pytest.mark.parametrize("part", [2, 3])
def test_a_later_rar_volume_is_skipped_as_part_of_its_set(corpus: Path, part: int) -> None:
    doc = goblin_core.extract(corpus / f"archives/rar5-vols.part{part}.rar", ocr="never")
    assert not doc.report.errors
    [entry] = doc.report.members
    assert entry.action == "skipped"
    assert entry.reason == (f"part {part} of the RAR set rar5-vols.part1.rar "
                            "(read through rar5-vols.part1.rar)")
