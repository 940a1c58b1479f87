"""A PDF's outline (bookmarks): read whole, however deep, and written the way Tika does.

pypdfium2's own walk recurses once per level (so it stops at a depth it is given) and
decodes titles strictly (so one damaged title costs the whole outline). This walk keeps
its own stack, stops at a budget of items, ends a cycle where it closes, and keeps what
decodes of a title.
"""

from __future__ import annotations

import ctypes
import logging
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from goblin_pdf.pdfium_page import utf16_text

log = logging.getLogger(__name__)

#: Bookmarks read at most: a real outline has hundreds; a generated one of millions is an
#: attack on the reader, not a table of contents.
MAX_OUTLINE_ITEMS = 20_000
#: Levels of indentation written: a 9,000-deep chain would otherwise be 80 million spaces.
_MAX_INDENT = 16


def read_outline(pdf: pdfium.PdfDocument, name: str) -> list[dict[str, Any]]:
    """The bookmarks in reading order: ``level`` (0 at the top), ``title``, ``page``
    (1-based, None when the bookmark goes nowhere in the document)."""
    entries: list[dict[str, Any]] = []
    pages = len(pdf)
    seen: set[int] = set()
    stack = [(pdfium_c.FPDFBookmark_GetFirstChild(pdf, None), 0)]
    while stack:
        bookmark, level = stack.pop()
        if not bookmark:
            continue
        address = ctypes.addressof(bookmark.contents)
        if address in seen:
            continue  # a bookmark that points back up or around: the walk has been here
        if len(entries) == MAX_OUTLINE_ITEMS:
            log.warning("%s: outline cut at %d bookmarks", name, MAX_OUTLINE_ITEMS)
            break
        seen.add(address)
        # the next sibling waits until the whole subtree is written
        stack.append((pdfium_c.FPDFBookmark_GetNextSibling(pdf, bookmark), level))
        stack.append((pdfium_c.FPDFBookmark_GetFirstChild(pdf, bookmark), level + 1))
        # a title ending in NULs (as C writers end strings) is read without them
        title = utf16_text(pdfium_c.FPDFBookmark_GetTitle, bookmark).replace("\x00", "").strip()
        dest = pdfium_c.FPDFBookmark_GetDest(pdf, bookmark)
        index = pdfium_c.FPDFDest_GetDestPageIndex(pdf, dest) if dest else -1
        # a page named by its number is given as written, past the last page too
        entries.append({"level": level, "title": title,
                        "page": index + 1 if 0 <= index < pages else None})
    return entries


def outline_text(outline: list[dict[str, Any]]) -> str:
    """The outline as indented lines, the way Tika writes bookmarks after the pages.

    >>> outline_text([{"level": 0, "title": "Intro"}, {"level": 1, "title": "Scope\\rand aims"}])
    'Intro\\n  Scope and aims'
    """
    titles = ((e["level"], " ".join(str(e["title"]).split())) for e in outline)
    # a title is one line: a line break in it (Acrobat writes \r) would start a line
    # that reads as a bookmark of its own, out of its level
    return "\n".join("  " * min(int(level), _MAX_INDENT) + title
                     for level, title in titles if title)
