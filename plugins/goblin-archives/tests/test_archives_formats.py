"""Each handler on real and generated archives: contents, names, passwords, tools."""

from __future__ import annotations

import gzip
import io
import lzma
import re
import struct
import subprocess
import tarfile
import zipfile
import zlib
from pathlib import Path

import archives_fixtures as fx
import lz4.frame
import py7zr
import pytest
import zstandard

import goblin_core
from goblin_archives.compression import CODECS, member_name
from goblin_archives.plugin import goblin_register_archive_handlers
from goblin_core.errors import CorruptDocument, PasswordRequired, UnsupportedFormat
from goblin_core.testing.corpus import require_binary
from goblin_core.unpack import unpack


def _texts(doc: goblin_core.Document) -> dict[str, str]:
    return {d.name: d.text for d in doc.walk() if d is not doc and d.pages}


def test_multi_member_gzip_is_read_to_the_end() -> None:
    data = gzip.compress(b"primeiro ") + gzip.compress(b"segundo")
    doc = goblin_core.extract(data, name="partes.txt.gz", ocr="never")
    assert _texts(doc) == {"partes.txt.gz/partes.txt": "primeiro segundo"}


def test_corpus_multi_member_gzip_uses_the_stored_name(corpus: Path) -> None:
    doc = goblin_core.extract(corpus / "archives/multiple.gz", ocr="never")
    assert [m.name for m in doc.report.members] == ["a"]


@pytest.mark.parametrize("suffix,compress", [
    ("xz", lzma.compress),
    ("lzma", lambda b: lzma.compress(b, format=lzma.FORMAT_ALONE)),
    ("zst", lambda b: zstandard.ZstdCompressor().compress(b)),
    ("lz4", lz4.frame.compress),
    ("gz", gzip.compress),
])
def test_single_file_compressors(suffix: str, compress: object) -> None:
    payload = "licitação nº 12/2024".encode()
    doc = goblin_core.extract(compress(payload), name=f"aviso.txt.{suffix}",  # type: ignore[operator]
                              ocr="never")
    assert _texts(doc) == {f"aviso.txt.{suffix}/aviso.txt": "licitação nº 12/2024"}


@pytest.mark.parametrize("mode,name", [("w:gz", "docs.tgz"), ("w:bz2", "docs.tar.bz2"),
                                       ("w:xz", "docs.tar.xz")])
def test_compressed_tar_lists_the_tar_members(mode: str, name: str) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:
        for member, text in (("a/um.txt", b"um"), ("b/dois.txt", b"dois")):
            info = tarfile.TarInfo(member)
            info.size = len(text)
            archive.addfile(info, io.BytesIO(text))
    doc = goblin_core.extract(buffer.getvalue(), name=name, ocr="never")
    assert _texts(doc) == {f"{name}/a/um.txt": "um", f"{name}/b/dois.txt": "dois"}


def test_tar_zst_is_a_tar() -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        info = tarfile.TarInfo("x.txt")
        info.size = 3
        archive.addfile(info, io.BytesIO(b"xyz"))
    data = zstandard.ZstdCompressor().compress(buffer.getvalue())
    doc = goblin_core.extract(data, name="pack.tar.zst", ocr="never")
    assert _texts(doc) == {"pack.tar.zst/x.txt": "xyz"}


def test_tar_z_goes_through_gzip(corpus: Path) -> None:
    doc = goblin_core.extract(corpus / "archives/tika-test-documents.tar.Z", ocr="never")
    texts = _texts(doc)
    assert "indexation" in texts["tika-test-documents.tar.Z/test-documents/testTXT.txt"]


def test_a_tar_z_in_memory_or_inside_a_zip_is_read_too(corpus: Path) -> None:
    """gzip -dc was handed the stream itself, which only a real file can be: a .Z given as
    bytes, or found inside another archive, failed as damaged."""
    data = (corpus / "archives/tika-test-documents.tar.Z").read_bytes()
    doc = goblin_core.extract(data, name="docs.tar.Z", ocr="never")
    assert "indexation" in _texts(doc)["docs.tar.Z/test-documents/testTXT.txt"]
    outer = io.BytesIO()
    with zipfile.ZipFile(outer, "w") as archive:
        archive.writestr("inner/docs.tar.Z", data)
    doc = goblin_core.extract(outer.getvalue(), name="outer.zip", ocr="never")
    assert "indexation" in _texts(doc)["outer.zip/inner/docs.tar.Z/test-documents/testTXT.txt"]
    tar_z = next(d for d in doc.walk() if d.name == "outer.zip/inner/docs.tar.Z")
    assert not tar_z.report.errors


