"""The Tesseract OCR backend (``ocr.tesseract``)."""

from __future__ import annotations

import functools
import logging
import math
import os
import subprocess
import time
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from PIL import Image

from goblin_core.config import Config
from goblin_core.deadline import time_left
from goblin_core.engines import BaseEngine
from goblin_core.errors import EngineFailed, ExtractionTimeout
from goblin_core.model import EMPTY_OCR, OCRResult
from goblin_core.page_bands import band_rows, confidence_by_length
from goblin_ocr_tesseract.accents import restore_accents
from goblin_ocr_tesseract.flatten import flatten
from goblin_ocr_tesseract.languages import (
    BINARY_PACKAGE,
    LanguageChoice,
    choose,
    debian_package,
    find_binary,
    installed_languages,
    listing_problem,
    models_named_elsewhere,
    split_languages,
    tessdata_folder,
)
from goblin_ocr_tesseract.legacy import fill_unwritable, legacy_languages, python_tessdata, writable
from goblin_ocr_tesseract.margin import with_margin
from goblin_ocr_tesseract.page_language import page_language
from goblin_ocr_tesseract.page_script import other_script_groups
from goblin_ocr_tesseract.process import TesseractFailed, TesseractTimeout
from goblin_ocr_tesseract.reading import Reading, RunSettings, read, rotation
from goblin_ocr_tesseract.skew import ink_skew_degrees
from goblin_ocr_tesseract.traineddata import has_legacy_engine

log = logging.getLogger(__name__)

#: Tesseract's ``thresholding_method`` for Sauvola's local thresholding.
_SAUVOLA = 2

#: Errors one Tesseract run can end with: a bad image, a timeout, a binary that
#: will not start. TesseractFailed and TesseractTimeout (process.py) are RuntimeErrors.
_RUN_ERRORS = (RuntimeError, OSError, ValueError)

#: A reading in another script replaces the first only at this mean word confidence or
#: more, and this much above the first: pages in the requested script read 0.83 and more in
#: the corpus, a page in another script about 0.3, and that page 0.65 to 0.9 in its own.
_SCRIPT_MIN_CONFIDENCE = 0.55
_SCRIPT_LEAD = 0.2
#: A page read well may still hold lines in another script, read as words Tesseract was
#: unsure of: at least this many words, this share of them under this confidence (0-100).
#: Pages in the requested languages had at most 2% such words in the corpus (pages of 20
#: words or more); the English and Korean page had 7%, and 1% read with kor beside.
_MIXED_MIN_WORDS, _MIXED_UNREAD_SHARE, _UNREAD_CONFIDENCE = 20, 0.05, 30.0
#: ...and the reading with the other script beside must be this much more confident.
_MIXED_LEAD = 0.05

#: Why no page is read when the language options name no language at all.
_NO_LANGUAGE = ("no OCR language given: goblin.ocr_languages (or tesseract.languages) is "
                "empty; name one, such as eng or por+eng")

#: Tesseract refuses an image longer than this on either side ("Image too large"):
#: its page coordinates are 16-bit.
MAX_SIDE = 32_767


