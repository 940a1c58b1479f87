"""FileManager, FileValidator, ArchiveHandler (custom formats) and ExtractionBudget
on plain files: what GoblinTools' README shows, minus its defects."""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from zip_archives import DocxPlugin, damage_member, docx_bytes

from goblin_core import load_registry
from goblin_core.compat import (
    ArchiveHandler,
    ArchiveLimits,
    ExtractionBudget,
    FileManager,
    FileValidator,
)
from goblin_core.registry import Registry


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def listing(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def unbundle(archive: str, destination: str) -> None:
    """A toy archive format: ``name=>text`` lines, one file each."""
    for line in Path(archive).read_text().splitlines():
        name, _, text = line.partition("=>")
        target = Path(destination, name)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)


@pytest.fixture
def bundle_format() -> Iterator[None]:
    ArchiveHandler.add_format(".bundle", unbundle)
    yield
    ArchiveHandler._custom_formats.pop(".bundle", None)


def test_move_file_renames_on_collision(tmp_path: Path) -> None:
    write(tmp_path / "dest" / "a.txt", "existing")
    source = write(tmp_path / "a.txt", "new")
    assert FileManager.move_file(source, tmp_path / "dest" / "a.txt")
    assert (tmp_path / "dest" / "a_1.txt").read_text() == "new"
    assert (tmp_path / "dest" / "a.txt").read_text() == "existing"
    assert not FileManager.move_file(tmp_path / "missing.txt", tmp_path / "x.txt")
    empty = write(tmp_path / "empty.txt", "")
    assert not FileManager.move_file(empty, tmp_path / "dest" / "empty.txt")


def test_move_files_flattens_relative_paths(tmp_path: Path) -> None:
    write(tmp_path / "edital" / "arquivo.PDF", "pdf")
    write(tmp_path / "edital" / "sub" / "anexo_1", "sem extensão")
    write(tmp_path / "outro" / "arquivo.PDF", "outro pdf")
    write(tmp_path / "outro" / "vazio.txt", "")
    write(tmp_path / "raiz.txt", "fica")
    FileManager.move_files(str(tmp_path))
    assert listing(tmp_path) == ["edital_arquivo.pdf", "edital_sub_anexo_1",
                                 "outro_arquivo.pdf", "raiz.txt"]
    assert not any(p.is_dir() for p in tmp_path.iterdir())


def test_delete_helpers(tmp_path: Path) -> None:
    empty = write(tmp_path / "empty.txt", "")
    full = write(tmp_path / "full.txt", "x")
    assert FileManager.delete_if_empty(str(empty)) and not empty.exists()
    assert not FileManager.delete_if_empty(str(full)) and full.exists()
    assert FileManager.delete_if_empty(str(tmp_path / "never-existed"))
    folder = tmp_path / "pasta"
    write(folder / "a" / "b.txt", "x")
    assert FileManager.delete_folder(str(folder)) and not folder.exists()
    assert not FileManager.delete_folder(str(folder))


def test_file_validator_questions(tmp_path: Path) -> None:
    empty = write(tmp_path / "e.txt", "")
    text = write(tmp_path / "t.txt", "texto")
    fake_zip = write(tmp_path / "z.pdf", b"PK\x03\x04rest")
    assert FileValidator.is_empty(str(empty)) and not FileValidator.is_empty(str(text))
    assert not FileValidator.is_empty(str(tmp_path / "missing"))
    assert FileValidator.is_zip_by_magic(str(fake_zip))
    assert not FileValidator.is_zip_by_magic(str(text))
    assert FileValidator.is_parseable_document("EDITAL.PDF")
    assert not FileValidator.is_parseable_document("pacote.zip")
    assert not FileValidator.is_archive(str(text))
    assert FileValidator.detect_extension_from_magic(str(text)) is None
    assert FileValidator.office_container_extension("planilha.xlsx") == ".xlsx"
    assert FileValidator.office_container_extension(str(text)) is None