def test_member_name_of_short_tar_extensions() -> None:
    from goblin_core.source import Source

    gz = next(c for c in CODECS if c.name == "gzip")
    assert member_name(Source.from_bytes(b"", "x.tgz"), gz) == "x.tar"
    assert member_name(Source.from_bytes(b"", "noext"), gz) == "noext.out"


def test_deflate64_zip_is_read() -> None:
    require_binary("7z", "p7zip-full")
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        text = Path(folder, "texto.txt")
        text.write_text("deflate64 " * 2000)
        target = Path(folder, "d64.zip")
        subprocess.run(["7z", "a", "-tzip", "-mm=Deflate64", str(target), str(text)],
                       check=True, capture_output=True)
        with zipfile.ZipFile(target) as archive:
            assert archive.infolist()[0].compress_type == 9
        doc = goblin_core.extract(target, ocr="never")
    assert _texts(doc)["d64.zip/texto.txt"].startswith("deflate64 deflate64")


def test_zipcrypto_password(tmp_path: Path) -> None:
    seven = require_binary("7z", "p7zip-full")
    (tmp_path / "segredo.txt").write_text("conteúdo sigiloso")
    target = tmp_path / "locked.zip"
    subprocess.run([seven, "a", "-tzip", "-mem=ZipCrypto", "-psenha", str(target),
                    str(tmp_path / "segredo.txt")], check=True, capture_output=True)
    with pytest.raises(PasswordRequired, match=r"locked\.zip"):
        goblin_core.extract(target, ocr="never")
    with pytest.raises(PasswordRequired):
        goblin_core.extract(target, ocr="never", password="errada")
    doc = goblin_core.extract(target, ocr="never", password="senha")
    assert _texts(doc) == {"locked.zip/segredo.txt": "conteúdo sigiloso"}
    doc = goblin_core.extract(target, ocr="never", archives={"password": "senha"})
    assert _texts(doc) == {"locked.zip/segredo.txt": "conteúdo sigiloso"}


def test_partly_encrypted_zip_keeps_the_open_members(corpus: Path) -> None:
    doc = goblin_core.extract(corpus / "archives/testZipEncrypted.zip", ocr="never")
    assert _texts(doc) == {"testZipEncrypted.zip/unencrypted.txt": "hello world\n"}
    refused = {m.name: m.reason for m in doc.report.members if m.action == "refused"}
    assert "AES" in refused["encrypted.txt"]


def test_7z_with_password(corpus: Path) -> None:
    path = corpus / "archives/test7Z_protected_passTika.7z"
    with pytest.raises(PasswordRequired, match=r"set goblin\.password"):
        goblin_core.extract(path, ocr="never")
    doc = goblin_core.extract(path, ocr="never", password="Tika")
    assert "This is text inside an encrypted 7zip (7z) file." in " ".join(_texts(doc).values())


def _stored_7z(data: bytes, *more: tuple[str, bytes]) -> bytearray:
    """A 7z holding ``ata.txt`` (then ``more``) stored (the Copy method) under a plain,
    unencoded header."""
    buffer = io.BytesIO()
    with py7zr.SevenZipFile(buffer, "w", filters=[{"id": py7zr.FILTER_COPY}]) as archive:
        archive.set_encoded_header_mode(False)
        for name, content in [("ata.txt", data), *more]:
            archive.writestr(content, name)
    return bytearray(buffer.getvalue())


def test_a_7z_method_py7zr_lacks_is_unsupported_not_damaged(tmp_path: Path) -> None:
    archive = _stored_7z(b"ata da reuniao")
    # the folder's one coder: flags 0x01 (a one-byte id), id 0x00 (Copy) -> 0x7f, unknown
    coder = archive.index(bytes([0x0B, 1, 0, 1, 1, 0]))
    archive[coder + 5] = 0x7F
    header = 32 + int.from_bytes(archive[12:20], "little")
    size = int.from_bytes(archive[20:28], "little")
    archive[28:32] = zlib.crc32(archive[header:header + size]).to_bytes(4, "little")
    archive[8:12] = zlib.crc32(archive[12:32]).to_bytes(4, "little")
    path = tmp_path / "metodo.7z"
    path.write_bytes(archive)
    with pytest.raises(UnsupportedFormat, match=r"metodo\.7z: py7zr cannot extract it: .*"
                       r"a compression method or filter py7zr does not decode"):
        unpack(path, tmp_path / "out")
    with pytest.raises(UnsupportedFormat):  # 7-Zip's "Unsupported Method" too, when patool runs
        goblin_core.extract(path, ocr="never")