class TesseractBackend(BaseEngine):
    """Local OCR with Tesseract, one OpenMP thread per page (the executor owns the cores)."""

    name = "ocr.tesseract"
    formats = ("*",)
    priority = 100
    cloud = False

    def __init__(self, command: str = "tesseract") -> None:
        self.command = command
        self._warned: set[tuple[str, ...]] = set()

    def available(self) -> tuple[bool, str]:
        binary = find_binary(self.command)
        if binary is None:
            return False, f"{self.command} not found: apt-get install {BINARY_PACKAGE}"
        problem = _binary_problem(binary)
        if problem:
            return False, problem
        if not installed_languages(binary):
            return False, ("no Tesseract language data installed: apt-get install "
                           f"{debian_package('eng')} {debian_package('por')}"
                           f"{models_named_elsewhere(binary)}")
        return True, ""

    def available_for(self, config: Config) -> tuple[bool, str]:
        """As ``available()``, for the binary and languages this call's config asks for:
        unavailable when none of those languages is installed, or one is missing under
        ``missing_languages = "fail"`` (the report then says which package to install)."""
        ready, reason = self.available()
        if not ready:
            return ready, reason
        options = config.section("tesseract")
        command = str(options["command"])
        binary = find_binary(command)
        if binary is None:
            return False, (f"tesseract.command ({command}) not found"
                           + (f": apt-get install {BINARY_PACKAGE}"
                              if command == self.command else ""))
        # the configured command, not only the default one, must be a Tesseract that runs:
        # one that is not would otherwise read as "no language data, install eng and por"
        problem = _binary_problem(binary)
        if problem:
            return False, f"tesseract.command: {problem}"
        tessdata = str(options["tessdata_dir"])
        if tessdata and not os.path.isdir(tessdata):
            return False, f"tesseract.tessdata_dir ({tessdata}) is not a folder"
        if listing_problem(binary, tessdata):
            return False, listing_problem(binary, tessdata)
        languages = str(options["languages"]) or str(config.section("goblin")["ocr_languages"])
        choice = choose(languages, installed_languages(binary, tessdata))
        if choice.missing and (not choice.use or options["missing_languages"] == "fail"):
            return False, choice.missing_message() + models_named_elsewhere(binary, tessdata)
        if not choice.use:
            return False, _NO_LANGUAGE
        return _modes_usable(int(options["psm"]), int(options["oem"]), choice.use,
                             tessdata_folder(binary, str(options["tessdata_dir"])))

    def recognize(self, image: Any, languages: str, config: Config) -> OCRResult:
        """Read a page image; ``OCRResult("", 0.0)`` (with a log line) when it cannot.

        Anything that is not a PIL image (bytes, a path, None) and images with
        no pixels get the empty result too, as the OCR contract asks: the core
        then keeps whatever text the page already has.

        Every pass over the page shares ``tesseract.timeout``: a second pass
        that runs out of it leaves the reading before it standing. A page whose
        first reading runs out of it raises ExtractionTimeout, and one whose
        first reading Tesseract crashes on or ends with an error status raises
        EngineFailed, so the page's attempts say why it has no OCR text (the
        core records it and goes on).
        """
        if not _readable(image):
            return EMPTY_OCR
        options = config.section("tesseract")
        settings, warnings = self._settings(languages, options)
        if settings is None:
            return EMPTY_OCR
        try:
            page = _within_width(_margined(flatten(image), image), image)
        except _RUN_ERRORS as exc:
            # A lazily opened image decodes here: a truncated stream fails now.
            log.warning("Tesseract could not read the page image: %s", exc)
            return EMPTY_OCR
        max_pixels = int(config.limits["max_image_pixels"])
        # the page's runs share tesseract.timeout, and never outlast the document's limit
        document_left = time_left()
        budget = settings.timeout if document_left is None else min(settings.timeout,
                                                                    document_left)
        limit = (f"tesseract.timeout ({settings.timeout:g} s)" if budget == settings.timeout
                 else f"the {budget:.1f} s the document had left of limits.timeout")
        settings = replace(settings, deadline=time.monotonic() + budget)
        rows = band_rows(page, MAX_SIDE)
        readings: list[tuple[str, float]] = []
        try:
            if budget <= 0:
                raise TesseractTimeout("no time was left to start it")
            for top, bottom in rows:
                readings.append(self._read_band(page, (top, bottom), settings, options,
                                                max_pixels))
        except TesseractTimeout as exc:
            read_part = (f"{len(readings)} of the {len(rows)} bands it was cut in"
                         if readings else "nothing")
            raise ExtractionTimeout(
                f"Tesseract read {read_part} of a {image.width}x{image.height} page image "
                f"within {limit}: {exc}") from None
        except TesseractFailed as exc:
            # Tesseract, not the page, broke down (a crash, an error status): the page's
            # attempts must say so, or its missing text would pass for a blank page
            raise EngineFailed(f"Tesseract failed on a {image.width}x{image.height} page "
                               f"image: {exc}") from None
        except _RUN_ERRORS as exc:
            log.warning("Tesseract could not read the page: %s", exc)
            return EMPTY_OCR
        finally:
            if page is not image:
                page.close()
        if len(readings) == 1:
            return OCRResult(*readings[0], warnings)
        return OCRResult("\n\n".join(text for text, _ in readings if text),
                         confidence_by_length(readings), warnings)

    def _read_band(self, page: Image.Image, rows: tuple[int, int], settings: RunSettings,
                   options: Mapping[str, Any], max_pixels: int) -> tuple[str, float]:
        """The text and confidence of ``rows`` (top, bottom) of ``page``, read with every
        pass that helps it: the whole page when they cover it (goblin_core.page_bands)."""
        band = page
        if rows != (0, page.height):
            band = _margined(page.crop((0, rows[0], page.width, rows[1])), page)
        try:
            reading, settings = self._read(band, settings, options, max_pixels)
            if options["detect_language"]:
                reading, settings = self._in_page_language(band, settings, options, reading,
                                                           max_pixels)
            if options["detect_script"]:
                reading, settings = self._in_page_script(band, settings, options, reading,
                                                         max_pixels)
        finally:
            if band is not page:
                band.close()
        text = reading.text
        if options["restore_accents"]:
            text = restore_accents(text, settings.lang)
        return text, reading.confidence

    def _read(self, page: Image.Image, settings: RunSettings, options: Mapping[str, Any],
              max_pixels: int) -> tuple[Reading, RunSettings]:
        """One reading of the page, with every second pass that helps it (see the README).

        A second pass that fails (its image too large for Tesseract, a timeout) leaves
        the reading before it standing.
        """
        reading = read(page, settings)
        reading, settings = _rethresholded(page, settings, reading,
                                           float(options["min_ink_coverage"]))
        reading = _enlarged(page, settings, reading, int(options["min_text_height"]),
                            max_pixels)
        reading = _levelled(page, settings, reading, float(options["deskew_above"]))
        if reading.confidence < float(options["orientation_below"]):
            reading = _straightened(page, settings, reading, float(options["deskew_above"]))
        if options["orientation"] and (reading.confidence < float(options["orientation_below"])
                                       or _sideways(reading)):
            reading = self._upright(page, settings, reading)
        reading = _filled(page, settings, reading, float(options["legacy_below"]),
                          str(options["legacy_tessdata_dir"]) or python_tessdata())
        return reading, settings

    def _in_page_language(self, page: Image.Image, settings: RunSettings,
                          options: Mapping[str, Any], first: Reading,
                          max_pixels: int) -> tuple[Reading, RunSettings]:
        """The page read again in its own language alone when its words say it is written in
        another installed one than those asked for (page_language.py): a second model beside
        it costs accents (``deu+eng`` reads ``fur``). The new reading replaces the first
        unless it is less confident: a model of another language is unsure of the words it
        cannot write (``fiir`` for ``für``), so a first reading more confident than the
        second read the page at least as well (Dutch, with few accents, under ``por+eng``)."""
        requested = split_languages(settings.lang)
        installed = installed_languages(settings.binary, settings.tessdata_dir)
        found = page_language(first.text, requested, installed)
        if found is None:
            return first, settings
        try:
            second, second_settings = self._read(page, replace(settings, lang=found), options,
                                                 max_pixels)
        except _RUN_ERRORS as exc:
            log.warning("reading the page again in %s failed, the first reading is kept: %s",
                        found, exc)
            return first, settings
        if second.confidence < first.confidence:
            log.debug("page reads as %s, but that reading is less confident: kept %s",
                      found, settings.lang)
            return first, settings
        log.debug("page reads as %s, not %s: read again in %s", found, settings.lang, found)
        return second, second_settings

    def _in_page_script(self, page: Image.Image, settings: RunSettings,
                        options: Mapping[str, Any], first: Reading,
                        max_pixels: int) -> tuple[Reading, RunSettings]:
        """The page read again with another script's model (page_script.py).

        A page the requested languages read under ``script_below`` is read in each other
        script's model alone; a page they read well but with a share of words they could not
        read (``_mixed_script``: English beside Korean) is read in the requested languages
        and each other script's model together. One plain run per script finds the script,
        then the other models of that script are tried; the best is read in full. It replaces
        the first reading when clearly more confident (``_SCRIPT_MIN_CONFIDENCE`` and
        ``_SCRIPT_LEAD``; a page beside another script: ``_MIXED_LEAD``, with at most half
        the unreadable words): a page that is only badly scanned reads no better in another
        script (under 0.4 in every one tried), and a Latin page no better beside one.
        """
        alone = first.confidence < float(options["script_below"])
        if not alone and not _mixed_script(first):
            return first, settings
        groups = other_script_groups(
            split_languages(settings.lang),
            installed_languages(settings.binary, settings.tessdata_dir),
            tessdata_folder(settings.binary, settings.tessdata_dir))
        if not groups:
            return first, settings
        if alone:
            wanted = max(first.confidence + _SCRIPT_LEAD, _SCRIPT_MIN_CONFIDENCE)
            groups = [list(group) for group in groups]
        else:
            wanted = first.confidence + _MIXED_LEAD
            groups = [[f"{settings.lang}+{code}" for code in group] for group in groups]

        def clearly_better(reading: Reading) -> bool:
            return reading.confidence >= wanted and (
                alone or _unread_share(reading) <= _unread_share(first) / 2)

        probes = self._probe(page, settings, [group[0] for group in groups])
        best = max(probes, key=lambda lang: probes[lang].confidence, default=None)
        if best is None or not clearly_better(probes[best]):
            return first, settings
        group = next(group for group in groups if group[0] == best)
        probes.update(self._probe(page, settings, group[1:]))
        best = max((lang for lang in group if lang in probes and clearly_better(probes[lang])),
                   key=lambda lang: probes[lang].confidence)
        try:
            second, second_settings = self._read(page, replace(settings, lang=best), options,
                                                 max_pixels)
        except _RUN_ERRORS as exc:
            log.warning("reading the page again in %s failed: %s", best, exc)
            second, second_settings = probes[best], replace(settings, lang=best)
        if probes[best].better_than(second):
            second = probes[best]
        log.info("page read %.2f in %s, %.2f in %s: kept %s", first.confidence, settings.lang,
                 second.confidence, best, best)
        return second, second_settings

    def _probe(self, page: Image.Image, settings: RunSettings,
               languages: list[str]) -> dict[str, Reading]:
        """One plain run of ``page`` per language; a run that fails is left out."""
        found: dict[str, Reading] = {}
        for lang in languages:
            try:
                found[lang] = read(page, replace(settings, lang=lang))
            except TesseractTimeout:
                break  # the page's time is up: what was read stands
            except _RUN_ERRORS as exc:
                log.debug("reading the page in %s failed: %s", lang, exc)
        return found

    def _settings(self, languages: str, options: Mapping[str, Any]
                  ) -> tuple[RunSettings | None, tuple[tuple[str, str], ...]]:
        """The run's settings (None when Tesseract cannot run), and the warnings its
        text carries: languages asked for and left out under ``missing_languages =
        "subset"``, which the report must show, as the text may be misread without them."""
        binary = find_binary(str(options["command"]))
        if binary is None:
            log.error("%s not found: apt-get install %s", options["command"], BINARY_PACKAGE)
            return None, ()
        tessdata = str(options["tessdata_dir"])
        installed = installed_languages(binary, tessdata)
        choice = choose(str(options["languages"]) or languages, installed)
        if not self._languages_usable(choice, str(options["missing_languages"])):
            return None, ()
        warnings = ((("MissingLanguage",
                      f"{choice.missing_message()}{models_named_elsewhere(binary, tessdata)}; "
                      f"read with {choice.lang} only"),)
                    if choice.missing else ())
        return RunSettings(
            binary=binary,
            lang=choice.lang,
            psm=int(options["psm"]),
            oem=int(options["oem"]),
            dpi=int(options["dpi"]),
            timeout=float(options["timeout"]),
            tessdata_dir=tessdata,
        ), warnings

    def _languages_usable(self, choice: LanguageChoice, policy: str) -> bool:
        if not choice.missing:
            if not choice.use:
                log.error("%s", _NO_LANGUAGE)
            return bool(choice.use)
        if not choice.use or policy == "fail":
            log.error("%s", choice.missing_message())
            return False
        if choice.missing not in self._warned:
            self._warned.add(choice.missing)
            log.warning("%s; reading with %s only", choice.missing_message(), choice.lang)
        return True

    def _upright(self, page: Image.Image, settings: RunSettings, first: Reading) -> Reading:
        """Read the page again upright when OSD says it is turned; keep the better reading."""
        if "osd" not in installed_languages(settings.binary, settings.tessdata_dir):
            log.debug("no orientation data (apt-get install %s)", debian_package("osd"))
            return first
        try:
            angle = rotation(page, settings)
        except _RUN_ERRORS as exc:
            # Too little text to judge orientation is common on sparse pages.
            log.debug("orientation detection gave no answer: %s", exc)
            return first
        if not angle:
            return first
        with page.rotate(angle, expand=True, fillcolor="white") as turned:
            second = _second_reading(turned, settings)
        if second is None:
            return first
        if second.better_than(first):
            return second
        # A sideways page read as vertical text scores high on the lines it could read
        # and leaves the rest out (a landscape table lost its first columns): upright,
        # more words at about the same confidence are the better reading
        if (_sideways(first) and not _sideways(second) and second.words > first.words
                and second.confidence >= first.confidence - _UPRIGHT_MARGIN):
            return second
        return first