def test_extraction_budget_counts_and_records() -> None:
    budget = ExtractionBudget(ArchiveLimits(max_members=2, max_member_bytes=10,
                                            max_total_bytes=15))
    assert budget.admit_member("a")
    assert budget.over_limit("a", 8) is None
    budget.commit(8)
    snapshot = budget.snapshot()
    assert "per-member" in (budget.over_limit("big", 11) or "")
    assert "total" in (budget.over_limit("b", 9) or "")
    assert budget.exhausted and not budget.admit_member("c")
    budget.restore(snapshot)
    assert not budget.exhausted and budget.members == 1
    budget.commit(1)
    assert not budget.admit_member("third")
    assert budget.skipped == ["third: member limit (2) reached; remaining members skipped"]


def test_custom_archive_format_and_remove_source_default(tmp_path: Path,
                                                          bundle_format: None) -> None:
    archive = write(tmp_path / "docs.bundle", "a.txt=>um\nsub/b.txt=>dois")
    assert ArchiveHandler.extract(str(archive), str(tmp_path / "out"))
    assert listing(tmp_path / "out") == ["a.txt", "sub/b.txt"]
    assert not archive.exists()  # GoblinTools' documented default: remove_source=True
    archive = write(tmp_path / "docs.bundle", "a.txt=>de novo")
    assert ArchiveHandler.extract(str(archive), str(tmp_path / "out"), remove_source=False)
    assert archive.exists()
    assert listing(tmp_path / "out") == ["a.txt", "a_1.txt", "sub/b.txt"]


def test_custom_format_obeys_the_budget(tmp_path: Path, bundle_format: None) -> None:
    archive = write(tmp_path / "docs.bundle", "a.txt=>um\nb.txt=>dois\nc.txt=>três")
    budget = ExtractionBudget(ArchiveLimits(max_members=2))
    assert ArchiveHandler.extract(str(archive), str(tmp_path / "out"), remove_source=False,
                                  budget=budget)
    assert listing(tmp_path / "out") == ["a.txt", "b.txt"]
    assert budget.skipped and "member limit" in budget.skipped[0]


def test_extract_files_recursive_never_deletes_the_callers_archive(
    tmp_path: Path, bundle_format: None
) -> None:
    archive = write(tmp_path / "docs.bundle", "a.txt=>um")
    assert FileManager.extract_files_recursive(str(archive), str(tmp_path / "out"))
    assert archive.exists()
    assert listing(tmp_path / "out") == ["a.txt"]


def test_a_failing_custom_handler_returns_false(tmp_path: Path) -> None:
    def broken(_: str, __: str) -> None:
        raise OSError("disco cheio")

    ArchiveHandler.add_format(".ruim", broken)
    try:
        archive = write(tmp_path / "x.ruim", "data")
        assert not ArchiveHandler.extract(str(archive), str(tmp_path / "out"))
        assert archive.exists()
    finally:
        ArchiveHandler._custom_formats.pop(".ruim", None)


def test_documents_are_copied_whole(tmp_path: Path) -> None:
    doc = write(tmp_path / "in" / "nota.txt", "texto")
    assert FileManager.extract_files_recursive(str(doc), str(tmp_path / "out"))
    assert FileManager.extract_files_recursive(str(doc), str(tmp_path / "out"))
    assert listing(tmp_path / "out") == ["nota.txt", "nota_1.txt"]
    assert doc.exists()
    assert not FileManager.extract_files_recursive(str(tmp_path / "missing"), str(tmp_path))


def test_batch_extract_reports_progress(tmp_path: Path) -> None:
    files = [str(write(tmp_path / "in" / f"{n}.txt", n)) for n in ("a", "b")]
    files.append(str(tmp_path / "in" / "missing.txt"))
    calls: list[tuple[int, int]] = []
    results = FileManager.batch_extract(files, str(tmp_path / "out"),
                                        progress_callback=lambda d, t: calls.append((d, t)))
    assert results == [True, True, False]
    assert calls == [(1, 3), (2, 3), (3, 3)]
    assert FileManager.batch_extract(files[:1], str(tmp_path / "out2")) == [True]


def test_file_manager_can_quiet_warnings() -> None:
    from goblin_core.compat.logging_policy import warnings_suppressed

    try:
        FileManager(suppress_warnings=True)
        assert warnings_suppressed()
    finally:
        FileManager(suppress_warnings=False)
    assert not warnings_suppressed()
    assert os.path.sep  # FileManager() without arguments changes nothing
    FileManager()
    assert not warnings_suppressed()


