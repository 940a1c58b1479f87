"""A FIFO where the output folder's manifest.jsonl goes is refused, never waited on."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from goblin_core import default_registry
from goblin_core.batch import MANIFEST_NAME, BatchWriter
from goblin_core.errors import GoblinError


@pytest.fixture
def fifo_manifest(tmp_path: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / MANIFEST_NAME)
    return out


def test_extract_refuses_a_fifo_as_its_manifest(tmp_path: Path, fifo_manifest: Path) -> None:
    source = tmp_path / "a.txt"
    source.write_text("alpha\n", encoding="utf-8")
    command = [sys.executable, "-m", "goblin_core.cli", "extract", str(source),
               "-o", str(fifo_manifest)]
    env = {**os.environ, "GOBLIN_LOAD_PLUGINS": ""}
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    except subprocess.TimeoutExpired:  # a safety ceiling: refusing takes a second
        pytest.fail("goblin extract waited on the FIFO")
    assert done.returncode == 2, done.stderr
    assert "manifest.jsonl" in done.stderr and "not a regular file" in done.stderr
    assert not (fifo_manifest / "a.txt.txt").exists()


def test_a_batch_writer_refuses_a_fifo_as_its_manifest(fifo_manifest: Path) -> None:
    registry = default_registry()
    raised: list[BaseException] = []

    def open_writer() -> None:
        try:
            BatchWriter(registry, registry.config(), fifo_manifest, "text")
        except GoblinError as exc:
            raised.append(exc)

    opening = threading.Thread(target=open_writer, daemon=True)
    opening.start()
    opening.join(timeout=30)  # a safety ceiling: refusing takes milliseconds
    if opening.is_alive():
        # a reader's open ends the blocked writer's, so the thread does not outlive the test
        os.close(os.open(fifo_manifest / MANIFEST_NAME, os.O_RDONLY | os.O_NONBLOCK))
        opening.join(timeout=10)
        pytest.fail("opening the manifest waited on the FIFO")
    assert raised and "not a regular file" in str(raised[0])
