"""Limits and bad input: each a clear GoblinError or report entry, text already read kept."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from goblin_core import (
    CorruptDocument,
    FileTooLarge,
    GoblinError,
    OutputLimitReached,
    UnsupportedFormat,
    extract,
    load_registry,
)
from goblin_core.errors import MissingFile, UnreadableFile
from goblin_core.inputs import InputProblem, walk_inputs

from scripted_engines import TEST_BYTES, ScriptedParser, registry_with, text_page


def _long_pages(count: int, size: int = 100) -> list:
    return [text_page(n, f"page {n} " + "w" * size) for n in range(1, count + 1)]


# -- output, pages, time ---------------------------------------------------------------


def test_output_limit_cuts_the_text_and_reports_it() -> None:
    parser = ScriptedParser("tests.parser", _long_pages(5))
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser),
                       max_output_chars=250)
    assert len(document.text.replace(document.PAGE_SEPARATOR, "")) == 250
    assert document.text.startswith("page 1 ")
    assert document.report.truncated
    errors = [e for e in document.report.errors if e.kind == OutputLimitReached.kind]
    assert errors and "max_output_chars" in errors[0].message


def test_output_limit_stops_reading_pages_early() -> None:
    parser = ScriptedParser("tests.parser", _long_pages(50))
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser),
                       max_output_chars=300)
    assert len(document.pages) < 10


def test_text_under_the_output_limit_is_untouched() -> None:
    parser = ScriptedParser("tests.parser", _long_pages(3))
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser),
                       max_output_chars=10_000)
    assert not document.report.truncated and not document.report.errors
    assert len(document.pages) == 3


def test_max_pages_reads_only_that_many_pages() -> None:
    parser = ScriptedParser("tests.parser", _long_pages(6))
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser), max_pages=2)
    assert [p.number for p in document.pages] == [1, 2]
    assert any(w.kind == "MaxPages" for w in document.report.warnings)


def test_a_parser_that_knows_its_pages_is_not_asked_for_one_past_max_pages() -> None:
    """Reading the page after the last one kept costs its work (and, in a PDF, brings its
    attachments along): a parser that states its page count is not asked for it; one
    that does not is, to learn whether more pages follow."""
    knowing = ScriptedParser("tests.parser", [*_long_pages(2), RuntimeError("page 3 read")],
                             page_count=3)
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(knowing), max_pages=2)
    assert [p.number for p in document.pages] == [1, 2]
    assert not document.report.errors
    assert any(w.kind == "MaxPages" for w in document.report.warnings)
    exact = ScriptedParser("tests.parser", _long_pages(2), page_count=2)
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(exact), max_pages=2)
    assert not any(w.kind == "MaxPages" for w in document.report.warnings)


def test_timeout_between_pages_keeps_the_pages_done() -> None:
    parser = ScriptedParser("tests.parser", _long_pages(20), delay=0.15)
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser), timeout=0.5)
    read = [p for p in document.pages if p.status == "clean"]
    assert 1 <= len(read) < 20
    assert all(p.text.startswith(f"page {p.number} ") for p in read)
    assert [p.number for p in document.pages] == list(range(1, 21))
    unread = document.pages[len(read):]
    assert all(p.status == "failed" and not p.text for p in unread)
    assert all(p.reasons == ("not read: ExtractionTimeout",) for p in unread)
    assert document.status == "partially_recovered"
    assert "ExtractionTimeout" in document.report.error_kinds
    assert "pages read so far are kept" in document.report.errors[0].message


def test_timeout_with_max_pages_marks_only_the_pages_asked_for() -> None:
    parser = ScriptedParser("tests.parser", _long_pages(20), delay=0.15)
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser), timeout=0.5,
                       max_pages=8)
    assert [p.number for p in document.pages] == list(range(1, 9))
    assert document.pages[-1].status == "failed"


# -- what cannot be read at all ---------------------------------------------------------


def test_file_over_the_size_limit_is_refused_before_reading(tmp_path: Path) -> None:
    parser = ScriptedParser("tests.parser", _long_pages(1))
    big = tmp_path / "big.test"
    big.write_bytes(TEST_BYTES * 100)
    with pytest.raises(FileTooLarge) as caught:
        extract(big, registry=registry_with(parser), max_file_size="1KB")
    message = str(caught.value)
    assert message.startswith(f"{big}: ") and "limits.max_file_size" in message
    assert parser.opened == 0


def test_empty_file_is_a_clear_error(tmp_path: Path) -> None:
    empty = tmp_path / "nothing.txt"
    empty.write_bytes(b"")
    with pytest.raises(CorruptDocument, match=r"nothing\.txt: the file is empty"):
        extract(empty)


def test_unknown_binary_is_unsupported() -> None:
    blob = bytes(range(256)) * 8
    with pytest.raises(UnsupportedFormat) as caught:
        extract(blob, name="mystery.bin", registry=load_registry(load=[]))
    assert "mystery.bin" in str(caught.value)
    assert "application/octet-stream" in str(caught.value)


def test_pdf_with_only_goblin_core_names_the_extra() -> None:
    pdf = b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
    with pytest.raises(UnsupportedFormat) as caught:
        extract(pdf, name="edital.pdf", registry=load_registry(load=[]))
    error = caught.value
    assert error.extra == "pdf" and error.mime == "application/pdf"
    assert 'pip install "goblin-core[pdf]"' in str(error)
    assert str(error).startswith("edital.pdf: ")


def test_plain_text_with_only_goblin_core_is_read() -> None:
    document = extract("Licitação nº 12/2024".encode("cp1252"), name="edital.txt",
                       registry=load_registry(load=[]))
    assert document.text == "Licitação nº 12/2024"
    assert document.status == "clean"


def test_unreadable_file_is_a_clear_error(tmp_path: Path) -> None:
    # A folder where a file is expected fails to read for every user, root included.
    locked = tmp_path / "locked.txt"
    locked.mkdir()
    with pytest.raises(UnreadableFile, match=r"locked\.txt: cannot read it") as caught:
        extract(locked)
    assert isinstance(caught.value, OSError) and isinstance(caught.value, GoblinError)


def test_file_without_read_permission_is_a_clear_error(tmp_path: Path) -> None:
    locked = tmp_path / "locked.txt"
    locked.write_text("secret", encoding="utf-8")
    locked.chmod(0)
    if os.access(locked, os.R_OK):
        # Root reads whatever the permissions say; the folder case above covers it.
        return
    with pytest.raises(UnreadableFile, match=r"locked\.txt"):
        extract(locked)


def test_missing_file_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFile, match=r"missing\.txt"):
        extract(tmp_path / "missing.txt")


def test_an_empty_path_is_a_missing_file_not_the_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Path("") is ".": a path from an unset variable must not read the folder it runs in."""
    (tmp_path / "private.txt").write_text("not to be read", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(MissingFile, match="empty path"):
        extract("")
    assert [p.kind for p in walk_inputs([""]) if isinstance(p, InputProblem)] == ["FileNotFound"]
    assert not [item for item in walk_inputs("") if not isinstance(item, InputProblem)]



# -- walking folders ------------------------------------------------------------------------


def test_walk_inputs_reports_a_symlink_loop_and_goes_on(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "deep.txt").write_text("deep", encoding="utf-8")
    (root / "top.txt").write_text("top", encoding="utf-8")
    (root / "a" / "b" / "back").symlink_to(root, target_is_directory=True)
    (root / "a" / "self").symlink_to(root / "a", target_is_directory=True)
    found = list(walk_inputs([root]))
    files = [item[1] for item in found if not isinstance(item, InputProblem)]
    problems = [item for item in found if isinstance(item, InputProblem)]
    assert files == ["a/b/deep.txt", "top.txt"]
    assert problems and {p.kind for p in problems} == {"DirectoryLoop"}


def test_walk_inputs_reports_missing_paths_and_broken_links(tmp_path: Path) -> None:
    (tmp_path / "ok.txt").write_text("fine", encoding="utf-8")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone")
    found = list(walk_inputs([tmp_path, tmp_path / "absent.txt"]))
    files = [item[1] for item in found if not isinstance(item, InputProblem)]
    kinds = sorted(item.kind for item in found if isinstance(item, InputProblem))
    assert files == ["ok.txt"]
    assert kinds == ["FileNotFound", "FileNotFound"]


def test_a_link_leading_nowhere_says_whether_it_loops_or_its_target_is_gone(
        tmp_path: Path) -> None:
    (tmp_path / "one").symlink_to(tmp_path / "two")
    (tmp_path / "two").symlink_to(tmp_path / "one")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone.pdf")
    for given in ([tmp_path / "one", tmp_path / "dangling"], [tmp_path]):
        reasons = {Path(p.path).name: p.message for p in walk_inputs(given)
                   if isinstance(p, InputProblem)}
        assert reasons["one"] == "symbolic link loop"
        assert reasons["dangling"].startswith("symbolic link to a missing target")
        assert "gone.pdf" in reasons["dangling"]


def test_walk_inputs_takes_one_path_as_one_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                ) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ab").write_text("x")
    (tmp_path / "a").write_text("not me")
    for one in ("ab", b"ab", Path("ab")):
        assert list(walk_inputs(one)) == [(Path("ab"), "ab")]
