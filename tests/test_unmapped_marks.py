"""Symbol-font marks standing alone (list bullets, check boxes) are not unmapped glyphs."""

from __future__ import annotations

from goblin_core.builtin.validators import UnmappedCharactersValidator
from goblin_core.model import PageContext
from goblin_core.ranking import mapped_chars, unmapped_chars

CONTEXT = PageContext(number=1, mime="application/pdf", glyphs=None, options={})
ITEMS = [f"item number {n} of the list, with a few words after it" for n in range(15)]


def test_bullets_from_a_symbol_font_leave_a_page_ok() -> None:
    page = "\n".join(f"\uf0b7\t{item}" for item in ITEMS) + "\n\uf0a8 I agree \uf0fc done"
    assert unmapped_chars(page) == 0
    assert mapped_chars(page) == sum(len(w) for w in page.split())
    verdict = UnmappedCharactersValidator().check(page, CONTEXT)
    assert (verdict.status, verdict.score) == ("ok", 1.0)


def test_symbol_font_codes_inside_words_are_still_unmapped() -> None:
    # a text font read as symbol codes: every letter in the private-use block, words intact
    lost = " ".join("".join(chr(0xF000 + ord(c)) for c in item) for item in ITEMS[:3])
    assert unmapped_chars(lost) == sum(len(w) for w in lost.split())
    assert UnmappedCharactersValidator().check(lost, CONTEXT).status == "garbage"


def test_a_bullet_glued_to_its_text_still_counts() -> None:
    page = "\n".join(f"\uf0b7{item}" for item in ITEMS)
    assert unmapped_chars(page) == len(ITEMS)
    assert UnmappedCharactersValidator().check(page, CONTEXT).status == "suspect"
