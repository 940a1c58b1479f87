"""The Python API: extract from any input, extract_many in workers, isolate=True."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

from goblin_core import (
    CorruptDocument,
    ExtractionTimeout,
    FileTooLarge,
    GoblinError,
    MemoryLimitExceeded,
    Source,
    WorkerCrashed,
    extract,
    extract_many,
)
from goblin_core.model import Document
from goblin_example_note import render_note


@pytest.fixture(autouse=True)
def _light_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers re-load plugins from entry points: load only the ones these tests use."""
    monkeypatch.setenv("GOBLIN_LOAD_PLUGINS", "example-note,example-fixtures")


def test_extract_takes_a_path_bytes_a_file_object_or_a_source(tmp_path: Path) -> None:
    path = tmp_path / "note.txt"
    path.write_text("goblin reads this", encoding="utf-8")
    results = [
        extract(path),
        extract(str(path)),
        extract(b"goblin reads this", name="note.txt"),
        extract(io.BytesIO(b"goblin reads this"), name="note.txt"),
        extract(Source.from_bytes(b"goblin reads this", "note.txt")),
    ]
    assert {d.text for d in results} == {"goblin reads this"}
    assert {d.name for d in results} == {"note.txt"}
    with path.open("rb") as handle:
        assert extract(handle).name == "note.txt"


def test_document_comes_back_with_its_report_and_no_shared_state() -> None:
    first = extract(b"one document here", name="one.txt")
    second = extract(b"another document", name="two.txt")
    assert first.report is not second.report
    assert first.name == "one.txt" and second.name == "two.txt"
    assert Document.from_dict(first.to_dict()) == first


