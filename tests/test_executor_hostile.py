"""One batch meets a hung engine, an aborting one and an unbounded allocation, and goes on."""

from __future__ import annotations

import time
from pathlib import Path

from goblin_core import extract_many

#: Low enough that the allocator reaches it in seconds, high enough for a worker's plugins.
MAX_MEMORY = 768 * 2**20


def test_a_batch_reports_each_hostile_document_and_extracts_every_other(tmp_path: Path) -> None:
    for index in range(4):
        (tmp_path / f"plain{index}.txt").write_text(f"plain text {index}", encoding="utf-8")
    (tmp_path / "hang.sleepy").write_bytes(b"GOBLIN-SLEEPY 100000\n")
    (tmp_path / "abort.abort").write_bytes(b"GOBLIN-ABORT\n")
    (tmp_path / "bloat.alloc").write_bytes(b"GOBLIN-ALLOC\n")
    started = time.monotonic()
    documents = {d.name: d for d in extract_many([tmp_path], jobs=2, timeout=6,
                                                 max_memory=MAX_MEMORY)}
    # The run ends: nothing waits for the sleeper's 100000 seconds.
    assert time.monotonic() - started < 240
    assert set(documents) == {*(f"plain{i}.txt" for i in range(4)),
                              "hang.sleepy", "abort.abort", "bloat.alloc"}
    for index in range(4):
        plain = documents[f"plain{index}.txt"]
        assert plain.text == f"plain text {index}"
        assert not plain.report.errors
    assert documents["hang.sleepy"].report.error_kinds == ("ExtractionTimeout",)
    assert documents["abort.abort"].report.error_kinds == ("WorkerCrashed",)
    assert "signal 6" in documents["abort.abort"].report.errors[0].message
    assert documents["bloat.alloc"].report.error_kinds == ("MemoryLimitExceeded",)
    assert "max_memory" in documents["bloat.alloc"].report.errors[0].message
