"""Windows text read through the Mac Roman code page.

A simple TrueType font with neither an /Encoding nor a ToUnicode map leaves the reader
to guess which characters its codes stand for. PDFium reads them as Mac Roman when the
embedded font program carries a Macintosh cmap, as every font Ghostscript rewrites does
(PDF "compression" tools, ps2pdf). Text a Windows program wrote then comes out with each
accented lowercase letter swapped for another character: ``Município`` as
``MunicÌpio``, ``atribuições`` as ``atribuiÁıes``, ``Pratânia`` as ``Prat‚nia``. Nothing
looks unmapped, and the page would pass for clean.

The swapped characters land where no Latin text puts them: an accented capital right
after a lowercase letter, a low quotation mark or a spacing accent between two letters.
A page with enough of them is garbage, so the recovery chain reads it again: pdftotext
reads the same codes as Latin-1, which Windows' code page matches for every letter.
Two of the swaps are left out, as real text has them between letters: ``·`` (Catalan's
``l·l``) and ``ı`` (Turkish).
"""

from __future__ import annotations

import re

from goblin_core.engines import BaseEngine
from goblin_core.model import PageContext, Verdict
from goblin_pdf.formats import PDF_PAGES

# What Windows' lowercase accented letters (0xE0-0xFF) read as in Mac Roman
_SWAPPED = "".join(
    mac for mac, windows in ((bytes([code]).decode("mac_roman"), bytes([code]).decode("cp1252"))
                             for code in range(0xE0, 0x100))
    if windows.islower() and mac not in "\u00b7\u0131"
)
_CAPITALS = frozenset(char for char in _SWAPPED if char.isupper())
# the swapped characters, few in any text: each is judged by its neighbours
_SWAPPED_CHAR = re.compile(f"[{re.escape(_SWAPPED)}]")

#: Swapped characters a flagged page has at least.
MIN_SWAPPED = 2
#: Share of the page's words that hold one, at or above which it is flagged.
SWAPPED_SHARE = 0.01


class CodePageValidator(BaseEngine):
    """Garbage when accented letters show as the characters Mac Roman gives their codes."""

    name = "pdf.code_page"
    formats = PDF_PAGES
    priority = 50

    def check(self, text: str, context: PageContext) -> Verdict:
        # isascii is a flag of the string: most pages are settled without a scan
        swapped = 0 if text.isascii() else swapped_letters(text)
        # the word count (a split of the whole page) only when the swaps could matter
        if swapped < MIN_SWAPPED or swapped < SWAPPED_SHARE * len(text.split()):
            return Verdict("ok", 1.0)
        # every accented letter is wrong: a score under goblin.ocr_garbage_score's default,
        # so a page no recovery engine reads better is OCR'd
        return Verdict("garbage", 0.25, ("mac_roman_read", f"swapped_letters={swapped}"))


def swapped_letters(text: str) -> int:
    """How many characters of ``text`` stand where Mac Roman puts a Windows letter: an
    accented capital after a lowercase letter, a mark between two letters, each followed
    by a letter or by another such character (``atribuiÁıes``)."""
    count = 0
    for match in _SWAPPED_CHAR.finditer(text, 1):
        at = match.start()
        before, char, after = text[at - 1], text[at], text[at + 1:at + 2]
        if not (after.isalpha() or (after and after in _SWAPPED)):
            continue
        if before.islower() or (before.isalpha() and char not in _CAPITALS):
            count += 1
    return count
