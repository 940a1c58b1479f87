"""De-hyphenation of prose: a word broken at a line end is joined again."""

from __future__ import annotations

import functools
import re

from goblin_pdf.validators.words import known_in, languages_of, written_in

# The rest of a word: letters, digits and the combining marks of decomposed letters,
# which ``\w`` leaves out (``prote\u0301ge\u0301s``).
_REST = r"[\w\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]*"

# A letter, a hyphen at the line end, a word opening the next line and the punctuation
# after it.
_BROKEN = re.compile(r"(\w)([-\u00ad\u2010\ufffe])\n(\w" + _REST + r")(\S*)[ \t]*")


def join_lines(lines: list[str], page: str | None = None) -> str:
    """A paragraph's lines joined with newlines, line-end hyphens mended; ``page``, the
    text of the whole page, says how the page writes a word (see ``dehyphenate``).

    >>> join_lines(["a hyphen-", "ated word and", "more"])
    'a hyphenated\\nword and\\nmore'
    """
    return dehyphenate("\n".join(lines), page)


def dehyphenate(text: str, page: str | None = None) -> str:
    """Join words split by a line-end hyphen when the next line goes on in lower case,
    or goes on in capitals after a word in capitals (``FED-\\nERAL REGISTER``).

    A capital opening a word after the hyphen (``Jean-\\nPierre``) or a digit
    (``COVID-\\n19``) keeps it: the hyphen is part of the name. So does a compound's
    hyphen (``well-\\nknown``, see ``_compound``), judged by the words of ``page``, the
    text around ``text`` (by default ``text`` itself): a paragraph's compound may be
    written whole in the next one.
    """
    # PDFium writes a hyphen it found at a line end as U+FFFE; one kept is a hyphen again.
    mend = functools.partial(_mend, page=page)
    return _BROKEN.sub(mend, text).replace("\ufffe", "-")


# PDFium's own mark of a hyphen it found at a line end, its line already joined to the
# next or still before a line break: the word it splits, and the spaces after it. The
# mark comes first and the letter before it is looked behind for: a pattern opening with
# its literal is scanned for in C, one opening with a lookbehind is tried at every
# position of every page.
_MARKED = re.compile(r"\ufffe(?<=\w\ufffe)(\n?)([^\W\d_]" + _REST + r")([ \t]*)")


def mend_marked_hyphens(text: str) -> str:
    """Join the words PDFium split at a line-end hyphen it marked (U+FFFE), as
    ``dehyphenate`` does; a mark before a capital or a digit is a hyphen again. A soft
    hyphen or a U+2010 hyphen ending a line is such a mark too.

    >>> mend_marked_hyphens("didn't substan\\ufffetially change, Pierre-Auger\\ufffeObservatorium")
    "didn't substantially change, Pierre-Auger-Observatorium"
    >>> mend_marked_hyphens("a hyphen\\ufffe\\nated word")
    'a hyphenated\\nword'
    >>> mend_marked_hyphens("inter\\u2010\\nnational and soft\\u00ad\\nware, Jean\\u2010\\nPierre"
    ...                     ) == "international\\nand software, Jean\\u2010\\nPierre"
    True
    """
    text = _MARKED.sub(_join_marked, text).replace("\ufffe", "-")
    if "\u00ad" not in text and "\u2010" not in text:
        return text
    return _LINE_END_HYPHEN.sub(_join_line_end, text)


# A soft hyphen, or U+2010, the hyphen a layout engine draws where it breaks a word
# (Chrome, for a soft hyphen or CSS ``hyphens``), at the end of a line: a hyphen typed
# in a word is U+002D, which only the reading-order rebuild, seeing the lines, mends.
# Drawn only where a word is broken, it is always mended, where a hyphen PDFium marked
# may be a compound's.
_LINE_END_HYPHEN = re.compile(r"[\u00ad\u2010](?<=\w[\u00ad\u2010])(\n)([^\W\d_]" + _REST
                              + r")([ \t]*)")


def _join_line_end(match: re.Match[str]) -> str:
    joined = _join_marked(match, compounds=False)
    return match.group(0) if joined.startswith("-") else joined


def _join_marked(match: re.Match[str], compounds: bool = True) -> str:
    newline, tail, spaces = match.groups()
    if not tail[0].islower() and not _capitals_broken(match.string, match.start(), tail):
        return "-" + match.group(0)[1:]
    kept = "-" if compounds and _compound(match.string, match.start(), tail) else ""
    if newline:  # the line break moves to the end of the word
        return kept + tail + ("\n" if spaces else "")
    return kept + tail + spaces


def _mend(match: re.Match[str], page: str | None = None) -> str:
    letter, hyphen, tail, after = match.groups()
    if not tail[0].islower() and not _capitals_broken(match.string, match.end(1), tail):
        return match.group(0)
    if hyphen in "-\ufffe" and _compound(match.string, match.end(1), tail, page):
        letter += "-"
    rest = match.string[match.end():match.end() + 1]
    joined = f"{letter}{tail}{after}"
    return joined if rest in ("", "\n") else joined + "\n"


