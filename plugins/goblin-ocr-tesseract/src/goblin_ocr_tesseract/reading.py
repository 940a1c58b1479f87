"""One Tesseract run over one image: its text, word confidences and line tilt together."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from goblin_ocr_tesseract.coverage import ink_coverage
from goblin_ocr_tesseract.process import run
from goblin_ocr_tesseract.skew import skew_degrees
from goblin_ocr_tesseract.spacing import join_cjk
from goblin_ocr_tesseract.words import Word, mean_confidence, median_height, parse_tsv


@dataclass(frozen=True)
class Reading:
    """What one run read: the text and its mean word confidence in [0, 1]."""

    text: str
    confidence: float
    words: int
    text_height: int = 0
    skew: float = 0.0
    coverage: float = 1.0
    table: tuple[Word, ...] = ()

    def better_than(self, other: Reading) -> bool:
        """More confident, or as confident with more words."""
        return (self.confidence, self.words) > (other.confidence, other.words)


@dataclass(frozen=True)
class RunSettings:
    """Command-line settings of a run."""

    binary: str
    lang: str
    psm: int
    oem: int
    dpi: int
    timeout: float
    tessdata_dir: str = ""
    thresholding: int = 0
    #: ``time.monotonic()`` when the page's time is up (0: only ``timeout`` per run):
    #: every pass over one page shares ``tesseract.timeout``
    deadline: float = 0.0

    def time_left(self) -> float:
        """Seconds the next run may take: ``timeout``, and no more than the page has left."""
        if not self.deadline:
            return self.timeout
        return min(self.timeout, self.deadline - time.monotonic())

    def arguments(self) -> list[str]:
        """Command-line arguments after the input and output names; a list, so a
        tessdata folder with quotes or spaces in its name stays one argument."""
        parts = ["--psm", str(self.psm), "--oem", str(self.oem),
                 # keep runs of spaces in tables and columns as Tesseract saw them
                 "-c", "preserve_interword_spaces=1", "-c", "tessedit_create_tsv=1",
                 # set here, not left to tessdata's configs/txt: a folder of models alone
                 # (legacy_tessdata_dir) has no configs
                 "-c", "tessedit_create_hocr=1", "-c", "tessedit_create_txt=1"]
        if self.dpi:
            parts += ["--dpi", str(self.dpi)]
        if self.thresholding:
            parts += ["-c", f"thresholding_method={self.thresholding}"]
        if self.tessdata_dir:
            parts[:0] = ["--tessdata-dir", self.tessdata_dir]
        return parts


@contextmanager
def _page_file(image: Image.Image) -> Iterator[tuple[str, str]]:
    """The base name Tesseract writes its output under, and ``image`` written as PNG
    beside it (pytesseract's ``save``: temporary files removed after the run).

    pytesseract writes a page in the format it was opened from: a JPEG page was
    compressed again with loss, and one of a format it does not list (a phone's MPO,
    TGA, PCX) was refused with a TypeError. A page of no named format it writes as PNG,
    so such a page is handed over as a copy without one, the caller's image untouched.
    """
    # imported on first use: pytesseract imports numpy (and pandas when present), a
    # second or more that every worker and goblin command would pay at start-up
    from pytesseract import pytesseract as runner

    if image.format not in (None, "PNG"):
        image = image.copy()
    with runner.save(image) as (base, input_file):
        yield base, input_file


def read(image: Any, settings: RunSettings) -> Reading:
    """Run Tesseract once on a PIL image, writing text, TSV and hOCR in the same pass.

    Raises TesseractFailed or TesseractTimeout (RuntimeErrors), OSError when
    the binary cannot start.
    """
    with _page_file(image) as (base, input_file):
        run([settings.binary, input_file, base, "-l", settings.lang,
             *settings.arguments(), "txt"], settings.time_left())
        text = Path(f"{base}.txt").read_text(encoding="utf-8", errors="replace")
        tsv = Path(f"{base}.tsv").read_text(encoding="utf-8", errors="replace")
        hocr = Path(f"{base}.hocr").read_text(encoding="utf-8", errors="replace")
    words = parse_tsv(tsv)
    return Reading(join_cjk(text).strip(), mean_confidence(words), len(words),
                   median_height(words), skew_degrees(hocr), ink_coverage(image, words),
                   tuple(words))


def rotation(image: Any, settings: RunSettings) -> int:
    """Degrees (counter-clockwise, as PIL rotates) that set the page upright; 0 when unsure.

    Uses Tesseract's orientation detection (the ``osd`` traineddata).
    """
    tessdata = ["--tessdata-dir", settings.tessdata_dir] if settings.tessdata_dir else []
    with _page_file(image) as (base, input_file):
        run([settings.binary, input_file, base, *tessdata, "-l", "osd", "--psm", "0",
             "-c", "min_characters_to_try=5"], settings.time_left())
        found = _osd(Path(f"{base}.osd").read_text(encoding="utf-8", errors="replace"))
    angle = int(found.get("rotate", 0)) % 360
    # The caller keeps the upright reading only when it reads better, so any guess is worth a try.
    if float(found.get("orientation_conf", 0.0)) <= 0.0:
        return 0
    return -angle % 360


def _osd(text: str) -> dict[str, float]:
    """``rotate`` and ``orientation_conf`` of Tesseract's OSD report; missing when unreadable.

    >>> _osd("Rotate: 90\\nOrientation confidence: 2.5\\nScript: Latin\\nbad: x\\n")
    {'rotate': 90.0, 'orientation_conf': 2.5}
    """
    keys = {"Rotate": "rotate", "Orientation confidence": "orientation_conf"}
    found: dict[str, float] = {}
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name.strip() in keys:
            try:
                number = float(value)
            except ValueError:
                continue
            if math.isfinite(number):
                found[keys[name.strip()]] = number
    return found