#: Lines tilted further than this are not tilted: they run up or down a page turned on its
#: side, which orientation detection turns (levelled by 88.7 degrees, a sideways table
#: lost a column to the 1.3 left over)
_MAX_TILT = 45.0

#: Words of at least this many characters tell which way a page's lines run...
_SIDEWAYS_MIN_CHARS, _SIDEWAYS_MIN_WORDS = 4, 3
#: ...standing when their box is this many times taller than wide: upright Latin words
#: of four letters or more never are, and Tesseract boxes every word of a page turned on
#: its side this way (a sideways table read 0.96 confident with 28 of its 48 words)
_SIDEWAYS_ASPECT = 2
#: How much less confident an upright reading of a sideways page may be and still win
_UPRIGHT_MARGIN = 0.05


def _sideways(reading: Reading) -> bool:
    """Whether most of the reading's longer words stand on end: Tesseract read the page's
    lines as vertical text, as it does on a page turned on its side."""
    long_words = [word for word in reading.table
                  if len(word.text) >= _SIDEWAYS_MIN_CHARS and word.box[2] > 0]
    if len(long_words) < _SIDEWAYS_MIN_WORDS:
        return False
    standing = sum(1 for word in long_words if word.box[3] >= _SIDEWAYS_ASPECT * word.box[2])
    return standing * 2 > len(long_words)


