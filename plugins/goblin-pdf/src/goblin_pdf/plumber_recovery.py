"""Recovery through pdfplumber (pdfminer.six), which decodes some fonts differently.

pdfminer maps glyphs of identity-encoded TrueType fonts through the embedded
font's own cmap table where PDFium falls back to raw glyph codes, so pages
PDFium turns into shifted codes often come back readable here.
"""

from __future__ import annotations

import io
import logging
import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from goblin_core.config import Config
from goblin_core.deadline import time_left, time_limit
from goblin_core.engines import BaseEngine
from goblin_core.errors import CorruptDocument, ExtractionTimeout, FileTooLarge
from goblin_core.source import Source
from goblin_pdf.formats import PDF_PAGES
from goblin_pdf.page_weight import PageCensus
from goblin_pdf.passwords import document_password
from goblin_pdf.poppler_recovery import listed_pages
from goblin_pdf.stray_marks import plain_ligatures

log = logging.getLogger(__name__)

#: Characters pdfplumber reads from one page at most. pdfminer makes a Python object of
#: each glyph and pdfplumber a record of it, about 2.3 kB in all: a page of 400,000 took
#: 28 s and 920 MB, where a dense real page holds a few thousand. A glyph counts for the
#: characters its ToUnicode map gives (one at least), so a map turning a code into
#: hundreds of characters is bounded too.
MAX_PAGE_CHARS = 100_000


class PdfplumberRecovery(BaseEngine):
    """Re-reads garbage or failed pages with pdfplumber."""

    name = "pdf.pdfplumber"
    formats = PDF_PAGES
    priority = 60

    def recover(
        self, source: Source, page_numbers: Sequence[int], config: Config
    ) -> dict[int, str]:
        opened = _opened(source, document_password(source, config) or "")
        if opened.failure is not None:
            raise CorruptDocument(opened.failure, file=source.display_name)
        with PageCensus.of(source, config) as census:
            return _page_texts(opened.pages, page_numbers, census, source.display_name,
                               float(config.section("pdf").get("page_timeout", 30.0)))


@dataclass
class _Opened:
    """pdfplumber's reading of one source: its pages, or why it has none."""

    name: str
    password: str
    pdf: Any = None
    pages: Sequence[Any] = ()
    failure: str | None = None


# The document last opened, by the identity of its source. pdfminer parses a damaged
# file's objects one by one when its cross-reference table is broken, seconds for a
# file of a few hundred kilobytes, and the pipeline asks an engine about one page
# before the others (``recovery_probe``): the document is kept open between the two
# calls, and closed when its source goes or another document is read.
_OPENED: dict[int, _Opened] = {}


def _opened(source: Source, password: str) -> _Opened:
    known = _OPENED.get(id(source))
    if known is not None and known.password == password:
        return known
    for key in list(_OPENED):
        _forget(key)
    # pdfplumber (and pdfminer under it) loads on first recovery, not with the plugin:
    # every worker and goblin command would pay for it otherwise
    import pdfplumber

    opened = _Opened(source.display_name, password)
    # the bytes of a source held in memory are read in place, never spooled to a file
    # another engine's cleanup would take away while this one still reads it
    target: Any = str(source.path()) if source.is_file else io.BytesIO(source.bytes())
    try:
        opened.pdf = pdfplumber.open(target, password=password)
        # The page tree is parsed lazily, on first access: a broken tree fails here,
        # not in open().
        opened.pages = opened.pdf.pages
    except Exception as exc:  # pdfminer raises many types on broken files
        step = "open it" if opened.pdf is None else "read its page tree"
        opened.failure = f"pdfplumber cannot {step} ({type(exc).__name__}: {exc})"
    _OPENED[id(source)] = opened
    weakref.finalize(source, _forget, id(source))
    return opened


def _forget(key: int) -> None:
    opened = _OPENED.pop(key, None)
    if opened is not None and opened.pdf is not None:
        _close(opened.pdf, opened.name)


