"""A 2,000-page PDF through the local executor: the worker's peak RSS stays under 300 MB."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

LIMIT_MB = 300
PAGES = 2000

# Runs in a child so the test process's own memory cannot blur the figure. The
# peak is the worker's VmHWM, read while it is still alive: it counts from the
# worker's exec, unlike ru_maxrss, which Linux carries across exec.
CHILD = textwrap.dedent(
    """
    import sys
    from goblin_core import default_registry
    from goblin_core.engines import Task
    from goblin_core.executors.local import SupervisedWorkers

    config = default_registry().config(ocr="never")
    workers = SupervisedWorkers(config, size=1)
    try:
        result = workers.run_one(Task(path=sys.argv[1], display_name="big.pdf"))
        [pid] = workers.pids
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            peak = next(line for line in status if line.startswith("VmHWM:"))
    finally:
        workers.close()
    document = result.document
    assert not document.report.errors, document.report.errors
    assert len(document.pages) == int(sys.argv[2]), len(document.pages)
    assert all(page.status == "clean" for page in document.pages)
    print(int(peak.split()[1]) // 1024)
    """
)


def _big_pdf(path: Path) -> None:
    canvas_module = pytest.importorskip("reportlab.pdfgen.canvas")
    canvas = canvas_module.Canvas(str(path))
    for number in range(1, PAGES + 1):
        canvas.setFont("Helvetica", 11)
        for line in range(6):
            canvas.drawString(72, 760 - 16 * line,
                              f"Page {number}, line {line}: the contract covers works.")
        canvas.showPage()
    canvas.save()


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_two_thousand_page_pdf_stays_under_300_mb_in_its_worker(tmp_path: Path) -> None:
    big = tmp_path / "big.pdf"
    _big_pdf(big)
    done = subprocess.run([sys.executable, "-c", CHILD, str(big), str(PAGES)],
                          capture_output=True, text=True, timeout=1200, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    peak_mb = int(done.stdout.strip().splitlines()[-1])
    assert peak_mb < LIMIT_MB, f"worker peak RSS {peak_mb} MB"
