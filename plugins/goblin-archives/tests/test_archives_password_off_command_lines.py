"""A password never shows in a process list: the tools that read archives get it on
their standard input, or not at all.

Each tool is run through a stand-in placed first on PATH that writes down, while the
tool runs, the command line of every process on the machine (what ``ps`` shows any
user) and its own environment, then runs the real tool.
"""

from __future__ import annotations

import os
import random
import subprocess
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import goblin_core
from goblin_archives.patool_handler import (
    BSDTAR_FORMATS,
    FALLBACK_FORMATS,
    BsdtarHandler,
    PatoolFormat,
    PatoolHandler,
    UnarHandler,
)
from goblin_core.engines import ArchiveLimits, Member
from goblin_core.errors import PasswordRequired, UnsupportedFormat
from goblin_core.source import Source
from goblin_core.testing.corpus import require_binary

_TEXT = "Relatório sigiloso da auditoria\n" * 20


@pytest.fixture
def password() -> str:
    """A password a shell or an option parser would trip on, and found nowhere else."""
    return f"-p ş\"q' {uuid.uuid4().hex}"


class Watch:
    """Stand-ins for system tools that note every process's command line as they run."""

    def __init__(self, folder: Path) -> None:
        self.bin = folder / "bin"
        self.bin.mkdir()
        self.record = folder / "processes.txt"

    def tool(self, name: str, debian_package: str) -> None:
        real = require_binary(name, debian_package)
        shim = self.bin / name
        shim.write_text(
            "#!/bin/sh\n"
            f"echo 'ran {name}' >> '{self.record}'\n"
            f"for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < \"$f\"; echo; done "
            f">> '{self.record}' 2>/dev/null\n"
            f"tr '\\0' '\\n' < /proc/$$/environ >> '{self.record}'\n"
            f"exec '{real}' \"$@\"\n", encoding="utf-8")
        shim.chmod(0o755)

    def seen(self, *tools: str) -> str:
        """Everything written down; fails when one of ``tools`` did not run."""
        seen = self.record.read_text(encoding="utf-8", errors="replace") \
            if self.record.exists() else ""
        for tool in tools:
            assert f"ran {tool}\n" in seen, f"{tool} was not run"
        return seen


@pytest.fixture
def watch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Watch]:
    watched = Watch(tmp_path)
    monkeypatch.setenv("PATH", f"{watched.bin}{os.pathsep}{os.environ['PATH']}")
    yield watched


def _encrypted_zip(folder: Path, password: str, *, span: bool = False) -> Path:
    """A ZipCrypto zip holding ``relatorio.txt`` (and noise, so a spanned set spans)."""
    require_binary("zip", "zip")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "relatorio.txt").write_text(_TEXT, encoding="utf-8")
    (folder / "ruido.bin").write_bytes(random.Random(3).randbytes(200_000))
    # zip asks for the password twice on the terminal only: -P is the way to script it
    split = ["-s", "64k"] if span else []
    subprocess.run(["zip", "-q", "-P", password, *split, "cofre.zip", "relatorio.txt",
                    "ruido.bin"], cwd=folder, check=True, env={"PATH": os.environ["PATH"],
                                                              "LANG": "C.UTF-8"})
    return folder / "cofre.zip"


def _texts(doc: goblin_core.Document) -> dict[str, str]:
    return {d.name: d.text for d in doc.walk() if d is not doc and d.pages}


def test_a_spanned_zip_password_goes_to_7z_on_its_standard_input(
        tmp_path: Path, watch: Watch, password: str, monkeypatch: pytest.MonkeyPatch) -> None:
    watch.tool("7z", "p7zip-full")
    watch.tool("lsar", "unar")
    archive = _encrypted_zip(tmp_path / "set", password, span=True)
    assert (tmp_path / "set" / "cofre.z01").exists()
    monkeypatch.setenv("GOBLIN_PASSWORD", password)
    doc = goblin_core.extract(archive, ocr="never", password=password)
    assert _TEXT.strip() in _texts(doc)["cofre.zip/relatorio.txt"]
    assert password not in watch.seen("7z", "lsar")
    monkeypatch.delenv("GOBLIN_PASSWORD")
    with pytest.raises(PasswordRequired, match=r"Wrong password.*check goblin\.password"):
        goblin_core.extract(archive, ocr="never", password="errada")
    with pytest.raises(PasswordRequired, match=r"set goblin\.password"):
        goblin_core.extract(archive, ocr="never")


