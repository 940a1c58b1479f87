"""Formats only their own tools read (lzip, lzop, rzip, lrzip, zpaq), each archive written
by the real tool in the test; and shell archives, which are never run."""

from __future__ import annotations

import random
import re
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest

import goblin_core
from goblin_core.errors import CorruptDocument, UnsafeArchive
from goblin_core.testing.corpus import require_binary

NOTE = "Relatório de obras da prefeitura, lote sete."
SECOND = "Ata da reunião de 12 de março."


def _texts(doc: goblin_core.Document) -> dict[str, str]:
    return {d.name: d.text.strip() for d in doc.walk() if d is not doc and d.pages}


def _folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "nota.txt").write_text(NOTE, encoding="utf-8")
    (docs / "ata.txt").write_text(SECOND, encoding="utf-8")
    return docs


def _tar(tmp_path: Path) -> Path:
    docs = _folder(tmp_path)
    tar = tmp_path / "docs.tar"
    with tarfile.open(tar, "w") as archive:
        archive.add(docs, arcname="docs")
    return tar


def _compressed(tool: str, source: Path) -> bytes:
    """``source`` compressed by ``tool`` (read from standard output)."""
    return subprocess.run([tool, "-c", str(source)], check=True, capture_output=True).stdout


@pytest.mark.parametrize(("tool", "extension"), [("lzip", "lz"), ("lzop", "lzo")])
def test_a_single_compressed_file_is_its_one_member(tool: str, extension: str,
                                                    tmp_path: Path) -> None:
    require_binary(tool, tool)
    note = _folder(tmp_path) / "nota.txt"
    data = _compressed(tool, note)
    doc = goblin_core.extract(data, name=f"nota.txt.{extension}", ocr="never")
    assert doc.parsed_by == (f"archive.{tool}",)
    assert _texts(doc) == {f"nota.txt.{extension}/nota.txt": NOTE}
    # known by its content alone
    assert goblin_core.extract(data, ocr="never").mime == f"application/x-{tool}"


@pytest.mark.parametrize(("tool", "extension"), [("lzip", "lz"), ("lzop", "lzo")])
def test_a_compressed_tar_is_read_as_the_tar(tool: str, extension: str,
                                             tmp_path: Path) -> None:
    require_binary(tool, tool)
    data = _compressed(tool, _tar(tmp_path))
    doc = goblin_core.extract(data, name=f"docs.tar.{extension}", ocr="never")
    assert _texts(doc) == {f"docs.tar.{extension}/docs/nota.txt": NOTE,
                           f"docs.tar.{extension}/docs/ata.txt": SECOND}


def test_a_cut_compressed_tar_keeps_the_members_before_the_cut(tmp_path: Path) -> None:
    require_binary("lzip", "lzip")
    tar = _tar(tmp_path)
    with tarfile.open(tar, "a") as archive:  # a third member, incompressible, after the two
        filler = tmp_path / "filler.bin"
        filler.write_bytes(random.Random(7).randbytes(1 << 20))
        archive.add(filler, arcname="docs/z-filler.bin")
    data = _compressed("lzip", tar)
    doc = goblin_core.extract(data[: len(data) - 2000], name="docs.tar.lz", ocr="never")
    assert _texts(doc) == {"docs.tar.lz/docs/nota.txt": NOTE, "docs.tar.lz/docs/ata.txt": SECOND}
    assert any("lzip" in e.message and "docs.tar.lz" in e.message for e in doc.report.errors)


def test_a_compression_bomb_is_stopped_by_the_ratio_limit(tmp_path: Path) -> None:
    lzip = require_binary("lzip", "lzip")
    zeros = subprocess.run([lzip, "-0", "-c"], input=bytes(300 << 20), check=True,
                           capture_output=True).stdout
    assert len(zeros) < 100_000
    doc = goblin_core.extract(zeros, name="zeros.lz", ocr="never")
    errors = [e for e in doc.report.errors if e.kind == UnsafeArchive.__name__]
    assert errors and "max_ratio" in errors[0].message and "zeros.lz" in errors[0].message