def test_a_7z_member_failing_its_crc_is_named(tmp_path: Path) -> None:
    archive = _stored_7z(b"ata da reuniao")
    archive[35] ^= 0xFF  # in the stored bytes, right after the 32-byte start header
    path = tmp_path / "danificado.7z"
    path.write_bytes(archive)
    with pytest.raises(CorruptDocument, match=r"danificado\.7z: the member 'ata\.txt' fails "
                       r"its CRC check: the archive is damaged"):
        unpack(path, tmp_path / "out")


def test_a_damaged_7z_keeps_the_members_decoded_before_the_damage(tmp_path: Path) -> None:
    archive = _stored_7z(b"ata da reuniao", ("parecer.txt", b"parecer danificado"),
                         ("anexo.txt", b"anexo depois do dano"))
    archive[archive.index(b"danificado")] ^= 0xFF
    path = tmp_path / "danificado.7z"
    path.write_bytes(archive)
    # patool off: nothing follows py7zr, whose members before the damage must be kept
    doc = goblin_core.extract(path, ocr="never", archives={"patool": False})
    assert _texts(doc) == {"danificado.7z/ata.txt": "ata da reuniao"}
    # the damaged member, and the one its solid block costs, are each refused
    assert {e.kind for e in doc.report.errors} == {"CorruptDocument"}
    assert {m.name: m.action for m in doc.report.members} == {
        "ata.txt": "extracted", "parecer.txt": "refused", "anexo.txt": "refused"}
    assert re.search(r"danificado\.7z: the member 'parecer\.txt' fails its CRC check",
                     doc.report.errors[-1].message)


def test_a_damaged_7z_with_patool_off_says_what_is_damaged(tmp_path: Path) -> None:
    """The handler of last resort, turned off, was the last to speak: its "patool is
    turned off" hid the CRC py7zr found."""
    archive = _stored_7z(b"ata da reuniao")
    archive[35] ^= 0xFF
    path = tmp_path / "danificado.7z"
    path.write_bytes(archive)
    with pytest.raises(CorruptDocument, match=r"danificado\.7z: the member 'ata\.txt' fails its "
                       r"CRC check: the archive is damaged; patool is turned off "
                       r"\(archives\.patool = false\), so no second tool was tried$"):
        goblin_core.extract(path, ocr="never", archives={"patool": False})
    cut = tmp_path / "cortado.7z"
    cut.write_bytes(archive[:40])
    with pytest.raises(CorruptDocument, match=r"cortado\.7z: py7zr cannot read it .*truncated or "
                       r"damaged; patool is turned off"):
        goblin_core.extract(cut, ocr="never", archives={"patool": False})


