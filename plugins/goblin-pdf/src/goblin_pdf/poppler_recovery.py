"""Recovery through Poppler's ``pdftotext``, one page per call, with a timeout and an output cap."""

from __future__ import annotations

import logging
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from goblin_core.config import Config
from goblin_core.deadline import time_left
from goblin_core.engines import BaseEngine
from goblin_core.errors import EngineUnavailable
from goblin_core.source import Source, spooled
from goblin_pdf.formats import PDF_PAGES
from goblin_pdf.page_weight import PageCensus
from goblin_pdf.passwords import document_password
from goblin_pdf.stray_marks import plain_ligatures

log = logging.getLogger(__name__)

BINARY = "pdftotext"


class PopplerRecovery(BaseEngine):
    """Re-reads garbage or failed pages with ``pdftotext -f N -l N``."""

    name = "pdf.poppler"
    formats = PDF_PAGES
    priority = 40

    def available(self) -> tuple[bool, str]:
        if shutil.which(BINARY) is None:
            return False, f"{BINARY} not found: apt-get install poppler-utils"
        return True, ""

    def recover(
        self, source: Source, page_numbers: Sequence[int], config: Config
    ) -> dict[int, str]:
        binary = shutil.which(BINARY)
        if binary is None:
            raise EngineUnavailable(f"{BINARY} not found: apt-get install poppler-utils")
        options = config.section("pdf")
        timeout = float(options.get("poppler_timeout", 60.0))
        cap = int(options.get("poppler_max_output", 16 * 1024**2))
        password = document_password(source, config)
        texts: dict[int, str] = {}
        # pdftotext expands a form bomb too (past 500 MB in 20 s on 2^40 nested forms)
        with spooled(source) as path, PageCensus.of(source, config) as census:
            for index, number in enumerate(page_numbers):
                # one call reads many pages: it ends where the document's time does
                left = time_left()
                if left is not None and left <= 0:
                    log.warning("%s: limits.timeout ran out; pdftotext did not read page(s) %s",
                                source.display_name, listed_pages(page_numbers[index:]))
                    break
                if census.refusal(number):
                    continue
                command = [binary, "-q", "-enc", "UTF-8", "-f", str(number), "-l", str(number)]
                if password:
                    command += ["-upw", password]
                text = _run([*command, str(path)], timeout if left is None else min(timeout, left),
                            cap, source.display_name, number)
                if text is not None:
                    texts[number] = text
        return texts


def listed_pages(numbers: Sequence[int]) -> str:
    """Page numbers for a log line: the first ten, then how many more."""
    shown = ", ".join(str(number) for number in numbers[:10])
    return shown + (f" and {len(numbers) - 10} more" if len(numbers) > 10 else "")


def _run(command: list[str], timeout: float, cap: int, name: str, number: int) -> str | None:
    """pdftotext's text for one page, cut at ``cap`` bytes; None when it failed or timed out.

    The text goes to a temporary file, not a pipe, so a page that expands to
    gigabytes fills a file and never memory: only ``cap`` bytes are read back.
    """
    with tempfile.TemporaryDirectory(prefix="goblin-poppler-") as folder:
        target = Path(folder) / "page.txt"
        try:
            done = subprocess.run([*command, str(target)], capture_output=True, timeout=timeout,
                                  check=False)
        except subprocess.TimeoutExpired:
            log.warning("%s: pdftotext took over %.1fs on page %s; skipped", name, timeout,
                        number)
            return None
        if done.returncode != 0 or not target.exists():
            log.warning("%s: pdftotext failed on page %s: %s", name, number,
                        done.stderr.decode("utf-8", "replace").strip()[:200])
            return None
        with open(target, "rb") as handle:
            data = handle.read(cap)
    return plain_ligatures(data.decode("utf-8", errors="replace").rstrip("\f"))
