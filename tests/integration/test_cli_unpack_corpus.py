"""``goblin unpack --password`` on the corpus's encrypted archives (goblin-archives installed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from goblin_core.cli import CliState, cli
from goblin_core.registry import load_registry
from goblin_core.testing.corpus import find_corpus, manifest, require_binary, skip_or_fail

CORPUS = find_corpus(__file__)

#: The binary each archive format's handler runs (7z goes through py7zr, no binary).
BINARIES = {"rar": ("unar", "unar")}


#: unar lists a RAR whose headers are encrypted but cannot decode every one's members.
HEADERS_ENCRYPTED = pytest.mark.xfail(
    reason="unar cannot decode the members of every header-encrypted RAR", strict=True)


def _encrypted_archives() -> list[Any]:
    if CORPUS is None:
        return [("<corpus missing>", "")]
    return [pytest.param(row.file, row.password,
                         marks=[HEADERS_ENCRYPTED] if "encrypted-headers" in row.features else [])
            for row in manifest(CORPUS) if row.kind == "archive" and row.password]


@pytest.mark.parametrize(("file", "password"), _encrypted_archives())
def test_an_encrypted_archive_unpacks_with_its_password_and_not_without(
    tmp_path: Path, file: str, password: str,
) -> None:
    if CORPUS is None:
        skip_or_fail("the shared corpus was not found (set GOBLIN_CORPUS)")
    assert CORPUS is not None
    if file.endswith(".rar"):
        require_binary(*BINARIES["rar"])
    archive = str(CORPUS / file)
    registry = load_registry()
    locked = CliRunner().invoke(cli, ["unpack", archive, str(tmp_path / "locked")],
                                obj=CliState(registry), env={"GOBLIN_PASSWORD": None})
    assert locked.exit_code == 1
    assert "--password" in locked.stderr
    opened = CliRunner().invoke(cli, ["unpack", archive, str(tmp_path / "out"),
                                      "--password", password], obj=CliState(registry))
    assert opened.exit_code == 0, opened.stderr
    written = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert written and all(p.stat().st_size > 0 for p in written)