def _members(handler: PatoolHandler, archive: Path, password: str | None) -> dict[str, bytes]:
    config = goblin_core.default_registry().config(None, password=password)
    members: Iterator[Member] = handler.members(Source.from_path(archive), ArchiveLimits(),
                                                config)
    read: dict[str, bytes] = {}
    for member in members:
        with member.open() as stream:
            read[member.name] = stream.read()
    return read


def _fallback(name: str) -> PatoolFormat:
    return next(fmt for fmt in FALLBACK_FORMATS if fmt.name == name)


def test_patool_never_puts_the_password_on_7zs_command_line(tmp_path: Path, watch: Watch,
                                                            password: str) -> None:
    require_binary("7z", "p7zip-full")
    watch.tool("7z", "p7zip-full")
    archive = _encrypted_zip(tmp_path / "zip", password)
    handler = PatoolHandler(_fallback("zip"), priority=5)
    read = _members(handler, archive, password)
    assert read["relatorio.txt"].decode("utf-8") == _TEXT
    assert password not in watch.seen("7z")
    with pytest.raises(PasswordRequired, match=r"Wrong password.*check goblin\.password"):
        _members(handler, archive, "errada")


def test_bsdtar_reads_the_password_from_its_standard_input(tmp_path: Path, watch: Watch,
                                                           password: str) -> None:
    watch.tool("bsdtar", "libarchive-tools")
    archive = _encrypted_zip(tmp_path / "zip", password)
    handler = BsdtarHandler(BSDTAR_FORMATS[0])
    assert _members(handler, archive, password)["relatorio.txt"].decode("utf-8") == _TEXT
    assert password not in watch.seen("bsdtar")
    with pytest.raises(PasswordRequired, match=r"check goblin\.password"):
        _members(handler, archive, "errada")


def test_unar_is_never_given_the_password_and_says_why_it_cannot_open(
        tmp_path: Path, watch: Watch, password: str) -> None:
    watch.tool("unar", "unar")
    watch.tool("lsar", "unar")
    handler = UnarHandler(PatoolFormat("zip", ("application/zip",), "unar"))
    with pytest.raises(UnsupportedFormat, match="unar takes a password only on its command "
                                                "line"):
        _members(handler, _encrypted_zip(tmp_path / "locked", password), password)
    plain = tmp_path / "plain.zip"
    with zipfile.ZipFile(plain, "w") as archive:
        archive.writestr("aberto.txt", _TEXT)
    assert _members(handler, plain, password)["aberto.txt"].decode("utf-8") == _TEXT
    assert password not in watch.seen("unar", "lsar")


def test_decoders_run_as_a_pipe_never_see_the_password_variable(
        tmp_path: Path, watch: Watch, password: str, corpus: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """lzip, lzop and rarfile's unar were started with goblin's whole environment, the
    password the command line reads from ``$GOBLIN_PASSWORD`` in it."""
    note = tmp_path / "nota.txt"
    note.write_text(_TEXT, encoding="utf-8")
    packed = {extension: subprocess.run([require_binary(tool, tool), "-c", str(note)],
                                        check=True, capture_output=True).stdout
              for tool, extension in (("lzip", "lz"), ("lzop", "lzo"))}
    watch.tool("lzip", "lzip")
    watch.tool("lzop", "lzop")
    watch.tool("unar", "unar")
    monkeypatch.setenv("GOBLIN_PASSWORD", password)
    for extension, data in packed.items():
        doc = goblin_core.extract(data, name=f"nota.txt.{extension}", ocr="never")
        assert _texts(doc) == {f"nota.txt.{extension}/nota.txt": _TEXT}
    doc = goblin_core.extract(corpus / "archives" / "rar5-solid.rar", ocr="never")
    assert doc.children and not doc.report.errors
    assert password not in watch.seen("lzip", "lzop", "unar")