# A line's last word, broken by a hyphen, and the word opening the line after.
_BROKEN_AT_END = re.compile(r"(?<![^\W_])([^\W\d_]+)[-\u00ad\u2010\ufffe]\Z")
_OPENING_WORD = re.compile(r"[^\W\d_]" + _REST)


def goes_on(line: str, after: str, page: str) -> bool:
    """Whether the word broken by the hyphen ending ``line`` goes on at the start of
    ``after``, a line read next though not below it (the head of the next column, the
    line past a figure): ``after`` opens in lower case, and the two halves run together
    are a word ``page`` writes, or a word of the language it is written in. Two halves
    that make no word are lines read next by mistake, and are left apart.

    >>> goes_on("made available un-", "der the License", "made available under")
    True
    >>> goes_on("the global sen-", "be instances of", "a page in English of the global")
    False
    """
    head = _BROKEN_AT_END.search(line)
    tail = _OPENING_WORD.match(after)
    if head is None or tail is None or not after[0].islower():
        return False
    joined = (head.group(1) + tail.group()).lower()
    written = _words_written(page)
    if not written.isdisjoint((joined, f"{head.group(1)}-{tail.group()}".lower())):
        return True
    return known_in(joined, languages_of(page))


# The letters of the word before a hyphen, two at least, seen from the hyphen (after an
# underscore too: ``LS_COL-``): a window of the text is searched, as a page has few
# such hyphens and may be long.
_WORD_BEFORE = re.compile(r"(?<![^\W_])[^\W\d_]{2,}\Z")
_WINDOW = 64


def _capitals_broken(text: str, end: int, tail: str) -> bool:
    """Whether the hyphen ending at ``end`` in ``text`` broke a word set in capitals:
    letters in capitals before it (two or more, a word of their own) and ``tail``, two
    or more capitals, after it: ``REG-ISTER``, ``ELE-MENT``, names joined by underscores
    too (``LD_LI-BRARY_PATH``). Typesetters break words in capitals as they do any other;
    a tail that is a capitalised word (``Warden-Commander``) or holds digits
    (``Lucene-BM25``) is a compound's."""
    if len(tail) < 2 or not (tail.replace("_", "").isalpha() and tail.isupper()):
        return False
    before = _WORD_BEFORE.search(text, max(end - _WINDOW, 0), end)
    return before is not None and before.group().isupper()


# The word lists a compound is judged by: the two the validators load for any page, and
# French, which writes many compounds with a hyphen (peut-être, grand-mère), read only for
# text that is neither Portuguese nor English.
_COMPOUND_LISTS = ("pt", "en")
_OTHER_COMPOUND_LISTS = ("fr",)
_HEAD = re.compile(r"(?<!\w)[^\W\d_]+\Z")


def _compound(text: str, end: int, tail: str, page: str | None = None) -> bool:
    """Whether the hyphen at ``end`` in ``text``, ``tail`` opening the next line, is a
    compound's: the word before it and ``tail`` are words of one language the
    text (``page`` when given: the text ``text`` is part of) is written in, and run
    together they are no word of the lists
    (``well-known``, ``fine-tuned``, ``segunda-feira``; not ``hyphen-ated``). A German
    text's ``Haus-\\ntür`` is one word whatever its halves are in English, so a list
    judges only text mostly written in its language. The text's own words come first:
    the word run together elsewhere in it (``fakeroot``, a name no list knows) is one
    word, and written with its hyphen inside a line, a compound.

    >>> _compound("a well-\\nknown result", 6, "known")
    True
    >>> _compound("a hyphen-\\nated word", 8, "ated")
    False
    >>> _compound("fakeroot runs a command; see the fake-\\nroot manual", 37, "root")
    False
    """
    found = _HEAD.search(text, max(end - _WINDOW, 0), end)
    if found is None:
        return False
    head = found.group()
    text = text if page is None else page
    written = _words_written(text)
    joined = (head + tail).lower()
    # ``data-/set`` where the page writes ``datasets``, ``work-/flows`` where ``workflow``
    if not written.isdisjoint((joined, joined + "s", joined + "es", joined.removesuffix("s"))):
        return False
    if f"{head}-{tail}".lower() in written:
        return True
    if known_in(joined, _COMPOUND_LISTS):
        return False

    def halvesknown_in(language: str) -> bool:
        return known_in(head, (language,)) and known_in(tail, (language,))

    # the word lookups come first: judging the text's language reads many of its words
    if any(written_in(text, language) for language in _COMPOUND_LISTS if halvesknown_in(language)):
        return True
    if any(written_in(text, language) for language in _COMPOUND_LISTS):
        return False
    return any(written_in(text, language) and halvesknown_in(language)
               and not known_in(joined, (language,)) for language in _OTHER_COMPOUND_LISTS)


# A word as written inside a line, compounds whole; a hyphen ending a line ends its token.
_WRITTEN_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


@functools.lru_cache(maxsize=4)
def _words_written(text: str) -> frozenset[str]:
    """The words of ``text`` in lower case, compounds written whole among them."""
    return frozenset(_WRITTEN_WORD.findall(text.lower()))

