"""A 2,000-page PDF is read page by page: peak RSS stays under 300 MB (measured in a child)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from pdf_builders import many_pages_pdf

LIMIT_MB = 300

# VmHWM, not ru_maxrss: Linux keeps ru_maxrss across exec, so a child of a big
# test process would report the parent's peak.
CHILD = textwrap.dedent(
    """
    import resource, sys
    from goblin_core import extract
    document = extract(sys.argv[1], ocr="never")
    assert len(document.pages) == 2000, len(document.pages)
    assert all(p.status == "clean" for p in document.pages)
    try:
        with open("/proc/self/status") as status:
            line = next(l for l in status if l.startswith("VmHWM:"))
        print(int(line.split()[1]) // 1024)
    except OSError:
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
    """
)


@pytest.mark.slow
def test_two_thousand_pages_stay_under_300_mb(tmp_path: Path) -> None:
    big = tmp_path / "big.pdf"
    big.write_bytes(many_pages_pdf(2000))
    done = subprocess.run([sys.executable, "-c", CHILD, str(big)], capture_output=True,
                          text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    peak_mb = int(done.stdout.strip().splitlines()[-1])
    assert peak_mb < LIMIT_MB, f"peak RSS {peak_mb} MB"