def nested_zip(path: Path) -> Path:
    """``outer.zip`` holding ``top.txt`` and ``inner.zip`` (holding ``deep.txt``)."""
    inner = path.parent / "inner-source.zip"
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("deep.txt", "texto profundo")
    with zipfile.ZipFile(path, "w") as archive:
        archive.write(inner, "inner.zip")
        archive.writestr("top.txt", "texto topo")
    inner.unlink()
    return path


def test_archive_handler_opens_one_level(tmp_path: Path, zip_registry: Registry) -> None:
    # GoblinTools' ArchiveHandler leaves inner archives as files; opening them is
    # extract_files_recursive's job.
    archive = nested_zip(tmp_path / "outer.zip")
    assert ArchiveHandler.extract(str(archive), str(tmp_path / "out"))
    assert listing(tmp_path / "out") == ["inner.zip", "top.txt"]
    assert not archive.exists()
    archive = nested_zip(tmp_path / "outer.zip")
    budget = ExtractionBudget()
    assert ArchiveHandler.extract_zip(str(archive), str(tmp_path / "zip"), budget=budget)
    assert listing(tmp_path / "zip") == ["inner.zip", "top.txt"]
    assert budget.skipped == []
    archive = nested_zip(tmp_path / "outer.zip")
    assert FileManager.extract_files_recursive(str(archive), str(tmp_path / "all"))
    # as GoblinTools does, an inner archive is opened where it lies, its members beside
    # it, and removed (test_behaviour_parity compares the trees with GoblinTools' own)
    assert listing(tmp_path / "all") == ["deep.txt", "top.txt"]


def test_a_failed_extraction_leaves_no_destination(tmp_path: Path,
                                                   zip_registry: Registry) -> None:
    text = write(tmp_path / "nota.txt", "não é arquivo compactado")
    broken = write(tmp_path / "quebrado.zip", b"PK\x03\x04lixo")
    for path in (text, broken):
        assert not ArchiveHandler.extract(str(path), str(tmp_path / "out"))
        assert path.exists()
    assert not (tmp_path / "out").exists()


def test_an_empty_document_is_copied_by_its_name(tmp_path: Path) -> None:
    empty_pdf = write(tmp_path / "in" / "vazio.pdf", b"")
    empty_other = write(tmp_path / "in" / "vazio.xyz", b"")
    assert FileManager.extract_files_recursive(str(empty_pdf), str(tmp_path / "out"))
    assert not FileManager.extract_files_recursive(str(empty_other), str(tmp_path / "out"))
    assert listing(tmp_path / "out") == ["vazio.pdf"]
    assert empty_pdf.exists()


def test_text_under_a_document_name_keeps_its_name(tmp_path: Path) -> None:
    # No signature says the name is wrong: it is copied as named, as in GoblinTools.
    text = write(tmp_path / "in" / "proposta.pdf", "Proposta comercial em texto simples")
    assert FileManager.extract_files_recursive(str(text), str(tmp_path / "out"))
    assert listing(tmp_path / "out") == ["proposta.pdf"]


def test_max_members_keeps_the_first_members_on_disk(tmp_path: Path,
                                                     zip_registry: Registry) -> None:
    archive = tmp_path / "lote.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        for n in range(5):
            bundle.writestr(f"pasta/f{n}.txt", f"texto {n}")
    budget = ExtractionBudget(ArchiveLimits(max_members=3))
    assert FileManager.extract_files_recursive(str(archive), str(tmp_path / "out"), budget=budget)
    assert listing(tmp_path / "out") == ["pasta/f0.txt", "pasta/f1.txt", "pasta/f2.txt"]
    assert budget.skipped == ["pasta/f3.txt: member limit (3) reached; remaining members skipped"]


def test_any_document_goblin_reads_is_copied(tmp_path: Path) -> None:
    # GoblinTools returned False for an extension it did not know.
    note = write(tmp_path / "in" / "nota.xyz", "texto com extensão desconhecida")
    assert FileManager.extract_files_recursive(str(note), str(tmp_path / "out"))
    assert listing(tmp_path / "out") == ["nota.xyz"]