#: Tesseract's page segmentation mode that finds the layout and reads no text
_LAYOUT_ONLY_PSM = 2
#: Engine modes that read with the legacy engine: its templates must be in the model
_LEGACY_OEMS = (0, 2)


def _modes_usable(psm: int, oem: int, languages: tuple[str, ...],
                  folder: str) -> tuple[bool, str]:
    """Whether Tesseract reads text in ``psm`` and ``oem`` with the models of ``languages``
    in ``folder``: psm 2 finds the layout only, and the legacy engine (oem 0 and 2) needs
    templates that the LSTM-only models Debian ships lack (Tesseract refuses to start)."""
    if psm == _LAYOUT_ONLY_PSM:
        return False, ("tesseract.psm = 2 finds the page layout and reads no text: use 3 (the "
                       "default) or another mode")
    if oem in _LEGACY_OEMS and folder:
        lacking = [code for code in languages
                   if not has_legacy_engine(str(Path(folder) / f"{code}.traineddata"))]
        if lacking:
            return False, (f"tesseract.oem = {oem} reads with Tesseract's legacy engine, which "
                           f"the installed models of {', '.join(lacking)} do not carry (those "
                           "Debian ships are LSTM only): use oem 1 (the default) or 3, or a "
                           "tessdata_dir of models that have it")
    return True, ""