def test_a_zip_member_failing_its_crc_with_patool_off_says_so(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("ata.txt", b"ata da reuniao do conselho")
    data = bytearray(buffer.getvalue())
    data[data.index(b"reuniao")] ^= 0xFF
    path = tmp_path / "danificado.zip"
    path.write_bytes(data)
    with pytest.raises(CorruptDocument, match=r"Bad CRC-32 for file 'ata\.txt'.*; patool is "
                       r"turned off \(archives\.patool = false\), so no second tool was tried"):
        goblin_core.extract(path, ocr="never", archives={"patool": False})


def test_a_7z_block_py7zr_cannot_decode_goes_whole_to_7zip(tmp_path: Path) -> None:
    """py7zr lacks BCJ2: the block before it is no reason to keep 7-Zip from the rest."""
    seven = require_binary("7z", "p7zip-full")
    (tmp_path / "ata.txt").write_text("ata da reuniao", encoding="utf-8")
    (tmp_path / "anexo.txt").write_text("anexo em bcj2", encoding="utf-8")
    path = tmp_path / "blocos.7z"
    fx.run_quietly([seven, "a", "-ms=off", str(path), "ata.txt"], tmp_path)
    fx.run_quietly([seven, "a", "-ms=off", "-mf=BCJ2", str(path), "anexo.txt"], tmp_path)
    doc = goblin_core.extract(path, ocr="never")
    assert set(_texts(doc).values()) == {"ata da reuniao", "anexo em bcj2"}
    alone = goblin_core.extract(path, ocr="never", archives={"patool": False})
    assert list(_texts(alone).values()) == ["ata da reuniao"]
    assert "BCJ2" in alone.report.errors[0].message


def test_an_unsupported_method_beside_damage_is_damage() -> None:
    """7-Zip reads a cut archive's garbage as unknown methods: the cut is what to report."""
    from goblin_archives.tool_output import tool_failure

    cut = tool_failure("patool", "ajuda.chm", "ERRORS: Unexpected end of archive ERROR: "
                       "Unsupported Method : /#IVB (7z exit status 2)", None)
    assert type(cut) is CorruptDocument
    method = tool_failure("patool", "metodo.7z", "ERROR: Unsupported Method : ata.txt "
                          "(7z exit status 2)", None)
    assert type(method) is UnsupportedFormat


def test_rar5_with_password(corpus: Path) -> None:
    require_binary("unar", "unar")
    path = corpus / "archives/rar5-psw.rar"
    with pytest.raises(PasswordRequired):
        goblin_core.extract(path, ocr="never")
    doc = goblin_core.extract(path, ocr="never", password="password")
    assert set(_texts(doc)) == {"rar5-psw.rar/stest1.txt", "rar5-psw.rar/stest2.txt"}


def test_header_encrypted_rar4_that_unar_cannot_decode_says_why(corpus: Path) -> None:
    require_binary("unar", "unar")
    path = corpus / "archives/test-documents-enc.rar"
    with pytest.raises(PasswordRequired, match="headers are encrypted"):
        goblin_core.extract(path, ocr="never")
    with pytest.raises(goblin_core.UnsupportedFormat,
                       match=r"opened the encrypted headers.*bsdtar has no RAR decryption"):
        goblin_core.extract(path, ocr="never", password="ApacheTika")


def test_header_encrypted_rar_with_a_wrong_password_is_password_required(corpus: Path) -> None:
    path = corpus / "archives/test-documents-enc.rar"
    with pytest.raises(PasswordRequired, match="does not open the RAR headers"):
        goblin_core.extract(path, ocr="never", password="not-the-password")


def test_header_encrypted_rar_that_cannot_be_decoded_writes_nothing(tmp_path: Path,
                                                                    corpus: Path) -> None:
    require_binary("unar", "unar")
    config = tmp_path / "goblin.toml"
    config.write_text('[archives]\npassword = "ApacheTika"\n', encoding="utf-8")
    with pytest.raises(goblin_core.UnsupportedFormat, match=r"testTXT\.txt"):
        unpack(corpus / "archives/test-documents-enc.rar", tmp_path / "out", config=config)
    # unpack leaves no destination of its own making when nothing could be written
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize("file", ["archives/rar3-solid.rar", "archives/rar5-solid.rar",
                                  "archives/rar5-vols.part1.rar"])
def test_rar_solid_and_volumes(corpus: Path, file: str) -> None:
    require_binary("unar", "unar")
    doc = goblin_core.extract(corpus / file, ocr="never")
    texts = _texts(doc)
    assert len(texts) == 2 and all(texts.values())


def test_a_rar_self_extractor_is_read_as_its_archive(corpus: Path, tmp_path: Path) -> None:
    """setup.exe made by WinRAR: a program, then the archive, found by its signature."""
    require_binary("unar", "unar")
    stub = b"MZ\x90\x00" + bytes(60_000)
    # compressed members, decoded by unar; an encrypted one unar cannot find behind a program
    for name in ("rar3-solid.rar", "rar5-solid.rar", "rar5-psw.rar"):
        setup = tmp_path / f"{name}.exe"
        setup.write_bytes(stub + (corpus / "archives" / name).read_bytes())
        doc = goblin_core.extract(setup, ocr="never", password="password")
        assert doc.report.detected is not None
        assert doc.report.detected.mime == "application/vnd.rar"
        texts = _texts(doc)
        assert len(texts) == 2 and all(texts.values()), name
        assert not doc.report.errors
    stored = goblin_core.extract(stub + fx.rar5([("docs/ata.txt", b"ata da reuniao")]),
                                 name="instalar", ocr="never")
    assert _texts(stored) == {"instalar/docs/ata.txt": "ata da reuniao"}


def test_rar_symlink_traversal_is_refused(corpus: Path) -> None:
    doc = goblin_core.extract(corpus / "tricky/rar5-evil-symlink-traversal.rar", ocr="never")
    actions = {m.name: (m.action, m.reason) for m in doc.report.members}
    assert actions["up"][0] == "refused" and "symlink" in actions["up"][1]


class _Rar3Symlink:
    """What rarfile lists for a RAR 3 symlink: no redirection record, the target as content."""

    file_redir = None
    file_size = len(b"../docs/data.txt")

    def is_symlink(self) -> bool:
        return True

    def needs_password(self) -> bool:
        return False


class _Rar3Archive:
    def read(self, info: object) -> bytes:
        return b"../docs/data.txt"


def test_a_rar3_symlink_target_is_read_from_its_content() -> None:
    from goblin_archives.rar_handler import _link_target

    assert _link_target(_Rar3Archive(), _Rar3Symlink()) == "../docs/data.txt"  # type: ignore[arg-type]


def test_cab_and_cpio_go_through_patool(corpus: Path) -> None:
    for file in ("archives/tika-test-documents.cab", "archives/tika-test-documents.cpio"):
        doc = goblin_core.extract(corpus / file, ocr="never")
        assert any(e.startswith("archive.patool.") for e in doc.parsed_by), file
        assert any("indexation" in t for t in _texts(doc).values()), file


def test_formats_without_a_tool_are_unavailable_with_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    handlers: list[object] = []
    goblin_register_archive_handlers(handlers.append)
    named = {getattr(h, "name", ""): h for h in handlers}
    assert {"archive.zip", "archive.tar", "archive.7z", "archive.rar", "archive.gzip",
            "archive.compress", "archive.lzip", "archive.lzop", "archive.patool.cab",
            "archive.patool.cpio", "archive.patool.zpaq"} <= set(named)
    from patoolib.util import find_program  # patool remembers what it found

    monkeypatch.setenv("PATH", str(tmp_path))  # no tool on it
    find_program.cache_clear()
    try:
        for name, package in (("archive.patool.zpaq", "zpaq"), ("archive.lzip", "lzip"),
                              ("archive.lzop", "lzop")):
            ok, reason = named[name].available()  # type: ignore[attr-defined]
            assert not ok and f"apt-get install {package}" in reason, (name, reason)
    finally:
        find_program.cache_clear()  # not to leave the tools missing for the other tests


def test_a_patool_format_whose_program_patool_cannot_run_is_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """patool picks unar for ace when unace is missing, then has no command for it: every
    ace file failed as damaged instead of saying which tool to install. The PATH here
    holds unar alone, whatever else this machine has."""
    unar = require_binary("unar", "unar")
    (tmp_path / "unar").symlink_to(unar)
    handlers: list[object] = []
    goblin_register_archive_handlers(handlers.append)
    ace = next(h for h in handlers if getattr(h, "name", "") == "archive.patool.ace")
    from patoolib.util import find_program  # patool remembers what it found

    monkeypatch.setenv("PATH", str(tmp_path))
    find_program.cache_clear()
    try:
        ok, reason = ace.available()  # type: ignore[attr-defined]
    finally:
        find_program.cache_clear()
    assert not ok
    assert "cannot run it for ace" in reason and "apt-get install unace" in reason


def test_gzip_quine_ends_at_the_depth_limit(corpus: Path) -> None:
    doc = goblin_core.extract(corpus / "tricky/quine.gz", ocr="never")
    errors = [e.message for d in doc.walk() for e in d.report.errors]
    assert any("limits.max_depth" in m and "quine" in m for m in errors)


def test_recursive_zip_ends_at_the_depth_limit(corpus: Path) -> None:
    doc = goblin_core.extract(corpus / "tricky/droste.zip", ocr="never", max_depth=4)
    depths = [d.name.count("droste.zip/") for d in doc.walk()]
    assert max(depths) <= 4
    assert any("limits.max_depth" in e.message for d in doc.walk() for e in d.report.errors)


def test_turning_patool_off_says_so(corpus: Path) -> None:
    with pytest.raises(goblin_core.GoblinError, match=r"archives\.patool"):
        goblin_core.extract(corpus / "archives/tika-test-documents.cab", ocr="never",
                            archives={"patool": False})


def _ar(members: dict[str, bytes]) -> bytes:
    """A Unix ar archive (the container of .deb packages and static libraries)."""
    out = bytearray(b"!<arch>\n")
    for name, data in members.items():
        out += (f"{name:<16}{0:<12}{0:<6}{0:<6}{0o100644:<8o}{len(data):<10}`\n"
                .encode("ascii"))
        out += data + (b"\n" if len(data) % 2 else b"")
    return bytes(out)


def test_members_unar_wraps_in_a_folder_keep_their_own_names(tmp_path: Path) -> None:
    """unar puts an archive of several entries in a folder named after it: the members
    came out as archive/x, and were all refused once one name was hostile."""
    require_binary("unar", "unar")
    require_binary("lsar", "unar")
    path = tmp_path / "atas.lzh"
    path.write_bytes(fx.lzh_bytes([("ata.txt", b"ata da reuniao"),
                                   ("parecer.txt", b"parecer juridico")]))
    doc = goblin_core.extract(path, ocr="never")
    assert _texts(doc) == {"atas.lzh/ata.txt": "ata da reuniao",
                           "atas.lzh/parecer.txt": "parecer juridico"}
    path.write_bytes(fx.lzh_bytes([("ata.txt", b"ata da reuniao"), ("../fora.txt", b"fora"),
                           ("parecer.txt", b"parecer juridico")]))
    doc = goblin_core.extract(path, ocr="never")
    assert _texts(doc) == {"atas.lzh/ata.txt": "ata da reuniao",
                           "atas.lzh/parecer.txt": "parecer juridico"}
    assert [e.message for e in doc.report.errors] == [
        "member '../fora.txt' refused: path traversal (..) refused"]


def test_a_debian_package_gives_the_files_it_installs() -> None:
    data = _ar({
        "debian-binary": b"2.0\n",
        "control.tar.gz": fx.tar_gz_bytes({"./control": b"Package: relatorios\nVersion: 1.0\n"}),
        "data.tar.gz": fx.tar_gz_bytes({"./usr/share/doc/relatorios/LEIA-ME.txt":
                                "Relatório anual de licitações".encode()}),
    })
    doc = goblin_core.extract(data, name="relatorios_1.0_all.deb", ocr="never")
    assert _texts(doc) == {"relatorios_1.0_all.deb/usr/share/doc/relatorios/LEIA-ME.txt":
                           "Relatório anual de licitações"}
    assert not doc.report.errors


def test_a_unix_ar_archive_is_read() -> None:
    data = _ar({"primeiro.txt": b"conteudo do primeiro", "segundo.txt": b"e do segundo"})
    doc = goblin_core.extract(data, name="pacote.a", ocr="never")
    assert set(_texts(doc).values()) == {"conteudo do primeiro", "e do segundo"}


def test_a_password_set_for_the_batch_does_not_stop_tools_that_take_none(tmp_path: Path) -> None:
    """ar and cpio have no encryption and their tools no password option: patool refused
    to run them when handed the password meant for the encrypted archives of the batch."""
    bsdtar = require_binary("bsdtar", "libarchive-tools")
    library = _ar({"leia-me.txt": b"conteudo da biblioteca"})
    (tmp_path / "ata.txt").write_text("ata do pregao", encoding="utf-8")
    cpio = tmp_path / "atas.cpio"
    subprocess.run([bsdtar, "-c", "--format", "cpio", "-f", str(cpio), "-C", str(tmp_path),
                    "ata.txt"], check=True, capture_output=True)
    doc = goblin_core.extract(library, name="libfoo.a", ocr="never", password="segredo")
    assert list(_texts(doc).values()) == ["conteudo da biblioteca"]
    doc = goblin_core.extract(cpio, ocr="never", password="segredo")
    assert list(_texts(doc).values()) == ["ata do pregao"]


def _fixed_vhd(disk: bytes) -> bytes:
    """A fixed-size VHD: the raw disk, then the 512-byte footer (checksummed) and nothing
    in front."""
    disk += bytes(-len(disk) % 512)
    geometry = (len(disk) // 512 // (16 * 63) + 1) << 16 | 16 << 8 | 63
    footer = bytearray(b"conectix" + struct.pack(
        ">IIQIIIIQQIII", 2, 0x10000, 2**64 - 1, 0, int.from_bytes(b"gobl", "big"), 0x10000,
        int.from_bytes(b"Wi2k", "big"), len(disk), len(disk), geometry, 2, 0))
    footer += bytes(512 - len(footer))
    footer[64:68] = (~sum(footer) & 0xFFFFFFFF).to_bytes(4, "big")
    return disk + bytes(footer)


def test_a_fixed_size_vhd_is_known_by_its_footer(tmp_path: Path) -> None:
    require_binary("7z", "p7zip-full")
    image = tmp_path / "disco"
    tar = gzip.decompress(fx.tar_gz_bytes({"ata.txt": b"ata do disco virtual"}))
    image.write_bytes(_fixed_vhd(bytes(512) + tar))
    doc = goblin_core.extract(image, ocr="never")
    assert doc.report.detected is not None
    assert doc.report.detected.mime == "application/x-vhd"
    assert "ata do disco virtual" in _texts(doc).values()


def test_what_a_tool_names_after_the_archive_is_named_as_the_archive(tmp_path: Path) -> None:
    """7-Zip names a VHD's disk after the file it reads (as unar a dms's): that was the
    private link, so every such member was called archive.img."""
    require_binary("7z", "p7zip-full")
    image = tmp_path / "disco.vhd"
    image.write_bytes(_fixed_vhd(bytes(4096)))
    doc = goblin_core.extract(image, ocr="never")
    assert [m.name for m in doc.report.members] == ["disco.img"]


def test_an_iso9660_image_is_read(tmp_path: Path) -> None:
    bsdtar = require_binary("bsdtar", "libarchive-tools")
    folder = tmp_path / "disc"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "ata.txt").write_text("Ata da reunião do conselho", encoding="utf-8")
    image = tmp_path / "disc.iso"
    subprocess.run([bsdtar, "-c", "--format", "iso9660", "-f", str(image), "-C", str(folder),
                    "docs"], check=True, capture_output=True)
    doc = goblin_core.extract(image, ocr="never")
    assert any(t == "Ata da reunião do conselho" for t in _texts(doc).values())


def test_a_macos_installer_package_is_read_through_its_xar(tmp_path: Path) -> None:
    """A flat .pkg is a xar holding a gzipped cpio ``Payload``: both are unfolded."""
    bsdtar = require_binary("bsdtar", "libarchive-tools")
    require_binary("lsar", "unar")
    root = tmp_path / "root"
    (root / "Library" / "Documentos").mkdir(parents=True)
    (root / "Library" / "Documentos" / "termo de referência.txt").write_text(
        "Termo de referência do pregão", encoding="utf-8")
    package = tmp_path / "pkg"
    package.mkdir()
    subprocess.run([bsdtar, "-c", "--format", "newc", "-z", "-f", str(package / "Payload"),
                    "-C", str(root), "Library"], check=True, capture_output=True)
    (package / "PackageInfo").write_text('<pkg-info identifier="org.example.docs"/>')
    installer = tmp_path / "Documentos.pkg"
    subprocess.run([bsdtar, "-c", "--format", "xar", "-f", str(installer), "-C", str(package),
                    "PackageInfo", "Payload"], check=True, capture_output=True)
    doc = goblin_core.extract(installer, ocr="never")
    assert doc.mime == "application/x-xar"
    # Payload has no .gz to drop, so what it decompresses to is named Payload.out
    inside = "Documentos.pkg/Payload/Payload.out/Library/Documentos/termo de referência.txt"
    assert _texts(doc)[inside] == "Termo de referência do pregão"
    assert not [e for d in doc.walk() for e in d.report.errors]


def test_a_damaged_xar_is_a_clear_error(tmp_path: Path) -> None:
    require_binary("bsdtar", "libarchive-tools")
    data = fx.xar_bytes([("ata.txt", "Ata da sessão".encode())])
    cut = tmp_path / "cortado.xar"
    cut.write_bytes(data[:40])
    with pytest.raises(goblin_core.GoblinError, match=r"cortado\.xar.*bsdtar"):
        goblin_core.extract(cut, ocr="never")
