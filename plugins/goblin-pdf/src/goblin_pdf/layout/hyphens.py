"""De-hyphenation of prose: a word broken at a line end is joined again."""

from __future__ import annotations

import re

# A letter, a hyphen at the line end, a lower-case letter opening the next line.
_BROKEN = re.compile(r"(\w)[-\u00ad\u2010\ufffe]\n(\w+)([ \t]*)", re.UNICODE)


def join_lines(lines: list[str]) -> str:
    """A paragraph's lines joined with newlines, line-end hyphens mended.

    >>> join_lines(["a hyphen-", "ated word and", "more"])
    'a hyphenated\\nword and\\nmore'
    """
    return dehyphenate("\n".join(lines))


def dehyphenate(text: str) -> str:
    """Join words split by a line-end hyphen when the next line goes on in lower case.

    A capital after the hyphen (``Jean-\\nPierre``, ``COVID-\\n19``) keeps it: the
    hyphen is part of the name.
    """
    # PDFium writes a hyphen it found at a line end as U+FFFE; one kept is a hyphen again.
    return _BROKEN.sub(_mend, text).replace("\ufffe", "-")


def _mend(match: re.Match[str]) -> str:
    tail = match.group(2)
    if not tail[0].islower():
        return match.group(0)
    rest = match.string[match.end():match.end() + 1]
    joined = f"{match.group(1)}{tail}"
    return joined if rest in ("", "\n") else joined + "\n"