def test_extract_many_yields_every_document_and_a_bad_one_does_not_stop_it(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "batch"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.txt").write_text("first document", encoding="utf-8")
    (folder / "sub" / "b.gnote").write_bytes(render_note(["a note in a folder"]))
    (folder / "empty.txt").write_bytes(b"")
    (folder / "garbage.bin").write_bytes(bytes(range(256)) * 4)
    missing = tmp_path / "missing.txt"
    documents = {d.name: d for d in extract_many([folder, missing], jobs=2)}
    assert set(documents) == {"a.txt", "sub/b.gnote", "empty.txt", "garbage.bin", str(missing)}
    assert documents["a.txt"].text == "first document"
    assert documents["sub/b.gnote"].text == "a note in a folder"
    assert documents["empty.txt"].report.error_kinds == ("CorruptDocument",)
    assert documents["garbage.bin"].report.error_kinds == ("UnsupportedFormat",)
    assert documents[str(missing)].report.errors
    assert documents["a.txt"].status == "clean"
    assert documents["empty.txt"].status == "failed"


def test_extract_many_passes_options_to_the_workers(tmp_path: Path) -> None:
    (tmp_path / "long.txt").write_text("abcdefghijklmnopqrstuvwxyz", encoding="utf-8")
    [document] = list(extract_many([tmp_path / "long.txt"], jobs=1, max_output_chars=5))
    assert document.text == "abcde"


def test_isolated_extract_returns_the_same_document() -> None:
    data = render_note(["isolated but identical"])
    isolated = extract(data, name="n.gnote", isolate=True)
    assert isolated.text == "isolated but identical"
    assert isolated.pages[0].engine == "note.parser"


def test_isolated_extract_raises_the_same_errors() -> None:
    with pytest.raises(CorruptDocument, match="empty"):
        extract(b"", name="empty.txt", isolate=True)


def test_isolated_extract_has_a_hard_timeout() -> None:
    started = time.monotonic()
    with pytest.raises(ExtractionTimeout, match=r"limits\.timeout"):
        extract(b"GOBLIN-SLEEPY 120\n", name="hangs.sleepy", isolate=True, timeout=4)
    assert time.monotonic() - started < 60


def test_isolated_extract_survives_a_crashing_engine() -> None:
    with pytest.raises(WorkerCrashed, match="signal 9"):
        extract(b"GOBLIN-CRASHY\n", name="crash.crashy", isolate=True)
    # The caller's process is fine and goes on.
    assert extract(b"still alive", name="a.txt").text == "still alive"


def test_batch_goes_on_after_a_hang_and_a_crash(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("before the trouble", encoding="utf-8")
    (tmp_path / "b.sleepy").write_bytes(b"GOBLIN-SLEEPY 120\n")
    (tmp_path / "c.crashy").write_bytes(b"GOBLIN-CRASHY\n")
    (tmp_path / "d.txt").write_text("after the trouble", encoding="utf-8")
    documents = {d.name: d for d in extract_many([tmp_path], jobs=2, timeout=4)}
    assert documents["a.txt"].text == "before the trouble"
    assert documents["d.txt"].text == "after the trouble"
    assert documents["b.sleepy"].report.error_kinds == ("ExtractionTimeout",)
    assert documents["c.crashy"].report.error_kinds == ("WorkerCrashed",)


def test_errors_are_goblin_errors_with_the_file_name() -> None:
    with pytest.raises(GoblinError) as caught:
        extract(b"", name="nothing.txt")
    assert caught.value.file == "nothing.txt"
    assert caught.value.kind == "CorruptDocument"


def test_extract_many_takes_one_path_as_one_path_not_its_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Relative names keep the old failure small: each character was a path
    # and "." walked the current folder.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ab.txt").write_text("one file", encoding="utf-8")
    (tmp_path / "inbox").mkdir()
    (tmp_path / "inbox" / "c.txt").write_text("in a folder", encoding="utf-8")
    for single in ("ab.txt", Path("ab.txt"), b"ab.txt"):
        documents = list(extract_many(single, jobs=1))
        assert [(d.name, d.text) for d in documents] == [("ab.txt", "one file")]
    [folder_document] = list(extract_many("inbox", jobs=1))
    assert (folder_document.name, folder_document.text) == ("c.txt", "in a folder")


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (b"\x00\x01garbage" * 10, "x.bin"),  # UnsupportedFormat, no extra
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "a.pdf"),  # UnsupportedFormat naming the pdf extra
        (b"", "empty.txt"),  # CorruptDocument
    ],
)
def test_isolated_errors_have_the_class_file_message_and_attributes_of_in_process_ones(
    data: bytes, name: str
) -> None:
    with pytest.raises(GoblinError) as in_process:
        extract(data, name=name)
    with pytest.raises(GoblinError) as isolated:
        extract(data, name=name, isolate=True)
    expected, got = in_process.value, isolated.value
    assert type(got) is type(expected)
    assert (str(got), got.args) == (str(expected), expected.args)
    assert (got.file, got.message, got.kind) == (name, expected.message, expected.kind)
    assert vars(got) == vars(expected)


def test_isolated_timeout_keeps_the_pages_read_before_it_like_in_process() -> None:
    # 500 pages, 0.7 s each: far past a 2 s limit, and the limit runs out inside a page.
    slow = b"GOBLIN-SLOWPAGES 0.7\n"
    in_process = extract(slow, name="long.slowpages", timeout=2)
    started = time.monotonic()
    isolated = extract(slow, name="long.slowpages", timeout=2, isolate=True)
    assert time.monotonic() - started < 60
    for document in (in_process, isolated):
        read = [p for p in document.pages if p.status == "clean"]
        assert 2 <= len(read) < 20
        assert read[0].text == "page 1 read slowly"
        assert document.report.error_kinds == ("ExtractionTimeout",)
        assert "pages read so far are kept" in document.report.errors[0].message


