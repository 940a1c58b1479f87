"""How local workers start: plain child interpreters, not copies of the caller."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from goblin_core import extract_many
from goblin_core.executors.local import WORKER_ENTRY


def test_an_unguarded_script_calling_extract_many_runs_to_completion(tmp_path: Path) -> None:
    # A multiprocessing spawn would re-run this script's top level inside
    # every worker; a plain child interpreter never imports it.
    docs = tmp_path / "docs"
    docs.mkdir()
    for index in range(3):
        (docs / f"{index}.txt").write_text(f"document number {index}", encoding="utf-8")
    script = tmp_path / "unguarded.py"
    script.write_text(textwrap.dedent(f"""
        import goblin_core
        found = goblin_core.extract_many([{str(docs)!r}], jobs=2)
        names = sorted(d.name + "=" + d.text for d in found)
        print("|".join(names))
    """), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "|".join(f"{i}.txt=document number {i}" for i in range(3))


def test_a_worker_sees_the_callers_import_path(tmp_path: Path) -> None:
    # Spawned workers used to inherit the parent's sys.path; plain interpreters
    # get it in their start-up bundle, so the documents still come back.
    (tmp_path / "a.txt").write_text("from a worker", encoding="utf-8")
    [document] = list(extract_many([tmp_path / "a.txt"], jobs=1))
    assert document.text == "from a worker"
    assert not document.report.errors


def test_the_worker_module_refuses_to_run_by_hand() -> None:
    done = subprocess.run([sys.executable, "-c", WORKER_ENTRY],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "started by the local executor" in done.stderr
