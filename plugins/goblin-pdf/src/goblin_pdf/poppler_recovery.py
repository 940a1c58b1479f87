"""Recovery through Poppler's ``pdftotext``, with a timeout and an output cap per page.

Each call of pdftotext parses the whole file again (17 ms for a 3 MB PDF, seconds for a
large damaged one whose cross-reference table it rebuilds), so consecutive pages are
read a range per call and cut at the form feed pdftotext ends each page with. A range
that fails, times out or does not come back as one text per page is read again one
page per call, so one bad page costs its neighbours nothing.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from goblin_core.child_environment import child_environment
from goblin_core.config import Config
from goblin_core.deadline import time_left
from goblin_core.engines import BaseEngine
from goblin_core.errors import EngineUnavailable, UnsupportedFormat
from goblin_core.source import Source, spooled
from goblin_pdf.formats import PDF_PAGES
from goblin_pdf.page_weight import PageCensus
from goblin_pdf.passwords import document_password, password_error
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
        with spooled(source) as spool, PageCensus.of(source, config) as census, \
                decrypted(spool, password, source.display_name) as path:
            reader = _Reader(binary, str(path), timeout, cap, source.display_name)
            for index, numbers in _ranges(page_numbers, census.refusal):
                # one call reads many pages: it ends where the document's time does
                left = time_left()
                if left is not None and left <= 0:
                    log.warning("%s: limits.timeout ran out; pdftotext did not read page(s) %s",
                                source.display_name, listed_pages(page_numbers[index:]))
                    break
                texts.update(reader.read(numbers, left))
        return texts


@contextlib.contextmanager
def decrypted(path: Path, password: str | None, name: str) -> Iterator[Path]:
    """``path``, or when ``password`` is needed to open it, a decrypted copy for pdftotext.

    pdftotext takes a password only on its command line (``-upw``), which every
    user of the machine can read (``ps``). So qpdf, through pikepdf, decrypts the
    file in this process, into a folder only this user can open (removed
    afterwards, whatever happens), and pdftotext reads that copy. A file qpdf
    cannot open is not read by pdftotext either: the error says why.
    """
    if not password:
        yield path
        return
    import pikepdf

    with tempfile.TemporaryDirectory(prefix="goblin-poppler-") as folder:
        target = Path(folder) / "decrypted.pdf"
        try:
            with pikepdf.open(path, password=password) as document, \
                    os.fdopen(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600),
                              "wb") as copy:
                document.save(copy)  # without encryption
        except pikepdf.PasswordError as exc:
            raise password_error(name, password) from exc
        except pikepdf.PdfError as exc:
            raise UnsupportedFormat(
                "pdftotext takes a password only on its command line, where every user of "
                "this machine can read it, so it reads a copy qpdf decrypted; qpdf could not "
                f"decrypt this file ({exc})", file=name) from exc
        yield target


#: Most pages one pdftotext call reads.
RANGE_PAGES = 32


def _ranges(numbers: Sequence[int],
            refused: Callable[[int], object]) -> Iterator[tuple[int, list[int]]]:
    """Runs of consecutive page numbers of ``numbers`` (in their order, up to
    ``RANGE_PAGES`` long), the pages ``refused`` names left out, each with the position
    in ``numbers`` of its first page. A page is looked at only when its run is next."""
    run: list[int] = []
    start = 0
    for index, number in enumerate(numbers):
        if run and (number != run[-1] + 1 or len(run) == RANGE_PAGES):
            yield start, run
            run = []
        if refused(number):
            continue
        if not run:
            start = index
        run.append(number)
    if run:
        yield start, run


@dataclass(frozen=True)
class _Reader:
    """pdftotext on one file: ``read`` gives the text of a run of consecutive pages."""

    binary: str
    path: str
    timeout: float
    cap: int
    name: str

    def read(self, numbers: list[int], left: float | None) -> dict[int, str]:
        timeout = self.timeout if left is None else min(self.timeout, left)
        if len(numbers) > 1:
            texts = self._range(numbers, timeout)
            if len(texts) == len(numbers):
                return texts
            # the pages of the range it did not give are read one by one
            numbers = [n for n in numbers if n not in texts]
        else:
            texts = {}
        for number in numbers:
            left = time_left()
            if left is not None and left <= 0:
                break
            text = _run(self._command(number, number), self.timeout if left is None
                        else min(self.timeout, left), self.cap, self.name, number)
            if text is not None:
                texts[number] = text
        return texts

    def _command(self, first: int, last: int) -> list[str]:
        return [self.binary, "-q", "-enc", "UTF-8", "-f", str(first), "-l", str(last), self.path]

    def _range(self, numbers: list[int], timeout: float) -> dict[int, str]:
        """The pages of one pdftotext call over ``numbers``, each cut at the output cap:
        all of them, or only those finished before it timed out (none when it failed or
        gave another number of pages, a form feed inside a page's text throwing the count
        off)."""
        with tempfile.TemporaryDirectory(prefix="goblin-poppler-") as folder:
            target = Path(folder) / "pages.txt"
            try:
                done = subprocess.run([*self._command(numbers[0], numbers[-1]), str(target)],
                                      capture_output=True, timeout=timeout, check=False,
                                      env=child_environment())
            except subprocess.TimeoutExpired:
                done = None
            if (done is not None and done.returncode != 0) or not target.exists():
                return {}
            pages = _split_pages(target, self.cap)
        if done is not None and len(pages) != len(numbers):
            return {}
        # a range cut short by its timeout keeps the pages written whole before it
        return {number: plain_ligatures(text)
                for number, text in zip(numbers, pages[:len(numbers)], strict=False)}


_BLOCK = 1 << 20


def _split_pages(target: Path, cap: int) -> list[str]:
    """The texts of the pages in pdftotext's output at ``target``, each ended by a form
    feed (an unfinished last one left out), each cut at ``cap`` bytes. Read a block at a
    time: a page that expands to gigabytes fills the file, never memory."""
    pages: list[str] = []
    current = bytearray()
    with open(target, "rb") as handle:
        while block := handle.read(_BLOCK):
            parts = block.split(b"\f")
            for k, part in enumerate(parts):
                if len(current) < cap:
                    current += part[:cap - len(current)]
                if k < len(parts) - 1:
                    pages.append(current.decode("utf-8", errors="replace"))
                    current = bytearray()
    return pages


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
                                  check=False, env=child_environment())
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
