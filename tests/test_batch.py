"""Batch extraction to a folder: result files, the JSONL manifest, resume, interruption."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goblin_core import default_registry
from goblin_core.batch import MANIFEST_NAME, BatchProgress, output_name, run_batch


def _inputs(folder: Path, count: int) -> Path:
    folder.mkdir()
    for i in range(count):
        (folder / f"sub{i % 3}").mkdir(exist_ok=True)
        (folder / f"sub{i % 3}" / f"doc{i:02d}.txt").write_text(
            f"Edital {i}: aquisição de materiais.\n", encoding="utf-8")
    (folder / "empty.txt").write_bytes(b"")
    return folder


def _outputs(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != MANIFEST_NAME}


def _manifest(folder: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (folder / MANIFEST_NAME).read_text().splitlines()]


def test_a_batch_writes_one_result_per_document_and_a_manifest(tmp_path: Path) -> None:
    source = _inputs(tmp_path / "in", 6)
    registry = default_registry()
    summary = run_batch(registry, registry.config(), [source], tmp_path / "out", jobs=2)
    assert (summary.total, summary.done, summary.failed) == (7, 7, 1)
    assert set(_outputs(tmp_path / "out")) == {
        "empty.txt.txt", *(f"sub{i % 3}/doc{i:02d}.txt.txt" for i in range(6))}
    rows = {r["path"]: r for r in _manifest(tmp_path / "out")}
    assert rows["sub0/doc00.txt"]["status"] == "clean"
    assert rows["sub0/doc00.txt"]["engines"] == ["text.plain"]
    assert len(str(rows["sub0/doc00.txt"]["sha256"])) == 64
    assert rows["empty.txt"]["status"] == "failed"
    assert str(rows["empty.txt"]["error"]).startswith("CorruptDocument")
    assert list(rows) == sorted(rows), "the manifest is sorted by path"


def test_resume_after_an_interruption_is_byte_identical_and_redoes_only_what_failed(
    tmp_path: Path,
) -> None:
    source = _inputs(tmp_path / "in", 9)
    registry = default_registry()
    config = registry.config()
    run_batch(registry, config, [source], tmp_path / "whole", jobs=1)

    def interrupt_after_four(progress: BatchProgress) -> None:
        if progress.done == 4:
            raise KeyboardInterrupt

    first = run_batch(registry, config, [source], tmp_path / "resumed", jobs=1,
                      progress=interrupt_after_four)
    assert first.interrupted and first.done == 4
    assert len(_manifest(tmp_path / "resumed")) == 4

    second = run_batch(registry, config, [source], tmp_path / "resumed", jobs=1, resume=True)
    # the empty file among the four done failed, so it is tried again with the six left
    assert (second.skipped, second.done) == (3, 7)
    assert _outputs(tmp_path / "resumed") == _outputs(tmp_path / "whole")
    assert [r["path"] for r in _manifest(tmp_path / "resumed")] == \
        [r["path"] for r in _manifest(tmp_path / "whole")]


def test_resume_redoes_a_document_whose_content_changed(tmp_path: Path) -> None:
    source = _inputs(tmp_path / "in", 2)
    registry = default_registry()
    config = registry.config()
    run_batch(registry, config, [source], tmp_path / "out", jobs=1)
    (source / "sub0" / "doc00.txt").write_text("Conteúdo novo.\n", encoding="utf-8")
    again = run_batch(registry, config, [source], tmp_path / "out", jobs=1, resume=True)
    # the changed document, and the empty file that failed, which is tried again
    assert again.done == 2 and again.skipped == 1
    assert (tmp_path / "out" / "sub0" / "doc00.txt.txt").read_text().endswith("Conteúdo novo.\n")


@pytest.mark.parametrize("name", ["../../etc/passwd", "/abs/x.pdf", "a/../../b.txt"])
def test_output_names_never_leave_the_output_folder(name: str) -> None:
    assert not output_name(name, "text").startswith(("/", ".."))
    assert "/../" not in f"/{output_name(name, 'json')}"


def test_a_missing_input_is_recorded_with_its_real_kind(tmp_path: Path) -> None:
    registry = default_registry()
    missing = tmp_path / "gone.pdf"
    summary = run_batch(registry, registry.config(), [missing], tmp_path / "out")
    assert (summary.total, summary.failed) == (1, 1)
    assert summary.errors == {"UnreadableFile": 1}
    [row] = _manifest(tmp_path / "out")
    assert str(row["error"]).startswith(f"UnreadableFile: {missing}: no such file")
