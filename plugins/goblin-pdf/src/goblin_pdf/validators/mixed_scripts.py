"""Words whose letters come from two scripts: codes read through the wrong character set.

A font whose codes PDFium cannot map to the characters the page shows gives whatever its
guess holds: an Arabic or Hebrew font Ghostscript rewrote as a simple font reads partly
as Arabic and partly as Latin-1 and Latin Extended letters (``اĀرحÿ``), a Cyrillic font
with a wrong encoding as Latin letters among Cyrillic ones. Nothing looks unmapped, and
the page would pass for clean.

Real text seldom puts letters of two of these scripts side by side inside a word: a
prefix glued to a foreign name (Arabic's ``و`` before ``Python``), or two runs of opposite
directions PDFium wrote without the space between them, a few in a page. A page where
such meetings number a fifth of its words or more is garbage. Greek is left out: science
writes Greek letters into Latin names (``TGFβ``, ``NFκB``, ``μm``).
"""

from __future__ import annotations

import re

from goblin_core.engines import BaseEngine
from goblin_core.model import PageContext, Verdict
from goblin_pdf.formats import PDF_PAGES

_SCRIPTS = {
    "Latin": "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f",
    "Cyrillic": "\u0400-\u04ff",
    "Hebrew": "\u05d0-\u05ea",
    "Arabic": "\u0620-\u064a\u066e-\u06d3\u06fa-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufefc",
}
# a letter of one script right before a letter of another
_MEETING = re.compile("|".join(
    f"[{first}][{second}]" for name, first in _SCRIPTS.items()
    for other, second in _SCRIPTS.items() if other != name))
# any letter of the scripts but Latin: a page without one is settled without the scan
_NOT_LATIN = re.compile("[" + "".join(v for k, v in _SCRIPTS.items() if k != "Latin") + "]")

#: Meetings of two scripts a flagged page has at least.
MIN_MEETINGS = 5
#: Meetings of two scripts per word of the page at or above which it is flagged.
MEETING_SHARE = 0.2


class MixedScriptsValidator(BaseEngine):
    """Garbage when letters of two scripts meet inside the page's words throughout."""

    name = "pdf.mixed_scripts"
    formats = PDF_PAGES
    priority = 50

    def check(self, text: str, context: PageContext) -> Verdict:
        meetings = 0 if text.isascii() or not _NOT_LATIN.search(text) else script_meetings(text)
        # the word count (a split of the whole page) only when the meetings could matter
        if meetings < MIN_MEETINGS or meetings < MEETING_SHARE * len(text.split()):
            return Verdict("ok", 1.0)
        # most words are misread: a score under goblin.ocr_garbage_score's default, so a
        # page no recovery engine reads better is OCR'd
        return Verdict("garbage", 0.25, ("mixed_scripts", f"script_meetings={meetings}"))


def script_meetings(text: str) -> int:
    """How many times a letter of one script stands right before a letter of another
    (Latin, Cyrillic, Hebrew, Arabic) in ``text``."""
    return len(_MEETING.findall(text))