def _filled(
    page: Image.Image, settings: RunSettings, first: Reading, below: float, folder: str
) -> Reading:
    """Unsure characters the LSTM model cannot write, read by a fuller legacy model (legacy.py)."""
    if not below or all(word.confidence >= below for word in first.table):
        return first
    legacy = legacy_languages(settings.lang, folder)
    if not legacy:
        return first
    chars = writable(settings.lang, tessdata_folder(settings.binary, settings.tessdata_dir))
    if not chars:
        return first
    try:
        second = read(page, replace(settings, lang=legacy, oem=0, tessdata_dir=folder))
    except _RUN_ERRORS as exc:
        # The LSTM reading stands on its own; the legacy one only fills gaps in it.
        log.warning("the legacy %s model could not read the page: %s", legacy, exc)
        return first
    text = fill_unwritable(first.text, first.table, second.text, chars, below)
    if text == first.text:
        return first
    log.debug("legacy %s model filled characters the LSTM model cannot write", legacy)
    return replace(first, text=text)


def _readable(image: Any) -> bool:
    """Whether ``image`` is a PIL image with pixels; says why not in the log."""
    if not isinstance(image, Image.Image):
        log.warning("Tesseract was handed a %s, not a page image: no OCR text",
                    type(image).__name__)
        return False
    if not image.width or not image.height:
        log.warning("Tesseract was handed an empty %dx%d image: no OCR text",
                    image.width, image.height)
        return False
    return True


