"""WinZip AES zips (AE-1 and AE-2), built with pyzipper inside the tests."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
import pyzipper

import goblin_core
from goblin_core.errors import PasswordRequired
from goblin_core.unpack import unpack

_TEXT = "Edital de licitação nº 7/2025, cifrado com AES"


def _aes_zip(path: Path, password: bytes, *, plain_member: bool = False,
             strength: int = 256) -> Path:
    with pyzipper.AESZipFile(path, "w", compression=pyzipper.ZIP_DEFLATED,
                             encryption=pyzipper.WZ_AES) as archive:
        archive.setpassword(password)
        archive.setencryption(pyzipper.WZ_AES, nbits=strength)
        archive.writestr("edital/aviso.txt", _TEXT)
        archive.writestr("edital/grande.txt", "linha de planilha\n" * 20_000)
    if plain_member:
        with zipfile.ZipFile(path, "a") as archive:
            archive.writestr("leia-me.txt", "sem cifra")
    return path


def _texts(doc: goblin_core.Document) -> dict[str, str]:
    return {d.name: d.text for d in doc.walk() if d is not doc and d.pages}


@pytest.mark.parametrize("strength", [128, 192, 256])
def test_aes_zip_is_read_with_the_configured_password(tmp_path: Path, strength: int) -> None:
    path = _aes_zip(tmp_path / "cifrado.zip", b"segredo", strength=strength)
    doc = goblin_core.extract(path, ocr="never", password="segredo")
    texts = _texts(doc)
    assert texts["cifrado.zip/edital/aviso.txt"] == _TEXT
    assert texts["cifrado.zip/edital/grande.txt"].count("linha de planilha") == 20_000
    assert not doc.report.errors


def test_aes_zip_takes_the_archives_password_too(tmp_path: Path) -> None:
    path = _aes_zip(tmp_path / "cifrado.zip", "sênha".encode())
    config = tmp_path / "goblin.toml"
    config.write_text('[archives]\npassword = "sênha"\n', encoding="utf-8")
    doc = goblin_core.extract(path, ocr="never", config=config)
    assert _texts(doc)["cifrado.zip/edital/aviso.txt"] == _TEXT


def test_aes_zip_without_a_password_names_the_member(tmp_path: Path) -> None:
    path = _aes_zip(tmp_path / "cifrado.zip", b"segredo")
    with pytest.raises(PasswordRequired, match=r"cifrado\.zip/edital/.*AES-encrypted"):
        goblin_core.extract(path, ocr="never")


def test_aes_zip_with_a_wrong_password_is_password_required(tmp_path: Path) -> None:
    path = _aes_zip(tmp_path / "cifrado.zip", b"segredo")
    with pytest.raises(PasswordRequired, match="does not open it"):
        goblin_core.extract(path, ocr="never", password="errada")


def test_open_members_beside_aes_ones_are_still_read(tmp_path: Path) -> None:
    path = _aes_zip(tmp_path / "misto.zip", b"segredo", plain_member=True)
    doc = goblin_core.extract(path, ocr="never")
    actions = {m.name: (m.action, m.reason) for m in doc.report.members}
    assert actions["leia-me.txt"] == ("extracted", "")
    assert actions["edital/aviso.txt"][0] == "refused"
    assert "AES" in actions["edital/aviso.txt"][1]
    assert _texts(doc) == {"misto.zip/leia-me.txt": "sem cifra"}


def test_unpack_writes_decrypted_aes_members(tmp_path: Path) -> None:
    path = _aes_zip(tmp_path / "cifrado.zip", b"segredo", plain_member=True)
    config = tmp_path / "goblin.toml"
    config.write_text('[goblin]\npassword = "segredo"\n', encoding="utf-8")
    result = unpack(path, tmp_path / "saida", config=config)
    assert result.ok
    written = {p.name: p.read_text(encoding="utf-8") for p in result.written}
    assert written["edital_aviso.txt"] == _TEXT
    assert written["leia-me.txt"] == "sem cifra"


def test_a_tampered_aes_member_is_corrupt_not_a_crash(tmp_path: Path) -> None:
    path = _aes_zip(tmp_path / "cifrado.zip", b"segredo")
    data = bytearray(path.read_bytes())
    # Flip a byte inside the first member's encrypted data: its HMAC no longer matches.
    at = data.index(b"edital/aviso.txt") + len("edital/aviso.txt") + 11 + 20
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))
    doc = goblin_core.extract(path, ocr="never", password="segredo")
    refused = {m.name: m.reason for m in doc.report.members if m.action == "refused"}
    assert "edital/aviso.txt" in refused
    assert "edital/grande.txt" not in refused