def test_a_page_spinning_in_python_is_interrupted_in_process_and_in_a_worker() -> None:
    # page 3 would spin for 600 s; a worker would be killed at the limit plus its grace
    # (5 s) and lose pages 1 and 2 with it
    spinning = b"GOBLIN-SPIN 3\n"
    for isolate in (False, True):
        started = time.monotonic()
        document = extract(spinning, name="spin.spin", timeout=2, isolate=isolate)
        # a worker's start-up (its plugins' imports) counts here, not in the limit: it is
        # the message below that tells an interrupt from the hard kill
        assert time.monotonic() - started < (6 if not isolate else 30)
        assert [p.text for p in document.pages[:2]] == ["page 1 read", "page 2 read"]
        assert [p.status for p in document.pages] == ["clean", "clean", "failed", "failed",
                                                      "failed"]
        assert document.report.error_kinds == ("ExtractionTimeout",)
        assert "fixture.spin was still working on it, and it was interrupted" in \
            document.report.errors[0].message


def test_batch_timeout_keeps_the_pages_read_before_it(tmp_path: Path) -> None:
    (tmp_path / "long.slowpages").write_bytes(b"GOBLIN-SLOWPAGES 0.7\n")
    [document] = list(extract_many([tmp_path], jobs=1, timeout=2))
    assert sum(p.status == "clean" for p in document.pages) >= 2
    assert document.report.error_kinds == ("ExtractionTimeout",)


def test_a_missing_path_in_a_batch_has_the_kind_extract_raises(tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent.pdf"
    with pytest.raises(GoblinError) as raised:
        extract(missing)
    [document] = list(extract_many([missing], jobs=1))
    assert raised.value.kind == "UnreadableFile"
    assert document.report.error_kinds == ("UnreadableFile",)
    assert document.status == "failed"
    assert str(missing) in document.report.errors[0].message


def test_the_smallest_memory_limit_still_reads_a_document_and_stops_a_runaway() -> None:
    # limits.max_memory counts what a document adds to the idle worker, whose
    # interpreter and plugins alone take more than the option's minimum.
    smallest = "64MB"
    data = render_note(["read under the smallest memory limit"])
    document = extract(data, name="n.gnote", isolate=True, max_memory=smallest)
    assert document.text == "read under the smallest memory limit"
    started = time.monotonic()
    with pytest.raises(MemoryLimitExceeded, match=r"limits\.max_memory \(64 MiB\)"):
        extract(b"GOBLIN-ALLOC\n", name="bloat.alloc", isolate=True, max_memory=smallest)
    assert time.monotonic() - started < 60


def test_a_failed_document_still_names_the_files_type_size_and_hash(tmp_path: Path) -> None:
    """A batch record of a file goblin could not read identifies it all the same: what it
    was taken for, how big it is and its SHA-256 (to find it again, or see it repeat)."""
    import hashlib

    data = b"%PDF-1.7\n" + b"\x00not a pdf body" * 100
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(data)
    (document,) = extract_many([bad], jobs=1, ocr="never")
    assert document.status == "failed" and document.report.errors
    assert document.mime == "application/pdf"
    assert document.size == len(data)
    assert document.sha256 == hashlib.sha256(data).hexdigest()
    with pytest.raises(GoblinError) as raised:
        extract(bad, ocr="never")
    assert raised.value.sha256 == document.sha256 and raised.value.size == len(data)
    # a file over limits.max_file_size is not read to be hashed
    with pytest.raises(FileTooLarge) as too_large:
        extract(bad, ocr="never", limits={"max_file_size": 100})
    assert too_large.value.size == len(data) and too_large.value.sha256 == ""


def test_a_url_given_to_extract_says_it_is_not_fetched() -> None:
    # "No such file or directory" sent the caller looking for a file
    url = "https://example.invalid/editais/12-2024.pdf"
    with pytest.raises(FileNotFoundError) as raised:
        extract(url)
    assert isinstance(raised.value, GoblinError) and raised.value.kind == "UnreadableFile"
    assert str(raised.value).startswith(f"{url}: a URL, which extract does not fetch")
    # a batch named it "https:/example.invalid/...: no such file or folder"
    [document] = list(extract_many([url], jobs=1))
    assert document.name == url
    assert "a URL, which this executor does not fetch" in document.report.errors[0].message
