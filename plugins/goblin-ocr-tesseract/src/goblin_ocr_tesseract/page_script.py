"""Installed languages of other scripts, to read a page again when OCR read it badly.

A page in a script no requested language writes (Chinese, Korean, vertical
Japanese under ``por+eng``) comes out as nonsense in the requested script,
with a low mean confidence: a Chinese page read about 0.25 under ``por+eng``
and 0.77 under ``chi_sim``, where pages in the requested languages read 0.83
and more. Tesseract's own script detection (OSD) named the script of such
pages only weakly, so the page is read again in the installed models of other
scripts instead, one model per script first, and the best of them kept when
it is clearly more confident.

A model's script is the one most of the letters its LSTM writes belong to
(the first word of their Unicode names: LATIN, CJK, HANGUL, CYRILLIC...);
models named ``*_vert`` read top to bottom and count as a script of their own.
"""

from __future__ import annotations

import functools
import unicodedata
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from goblin_ocr_tesseract.traineddata import lstm_characters

#: Models that read no language of their own.
_NOT_LANGUAGES = frozenset({"osd", "equ"})

Script = tuple[str, bool]


@functools.cache
def model_script(path: str) -> Script | None:
    """(script, vertical) of the model at ``path``; None when its characters cannot be read.

    >>> model_script("/no/such/model.traineddata") is None
    True
    """
    letters = Counter(
        unicodedata.name(char, "?").split(" ", 1)[0]
        for char in lstm_characters(path)
        if len(char) == 1 and unicodedata.category(char).startswith("L")
    )
    if not letters:
        return None
    script = letters.most_common(1)[0][0]
    return script, Path(path).stem.endswith("_vert")


def other_script_groups(requested: Iterable[str], installed: Iterable[str],
                        folder: str) -> list[list[str]]:
    """The installed models whose script no requested language writes, grouped by script
    (each group sorted by name, the groups by their first model)."""
    def script(code: str) -> Script | None:
        return model_script(str(Path(folder) / f"{code}.traineddata"))

    wanted = set(requested)
    written = {script(code) for code in wanted}
    groups: dict[Script, list[str]] = {}
    for code in sorted(set(installed) - wanted - _NOT_LANGUAGES):
        found = script(code)
        if found is not None and found not in written:
            groups.setdefault(found, []).append(code)
    return sorted(groups.values())
