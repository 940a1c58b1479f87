"""TextCleaner reads its ``stopwords`` list at every call, as GoblinTools 0.13.4 does:
words appended to it, or a list assigned in its place, count from the next call on;
and removing stopwords leaves the remaining words one space apart."""

from __future__ import annotations

from typing import Any

import pytest

import goblin_core.compat as compat
from goblin_core.compat import TextCleaner


def test_the_callers_list_is_the_cleaners_list(goblintools: Any) -> None:
    words = ["foo"]
    assert TextCleaner(custom_stopwords=words).stopwords is words
    assert goblintools.TextCleaner(custom_stopwords=words).stopwords is words


def test_a_word_appended_after_construction_is_a_stopword(goblintools: Any) -> None:
    def remove(module: Any) -> str:
        cleaner = module.TextCleaner(custom_stopwords=["foo"])
        cleaner.stopwords.append("bar")
        return str(cleaner.remove_stopwords("foo bar baz"))

    assert remove(goblintools) == "baz"
    assert remove(compat) == "baz"


def test_a_word_appended_to_the_callers_list_is_a_stopword() -> None:
    words = ["foo"]
    cleaner = TextCleaner(custom_stopwords=words)
    assert cleaner.remove_stopwords("foo bar") == "bar"
    words.append("bar")
    assert cleaner.remove_stopwords("foo bar") == ""


@pytest.mark.parametrize("assigned", [["baz"], []])
def test_an_assigned_list_replaces_the_stopwords(goblintools: Any,
                                                 assigned: list[str]) -> None:
    def clean(module: Any) -> tuple[str, str]:
        cleaner = module.TextCleaner()
        cleaner.stopwords = list(assigned)
        return (cleaner.remove_stopwords("foo bar baz de"),
                cleaner.clean_text("foo bar baz de", remove_stopwords=True))

    assert clean(goblintools) == clean(compat)
    assert clean(goblintools)[0] == " ".join(w for w in ("foo", "bar", "baz", "de")
                                             if w not in assigned)


def test_goblins_matching_rules_apply_to_an_appended_word() -> None:
    # Case, accents and edge punctuation are ignored for every word of the list,
    # however it got there.
    cleaner = TextCleaner(custom_stopwords=[])
    cleaner.stopwords.append("licitação")
    assert cleaner.remove_stopwords("Edital de LICITACAO, pregão") == "Edital de pregão"


def test_removing_no_stopwords_still_collapses_whitespace(goblintools: Any) -> None:
    text = "a\tb\n\nc  d "
    theirs = goblintools.TextCleaner(custom_stopwords=[]).remove_stopwords(text)
    assert TextCleaner(custom_stopwords=[]).remove_stopwords(text) == theirs == "a b c d"
