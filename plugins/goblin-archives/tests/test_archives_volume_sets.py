"""Multi-volume sets: read whole from the first volume, later volumes skipped with the reason.

Sets are built in the tests: ``7z -v`` splits a 7z, ``zip -s`` spans a zip
(``.z01`` + ``.zip``), and a zip or tar cut by bytes gives ``.001``, ``.002``...
"""

from __future__ import annotations

import random
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import goblin_core
from goblin_core.cli import cli
from goblin_core.testing.corpus import require_binary
from goblin_core.unpack import unpack, unpack_many

_TEXT = "Planilha orçamentária dividida em volumes\n" * 40
# Random bytes do not compress: the set really spans several volumes.
_NOISE = random.Random(7).randbytes(300_000)


def _payload(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "texto.txt").write_text(_TEXT, encoding="utf-8")
    (folder / "ruido.bin").write_bytes(_NOISE)
    return [folder / "texto.txt", folder / "ruido.bin"]


def _cut(whole: Path, size: int) -> list[Path]:
    """``whole`` cut into ``whole.001``, ``whole.002``... of ``size`` bytes; ``whole`` removed."""
    data = whole.read_bytes()
    parts = []
    for number, start in enumerate(range(0, len(data), size), start=1):
        part = whole.with_name(f"{whole.name}.{number:03d}")
        part.write_bytes(data[start:start + size])
        parts.append(part)
    whole.unlink()
    return parts