def test_damaged_data_names_the_file_and_the_tool() -> None:
    require_binary("lzop", "lzop")
    damaged = b"\x89LZO\x00\r\n\x1a\n" + bytes(range(200))
    with pytest.raises(CorruptDocument, match=r"dados\.lzo: lzop decompression failed: .*"
                                              r"header corrupted"):
        goblin_core.extract(damaged, name="dados.lzo", ocr="never")


@pytest.mark.parametrize(("tool", "package", "suffix"), [("rzip", "rzip", "rz"),
                                                         ("lrzip", "lrzip", "lrz")])
def test_rzip_and_lrzip_go_through_patool(tool: str, package: str, suffix: str,
                                          tmp_path: Path) -> None:
    require_binary(tool, package)
    note = _folder(tmp_path) / "nota.txt"
    packed = tmp_path / f"nota.txt.{suffix}"
    # lrzip keeps its input unasked (and has no -k); rzip deletes it unless told
    flags = ["-q"] if tool == "lrzip" else ["-k"]
    subprocess.run([tool, *flags, "-o", str(packed), str(note)], check=True,
                   capture_output=True)
    doc = goblin_core.extract(packed.read_bytes(), name=packed.name, ocr="never")
    assert doc.parsed_by == (f"archive.patool.{tool}",)
    assert _texts(doc) == {f"nota.txt.{suffix}/nota.txt": NOTE}


def test_a_zpaq_archive_is_known_by_its_locator_tag(tmp_path: Path) -> None:
    zpaq = require_binary("zpaq", "zpaq")
    _folder(tmp_path)
    subprocess.run([zpaq, "a", "docs.zpaq", "docs"], cwd=tmp_path, check=True,
                   capture_output=True)
    data = (tmp_path / "docs.zpaq").read_bytes()
    doc = goblin_core.extract(data, ocr="never")  # no name: the content says zpaq
    assert doc.mime == "application/zpaq"
    assert sorted(_texts(doc).values()) == sorted([NOTE, SECOND])


def test_a_shell_archive_is_read_as_text_and_never_run(tmp_path: Path) -> None:
    """unshar extracts by running the archive through sh: a hostile one could run anything."""
    marker = tmp_path / "ran"
    script = (f"#!/bin/sh\n# This is a shell archive (produced by GNU sharutils 4.15.2).\n"
              f"touch '{marker}'\n"
              "sed 's/^X//' << 'SHAR_EOF' > 'nota.txt'\n"
              f"X{NOTE}\nSHAR_EOF\nexit 0\n")
    as_file = goblin_core.extract(script.encode(), name="docs.shar", ocr="never")
    assert NOTE in as_file.text and not as_file.children
    inner = tmp_path / "pacote.zip"
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("docs.shar", script)
    nested = goblin_core.extract(inner, ocr="never")
    assert any(NOTE in d.text for d in nested.walk())
    assert goblin_core.default_registry().get("archive.patool.shar") is None
    assert not marker.exists()


def test_trailing_garbage_after_lzop_data_keeps_the_text_and_says_so(tmp_path: Path) -> None:
    """lzop, like gzip, exits 2 when it ignored bytes after its data: the text is good, and
    the bytes it dropped are said to be lost, as after a gzip, xz or zstd stream."""
    require_binary("lzop", "lzop")
    tar = _compressed("lzop", _tar(tmp_path)) + b"lixo no fim\n"
    data = _compressed("lzop", tmp_path / "docs" / "nota.txt") + b"lixo no fim\n"
    doc = goblin_core.extract(data, name="nota.txt.lzo", ocr="never")
    assert _texts(doc) == {"nota.txt.lzo/nota.txt": NOTE}
    assert [e.kind for e in doc.report.errors] == ["CorruptDocument"]
    assert "trailing garbage, ignored" in doc.report.errors[0].message
    doc = goblin_core.extract(tar, name="docs.tar.lzo", ocr="never")
    assert _texts(doc) == {"docs.tar.lzo/docs/nota.txt": NOTE, "docs.tar.lzo/docs/ata.txt": SECOND}
    assert any("trailing garbage, ignored" in e.message for e in doc.report.errors)


