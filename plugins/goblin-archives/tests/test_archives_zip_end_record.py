"""A zip's comment may hold bytes that look like an end-of-central-directory record: the
zip's own record is the one read."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pyzipper

import goblin_core
from goblin_core.unpack import unpack

#: A record of an empty central directory, with no comment: what a comment may end in.
_EMPTY_RECORD = b"PK\x05\x06" + bytes(18)


def _zip(comment: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("pasta/ata.txt", b"ata hidden behind the comment\n")
        archive.writestr("nota.txt", b"nota hidden behind the comment\n")
        archive.comment = comment
    return buffer.getvalue()


def _texts(doc: goblin_core.Document) -> str:
    return "".join(child.text for child in doc.walk() if child is not doc)


def test_a_comment_ending_in_an_empty_record_does_not_hide_the_members() -> None:
    doc = goblin_core.extract(_zip(b"gerado por X " + _EMPTY_RECORD), name="oculto.zip",
                              ocr="never")
    assert [(m.name, m.action) for m in doc.report.members] == [
        ("pasta/ata.txt", "extracted"), ("nota.txt", "extracted")]
    assert "ata hidden behind the comment" in _texts(doc)
    assert not doc.report.errors


def test_a_comment_that_is_only_an_empty_record_unpacks_every_member(tmp_path: Path) -> None:
    path = tmp_path / "oculto.zip"
    path.write_bytes(_zip(_EMPTY_RECORD))
    result = unpack(path, tmp_path / "out", flatten=False)
    assert not result.errors
    written = {p.relative_to(tmp_path / "out").as_posix(): p.read_bytes() for p in result.written}
    assert written == {"pasta/ata.txt": b"ata hidden behind the comment\n",
                       "nota.txt": b"nota hidden behind the comment\n"}


def test_an_ordinary_comment_changes_nothing() -> None:
    doc = goblin_core.extract(_zip(b"Arquivo gerado pelo sistema de protocolo"),
                              name="comentado.zip", ocr="never")
    assert [m.action for m in doc.report.members] == ["extracted", "extracted"]
    assert not doc.report.errors


def test_aes_members_behind_such_a_comment_are_read_with_the_password(tmp_path: Path) -> None:
    path = tmp_path / "cifrado.zip"
    with pyzipper.AESZipFile(path, "w", compression=pyzipper.ZIP_DEFLATED,
                             encryption=pyzipper.WZ_AES) as archive:
        archive.setpassword(b"segredo")
        archive.writestr("aviso.txt", "aviso cifrado atras do comentario")
        archive.comment = _EMPTY_RECORD
    doc = goblin_core.extract(path, ocr="never", password="segredo")
    assert [(m.name, m.action) for m in doc.report.members] == [("aviso.txt", "extracted")]
    assert "aviso cifrado atras do comentario" in _texts(doc)
