"""An archive a system tool extracts must not reach outside the private folder through a
symbolic link it holds: ``link`` pointing to any folder of the machine, then ``link/x``.

GNU cpio, patool's tool for cpio, follows such a link and wrote ``x`` where it points."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import goblin_core
from goblin_core.errors import CorruptDocument, UnsafeArchive
from goblin_core.testing.corpus import require_binary
from goblin_core.unpack import unpack


def _newc_entry(number: int, name: str, mode: int, data: bytes) -> bytes:
    encoded = name.encode() + b"\0"
    fields = [number, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(encoded), 0]
    header = b"070701" + b"".join(b"%08X" % value for value in fields) + encoded
    header += bytes(-len(header) % 4)
    return header + data + bytes(-len(data) % 4)


def _cpio_through_a_link(outside: Path) -> bytes:
    return b"".join([
        _newc_entry(1, "link", 0o120777, str(outside).encode()),
        _newc_entry(2, "link/planted.txt", 0o100644, b"written through the link\n"),
        _newc_entry(3, "ok.txt", 0o100644, b"ordinary cpio member\n"),
        _newc_entry(4, "TRAILER!!!", 0, b""),
    ])


@pytest.fixture
def tools() -> None:
    require_binary("cpio", "cpio")
    require_binary("lsar", "unar")


def _hide(monkeypatch: pytest.MonkeyPatch, tool: str) -> None:
    """The patool handler finds no ``tool`` installed."""
    found = shutil.which
    monkeypatch.setattr("goblin_archives.patool_handler.shutil.which",
                        lambda name, *args, **kwargs: None if name == tool
                        else found(name, *args, **kwargs))


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    outside = tmp_path / "outside"
    outside.mkdir()
    archive = tmp_path / "pacote.cpio"
    archive.write_bytes(_cpio_through_a_link(outside))
    return archive, outside


@pytest.mark.usefixtures("tools")
def test_a_member_under_a_link_is_refused_and_the_others_read(tmp_path: Path) -> None:
    require_binary("bsdtar", "libarchive-tools")
    archive, outside = _setup(tmp_path)
    doc = goblin_core.extract(archive, ocr="never")
    assert list(outside.iterdir()) == []
    entries = {m.name: (m.action, m.reason) for m in doc.report.members}
    assert entries["ok.txt"][0] == "extracted"
    assert entries["link/planted.txt"][0] == "refused"
    assert "symbolic link" in entries["link/planted.txt"][1]
    assert "ordinary cpio member" in "".join(child.text for child in doc.walk())
    result = unpack(archive, tmp_path / "out")
    assert list(outside.iterdir()) == []
    assert [p.name for p in result.written] == ["ok.txt"]


@pytest.mark.usefixtures("tools")
def test_without_bsdtar_the_tool_that_follows_links_is_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive, outside = _setup(tmp_path)
    _hide(monkeypatch, "bsdtar")
    with pytest.raises(UnsafeArchive, match=r"'link/planted\.txt' lies under the symbolic "
                                            r"link 'link'.*cpio"):
        goblin_core.extract(archive, ocr="never")
    assert list(outside.iterdir()) == []


@pytest.mark.usefixtures("tools")
def test_without_a_listing_bsdtar_extracts_in_place_of_the_tool_that_follows_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_binary("bsdtar", "libarchive-tools")
    archive, outside = _setup(tmp_path)
    _hide(monkeypatch, "lsar")
    with pytest.raises(CorruptDocument, match="bsdtar"):
        goblin_core.extract(archive, ocr="never")
    assert list(outside.iterdir()) == []


def _lsar_that_gives_up(folder: Path, listed: str) -> Path:
    """A stand-in lsar that lists ``listed`` (JSON entries) and says it failed, as lsar
    does on an archive it parses otherwise than the extracting tool."""
    tools = folder / "bin"
    tools.mkdir()
    lsar = tools / "lsar"
    lsar.write_text("#!/bin/sh\nprintf '%s\\n' '{\"lsarFormatVersion\": 2, \"lsarContents\": "
                    f"[{listed}], \"lsarError\": 6, \"lsarFormatName\": \"Cpio\"}}'\nexit 1\n",
                    encoding="utf-8")
    lsar.chmod(0o755)
    return tools


@pytest.mark.usefixtures("tools")
@pytest.mark.parametrize("listed", ["", '{"XADFileName": "ok.txt", "XADFileSize": 21}'],
                         ids=["nothing", "the-first-member-only"])
def test_a_listing_lsar_gave_up_on_never_lets_the_tool_that_follows_links_run(
    listed: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The listing was taken for the whole archive: no member under a link in it, so GNU
    cpio ran and wrote through the link, outside the private folder."""
    require_binary("bsdtar", "libarchive-tools")
    archive, outside = _setup(tmp_path)
    monkeypatch.setenv("PATH", f"{_lsar_that_gives_up(tmp_path, listed)}:{os.environ['PATH']}")
    try:  # bsdtar extracts it, refusing the member under the link (nothing listed: raised)
        doc = goblin_core.extract(archive, ocr="never")
        errors = " ".join(e.message for e in doc.report.errors)
    except CorruptDocument as exc:
        errors = str(exc)
    assert list(outside.iterdir()) == []
    assert "bsdtar" in errors and "Cannot extract through symlink" in errors
    _hide(monkeypatch, "bsdtar")
    with pytest.raises(UnsafeArchive, match="lsar could not list every member"):
        goblin_core.extract(archive, ocr="never")
    assert list(outside.iterdir()) == []
