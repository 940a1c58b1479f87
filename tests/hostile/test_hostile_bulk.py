"""Truncated, empty and random files of every type, in one batch, and every error kind.

The batch runs in worker processes with the per-document limits of the
ceiling (20 s, 1 GiB): a document that crashed, hung or blew up its worker
would come back as WorkerCrashed, ExtractionTimeout or MemoryLimitExceeded,
so their absence is the ceiling holding for every file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from goblin_core.errors import ERROR_KINDS
from goblin_core.testing.corpus import corpus_dir, manifest, require_binary

import hostile_files as build
from hostile_runner import CEILING_BYTES, CEILING_SECONDS, HostileRunner

EXTENSIONS = ("pdf", "docx", "xlsx", "pptx", "odt", "ods", "odp", "doc", "xls", "ppt", "rtf",
              "epub", "msg", "eml", "zip", "tar", "gz", "bz2", "xz", "zst", "lz4", "7z", "rar",
              "cab", "cpio", "png", "jpg", "tif", "gif", "bmp", "webp", "html", "xml", "svg",
              "csv", "tsv", "json", "dbf", "txt", "md")
CRASH_KINDS = {"WorkerCrashed", "ExtractionTimeout", "MemoryLimitExceeded"}


def _one_per_extension(root: Path) -> dict[str, Path]:
    chosen: dict[str, Path] = {}
    for row in manifest(root):
        extension = row.extension
        wanted = extension in EXTENSIONS and extension not in chosen
        if wanted and not row.file.startswith("tricky"):
            chosen[extension] = root / row.file
    return chosen


def _batch(hostile: HostileRunner, folder: Path, files: int) -> dict[str, dict[str, object]]:
    config = hostile.root / "in" / "limits.toml"
    config.write_text(f"[limits]\ntimeout = {CEILING_SECONDS}\nmax_memory = {CEILING_BYTES}\n")
    run = hostile.cli("extract", str(folder), "--jobs", "2", "--format", "jsonl",
                      "--config", str(config), ceiling=CEILING_SECONDS * max(files, 1) / 2)
    assert run.code in (0, 1), run.stderr[-2000:]
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    return {r["name"]: r for r in rows}


def _kinds(row: dict[str, object]) -> set[str]:
    report = row["report"]
    assert isinstance(report, dict)
    return {e["kind"] for e in report["errors"]}


def test_truncated_empty_and_random_files_of_every_type(hostile: HostileRunner) -> None:
    folder = hostile.root / "in" / "bulk"
    folder.mkdir()
    for extension in EXTENSIONS:
        build.zero_bytes(folder, extension)
        build.random_bytes(folder, extension)
    for extension, source in _one_per_extension(corpus_dir(__file__)).items():
        for fraction in (0.5, 0.1):
            build.truncated_copy(source, folder, fraction).rename(
                folder / f"truncated-{int(fraction * 100)}.{extension}")
    inputs = sorted(p.name for p in folder.iterdir())
    rows = _batch(hostile, folder, len(inputs))
    top = {name: row for name, row in rows.items() if "/" not in name}
    assert sorted(top) == inputs, "every file has its result"
    for name, row in rows.items():
        assert not _kinds(row) & CRASH_KINDS, (name, row["report"])
        assert set(_kinds(row)) <= set(ERROR_KINDS), (name, row["report"])
    for extension in EXTENSIONS:
        assert _kinds(top[f"empty.{extension}"]) == {"CorruptDocument"}
        random_kinds = _kinds(top[f"random.{extension}"])
        assert random_kinds & {"UnsupportedFormat", "CorruptDocument"}, (extension, random_kinds)
    hostile.assert_contained([hostile.root / "in"])


def test_every_error_kind_has_a_hostile_case(hostile: HostileRunner, tmp_path: Path) -> None:
    """The kinds the per-file suite does not reach, each from a hostile situation of its own."""
    folder = hostile.root / "in"
    seen: set[str] = {"UnsafeArchive", "PasswordRequired", "FileTooLarge"}  # test_hostile_files

    empty = build.zero_bytes(folder, "pdf")
    seen |= set(hostile.api(empty).result.get("raised", "").split())

    vanished = folder / "vanished.pdf"
    seen |= set(hostile.api(vanished).result.get("raised", "").split())

    noise = build.random_bytes(folder, "bin")
    seen |= set(hostile.api(noise).result.get("raised", "").split())

    # ten thousand pages of thirty words (the most form feeds split a text file into):
    # about half a second of work, five times the shortest time limit
    pages = folder / "endless-pages.txt"
    pages.write_text("\f".join(f"página {i} " * 30 for i in range(10_000)), encoding="utf-8")
    timed_out = hostile.api(pages, timeout=0.1).result
    assert "página 0" in timed_out["text"], "pages read before the deadline are kept"
    seen |= set(timed_out["errors"])

    flood = folder / "flood.txt"
    flood.write_text("licitação " * 200_000, encoding="utf-8")
    seen |= set(hostile.api(flood, max_output_chars=1000).result["errors"])

    scan = build.image_only_pdf(folder)
    blocked = hostile._run("api", [str(scan), "{}"], {"GOBLIN_DISABLE_PLUGINS": "tesseract"})
    seen |= set(blocked.result["warnings"])

    # a Tesseract that answers its probes and crashes on every page it is handed
    tesseract = require_binary("tesseract", "tesseract-ocr")
    crashing = folder / "crashing-tesseract"
    crashing.write_text("#!/bin/sh\n"
                        'case " $* " in *" --version "*|*" --list-langs "*) '
                        f'exec {tesseract} "$@";; esac\nkill -SEGV $$\n')
    crashing.chmod(0o755)
    crashed = hostile.api(scan, ocr="always", tesseract={"command": str(crashing)}).result
    assert crashed["attempts"] == ["EngineFailed"], crashed
    seen |= set(crashed["attempts"])

    bad_config = folder / "bad.toml"
    bad_config.write_text("[limits]\nmax_depth = 'deep'\n")
    refused = hostile.cli("extract", str(flood), "--config", str(bad_config))
    assert refused.code == 2 and "limits.max_depth" in refused.stderr
    seen.add("ConfigError")

    batch = folder / "workers"
    batch.mkdir()
    (batch / "good.txt").write_text("documento bom", encoding="utf-8")
    # 160 MB of text: reading it adds far more than the smallest memory limit to a worker
    (batch / "big.txt").write_text("palavra " * 20_000_000, encoding="utf-8")
    tight = folder / "tight.toml"
    tight.write_text('[limits]\nmax_memory = "64MB"\n')
    run = hostile.cli("extract", str(batch), "--jobs", "2", "--format", "jsonl", "--config",
                      str(tight), ceiling=60)
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    by_name = {r["name"]: r for r in rows}
    assert [e["kind"] for e in by_name["big.txt"]["report"]["errors"]] == ["MemoryLimitExceeded"]
    assert by_name["good.txt"]["status"] == "clean"
    seen |= {e["kind"] for r in rows for e in r["report"]["errors"]}
    (batch / "big.txt").unlink()

    crashy = _crashing_input(batch)
    if crashy is not None:
        run = hostile.cli("extract", str(batch), "--jobs", "2", "--format", "jsonl", ceiling=60)
        rows = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
        seen |= {e["kind"] for r in rows for e in r["report"]["errors"]}
        assert any(r["name"] == "good.txt" and r["status"] == "clean" for r in rows)

    missing = set(ERROR_KINDS) - {"GoblinError"} - seen
    assert not missing, f"error kinds no hostile case produced: {sorted(missing)}"


def _crashing_input(folder: Path) -> Path | None:
    """A file that kills its worker, through the example plugin's crash fixture when installed."""
    try:
        from goblin_example_note.fixtures import CRASHY_SIGNATURE
    except ImportError:
        if "goblin_example_note" not in sys.modules:
            pytest.fail("the example plugin (tests/example_plugin) must be installed for the "
                        "WorkerCrashed case")
        return None
    path = folder / "kills-its-worker.crashy"
    path.write_bytes(CRASHY_SIGNATURE + b"\n")
    return path
