"""What starting goblin loads: every plugin registers, but heavy libraries wait for the
engine that needs them, so a one-file `goblin extract` starts quickly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "hello.pdf"
# Libraries only some documents need: NumPy for pages rebuilt from glyph boxes,
# BeautifulSoup for HTML, tenacity for AWS retries, psutil for worker pools.
DEFERRED = ("numpy", "bs4", "tenacity", "psutil")


def _loaded_after(code: str) -> list[str]:
    script = (
        "import json, sys\n"
        "import goblin_core\n"
        f"{code}\n"
        f"print(json.dumps([m for m in {DEFERRED!r} if m in sys.modules]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def test_reading_a_single_column_pdf_loads_none_of_the_deferred_libraries() -> None:
    loaded = _loaded_after(
        f"document = goblin_core.extract({str(SAMPLE)!r}, ocr='never')\n"
        "assert 'goblin' in document.text, document.text\n"
        "assert len(goblin_core.default_registry().engines()) > 20"
    )
    assert loaded == []


def test_the_engines_that_need_them_still_load_them() -> None:
    loaded = _loaded_after(
        f"goblin_core.extract({str(SAMPLE)!r}, ocr='never', pdf={{'layout': 'reading_order'}})\n"
        "page = goblin_core.extract(b'<html><body><h1>Edital</h1></body></html>', name='a.html')\n"
        "assert page.text.strip() == 'Edital', page.text"
    )
    assert loaded == ["numpy", "bs4"]
