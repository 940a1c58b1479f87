"""A set missing a volume says which file is missing, by the name the caller knows it by."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

import goblin_core
from goblin_core.errors import GoblinError
from goblin_core.testing.corpus import require_binary
from goblin_core.unpack import unpack


def _spanned_zip_without_its_second_segment(folder: Path) -> Path:
    require_binary("zip", "zip")
    require_binary("7z", "p7zip-full")
    source = folder / "src"
    source.mkdir(parents=True)
    (source / "texto.txt").write_text("texto do pacote " * 200, encoding="utf-8")
    (source / "ruido.bin").write_bytes(random.Random(7).randbytes(400_000))
    subprocess.run(["zip", "-q", "-s", "128k", str(folder / "pacote.zip"), "texto.txt",
                    "ruido.bin"], cwd=source, check=True, capture_output=True)
    (folder / "pacote.z02").unlink()
    return folder / "pacote.zip"


def _messages(doc: goblin_core.Document) -> str:
    return " ".join(e.message for e in doc.report.errors)


def test_a_spanned_zip_missing_a_segment_names_that_segment(tmp_path: Path) -> None:
    path = _spanned_zip_without_its_second_segment(tmp_path)
    try:
        said = _messages(goblin_core.extract(path, ocr="never"))
    except GoblinError as exc:
        said = str(exc)
    assert "pacote.z02" in said and "set.z" not in said and "pacote.z01" not in said
    with pytest.raises(GoblinError) as raised:
        unpack(path, tmp_path / "out")
    assert "pacote.z02" in str(raised.value) and "set.z" not in str(raised.value)


def test_a_rar_set_missing_its_middle_volume_names_it(tmp_path: Path, corpus: Path) -> None:
    require_binary("unar", "unar")
    for part in ("rar5-vols.part1.rar", "rar5-vols.part3.rar"):
        shutil.copy(corpus / "archives" / part, tmp_path / part)
    path = tmp_path / "rar5-vols.part1.rar"
    with pytest.raises(GoblinError) as raised:
        goblin_core.extract(path, ocr="never")
    said = str(raised.value)
    assert "rar5-vols.part2.rar" in said and "is missing" in said
    assert "goblin-archive-" not in said and "archive.rar" not in said
