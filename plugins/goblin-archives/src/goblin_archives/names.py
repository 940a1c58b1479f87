"""Member names stored in legacy encodings (GBK, Shift_JIS, cp437...) decoded properly.

Zip records names as bytes; only a flag says "UTF-8". Archives made on
Chinese or Japanese Windows store GBK or Shift_JIS bytes without the flag.
The names of one archive are decoded together, so that a few short names
still give the detector enough text to tell the encodings apart.
"""

from __future__ import annotations

import codecs
import contextlib
import logging
import unicodedata
from collections.abc import Iterable, Sequence

log = logging.getLogger(__name__)

#: Names the detector reads at most; a large archive's first ones tell its code page.
_SAMPLE_BYTES = 64 * 1024

#: The code pages names are decoded in, most likely first: the DOS (OEM) ones archivers
#: write (cp850 in Brazil and Western Europe, cp437 in the US, cp852 in Central Europe,
#: cp866 in Russia, cp737 in Greece), the Windows (ANSI) ones a few write, and East
#: Asian systems' own. Mac, ISO and regional sets are left out: on a few short names
#: they win by chance.
CODE_PAGES = ("cp850", "cp437", "cp852", "cp866", "cp737",
              "cp1252", "cp1250", "cp1251", "cp1253", "cp1254", "cp1257", "cp1255",
              "cp1256", "cp1258", "cp932", "gb18030", "big5", "cp949")

#: Lowercase letters beyond ASCII of the languages written in the Latin code pages: a
#: decoding whose accented letters all belong to one language is the plausible one
#: ("naïve" is French; "naďve" belongs to no language).
_ALPHABETS = (
    "áàâãçéêíóôõúü",  # Portuguese
    "áéíóúñü", "àâæçéèêëîïôœùûüÿ", "äöüß", "àèéìíîòóù", "àçéèíïòóúü", "éëïöü",  # es fr de it ca nl
    "åäöé", "æøåéó", "áðéíóúýþæö",  # sv fi, da no, is
    "áčďéěíňóřšťúůýž", "áäčďéíĺľňóôŕšťúýž", "ąćęłńóśźż", "áéíóöőúüű",  # cs sk pl hu
    "čćđšž", "ăâîșțşţ", "çğıöşüâî", "äõöüšž", "ąčęėįšųūž", "āčēģīķļņšūž",  # hr sl ro tr et lt lv
)

#: Signs names hold besides letters, between words (a quote inside a word is a wrong guess).
_NEUTRAL = frozenset("°–—‘’“”«»·§€©®")

#: Letters of every Latin language: the ordinal indicators (nº, 1ª).
_ORDINALS = frozenset("ºª")

#: chardet's names for supersets of the code pages goblin decodes names in.
_SUPERSETS = {"big5hkscs": "big5", "shift_jis": "cp932", "euc_kr": "cp949", "gbk": "gb18030",
              "gb2312": "gb18030", "cp858": "cp850"}


def guess_encoding(raw_names: Sequence[bytes], forced: str = "") -> str:
    """The encoding that decodes every name in ``raw_names`` most plausibly.

    ``forced`` (the ``archives.name_encoding`` option) wins when given. Otherwise
    UTF-8 when every name is UTF-8, else the code page of :data:`CODE_PAGES`
    that decodes every name into the fewest signs that are no letters, scripts
    mixed inside a word, and accented letters foreign to every language; of
    those left, a Latin decoding goes by the order of :data:`CODE_PAGES`, any
    other by chardet's ranking (byte pairs per language, which tells GBK from
    Big5, or cp866 from cp1251).

    >>> guess_encoding([b"report.pdf"])
    'utf_8'
    >>> guess_encoding(["Ação/edital.pdf".encode("cp850")])
    'cp850'
    >>> guess_encoding(["naïve café résumé.txt".encode("cp1252")])
    'cp1252'
    """
    if forced:
        return forced
    if all(_decodes(raw, "utf_8") for raw in raw_names):
        return "utf_8"
    legacy = [raw for raw in raw_names if not raw.isascii()]
    joined = b"\n".join(legacy)[:_SAMPLE_BYTES]
    decodings = {page: text for page in CODE_PAGES
                 if (text := _decoded(legacy, page)) is not None}
    if not decodings:
        log.debug("no encoding decodes every member name; falling back to cp437")
        return "cp437"
    ranked = _chardet_rank(joined, decodings)
    best = min(decodings, key=lambda page: _implausibility(decodings[page], page, ranked))
    return codecs.lookup(best).name


