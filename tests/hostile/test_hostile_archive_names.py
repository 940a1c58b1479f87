"""Escaping member names through `goblin unpack` and `goblin extract`, whichever engine reads
the archive: py7zr, or 7-Zip behind patool when py7zr is turned off (7-Zip alone would
write ``../../escaped.txt`` as ``escaped.txt``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from goblin_core.testing.corpus import require_binary

import hostile_files as build
from hostile_runner import HostileRunner


@pytest.fixture
def escaping_7z(hostile: HostileRunner) -> Path:
    require_binary("7z", "p7zip-full")
    return build.escaping_names_7z(hostile.root / "in")


def _config(hostile: HostileRunner, engine: str) -> list[str]:
    if not engine:
        return []
    require_binary("lsar", "unar")
    path = hostile.root / "in" / "goblin.toml"
    path.write_text(f'[engines."{engine}"]\nenabled = false\n')
    return ["--config", str(path)]


@pytest.mark.parametrize("off", ["", "archive.7z"], ids=["py7zr", "7z-binary"])
def test_unpack_refuses_and_names_each_escaping_member(
    escaping_7z: Path, hostile: HostileRunner, off: str
) -> None:
    dest = hostile.root / "dest"
    run = hostile.cli("unpack", *_config(hostile, off), str(escaping_7z), str(dest))
    assert run.code == 1, run.stderr[-2000:]
    assert "member '../../escaped.txt' refused: path traversal (..) refused" in run.stderr
    assert "member '/tmp/absolute-escape.txt' refused: absolute path refused" in run.stderr
    assert "absolute path (drive letter) refused" in run.stderr
    assert run.stderr.count("refused") >= len(build.ESCAPING_NAMES)
    assert [p.name for p in dest.rglob("*") if p.is_file()] == ["docs_ok.txt"]
    hostile.assert_contained([hostile.root / "in", dest])


@pytest.mark.parametrize("off", ["", "archive.7z"], ids=["py7zr", "7z-binary"])
def test_extract_keeps_the_harmless_member_and_reports_the_others(
    escaping_7z: Path, hostile: HostileRunner, off: str
) -> None:
    run = hostile.cli("extract", *_config(hostile, off), str(escaping_7z))
    assert run.code == 1
    assert "harmless 7z member text" in run.stdout
    assert "ESCAPED-BY-NAME" not in run.stdout
    assert "escaping.7z" in run.stderr and "path traversal (..) refused" in run.stderr
    hostile.assert_contained([hostile.root / "in"])
