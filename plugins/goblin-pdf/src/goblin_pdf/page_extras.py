"""What the parser adds to a page besides the text it draws, kept for the recovery engines.

``pdf.pypdfium2`` appends to a page's text its comments, the web links it does not print,
its form fields' values, what its signature fields show, a dynamic XFA form's text (page 1)
and the outline (the last page). A recovery engine (pdfplumber, pdftotext, the glyph
rereadings) reads only what the page draws, so when its reading wins, those would be
lost with the text PDFium misread: a form page in a broken font came back without its
filled-in values. So the parser leaves each page's additions here, by the identity of the
source it read, and each recovery engine puts them after its own text of the page, as the
parser did.
"""

from __future__ import annotations

import weakref

from goblin_core.source import Source

# Additions by the identity of the source read, then by 1-based page number; forgotten
# when the source goes.
_EXTRAS: dict[int, dict[int, str]] = {}


def remember_extras(source: Source, number: int, extras: str) -> None:
    """Keep what the parser added to page ``number`` of ``source`` (nothing: forget)."""
    pages = _EXTRAS.get(id(source))
    if pages is None:
        if not extras:
            return
        pages = _EXTRAS[id(source)] = {}
        weakref.finalize(source, _EXTRAS.pop, id(source), None)
    if extras:
        pages[number] = extras
    else:
        pages.pop(number, None)


def with_extras(source: Source, texts: dict[int, str]) -> dict[int, str]:
    """``texts`` (a recovery engine's, by page number), each page that has text followed
    by what the parser added to that page, as the parser writes it.

    >>> source = Source.from_bytes(b"%PDF-1.7", "form.pdf")
    >>> remember_extras(source, 2, "Ann: a comment")
    >>> with_extras(source, {1: "one", 2: "two", 3: ""})
    {1: 'one', 2: 'two\\n\\nAnn: a comment', 3: ''}
    """
    pages = _EXTRAS.get(id(source))
    if not pages:
        return texts
    joined: dict[int, str] = {}
    for number, text in texts.items():
        extras = pages.get(number)
        if extras and text.strip() and extras not in text:
            text = f"{text.rstrip(chr(10))}\n\n{extras}"
        joined[number] = text
    return joined
