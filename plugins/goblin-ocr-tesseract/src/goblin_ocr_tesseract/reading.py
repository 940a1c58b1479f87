"""One Tesseract run over one image: its text, word confidences and line tilt together."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from goblin_ocr_tesseract.coverage import ink_coverage
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

    def arguments(self) -> str:
        parts = [f"--psm {self.psm}", f"--oem {self.oem}",
                 # keep runs of spaces in tables and columns as Tesseract saw them
                 "-c preserve_interword_spaces=1", "-c tessedit_create_tsv=1",
                 # set here, not left to tessdata's configs/txt: a folder of models alone
                 # (legacy_tessdata_dir) has no configs
                 "-c tessedit_create_hocr=1", "-c tessedit_create_txt=1"]
        if self.dpi:
            parts.append(f"--dpi {self.dpi}")
        if self.thresholding:
            parts.append(f"-c thresholding_method={self.thresholding}")
        if self.tessdata_dir:
            parts.insert(0, f'--tessdata-dir "{self.tessdata_dir}"')
        return " ".join(parts)


# _pytesseract: pytesseract imports numpy (and pandas when present), a second
# or more that every worker and goblin command would pay at start-up; it is
# imported inside the functions that run Tesseract instead.


def single_threaded() -> None:
    """Make every Tesseract this process starts use one OpenMP thread.

    Tesseract's OpenMP threads make a page several times slower when the
    executor already runs one worker per core. pytesseract hands the process
    environment to the subprocess and takes no per-call environment, so the
    variable is set here, where only child processes read it.
    """
    os.environ["OMP_THREAD_LIMIT"] = "1"


def read(image: Any, settings: RunSettings) -> Reading:
    """Run Tesseract once on a PIL image, writing text, TSV and hOCR in the same pass.

    Raises pytesseract's TesseractError, RuntimeError on timeout, OSError when
    the binary cannot start.
    """
    from pytesseract import pytesseract as runner  # first use only: see _pytesseract

    single_threaded()
    runner.tesseract_cmd = settings.binary
    with runner.save(image) as (base, input_file):
        runner.run_tesseract(input_file, base, extension="txt", lang=settings.lang,
                             config=settings.arguments(), timeout=settings.timeout)
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
    import pytesseract  # first use only: see _pytesseract
    from pytesseract import pytesseract as runner

    single_threaded()
    runner.tesseract_cmd = settings.binary
    config = "-c min_characters_to_try=5"
    if settings.tessdata_dir:
        config = f'--tessdata-dir "{settings.tessdata_dir}" {config}'
    found = pytesseract.image_to_osd(image, config=config, timeout=settings.timeout,
                                     output_type=pytesseract.Output.DICT)
    angle = int(found.get("rotate", 0)) % 360
    # The caller keeps the upright reading only when it reads better, so any guess is worth a try.
    if float(found.get("orientation_conf", 0.0)) <= 0.0:
        return 0
    return -angle % 360
