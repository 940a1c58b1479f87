"""goblin_core.unpack: archives into a folder, flattened the GoblinTools way, safely."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from goblin_core.errors import PasswordRequired, UnsupportedFormat
from goblin_core.unpack import UnpackResult, unpack, unpack_many


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _zip_bytes(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_paths_are_flattened_into_one_folder(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "edital.zip", {"edital/arquivo.pdf": b"%PDF-1.4 a",
                                             "edital/anexos/planilha.xlsx": b"PK-ish"})
    result = unpack(archive, tmp_path / "out")
    assert _files(tmp_path / "out") == {"edital_arquivo.pdf": b"%PDF-1.4 a",
                                        "edital_anexos_planilha.xlsx": b"PK-ish"}
    assert isinstance(result, UnpackResult) and result.ok
    assert {m.name: m.action for m in result.members} == {
        "edital/arquivo.pdf": "extracted", "edital/anexos/planilha.xlsx": "extracted"}


def test_folders_are_kept_without_flatten(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "a.zip", {"edital/arquivo.pdf": b"1", "edital/x/y.txt": b"2"})
    unpack(archive, tmp_path / "out", flatten=False)
    assert _files(tmp_path / "out") == {"edital/arquivo.pdf": b"1", "edital/x/y.txt": b"2"}


def test_collisions_are_renamed_and_reported(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "a_b.txt").write_bytes(b"already there")
    archive = _zip(tmp_path / "c.zip", {"a/b.txt": b"first", "a_b.txt": b"second"})
    result = unpack(archive, out)
    files = _files(out)
    assert files["a_b.txt"] == b"already there"  # never overwritten
    assert files["a_b_1.txt"] == b"first"
    assert files["a_b_2.txt"] == b"second"
    assert dict(result.renamed) == {"a/b.txt": "a_b_1.txt", "a_b.txt": "a_b_2.txt"}
    assert sum(w.kind == "Renamed" for w in result.warnings) == 2


def test_a_folder_named_as_a_file_already_written_is_renamed(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "d.zip", {"a": b"a file", "a/b.txt": b"under a", "a/c.txt": b"too"})
    result = unpack(archive, tmp_path / "out", flatten=False)
    assert _files(tmp_path / "out") == {"a": b"a file", "a_1/b.txt": b"under a",
                                        "a_1/c.txt": b"too"}
    assert result.ok
    assert dict(result.renamed) == {"a/b.txt": "a_1/b.txt", "a/c.txt": "a_1/c.txt"}


def test_extensionless_names_are_kept(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "n.zip", {"docs/LEIAME": b"sem extensao", "Makefile": b"all:"})
    result = unpack(archive, tmp_path / "out")
    assert sorted(p.name for p in result.written) == ["Makefile", "docs_LEIAME"]
    collision = _zip(tmp_path / "m.zip", {"Makefile": b"again"})
    again = unpack(collision, tmp_path / "out")
    assert [p.name for p in again.written] == ["Makefile_1"]


def test_nested_archives_are_unfolded_in_place(tmp_path: Path) -> None:
    inner_tar = io.BytesIO()
    with tarfile.open(fileobj=inner_tar, mode="w:gz") as archive:
        info = tarfile.TarInfo("docs/relatorio.txt")
        data = "relatório".encode()
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    inner_zip = _zip_bytes({"lote/proposta.txt": b"proposta"})
    outer = _zip(tmp_path / "outer.zip", {"pacote/interno.zip": inner_zip,
                                          "pacote/docs.tar.gz": inner_tar.getvalue(),
                                          "leia.txt": b"leia"})
    result = unpack(outer, tmp_path / "out")
    assert _files(tmp_path / "out") == {
        "leia.txt": b"leia",
        "pacote_interno_lote_proposta.txt": b"proposta",
        "pacote_docs_docs_relatorio.txt": "relatório".encode(),
    }
    assert result.ok


def test_an_office_file_is_kept_whole(tmp_path: Path) -> None:
    docx = _zip_bytes({"[Content_Types].xml": b"<Types/>", "word/document.xml": b"<w/>"})
    archive = _zip(tmp_path / "a.zip", {"contrato.docx": docx})
    unpack(archive, tmp_path / "out")
    assert _files(tmp_path / "out") == {"contrato.docx": docx}


def test_remove_source_deletes_only_the_archive_named(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "x.zip", {"a.txt": b"a"})
    neighbour = tmp_path / "y.zip"
    neighbour.write_bytes(archive.read_bytes())
    result = unpack(archive, tmp_path / "out", remove_source=True)
    assert result.source_removed and not archive.exists()
    assert neighbour.exists()
    assert _files(tmp_path / "out") == {"a.txt": b"a"}


def test_remove_source_is_off_by_default(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "x.zip", {"a.txt": b"a"})
    result = unpack(archive, tmp_path / "out")
    assert not result.source_removed and archive.exists()


def test_remove_source_keeps_an_archive_with_errors(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "bad.zip", {"../escape.txt": b"no", "ok.txt": b"ok"})
    result = unpack(archive, tmp_path / "out", remove_source=True)
    assert not result.source_removed and archive.exists()
    assert any(w.kind == "SourceKept" for w in result.warnings)
    assert not (tmp_path / "escape.txt").exists()


def test_remove_source_keeps_an_archive_that_failed(tmp_path: Path, corpus: Path) -> None:
    archive = tmp_path / "locked.7z"
    archive.write_bytes((corpus / "archives/test7Z_protected_passTika.7z").read_bytes())
    with pytest.raises(PasswordRequired):
        unpack(archive, tmp_path / "out", remove_source=True)
    assert archive.exists()


def test_a_file_that_is_not_an_archive_is_refused(tmp_path: Path) -> None:
    text = tmp_path / "note.txt"
    text.write_text("just text")
    with pytest.raises(UnsupportedFormat, match="not an archive"):
        unpack(text, tmp_path / "out", remove_source=True)
    assert text.exists()


def test_batch_reports_progress_and_goes_on_after_a_failure(tmp_path: Path) -> None:
    good = _zip(tmp_path / "a.zip", {"a.txt": b"a"})
    bad = tmp_path / "b.zip"
    bad.write_bytes(b"PK\x03\x04 this is not really a zip")
    other = _zip(tmp_path / "c.zip", {"c.txt": b"c"})
    calls: list[tuple[int, int, str]] = []
    results = unpack_many([good, bad, other], tmp_path / "out",
                          progress=lambda done, total, name: calls.append((done, total, name)))
    assert [c[:2] for c in calls] == [(1, 3), (2, 3), (3, 3)]
    assert [len(r.written) for r in results] == [1, 0, 1]
    assert results[1].errors and not results[0].errors
    assert _files(tmp_path / "out") == {"a.txt": b"a", "c.txt": b"c"}


def test_corpus_archive_unpacks_like_goblintools(tmp_path: Path, corpus: Path) -> None:
    result = unpack(corpus / "archives/tika-test-documents.tgz", tmp_path / "out")
    names = sorted(p.name for p in result.written)
    assert names == sorted(f"test-documents_test{n}" for n in (
        "EXCEL.xls", "HTML.html", "OpenOffice2.odt", "PDF.pdf", "PPT.ppt", "RTF.rtf", "TXT.txt",
        "WORD.doc", "XML.xml"))
    assert ("test-documents", "skipped") in {(m.name, m.action) for m in result.members}


def test_a_limit_hit_midway_keeps_what_was_written(tmp_path: Path) -> None:
    import os

    from goblin_core import default_registry

    archive = _zip(tmp_path / "big.zip", {f"p{n}.bin": os.urandom(1024 * 1024) for n in range(6)})
    config = default_registry().config(None, max_total_bytes="3MB")
    result = unpack(archive, tmp_path / "out", config=config, remove_source=True)
    assert 1 <= len(result.written) <= 3
    assert any(e.kind == "UnsafeArchive" and "max_total_bytes" in e.message
               for e in result.errors)
    assert archive.exists()  # errors: the source is kept


#: Run apart: the file size limit stands in for a full disk, and must not bind pytest.
_FULL_DISK_SCRIPT = """
import json, resource, signal, sys
from pathlib import Path
from goblin_core.unpack import unpack
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))
result = unpack(Path(sys.argv[1]), Path(sys.argv[2]))
print(json.dumps({"members": [[m.name, m.action, m.size] for m in result.members],
                  "errors": [e.message for e in result.errors],
                  "written": [p.name for p in result.written]}))
"""


@pytest.mark.skipif(not hasattr(__import__("resource"), "RLIMIT_FSIZE"), reason="POSIX limits")
def test_a_member_the_disk_cannot_hold_leaves_no_partial_file(tmp_path: Path) -> None:
    import json
    import os
    import subprocess
    import sys

    archive = _zip(tmp_path / "lote.zip", {"a.txt": b"antes", "grande.bin": os.urandom(400_000),
                                           "z.txt": b"depois"})
    run = subprocess.run([sys.executable, "-c", _FULL_DISK_SCRIPT, str(archive),
                          str(tmp_path / "out")], capture_output=True, text=True, check=False,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    # no truncated grande.bin under its own name, and the members after it still written
    assert _files(tmp_path / "out") == {"a.txt": b"antes", "z.txt": b"depois"}
    assert report["written"] == ["a.txt", "z.txt"]
    assert report["members"] == [["a.txt", "extracted", 5], ["grande.bin", "refused", 400_000],
                                 ["z.txt", "extracted", 6]]
    assert len(report["errors"]) == 1
    assert report["errors"][0].startswith("lote.zip/grande.bin: not written: ")