def _margined(page: Image.Image, source: Image.Image) -> Image.Image:
    """``page`` with a margin when its ink reaches its edge (margin.py); a page made
    for the purpose (not ``source``) is closed when replaced."""
    margined = with_margin(page)
    if margined is not page and page is not source:
        page.close()
    return margined


def _within_width(page: Image.Image, source: Image.Image) -> Image.Image:
    """``page`` shrunk to at most ``MAX_SIDE`` pixels wide, the most Tesseract reads;
    ``page`` itself when it fits. A wide page is then read at a smaller size instead of
    not at all; a tall one is read in bands (goblin_core.page_bands), its text at full size."""
    if page.width <= MAX_SIDE:
        return page
    scale = MAX_SIDE / page.width
    size = (MAX_SIDE, max(1, round(page.height * scale)))
    log.warning("page image of %dx%d pixels is wider than Tesseract reads (%d a side): "
                "read shrunk to %dx%d", page.width, page.height, MAX_SIDE, *size)
    smaller = page.resize(size, Image.Resampling.BOX)
    if page is not source:
        page.close()
    return smaller


def _second_reading(image: Image.Image, settings: RunSettings) -> Reading | None:
    """A second pass's reading, None when Tesseract fails on it: the first one stands."""
    try:
        return read(image, settings)
    except _RUN_ERRORS as exc:
        log.warning("a second Tesseract pass failed, the first reading is kept: %s", exc)
        return None


def _enlarged(page: Image.Image, settings: RunSettings, first: Reading, min_height: int,
              max_pixels: int) -> Reading:
    """Read small text again enlarged (Tesseract reads words under ~20 px poorly).

    The scale brings the median word to about 32 px (Tesseract's models are
    trained on text of that size), at most 4x; the more confident reading wins.
    The enlarged page stays within ``MAX_SIDE`` a side and ``max_pixels`` in all
    (limits.max_image_pixels): 4x a large scan is 16 times its memory.
    """
    height = first.text_height
    if not min_height or not height or height >= min_height:
        return first
    scale = min(4.0, 32 / height, MAX_SIDE / max(page.size),
                math.sqrt(max_pixels / (page.width * page.height)))
    if scale <= 1.0:
        return first
    size = (round(page.width * scale), round(page.height * scale))
    with page.resize(size, Image.Resampling.LANCZOS) as bigger:
        second = _second_reading(bigger, _scaled(settings, scale))
    return second if second is not None and second.better_than(first) else first


