"""A resumed run extracts again the documents the last run could not read, and keeps the
ones it read, in full or in part."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from goblin_core import default_registry, load_registry
from goblin_core.batch import MANIFEST_NAME, run_batch
from goblin_core.cli import CliState, cli
from goblin_core.errors import CorruptDocument
from goblin_core.registry import Registry

from scripted_engines import (
    TEST_BYTES,
    FakeOCR,
    ScriptedParser,
    registry_with,
    scan_page,
    text_page,
)

pytestmark = pytest.mark.usefixtures("cli_environment")

#: The plain-text parser switched off: every text file of the run fails (UnsupportedFormat),
#: with its content's sha256 known, as a file fails whose plugin or binary is missing.
NO_TEXT_PARSER = 'engines."text.plain".enabled=false'


def _rows(out: Path) -> dict[str, dict[str, Any]]:
    lines = (out / MANIFEST_NAME).read_text(encoding="utf-8").splitlines()
    return {row["path"]: row for row in map(json.loads, lines)}


def _two_texts(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "a.txt").write_text("alpha\n", encoding="utf-8")
    (folder / "b.txt").write_text("beta\n", encoding="utf-8")
    return folder


def _extract(*args: str, registry: Registry | None = None) -> Result:
    return CliRunner().invoke(cli, ["extract", *args],
                              obj=CliState(registry or load_registry(entry_points=lambda: [])))


def test_a_resumed_cli_run_extracts_again_the_documents_that_failed(tmp_path: Path) -> None:
    source = _two_texts(tmp_path / "in")
    out = tmp_path / "out"
    first = _extract(str(source), "-o", str(out), "--jobs", "1", "-O", NO_TEXT_PARSER)
    assert first.exit_code == 1, first.output
    assert {row["status"] for row in _rows(out).values()} == {"failed"}

    again = _extract(str(source), "-o", str(out), "--jobs", "1", "--resume")
    assert again.exit_code == 0, again.output
    assert "unchanged skipped" not in again.stderr
    assert (out / "a.txt.txt").read_text(encoding="utf-8").endswith("alpha\n")
    assert (out / "b.txt.txt").read_text(encoding="utf-8").endswith("beta\n")
    assert {row["status"] for row in _rows(out).values()} == {"clean"}

    # read now: the next resumed run keeps both
    done = _extract(str(source), "-o", str(out), "--jobs", "1", "--resume")
    assert done.exit_code == 0, done.output
    assert "all 2 document(s) are unchanged" in done.stderr


def test_a_resumed_batch_extracts_again_the_documents_that_failed(tmp_path: Path) -> None:
    source = _two_texts(tmp_path / "in")
    out = tmp_path / "out"
    registry = default_registry()
    off = registry.config(None, engines={"text.plain": {"enabled": False}})
    first = run_batch(registry, off, [source], out, jobs=1)
    assert (first.done, first.failed) == (2, 2)

    again = run_batch(registry, registry.config(), [source], out, jobs=1, resume=True)
    assert (again.done, again.skipped, again.failed) == (2, 0, 0)
    assert {row["status"] for row in _rows(out).values()} == {"clean"}

    done = run_batch(registry, registry.config(), [source], out, jobs=1, resume=True)
    assert (done.done, done.skipped) == (0, 2)


def test_a_resumed_run_keeps_a_document_read_in_part(tmp_path: Path) -> None:
    """Pages kept of a document cut short are its result: resuming does not read it again."""
    source = tmp_path / "doc.test"
    source.write_bytes(TEST_BYTES)
    out = tmp_path / "out"
    cut = ScriptedParser("tests.cut", [text_page(1, "first page read"),
                                       CorruptDocument("page 2 is damaged")], page_count=2)
    first = _extract(str(source), "-o", str(out), registry=registry_with(cut))
    assert first.exit_code == 1, first.output
    assert _rows(out)["doc.test"]["status"] == "partially_recovered"

    whole = ScriptedParser("tests.cut", [text_page(1, "first page read"),
                                         text_page(2, "second page read")])
    again = _extract(str(source), "-o", str(out), "--resume", registry=registry_with(whole))
    assert again.exit_code == 0, again.output
    assert whole.opened == 0
    assert "all 1 document(s) are unchanged" in again.stderr


def test_a_resumed_run_extracts_again_a_document_with_no_usable_text(tmp_path: Path) -> None:
    """A scan read when no OCR backend was installed has no text; once one is, resuming
    reads it."""
    source = tmp_path / "scan.test"
    source.write_bytes(TEST_BYTES)
    out = tmp_path / "out"
    scans = ScriptedParser("tests.scan", [scan_page(1)], renders=True)
    first = _extract(str(source), "-o", str(out), registry=registry_with(scans))
    assert first.exit_code == 1, first.output
    assert _rows(out)["scan.test"]["status"] == "corrupt_unrecoverable"

    ocr = FakeOCR("tests.ocr", {1: "the text of the scanned page"})
    again = _extract(str(source), "-o", str(out), "--resume",
                     registry=registry_with(scans, ocr))
    assert again.exit_code == 0, again.output
    assert ocr.calls == [1]
    assert "the text of the scanned page" in (out / "scan.test.txt").read_text(encoding="utf-8")
    assert _rows(out)["scan.test"]["page_statuses"] == {"ocr": 1}


def test_a_resumed_batch_extracts_again_a_result_of_another_format(tmp_path: Path) -> None:
    """The result kept must be the one asked for: a text result is no JSON result."""
    source = _two_texts(tmp_path / "in")
    out = tmp_path / "out"
    registry = default_registry()
    run_batch(registry, registry.config(), [source], out, jobs=1)
    again = run_batch(registry, registry.config(), [source], out, fmt="json", jobs=1,
                      resume=True)
    assert (again.done, again.skipped) == (2, 0)
    assert {row["output"] for row in _rows(out).values()} == {"a.txt.json", "b.txt.json"}
