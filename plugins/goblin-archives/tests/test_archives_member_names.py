"""Hostile member names are refused and reported by every handler of an archive's chain.

py7zr, zipfile, tarfile and rarfile list the names as stored; 7-Zip, bsdtar,
GNU tar and unar (behind patool) trim them and write ``x`` for ``../../x``. Either
way the report must name the member and the cause, the other members must
still be read, and nothing may be written outside the destination.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import archives_fixtures as fx
import pytest
from archives_bounded import ChildRun, run_hostile, without

from goblin_core.testing.corpus import require_binary

_CAUSES = ("path traversal (..) refused", "absolute path refused",
           "absolute path (drive letter) refused", "NUL character in the name refused")


def _zip(tmp: Path) -> Path:
    return fx.hostile_names_zip(tmp / "names.zip")


def _tar(tmp: Path) -> Path:
    return fx.hostile_names_tar(tmp / "names.tar")


def _7z(tmp: Path) -> Path:
    require_binary("7z", "p7zip-full")
    return fx.hostile_names_7z(tmp / "names.7z", tmp / "build")


def _rar(tmp: Path) -> Path:
    require_binary("unar", "unar")
    return fx.hostile_names_rar(tmp / "names.rar")


def _cpio(tmp: Path) -> Path:
    require_binary("bsdtar", "libarchive-tools")
    return fx.hostile_names_cpio(tmp / "names.cpio", tmp / "build")


def _xar(tmp: Path) -> Path:
    require_binary("bsdtar", "libarchive-tools")
    return fx.hostile_names_xar(tmp / "names.xar")


#: (fixture, the engines turned off so that the next one in the chain reads it, tools needed)
CHAINS: dict[str, tuple[Callable[[Path], Path], tuple[str, ...], tuple[str, ...]]] = {
    "zip-zipfile": (_zip, (), ()),
    "zip-7z-binary": (_zip, ("archive.zip",), ("7z", "lsar")),
    "tar-tarfile": (_tar, (), ()),
    "tar-gnu-tar": (_tar, ("archive.tar",), ("tar", "lsar")),
    "7z-py7zr": (_7z, (), ()),
    "7z-7z-binary": (_7z, ("archive.7z",), ("lsar",)),
    "rar-rarfile-unar": (_rar, (), ()),
    "cpio-bsdcpio": (_cpio, (), ("lsar",)),
    "xar-bsdtar": (_xar, (), ("lsar",)),
}

_PACKAGES = {"7z": "p7zip-full", "lsar": "unar", "tar": "tar"}


def _hostile(run: ChildRun, key: str = "members") -> dict[str, str]:
    return {m[0]: m[2] for m in run.result[key] if m[1] == "refused"}


@pytest.mark.parametrize("chain", sorted(CHAINS))
def test_every_engine_refuses_and_reports_hostile_names(tmp_path: Path, chain: str) -> None:
    build, disabled, tools = CHAINS[chain]
    for tool in tools:
        require_binary(tool, _PACKAGES[tool])
    run = run_hostile(tmp_path, build(tmp_path), config=without(*disabled))
    assert "raised" not in run.result, run.result["raised"]
    refused = _hostile(run)
    # Each engine spells a few names its own way (py7zr turns \ into /, lsar C:\ into C:\/).
    assert "../../x" in refused and refused["../../x"] == "path traversal (..) refused"
    assert "/abs.txt" in refused and refused["/abs.txt"] == "absolute path refused"
    assert any(name.startswith("C:") and cause == "absolute path (drive letter) refused"
               for name, cause in refused.items())
    assert len([cause for cause in refused.values() if cause in _CAUSES]) >= 5, refused
    if chain != "tar-gnu-tar":  # lsar reads no pax path record: it lists the ustar name
        assert refused.get("evil.txt\x00.pdf", _CAUSES[3]) == _CAUSES[3]
    for name, cause in refused.items():
        # What a tool wrote for a refused member, read back under its rewritten name.
        assert cause in _CAUSES or "the archive lists no such name" in cause \
            or "not written" in cause, (name, cause)
    extracted = [m[0] for m in run.result["members"] if m[1] == "extracted"]
    assert extracted == ["ok.txt"]
    texts = " ".join(run.result["texts"])
    assert fx.SAFE_TEXT.decode() in texts and "ESCAPED" not in texts
    errors = [e[1] for e in run.result["errors"]]
    assert "member '../../x' refused: path traversal (..) refused" in errors
    assert [Path(p).name for p in run.result["unpack_written"]] == ["ok.txt"]
    assert _hostile(run, "unpack_members").keys() == refused.keys()


def test_a_tool_that_writes_a_refused_member_over_another_refuses_both(tmp_path: Path) -> None:
    require_binary("7z", "p7zip-full")
    require_binary("lsar", "unar")
    folder = tmp_path / "build"
    folder.mkdir()
    (folder / "x").write_bytes(b"the archive's own x")
    (folder / "y").write_bytes(b"ESCAPED y")
    archive = tmp_path / "clash.7z"
    fx.run_quietly(["7z", "a", "-bd", str(archive), "x", "y"], folder)
    fx.run_quietly(["7z", "rn", "-bd", str(archive), "y", "../../x"], folder)
    native = run_hostile(tmp_path, archive)
    assert _hostile(native) == {"../../x": "path traversal (..) refused"}
    assert "the archive's own x" in " ".join(native.result["texts"])
    # 7-Zip writes both to x: which one is there cannot be told, so neither is read.
    tool = run_hostile(tmp_path, archive, config=without("archive.7z"))
    refused = _hostile(tool)
    assert refused["../../x"] == "path traversal (..) refused"
    assert "comes out under the same name" in refused["x"]
    assert "ESCAPED" not in " ".join(tool.result["texts"])
    assert not [m for m in tool.result["members"] if m[1] == "extracted"]