def _page_texts(pages: Sequence[Any], page_numbers: Sequence[int], census: PageCensus,
                name: str, page_seconds: float = 30.0) -> dict[int, str]:
    """pdfplumber's text of the pages asked for; pdfminer would expand a form bomb as
    PDFium would, so pages the census refuses are left out, and so are pages of more
    than ``MAX_PAGE_CHARS`` characters (FileTooLarge, the reason, when no page asked
    for is left), and a page still being read after ``page_seconds`` is given up."""
    texts: dict[int, str] = {}
    too_many: list[int] = []
    for index, number in enumerate(page_numbers):
        # one call reads many pages: it ends where the document's time does
        left = time_left()
        if left is not None and left <= 0:
            log.warning("%s: limits.timeout ran out; pdfplumber did not read page(s) %s", name,
                        listed_pages(page_numbers[index:]))
            break
        if not 1 <= number <= len(pages) or census.refusal(number):
            continue
        page = pages[number - 1]
        try:
            with time_limit(page_seconds, f"pdfplumber on page {number}"):
                _read_layout(page)
                texts[number] = plain_ligatures(page_text(page))
        except ExtractionTimeout as exc:
            log.warning("%s: %s (pdf.page_timeout); not read with pdfplumber", name, exc)
        except _TooManyChars:
            log.warning("%s: page %s draws more than %s characters; not read with pdfplumber",
                        name, number, f"{MAX_PAGE_CHARS:,}")
            too_many.append(number)
        except Exception as exc:  # one bad page must not lose the others
            log.warning("%s: pdfplumber failed on page %s: %s", name, number, exc)
        finally:
            page.close()
    if too_many and not texts:
        listed = ", ".join(str(number) for number in too_many)
        raise FileTooLarge(
            f"page(s) {listed} draw more than {MAX_PAGE_CHARS:,} characters, past what "
            "pdfplumber reads (it keeps a Python object of each); not recovered with it",
            file=name)
    return texts


#: Steps between consecutive characters needed to tell the way a page's text runs.
_MIN_STEPS = 20


def page_text(page: Any) -> str:
    """pdfplumber's text of a page, read top to bottom and right to left when its
    characters run in columns (Chinese and Japanese set vertically): read as rows,
    such a page comes out one character of each column per line. A page with both
    (a vertical column among lines of text, a running head over vertical text) is
    read in two parts, the columns one way and the rest the other, the larger first."""
    chars = page.chars
    columns = column_chars(chars)
    rest = sum(1 for c in chars if id(c) not in columns and str(c.get("text", "")).strip())
    if columns and rest:
        vertical = _vertical_text(page.filter(lambda o: id(o) in columns))
        across = _text(page.filter(lambda o: o.get("object_type") != "char"
                                   or id(o) not in columns))
        parts = [vertical, across] if len(columns) >= rest else [across, vertical]
        return "\n".join(part for part in parts if part.strip())
    if columns or runs_vertically(chars):
        return _vertical_text(page)
    return _text(page)


def _text(page: Any) -> str:
    return str(page.extract_text() or "")


def _vertical_text(page: Any) -> str:
    return str(page.extract_text(line_dir="rtl", char_dir="ttb", line_dir_render="ttb",
                                 char_dir_render="ltr") or "")


#: Chinese, Japanese and Korean letters: the scripts set in vertical columns
_CJK_LETTER = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
#: What such a column holds: those letters, CJK punctuation and full-width forms
_COLUMN_CHAR = re.compile("[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
                          "\uf900-\ufaff\uff00-\uffef]")
#: Characters a run down a column has at least, to be a column of text
_MIN_COLUMN = 3
#: Sizes one character of a column is drawn below the one before it at most: set
#: vertically, text advances an em; the rows of a table of one-character cells are
#: further apart
_COLUMN_REACH = 1.5


