"""Hostile archives: each refused or bounded with a clear report entry, under time and memory
ceilings, with nothing written outside the destination."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import archives_fixtures as fx
import pytest
from archives_bounded import ChildRun, run_hostile, without

import goblin_core
from goblin_core.errors import CorruptDocument
from goblin_core.testing.corpus import require_binary


def _run(tmp_path: Path, fixture: Path, config: dict[str, Any] | None = None,
         **opts: Any) -> ChildRun:
    return run_hostile(tmp_path, fixture, config, **opts)


def _reasons(run: ChildRun, key: str = "members") -> str:
    return " | ".join(" ".join(str(x) for x in m) for m in run.result.get(key, []))


def _all_text(run: ChildRun) -> str:
    return " ".join(str(v) for v in run.result.values())


def test_deflate_bomb_is_stopped_while_reading(tmp_path: Path) -> None:
    run = _run(tmp_path, fx.zeros_zip(tmp_path / "bomb.zip", 100))
    assert run.result["members"][0][:2] == ["zeros.bin", "refused"]
    assert "limits.max_ratio" in run.result["members"][0][2]
    assert "limits.max_ratio" in _reasons(run, "unpack_members")
    assert not run.result["unpack_written"]


def test_nested_bombs_are_each_stopped(tmp_path: Path) -> None:
    run = _run(tmp_path, fx.nested_bomb(tmp_path / "nested.zip", 16))
    refused = [m for m in run.result["members"] if m[1] == "refused"]
    assert len(refused) == 16
    assert all("max_ratio" in m[2] for m in refused)


def test_gzip_bomb_uses_the_file_size_for_the_ratio(tmp_path: Path) -> None:
    run = _run(tmp_path, fx.gzip_bomb(tmp_path / "bomb.gz", 200))
    assert "max_ratio" in _reasons(run)


def test_tar_gz_bomb_is_stopped(tmp_path: Path) -> None:
    run = _run(tmp_path, fx.tar_gz_bomb(tmp_path / "bomb.tar.gz", 200))
    assert run.result["members"][0][:2] == ["zeros.bin", "refused"]
    assert "max_ratio" in run.result["members"][0][2]


def test_7z_bomb_is_stopped_while_py7zr_writes(tmp_path: Path) -> None:
    run = _run(tmp_path, fx.sevenzip_bomb(tmp_path / "bomb.7z", 64))
    assert "max_ratio" in _all_text(run)
    assert not run.result.get("unpack_written")


def test_total_bytes_limit_stops_many_honest_members(tmp_path: Path) -> None:
    path = tmp_path / "big.zip"
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for number in range(8):
            archive.writestr(f"part{number}.bin", os.urandom(1024 * 1024))
    run = _run(tmp_path, path, max_total_bytes="3MB")
    assert "max_total_bytes" in _all_text(run)
    assert len(run.result.get("unpack_written", [])) <= 3


def test_traversal_absolute_and_drive_names_are_refused(tmp_path: Path) -> None:
    run = _run(tmp_path, fx.traversal_zip(tmp_path / "traversal.zip"))
    actions = {m[0]: (m[1], m[2]) for m in run.result["members"]}
    for hostile in ("../escape.txt", "../../escape2.txt", "safe/../../dotdot.txt",
                    "..\\win-escape.txt"):
        assert actions[hostile][0] == "refused" and "traversal" in actions[hostile][1]
    assert actions["/abs-escape.txt"] == ("refused", "absolute path refused")
    assert actions["C:\\drive-escape.txt"] == ("refused", "absolute path (drive letter) refused")
    assert actions["ok.txt"][0] == "extracted"
    errors = " ".join(e[1] for e in run.result["errors"])
    assert "member '/abs-escape.txt' refused: absolute path refused" in errors
    written = sorted(Path(p).name for p in run.result["unpack_written"])
    assert written == ["ok.txt"]


def test_links_are_refused_and_nothing_goes_through_them(tmp_path: Path) -> None:
    run = _run(tmp_path, fx.symlink_tar(tmp_path / "links.tar"))
    actions = {m[0]: (m[1], m[2]) for m in run.result["members"]}
    assert actions["link-out"][0] == "refused" and "symlink" in actions["link-out"][1]
    assert actions["link-up"][0] == "refused"
    assert actions["hard-out"][0] == "refused" and "hardlink" in actions["hard-out"][1]
    assert actions["plain.txt"][0] == "extracted"
    names = sorted(Path(p).name for p in run.result["unpack_written"])
    assert names == ["link-up_pwned.txt", "plain.txt"]


def test_devices_and_fifos_are_refused_and_setuid_dropped(tmp_path: Path) -> None:
    run = _run(tmp_path, fx.device_tar(tmp_path / "devices.tar"))
    actions = {m[0]: (m[1], m[2]) for m in run.result["members"]}
    assert actions["dev/null-copy"][0] == "refused" and "device" in actions["dev/null-copy"][1]
    assert actions["dev/sda"][0] == "refused"
    assert actions["pipe"][0] == "refused" and "fifo" in actions["pipe"][1]
    assert actions["suid.sh"][0] == "extracted"
    assert "setuid/setgid bits dropped" in " ".join(w[1] for w in run.result["warnings"])


def test_forty_deep_nesting_ends_at_the_depth_limit(tmp_path: Path) -> None:
    run = _run(tmp_path, fx.deep_zip(tmp_path / "deep.zip", 40))
    assert "limits.max_depth" in _all_text(run)
    assert "the bottom of the well" not in " ".join(run.result["texts"])
    assert len(run.result["unpack_written"]) == 1  # the archive at the limit, kept whole
    assert "max_depth" in " ".join(e[1] for e in run.result["unpack_errors"])


def test_two_hundred_thousand_empty_members_are_refused_up_front(tmp_path: Path) -> None:
    run = _run(tmp_path, fx.many_members_zip(tmp_path / "many.zip", 200_000))
    assert run.result["raised"][0] == "UnsafeArchive"
    assert "max_members" in run.result["raised"][1]
    assert run.result["unpack_raised"][0] == "UnsafeArchive"
    assert not (tmp_path / "dest").exists() or not any((tmp_path / "dest").iterdir())


@pytest.mark.parametrize("kind", ["7z", "bz2", "tar.bz2"])
def test_truncated_archives_give_a_clear_error(tmp_path: Path, kind: str) -> None:
    payload = fx.text_payload()
    if kind == "7z":
        data = fx.sevenzip_bytes(os.urandom(200_000) + payload)
    elif kind == "bz2":
        data = fx.bzip2_bytes(payload)
    else:
        import io
        import tarfile

        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w:bz2") as archive:
            info = tarfile.TarInfo("a.txt")
            info.size = len(payload)
            archive.addfile(info, io.BytesIO(payload))
        data = buffer.getvalue()
    run = _run(tmp_path, fx.truncated(tmp_path / f"cut.{kind}", data))
    message = " ".join(str(x) for x in run.result.get("raised") or run.result.get("errors")[0])
    assert "cut." in message
    assert "truncated or damaged" in message or "Corrupt" in message


def test_truncated_rar_gives_a_clear_error(tmp_path: Path, corpus: Path) -> None:
    data = (corpus / "archives/tika-test-documents.rar").read_bytes()
    run = _run(tmp_path, fx.truncated(tmp_path / "cut.rar", data, 0.4))
    if "raised" in run.result:
        assert "cut.rar" in run.result["raised"][1]
        return
    refused = [m for m in run.result["members"] if m[1] == "refused"]
    assert refused, "the members past the cut must be refused"
    assert all("damaged" in m[2] or "could not decode" in m[2] for m in refused)
    assert any(m[1] == "extracted" for m in run.result["members"]), "members before the cut kept"


@pytest.mark.parametrize(("file", "keep"), [
    ("archives/tika-test-documents.rar", 7),  # its signature alone
    ("archives/tika-test-documents.rar", 40),  # inside its first member's header
    ("archives/rar5-solid.rar", 8),
    ("archives/rar5-solid.rar", 30),
])
def test_a_rar_cut_before_its_first_member_is_truncated_not_empty(
    corpus: Path, file: str, keep: int
) -> None:
    # rarfile ends its listing where the file ends, in silence: such a file read as an
    # empty archive, clean, exit 0
    data = (corpus / file).read_bytes()[:keep]
    with pytest.raises(CorruptDocument, match="cut short"):
        goblin_core.extract(data, name="cut.rar", ocr="never")


@pytest.mark.parametrize("file", ["archives/test7Z_protected_passTika.7z",
                                  "archives/rar5-psw.rar"])
def test_wrong_password_is_password_required(tmp_path: Path, corpus: Path, file: str) -> None:
    run = _run(tmp_path, corpus / file, password="not-the-password")
    assert run.result["raised"][0] == "PasswordRequired"
    assert file.rsplit("/", 1)[-1] in run.result["raised"][1]


def _three_files(folder: Path) -> list[str]:
    folder.mkdir()
    (folder / "first.txt").write_text("first member text " * 50)
    (folder / "second.txt").write_bytes(os.urandom(200_000))
    (folder / "third.txt").write_bytes(fx.text_payload(300_000))
    return ["first.txt", "second.txt", "third.txt"]


@pytest.mark.parametrize("mode", ["w:gz", "w:xz"])
def test_a_cut_compressed_tar_keeps_the_members_before_the_cut(tmp_path: Path, mode: str) -> None:
    import tarfile

    folder = tmp_path / "files"
    path = tmp_path / f"cut.tar.{mode[2:]}"
    with tarfile.open(path, mode) as archive:
        for name in _three_files(folder):
            archive.add(folder / name, name)
    fx.truncated(path, path.read_bytes(), 0.8)
    run = _run(tmp_path, path)
    actions = {m[0]: m[1] for m in run.result["members"]}
    assert actions["first.txt"] == "extracted" and actions["second.txt"] == "refused"
    assert "first member text" in " ".join(run.result["texts"])
    assert any(f"cut.tar.{mode[2:]}: " in e[1] and "Compressed file ended" in e[1]
               for e in run.result["errors"])
    assert [Path(p).name for p in run.result["unpack_written"]] == ["first.txt"]


def test_gzip_members_are_read_before_trailing_garbage(tmp_path: Path) -> None:
    import gzip

    path = tmp_path / "multi.txt.gz"
    path.write_bytes(gzip.compress(b"first member text ") + gzip.compress(b"second member text")
                     + b"GARBAGE" * 10)
    run = _run(tmp_path, path)
    assert "first member text second member text" in run.result["texts"]
    assert "trailing garbage, ignored" in " ".join(e[1] for e in run.result["errors"])
    assert len(run.result["unpack_written"]) == 1


def test_a_tool_that_fails_midway_keeps_the_members_it_wrote_whole(tmp_path: Path) -> None:
    require_binary("7z", "p7zip-full")
    require_binary("lsar", "unar")
    folder = tmp_path / "files"
    path = tmp_path / "cut.zip"
    fx.run_quietly(["7z", "a", "-bd", "-tzip", str(path), *_three_files(folder)], folder)
    fx.truncated(path, path.read_bytes(), 0.8)  # the central directory is gone: 7z reads it
    run = _run(tmp_path, path)
    actions = {m[0]: (m[1], m[2]) for m in run.result["members"]}
    assert actions["first.txt"][0] == "extracted"
    assert actions["second.txt"][0] == "refused" and "7z exit status" in actions["second.txt"][1]
    assert any(e[1].startswith("cut.zip: patool could not extract it")
               for e in run.result["errors"])


def test_a_tool_refusing_to_write_through_a_link_keeps_the_other_members(tmp_path: Path) -> None:
    require_binary("lsar", "unar")
    import io
    import tarfile

    path = tmp_path / "chain.tar"
    with tarfile.open(path, "w") as archive:
        for name, target in (("b", "../.."), ("a", "b")):
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, target
            archive.addfile(info)
        for name, data in (("a/through-chain.txt", b"ESCAPED"), ("ok.txt", b"ok text")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    # GNU tar (tarfile turned off) will not write a/through-chain.txt through the links.
    run = _run(tmp_path, path, config=without("archive.tar"))
    actions = {m[0]: (m[1], m[2]) for m in run.result["members"]}
    assert actions["ok.txt"][0] == "extracted"
    assert actions["b"][0] == "refused" and actions["a/through-chain.txt"][0] == "refused"
    assert "ESCAPED" not in " ".join(run.result["texts"])


@pytest.mark.parametrize("patool", [True, False])
def test_a_member_with_an_empty_name_is_refused_and_the_others_read(
        tmp_path: Path, patool: bool) -> None:
    import zipfile

    from goblin_core import extract

    path = tmp_path / "nameless.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo(""), b"a member without a name")
        archive.writestr("ok.txt", b"read all the same")
    document = extract(path, archives={"patool": patool})
    assert [(c.name, c.text) for c in document.children] == [
        ("nameless.zip/ok.txt", "read all the same")]
    assert [(e.kind, e.message) for e in document.report.errors] == [
        ("UnsafeArchive", "member '' refused: empty member name")]
