"""A 7-Zip self-extractor (``7z a -sfx``: a program with the 7z after it) is read as its 7z."""

from __future__ import annotations

import io
from pathlib import Path

import py7zr

import goblin_core
from goblin_core.source import Source
from goblin_core.unpack import unpack

_SIGNATURE = b"7z\xbc\xaf\x27\x1c"
#: A program stub: the 7z signature inside it as a constant (as in 7-Zip's own module)
#: must not be taken for the archive.
_PROGRAM = b"MZ" + bytes(3000) + _SIGNATURE + b"\x00\x04" + bytes(200) + b"\x90" * 5000


def _seven_zip() -> bytes:
    buffer = io.BytesIO()
    with py7zr.SevenZipFile(buffer, "w") as archive:
        archive.writestr(b"ata da reuniao dentro do instalador\n", "docs/ata.txt")
        archive.writestr(b"nota do instalador\n", "nota.txt")
    return buffer.getvalue()


def _texts(doc: goblin_core.Document) -> str:
    return "".join(child.text for child in doc.walk() if child is not doc)


def test_a_7z_self_extractor_is_read_as_its_archive() -> None:
    doc = goblin_core.extract(_PROGRAM + _seven_zip(), name="instalador.exe", ocr="never")
    assert sorted((m.name, m.action) for m in doc.report.members) == [
        ("docs/ata.txt", "extracted"), ("nota.txt", "extracted")]
    assert "ata da reuniao dentro do instalador" in _texts(doc)
    assert not doc.report.errors


def test_a_7z_self_extractor_unpacks(tmp_path: Path) -> None:
    path = tmp_path / "instalador.exe"
    path.write_bytes(_PROGRAM + _seven_zip())
    result = unpack(path, tmp_path / "out")
    assert not result.errors
    assert sorted(p.name for p in result.written) == ["docs_ata.txt", "nota.txt"]


def test_a_program_holding_only_the_signature_is_no_7z() -> None:
    from goblin_archives.sniffers import seven_zip_behind_program

    assert seven_zip_behind_program(Source.from_bytes(_PROGRAM, "programa.exe")) is None
    assert seven_zip_behind_program(Source.from_bytes(_PROGRAM + _seven_zip())) == len(_PROGRAM)
