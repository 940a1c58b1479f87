"""extract_from_bytes: tags, archive limits as GoblinTools applies them, never raising."""

from __future__ import annotations

import io
import logging
import zipfile

import pytest

from goblin_core.compat import (
    ArchiveLimits,
    BytesExtractionResult,
    GoblinConfig,
    extract_from_bytes,
)
from goblin_core.compat.from_bytes import safe_filename
from goblin_core.registry import Registry


def test_bytes_of_a_text_file() -> None:
    result = extract_from_bytes("Edital nº 5".encode(), "edital.txt")
    assert isinstance(result, BytesExtractionResult)
    assert result.text == 'file_path_pwd:"edital.txt"\nEdital nº 5'
    assert result.reports == {} and result.skipped == []
    assert result.overall_status == "clean"


def test_the_name_is_never_a_path() -> None:
    result = extract_from_bytes(b"dados", "../../etc/segredo.txt")
    assert result.text.startswith('file_path_pwd:"segredo.txt"')
    assert safe_filename(None) == "document"
    assert safe_filename("C:\\docs\\a.txt") == "a.txt"


def test_empty_and_oversized_inputs() -> None:
    assert extract_from_bytes(b"", "a.txt") == BytesExtractionResult()
    result = extract_from_bytes(b"x" * 100, "a.txt", config=GoblinConfig(max_file_size=10))
    assert result.text == ""
    assert result.skipped == ["a.txt: larger than max_file_size (10 bytes)"]


def test_unreadable_bytes_are_reported_not_raised() -> None:
    result = extract_from_bytes(b"\x00\x01\x02\x03" * 64, "blob.bin")
    assert result.text == ""
    assert result.overall_status == "corrupt_unrecoverable"
    assert result.reports["blob.bin"].errors


def test_data_that_is_not_bytes_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR):
        result = extract_from_bytes("texto", "nota.txt")  # type: ignore[arg-type]
    assert result == BytesExtractionResult()
    assert "expected bytes, got str" in caplog.text
    assert extract_from_bytes(bytearray(b"dados"), "nota.txt").text.endswith("\ndados")


def zip_bytes(files: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def limited(**limits: int) -> GoblinConfig:
    return GoblinConfig(archive_limits=ArchiveLimits(**limits))


def test_max_members_keeps_the_first_members(zip_registry: Registry) -> None:
    # GoblinTools reads the first max_members members and lists the rest as skipped.
    data = zip_bytes({f"f{n}.txt": f"texto {n}" for n in range(5)})
    result = extract_from_bytes(data, "lote.zip", config=limited(max_members=3))
    assert [line for line in result.text.splitlines() if line.startswith("file_path_pwd")] == [
        'file_path_pwd:"f0.txt"', 'file_path_pwd:"f1.txt"', 'file_path_pwd:"f2.txt"']
    assert result.skipped == [
        "f3.txt: member limit (3) reached; remaining members skipped (limits.max_members)"]
    assert result.overall_status == "clean" and result.reports == {}


def test_max_members_counts_the_whole_tree_archive_by_archive(zip_registry: Registry) -> None:
    inner = zip_bytes({"deep.txt": "profundo"})
    middle = zip_bytes({"inner.zip": inner, "meio.txt": "meio"})
    data = zip_bytes({"meio.zip": middle, "topo.txt": "topo", "z.txt": "zz"})
    result = extract_from_bytes(data, "lote.zip", config=limited(max_members=3))
    assert [line for line in result.text.splitlines() if line.startswith("file_path_pwd")] == [
        'file_path_pwd:"topo.txt"', 'file_path_pwd:"z.txt"']
    assert result.skipped == [
        "inner.zip: member limit (3) reached; remaining members skipped (limits.max_members)"]


def test_a_member_a_size_limit_refuses_is_skipped_once(zip_registry: Registry) -> None:
    data = zip_bytes({"pasta/": "", "topo.txt": "topo", "grande.txt": "x" * 5000})
    result = extract_from_bytes(data, "lote.zip", config=limited(max_member_bytes=1000))
    assert result.text == 'file_path_pwd:"topo.txt"\ntopo'
    assert result.overall_status == "clean" and result.reports == {}
    # One line for the member, whatever else goblin logged about it; a directory
    # entry is not left out.
    assert [line.split(":")[0] for line in result.skipped] == ["grande.txt"]


def test_an_archive_max_depth_left_closed_is_skipped_and_reported(
    zip_registry: Registry,
) -> None:
    inner = zip_bytes({"deep.txt": "profundo"})
    data = zip_bytes({"inner.zip": inner, "topo.txt": "topo"})
    result = extract_from_bytes(data, "lote.zip", config=limited(max_depth=1))
    assert result.text == 'file_path_pwd:"topo.txt"\ntopo'
    # In GoblinTools' words, which name the archive alone.
    assert result.skipped == ["inner.zip: nesting deeper than 1 archive levels; not extracted"]
    # Its text is missing: goblin does not call that clean.
    assert result.overall_status == "corrupt_unrecoverable"


def test_members_come_in_goblintools_folder_order(zip_registry: Registry) -> None:
    # GoblinTools unpacks, then reads the folder: its files by name, then its subfolders.
    data = zip_bytes({"z.txt": "z", "sub/a.txt": "a", "b.txt": "b", "Sub2/c.txt": "c"})
    result = extract_from_bytes(data, "lote.zip")
    assert [line for line in result.text.splitlines() if line.startswith("file_path_pwd")] == [
        'file_path_pwd:"b.txt"', 'file_path_pwd:"z.txt"',
        'file_path_pwd:"Sub2/c.txt"', 'file_path_pwd:"sub/a.txt"']