def _rethresholded(
    page: Image.Image, settings: RunSettings, first: Reading, min_coverage: float
) -> tuple[Reading, RunSettings]:
    """Read again with local (Sauvola) thresholding when most of the ink went unread.

    Tesseract's default global threshold turns shaded areas (table headers,
    grey bands) into black slabs and loses the text on them; a local
    threshold keeps it. The reading that accounts for more ink wins, and its
    settings carry on to the passes after it.
    """
    if not min_coverage or first.coverage >= min_coverage or settings.thresholding:
        return first, settings
    local = replace(settings, thresholding=_SAUVOLA)
    second = _second_reading(page, local)
    if second is not None and second.coverage > first.coverage:
        return second, local
    return first, settings


def _levelled(
    page: Image.Image, settings: RunSettings, first: Reading, min_angle: float
) -> Reading:
    """Read a tilted page again levelled: a tilt splits lines and columns in the layout.

    The levelled reading is kept unless it is clearly less confident, since
    its lines are the ones a reader sees even when single words score alike.
    """
    if not min_angle or not min_angle <= abs(first.skew) <= _MAX_TILT:
        return first
    with page.rotate(first.skew, resample=Image.Resampling.BICUBIC, expand=True,
                     fillcolor="white") as level:
        second = _second_reading(level, settings)
    if second is None:
        return first
    return second if second.confidence >= first.confidence - 0.05 else first


def _straightened(
    page: Image.Image, settings: RunSettings, first: Reading, min_angle: float
) -> Reading:
    """Read a poorly read page again levelled by the tilt of its ink.

    ``_levelled`` measures the tilt on the lines Tesseract found; a page tilted
    ten degrees or more yields none, and so reads as empty. Its ink still shows
    the tilt (skew.py). The second reading is kept only when it is better.
    """
    if not min_angle or abs(first.skew) >= min_angle:
        return first
    angle = ink_skew_degrees(page)
    if abs(angle) < min_angle:
        return first
    with page.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True,
                     fillcolor="white") as level:
        second = _second_reading(level, settings)
    if second is None or not second.better_than(first):
        return first
    log.debug("page tilted %.1f degrees by its ink: read again levelled", angle)
    return second


def _scaled(settings: RunSettings, scale: float) -> RunSettings:
    if not settings.dpi:
        return settings
    return replace(settings, dpi=round(settings.dpi * scale))


def _binary_problem(binary: str) -> str:
    """Why ``binary`` cannot read pages as Tesseract 4 or newer ("" when it can): it does
    not answer ``--version`` as Tesseract does, is too old, or cannot list its languages."""
    version = _major_version(binary)
    if version is None:
        return (f"{binary} does not answer --version as Tesseract does (it failed, or named "
                "no version): is it Tesseract?")
    if version < 4:
        return f"Tesseract {version} is too old (4 or newer reads with LSTM models)"
    return listing_problem(binary)


@functools.lru_cache(maxsize=16)
def _major_version(binary: str) -> int | None:
    """Tesseract's major version, asked once per binary (every document checks it)."""
    try:
        done = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30,
                              check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (done.stdout or done.stderr).split()
    if len(text) < 2 or done.returncode != 0:
        return None
    try:
        return int(text[1].lstrip("v").split(".")[0])
    except ValueError:
        return None


def _unread_share(reading: Reading) -> float:
    """The share of the reading's words Tesseract was unsure of."""
    if not reading.table:
        return 0.0
    unsure = sum(1 for word in reading.table if word.confidence < _UNREAD_CONFIDENCE)
    return unsure / len(reading.table)


def _mixed_script(reading: Reading) -> bool:
    """Whether a reading the requested languages made well leaves enough words unread to
    suggest lines in another script."""
    return (len(reading.table) >= _MIXED_MIN_WORDS
            and _unread_share(reading) >= _MIXED_UNREAD_SHARE)