def _byte_split_zip(folder: Path) -> list[Path]:
    with zipfile.ZipFile(folder / "edital.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for path in _payload(folder / "src"):
            archive.write(path, f"edital/{path.name}")
    return _cut(folder / "edital.zip", 100_000)


def _split_7z(folder: Path) -> list[Path]:
    require_binary("7z", "p7zip-full")
    _payload(folder / "src")
    subprocess.run(["7z", "a", "-bd", "-v100k", str(folder / "lote.7z"), "texto.txt", "ruido.bin"],
                   cwd=folder / "src", check=True, capture_output=True)
    return sorted(folder.glob("lote.7z.*"))


def _spanned_zip(folder: Path) -> list[Path]:
    require_binary("zip", "zip")
    _payload(folder / "src")
    subprocess.run(["zip", "-q", "-s", "128k", str(folder / "pacote.zip"), "texto.txt",
                    "ruido.bin"], cwd=folder / "src", check=True, capture_output=True)
    return sorted(folder.glob("pacote.z*"))


def _byte_split_tar(folder: Path) -> list[Path]:
    with tarfile.open(folder / "acervo.tar", "w") as archive:
        for path in _payload(folder / "src"):
            archive.add(path, f"acervo/{path.name}")
    return _cut(folder / "acervo.tar", 100 * 1024)


def _texts(doc: goblin_core.Document) -> dict[str, str]:
    return {d.name: d.text for d in doc.walk() if d is not doc and d.pages}


@pytest.mark.parametrize("build,first,inner", [
    (_byte_split_zip, "edital.zip.001", "edital/texto.txt"),
    (_split_7z, "lote.7z.001", "texto.txt"),
    (_spanned_zip, "pacote.zip", "texto.txt"),
    (_byte_split_tar, "acervo.tar.001", "acervo/texto.txt"),
])
def test_the_first_volume_reads_the_whole_set(tmp_path: Path, build: object, first: str,
                                              inner: str) -> None:
    parts = build(tmp_path)  # type: ignore[operator]
    assert len(parts) > 1, "the fixture must span several volumes"
    doc = goblin_core.extract(tmp_path / first, ocr="never")
    actions = {m.name: m.action for m in doc.report.members}
    assert actions[inner] == "extracted"
    assert all(action == "extracted" for action in actions.values()), doc.report.members
    assert _texts(doc)[f"{first}/{inner}"].strip() == _TEXT.strip()


@pytest.mark.parametrize("build,first", [
    (_byte_split_zip, "edital.zip.001"),
    (_split_7z, "lote.7z.001"),
    (_spanned_zip, "pacote.zip"),
    (_byte_split_tar, "acervo.tar.001"),
])
def test_later_volumes_are_skipped_as_part_of_the_set(tmp_path: Path, build: object,
                                                      first: str) -> None:
    parts = build(tmp_path)  # type: ignore[operator]
    later = [p for p in parts if p.name != first]
    assert later
    for part in later:
        doc = goblin_core.extract(part, ocr="never")
        assert not doc.report.errors, (part.name, doc.report.errors)
        [entry] = doc.report.members
        assert entry.action == "skipped"
        assert f"read through {first}" in entry.reason


def test_the_unpacked_set_holds_every_byte(tmp_path: Path) -> None:
    _split_7z(tmp_path)
    result = unpack(tmp_path / "lote.7z.001", tmp_path / "saida")
    assert result.ok
    assert (tmp_path / "saida" / "ruido.bin").read_bytes() == _NOISE
    assert (tmp_path / "saida" / "texto.txt").read_text(encoding="utf-8") == _TEXT


def test_a_folder_of_volumes_unpacks_once_and_keeps_the_later_parts(tmp_path: Path) -> None:
    parts = _byte_split_zip(tmp_path)
    results = unpack_many(parts, tmp_path / "saida", remove_source=True)
    assert all(r.ok for r in results)
    assert sorted(p.name for p in (tmp_path / "saida").iterdir()) == [
        "edital_ruido.bin", "edital_texto.txt"]
    first, *later = results
    assert first.source_removed
    # Nothing came out of a later part: remove_source leaves it where it was.
    assert all(not r.source_removed for r in later)
    assert all(p.exists() for p in parts[1:])


def test_a_later_volume_without_its_first_says_so(tmp_path: Path) -> None:
    parts = _byte_split_zip(tmp_path)
    parts[0].unlink()
    doc = goblin_core.extract(parts[1], ocr="never")
    [entry] = doc.report.members
    assert entry.action == "skipped"
    assert "edital.zip.001 is not beside it" in entry.reason


def test_a_lone_zip_numbered_like_a_volume_is_still_a_zip(tmp_path: Path) -> None:
    lone = tmp_path / "copia.002"
    with zipfile.ZipFile(lone, "w") as archive:
        archive.writestr("nota.txt", "um zip inteiro")
    doc = goblin_core.extract(lone, ocr="never")
    assert _texts(doc) == {"copia.002/nota.txt": "um zip inteiro"}


def test_a_volume_set_ignores_unrelated_neighbours(tmp_path: Path) -> None:
    _byte_split_zip(tmp_path)
    (tmp_path / "edital.zip.txt").write_text("not a volume", encoding="utf-8")
    (tmp_path / "edital.zip.005").write_bytes(b"a gap in the numbers ends the set")
    doc = goblin_core.extract(tmp_path / "edital.zip.001", ocr="never")
    assert _texts(doc)["edital.zip.001/edital/texto.txt"].strip() == _TEXT.strip()


def test_a_split_set_inside_a_zip_does_not_crash(tmp_path: Path) -> None:
    parts = _byte_split_zip(tmp_path)
    outer = tmp_path / "fora.zip"
    with zipfile.ZipFile(outer, "w") as archive:
        for part in parts:
            archive.write(part, part.name)
    doc = goblin_core.extract(outer, ocr="never")
    # Members of an archive have no siblings on disk: the first part is read alone (and
    # found truncated), the later ones are skipped as parts of a set.
    skipped = [m for d in doc.walk() for m in d.report.members if m.action == "skipped"]
    assert {m.name for m in skipped} >= {"edital.zip.002", "edital.zip.003"}


def test_bombs_in_a_set_are_bounded_by_the_whole_sets_size(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / "zeros.zip", "w", zipfile.ZIP_DEFLATED) as archive, \
            archive.open("zeros.bin", "w", force_zip64=True) as member:
        for _ in range(64):
            member.write(bytes(1024 * 1024))
    _cut(tmp_path / "zeros.zip", 20_000)
    config = tmp_path / "goblin.toml"
    config.write_text("[limits]\nmax_ratio = 50\n", encoding="utf-8")
    result = unpack(tmp_path / "zeros.zip.001", tmp_path / "saida", config=config)
    refused = [m for m in result.members if m.action == "refused"]
    assert refused and "ratio" in refused[0].reason
    assert not (tmp_path / "saida" / "zeros.bin").exists()


def test_goblin_unpack_says_why_a_later_volume_gave_no_file(tmp_path: Path) -> None:
    parts = _byte_split_zip(tmp_path)
    result = CliRunner().invoke(cli, ["unpack", str(parts[1]), str(tmp_path / "saida")])
    assert result.exit_code == 0, result.output
    assert f'skipped "{parts[1].name}"' in result.output
    assert "read through edital.zip.001" in result.output
    assert "0 file(s)" in result.output