def test_lzop_files_laid_end_to_end_are_all_read_without_a_word(tmp_path: Path) -> None:
    """lzop exits 2 on them too (a 'multipart archive' warning), but nothing is lost; nor is
    anything in zero bytes after the data."""
    require_binary("lzop", "lzop")
    docs = _folder(tmp_path)
    data = _compressed("lzop", docs / "nota.txt") + _compressed("lzop", docs / "ata.txt")
    for tail in (b"", bytes(512)):
        doc = goblin_core.extract(data + tail, name="notas.lzo", ocr="never")
        assert _texts(doc) == {"notas.lzo/notas": NOTE + SECOND}
        assert not doc.report.errors


def test_a_cut_lzop_file_says_it_ends_early(tmp_path: Path) -> None:
    """On its standard input lzop said only 'Inappropriate ioctl for device: <stdin>'."""
    require_binary("lzop", "lzop")
    text = tmp_path / "texto.txt"
    text.write_bytes(random.Random(5).randbytes(100_000))
    data = _compressed("lzop", text)
    with pytest.raises(CorruptDocument, match=r"lzop -dc failed: lzop: unexpected end of "
                                              r"file: texto\.txt\.lzo;") as raised:
        goblin_core.extract(data[: len(data) // 2], name="texto.txt.lzo", ocr="never")
    assert "ioctl" not in str(raised.value)


@pytest.mark.parametrize("cut", [0.5, 0.9])
def test_a_cut_single_file_is_damage_however_fast_the_tool_exits(cut: float,
                                                                tmp_path: Path) -> None:
    """The tool closes its output before it exits: a status read without waiting was
    often not there yet, and a file cut short read as complete."""
    require_binary("lzip", "lzip")
    text = tmp_path / "texto.txt"
    text.write_bytes(random.Random(3).randbytes(200_000))
    data = _compressed("lzip", text)
    for _ in range(5):
        doc = goblin_core.extract(data[: int(len(data) * cut)], name="texto.txt.lz",
                                  ocr="never")
        [error] = doc.report.errors
        assert error.kind == "CorruptDocument"
        assert re.search(r"lzip -dc failed: .*File ends unexpectedly", error.message)


def test_a_tool_that_fails_after_closing_its_output_is_heard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stand-in lzip that writes part of the text, closes its output, then takes a moment
    to exit with lzip's status for damaged data: the damage is reported, not lost."""
    tools = tmp_path / "bin"
    tools.mkdir()
    slow = tools / "lzip"
    slow.write_text("#!/bin/sh\nprintf 'metade do texto'\nexec 1>&-\nsleep 0.5\n"
                    "echo 'File ends unexpectedly' >&2\nexit 2\n")
    slow.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}:/usr/bin:/bin")
    doc = goblin_core.extract(b"LZIP\x01" + bytes(40), name="metade.txt.lz", ocr="never")
    # what the tool wrote before it failed is kept, and its failure said
    assert [child.text for child in doc.children] == ["metade do texto"]
    [error] = doc.report.errors
    assert error.kind == "CorruptDocument"
    assert "lzip -dc failed: File ends unexpectedly" in error.message


def test_bytes_lzip_leaves_unread_are_said_to_be_lost(tmp_path: Path) -> None:
    """lzip -d stops at bytes that start no new member and exits 0: trailing garbage, or
    a whole member after such bytes, was lost without a word."""
    require_binary("lzip", "lzip")
    docs = _folder(tmp_path)
    note, minutes = (_compressed("lzip", docs / name) for name in ("nota.txt", "ata.txt"))
    for damaged in (note + b"lixo no fim\n", note + b"lixo" + minutes):
        doc = goblin_core.extract(damaged, name="nota.txt.lz", ocr="never")
        assert _texts(doc) == {"nota.txt.lz/nota.txt": NOTE}
        assert [e.kind for e in doc.report.errors] == ["CorruptDocument"]
        assert "trailing garbage, ignored" in doc.report.errors[0].message
    for whole in (note + minutes, note + bytes(4096), note + minutes + bytes(7)):
        doc = goblin_core.extract(whole, name="notas.lz", ocr="never")
        assert _texts(doc)["notas.lz/notas"].startswith(NOTE)
        assert not doc.report.errors