def column_chars(chars: Sequence[dict[str, Any]]) -> set[int]:
    """The ``id`` of each character in a column of Chinese, Japanese or Korean text: a
    run of at least ``_MIN_COLUMN`` of their letters, punctuation and full-width forms,
    each drawn below the one before it at the same x and at most ``_COLUMN_REACH`` of
    its size below it, mostly letters (a column of figures in a table is no such text).

    >>> column = [{"text": c, "x0": 500.0, "top": 60.0 + 10 * i, "size": 10.0}
    ...           for i, c in enumerate("縦書き")]
    >>> row = [{"text": c, "x0": 60.0 + 6 * i, "top": 20.0, "size": 10.0}
    ...        for i, c in enumerate("Title")]
    >>> figures = [{**c, "text": d} for c, d in zip(column, "123", strict=True)]
    >>> len(column_chars(row + column)), len(column_chars(row + figures))
    (3, 0)
    """
    found: set[int] = set()
    run: list[dict[str, Any]] = []

    def settle() -> None:
        letters = sum(1 for c in run if _CJK_LETTER.match(str(c.get("text", ""))))
        if len(run) >= _MIN_COLUMN and 2 * letters > len(run):
            found.update(id(c) for c in run)

    for char in chars:
        text = str(char.get("text", ""))
        if not text.strip():
            continue
        if not _COLUMN_CHAR.match(text):
            settle()
            run = []
        elif run and _steps_down(run[-1], char, _COLUMN_REACH):
            run.append(char)
        else:
            settle()
            run = [char]
    settle()
    return found


def _steps_down(previous: dict[str, Any], char: dict[str, Any], reach: float = 2.0) -> bool:
    """Whether ``char`` is drawn below ``previous`` at the same x, at most ``reach``
    of its size further down."""
    size = max(float(char.get("size") or 0), 1.0)
    dx = float(char["x0"]) - float(previous["x0"])
    dy = float(char["top"]) - float(previous["top"])
    return abs(dx) < size / 4 and 0 < dy < reach * size


def runs_vertically(chars: Sequence[dict[str, Any]]) -> bool:
    """Whether most steps from one drawn character to the next go down a column (the
    same x, further down) rather than along a row (the same line, further right).

    >>> column = [{"text": c, "x0": 500.0, "top": 60.0 + 10 * i, "size": 10.0}
    ...           for i, c in enumerate("縦書きの文章です" * 3)]
    >>> runs_vertically(column), runs_vertically([{**c, "x0": c["top"], "top": 60.0}
    ...                                           for c in column])
    (True, False)
    """
    down = across = 0
    previous: dict[str, Any] | None = None
    for char in chars:
        if not str(char.get("text", "")).strip():
            continue
        if previous is not None:
            size = max(float(char.get("size") or 0), 1.0)
            dx = float(char["x0"]) - float(previous["x0"])
            dy = float(char["top"]) - float(previous["top"])
            if _steps_down(previous, char):
                down += 1
            elif abs(dy) < size / 4 and 0 < dx < 2 * size:
                across += 1
        previous = char
    return down + across >= _MIN_STEPS and down > 2 * across


class _TooManyChars(Exception):
    """The page draws more than MAX_PAGE_CHARS characters."""


def _read_layout(page: Any) -> None:
    """Lay the page out as pdfplumber does, stopping past ``MAX_PAGE_CHARS`` characters.

    pdfplumber lays a page out on first use of ``page.layout`` and keeps the result in
    ``page._layout``; it is laid out here with a device that counts the characters as
    pdfminer makes them, so a page of millions stops after the first hundred thousand
    instead of holding them all.
    """
    from pdfminer.pdfinterp import PDFPageInterpreter
    from pdfplumber.page import PDFPageAggregatorWithMarkedContent

    class CountingDevice(PDFPageAggregatorWithMarkedContent):
        chars = 0

        def render_char(self, matrix: Any, font: Any, fontsize: float, scaling: float,
                        rise: float, cid: int, ncs: Any, graphicstate: Any) -> float:
            try:
                self.chars += max(len(font.to_unichr(cid)), 1)
            except Exception:  # no character for the code: pdfminer writes "(cid:N)"
                self.chars += 1
            if self.chars > MAX_PAGE_CHARS:
                raise _TooManyChars
            advance: float = super().render_char(matrix, font, fontsize, scaling, rise, cid,
                                                 ncs, graphicstate)
            return advance

    device = CountingDevice(page.pdf.rsrcmgr, pageno=page.page_number,
                            laparams=page.pdf.laparams)
    PDFPageInterpreter(page.pdf.rsrcmgr, device).process_page(page.page_obj)
    page._layout = device.get_result()


def _close(pdf: object, name: str) -> None:
    """Close pdfplumber's document; its close() walks the page tree, which may be broken."""
    try:
        pdf.close()  # type: ignore[attr-defined]
    except Exception as exc:  # the pages read (or the error raised) matter more than this
        log.debug("%s: pdfplumber could not close cleanly: %s", name, exc)
