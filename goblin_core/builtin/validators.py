"""Format-independent validators: empty pages, unmapped glyphs, too little text."""

from __future__ import annotations

from goblin_core.engines import BaseEngine
from goblin_core.model import PageContext, Verdict
from goblin_core.ranking import mapped_chars, unmapped_chars

_HEAD = 256  # characters of a page looked at first


class EmptyPageValidator(BaseEngine):
    """A page with no visible characters is ``empty``."""

    name = "goblin.empty_page"
    priority = 100

    def check(self, text: str, context: PageContext) -> Verdict:
        if text.strip():
            return Verdict("ok", 1.0)
        return Verdict("empty", 0.0, ("no_text",))


class UnmappedCharactersValidator(BaseEngine):
    """Glyphs without a Unicode mapping (U+FFFD, private use, control codes).

    More than ``unmapped_chars_per_page`` of them is suspect; when they are
    over a third of the page's characters the text is garbage.
    """

    name = "goblin.unmapped"
    priority = 90

    def check(self, text: str, context: PageContext) -> Verdict:
        unmapped = max(unmapped_chars(text), context.unmapped)
        if not unmapped:
            return Verdict("ok", 1.0)
        total = max(mapped_chars(text) + unmapped, context.glyphs or 0, 1)
        share = unmapped / total
        limit = int(context.options.get("unmapped_chars_per_page", 10))
        if share > 1 / 3:
            return Verdict("garbage", round(1 - share, 4), ("unmapped",))
        if unmapped > limit:
            return Verdict("suspect", round(1 - share, 4), ("unmapped",))
        return Verdict("ok", round(1 - share / 2, 4))


class SparseTextValidator(BaseEngine):
    """A page that draws glyphs or images but yields almost no text needs OCR.

    Tika's rule: fewer than ``total_chars_per_page`` mapped characters on a
    page that draws something. Text formats (no drawn glyphs) are never judged.
    """

    name = "goblin.sparse_text"
    priority = 80

    def check(self, text: str, context: PageContext) -> Verdict:
        if context.glyphs is None:
            return Verdict("ok", 1.0)
        draws = context.glyphs > 0 or context.images > 0
        if not draws:
            return Verdict("ok", 1.0)
        limit = int(context.options.get("total_chars_per_page", 10))
        # Counts add up over pieces of the text: enough in a head is enough.
        if mapped_chars(text[: _HEAD + 8 * limit]) >= limit:
            return Verdict("ok", 1.0)
        mapped = mapped_chars(text)
        if mapped >= limit:
            return Verdict("ok", 1.0)
        if context.unmapped == 0 and 0 < context.glyphs <= mapped:
            # Every glyph the page draws came out as a mapped character (a page
            # number, a stamp on a figure): the text is short, not broken, so it
            # is suspect rather than garbage. auto mode still OCRs the page (the
            # pipeline's rule counts characters) and OCR wins if it ranks higher.
            return Verdict("suspect", 0.5, ("sparse_text",))
        return Verdict("garbage", round(mapped / max(limit, 1) * 0.5, 4), ("needs_ocr",))