def test_an_unreadable_member_keeps_the_archive(tmp_path: Path, zip_registry: Registry) -> None:
    # GoblinTools deletes the archive only when it unpacked; what goblin could not
    # read must not be lost with it.
    archive = tmp_path / "lote.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("pasta/", "")
        bundle.writestr("pasta/bom.txt", "legível")
        bundle.writestr("pasta/ruim.txt", "ilegível")
    archive.write_bytes(damage_member(archive.read_bytes(), "pasta/ruim.txt"))
    budget = ExtractionBudget()
    assert ArchiveHandler.extract(str(archive), str(tmp_path / "out"), budget=budget)
    assert listing(tmp_path / "out") == ["pasta/bom.txt"]
    assert archive.exists()
    assert [line.split(":")[0] for line in budget.skipped] == ["pasta/ruim.txt"]


def test_members_left_out_by_a_limit_do_not_keep_the_archive(
    tmp_path: Path, zip_registry: Registry
) -> None:
    archive = tmp_path / "lote.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("pasta/", "")
        bundle.writestr("pequeno.txt", "ok")
        bundle.writestr("grande.txt", "x" * 5000)
    budget = ExtractionBudget(ArchiveLimits(max_member_bytes=1000))
    assert ArchiveHandler.extract(str(archive), str(tmp_path / "out"), budget=budget)
    assert listing(tmp_path / "out") == ["pequeno.txt"]
    assert not archive.exists()
    assert [line.split(":")[0] for line in budget.skipped] == ["grande.txt"]


def test_an_office_file_without_extension_is_named_by_its_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = load_registry(extra_plugins=[("tests-docx", DocxPlugin())])
    monkeypatch.setattr("goblin_core.compat.files.default_registry", lambda: registry)
    document = write(tmp_path / "in" / "anexo_1", docx_bytes())
    assert FileManager.extract_files_recursive(str(document), str(tmp_path / "out"))
    assert listing(tmp_path / "out") == ["anexo_1.docx"]


def test_an_archive_whose_members_a_limit_refused_all_still_extracted(
    tmp_path: Path, zip_registry: Registry
) -> None:
    archive = tmp_path / "lote.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("grande.txt", "x" * 5000)
    budget = ExtractionBudget(ArchiveLimits(max_member_bytes=1000))
    assert ArchiveHandler.extract(str(archive), str(tmp_path / "out"), budget=budget)
    assert not archive.exists()
    assert [line.split(":")[0] for line in budget.skipped] == ["grande.txt"]


def test_an_inner_archive_the_member_cap_leaves_closed_is_kept(tmp_path: Path,
                                                                 zip_registry: Registry) -> None:
    # GoblinTools 0.13.4 deletes such an archive, unread: its members are then lost
    archive = nested_zip(tmp_path / "outer.zip")
    budget = ExtractionBudget(ArchiveLimits(max_members=2))
    assert FileManager.extract_files_recursive(str(archive), str(tmp_path / "out"),
                                               budget=budget)
    assert listing(tmp_path / "out") == ["inner.zip", "top.txt"]
    assert budget.members == 2
    assert budget.skipped == ["inner.zip: member limit reached; not extracted"]


def test_an_archive_has_no_document_extension(tmp_path: Path, zip_registry: Registry) -> None:
    archive = nested_zip(tmp_path / "pacote.bin")
    assert FileValidator.detect_extension_from_magic(str(archive)) is None
    assert FileValidator.is_archive(str(archive))
    pdf = write(tmp_path / "anexo_1", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    assert FileValidator.detect_extension_from_magic(str(pdf)) == ".pdf"


def test_a_member_name_that_escapes_is_skipped_in_goblintools_words(
        tmp_path: Path, zip_registry: Registry) -> None:
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w") as members:
        for name in ("../evil.txt", "/abs.txt", "ok.txt"):
            members.writestr(name, "x")
    budget = ExtractionBudget()
    assert ArchiveHandler.extract(str(archive), str(tmp_path / "out"), budget=budget)
    assert listing(tmp_path / "out") == ["ok.txt"]
    assert budget.skipped == [
        "../evil.txt: path escapes the extraction root; member skipped "
        "(path traversal (..) refused)",
        "/abs.txt: path escapes the extraction root; member skipped (absolute path refused)"]