def _decoded(names: Sequence[bytes], page: str) -> str | None:
    try:
        return "\n".join(raw.decode(page) for raw in names)
    except UnicodeDecodeError:
        return None


def _chardet_rank(joined: bytes, pages: Iterable[str]) -> dict[str, int]:
    """chardet's order of ``pages`` for ``joined``: its byte pairs per language."""
    # imported here: most archives name their members in ASCII or UTF-8
    import chardet
    from chardet import EncodingEra

    wanted = {codecs.lookup(page).name: page for page in pages}
    rank: dict[str, int] = {}
    eras = EncodingEra.MODERN_WEB | EncodingEra.DOS
    for match in chardet.detect_all(joined, prefer_superset=True, compat_names=False,
                                    encoding_era=eras):
        with contextlib.suppress(LookupError, TypeError):
            name = codecs.lookup(str(match["encoding"])).name
            page = wanted.get(name) or wanted.get(_SUPERSETS.get(name, ""))
            if page is not None:
                rank.setdefault(page, len(rank))
    return rank


def _implausibility(text: str, page: str, chardet_rank: dict[str, int]) -> tuple[int, ...]:
    """How unlikely ``text`` is as names: signs that are no letters (or a quote inside a
    word), capitals inside a word of small letters, words whose letters change script,
    accented letters no one language has, scripts other than Latin; then the order a
    decoding of its script is preferred in."""
    odd = scripts_mixed = 0
    scripts: set[str] = set()
    for at, char in enumerate(text):
        script = _script(char)
        before = _script(text[at - 1]) if at else ""
        after = _script(text[at + 1]) if at + 1 < len(text) else ""
        if not char.isascii() and not script:
            odd += char not in _NEUTRAL or bool(before and after)
        elif char in _ORDINALS:
            odd += bool(after)  # nº, 1ª: an ordinal ends its word
        elif script and not char.isascii():
            scripts.add(script)
            # "CafÚ", "SÒo": a capital after a letter, where small letters follow or precede
            odd += char.isupper() and bool(before) and (text[at - 1].islower()
                                                        or text[at + 1:at + 2].islower())
        if script and before and script != before:
            scripts_mixed += 1
    if scripts <= {"LATIN"}:
        order = CODE_PAGES.index(page)
    else:
        order = chardet_rank.get(page, len(CODE_PAGES)) * len(CODE_PAGES)
    return odd, scripts_mixed, _foreign_letters(text), len(scripts - {"LATIN"}), order


def _script(char: str) -> str:
    """The script of a letter (CJK for Han and kana together), "" for anything else."""
    if not char.isalpha():
        return ""
    if char in _ORDINALS:
        return "LATIN"
    first = unicodedata.name(char, "").split(" ", 1)[0]
    if first in ("CJK", "HIRAGANA", "KATAKANA", "HALFWIDTH", "FULLWIDTH", "IDEOGRAPHIC"):
        return "CJK"
    return first


def _foreign_letters(text: str) -> int:
    """Accented Latin letters of ``text`` outside the alphabet of the language it fits best."""
    letters = {c for c in text.lower()
               if not c.isascii() and c not in _ORDINALS and _script(c) == "LATIN"}
    if not letters:
        return 0
    return min(len(letters - set(alphabet)) for alphabet in _ALPHABETS)


def decode_name(raw: bytes, encoding: str) -> str:
    """``raw`` decoded with ``encoding``; undecodable bytes become U+FFFD, never an error."""
    return raw.decode(encoding, errors="replace")


def raw_from_surrogates(name: str) -> bytes | None:
    """The original bytes of a name decoded with surrogateescape, or None when it is clean."""
    if not any("\udc80" <= ch <= "\udcff" for ch in name):
        return None
    return name.encode("utf-8", errors="surrogateescape")


def _decodes(raw: bytes, encoding: str) -> bool:
    try:
        raw.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return False
    return True
