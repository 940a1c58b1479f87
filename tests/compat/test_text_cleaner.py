"""TextCleaner: the README's cleaning examples, in our own words, as exact cases."""

from __future__ import annotations

import pytest

from goblin_core.compat import TextCleaner
from goblin_core.compat.cleaning import portuguese_stopwords


@pytest.fixture
def cleaner() -> TextCleaner:
    return TextCleaner()


def test_clean_text_folds_accents_and_keeps_case_and_punctuation(cleaner: TextCleaner) -> None:
    assert cleaner.clean_text("Isso é um Teste com Acentos!") == "Isso e um Teste com Acentos!"


def test_clean_text_lowercase_and_stopwords(cleaner: TextCleaner) -> None:
    cleaned = cleaner.clean_text("Isso é um Teste com Acentos!", lowercase=True,
                                 remove_stopwords=True)
    assert cleaned == "teste acentos!"


def test_longer_portuguese_sentence(cleaner: TextCleaner) -> None:
    cleaned = cleaner.clean_text("Este é um documento em português com acentuação!",
                                 lowercase=True, remove_stopwords=True)
    assert cleaned == "documento portugues acentuacao!"


def test_remove_text_noise_keeps_accents(cleaner: TextCleaner) -> None:
    assert cleaner.remove_text_noise("São   Paulo...  centro") == "São Paulo centro"


def test_clean_text_drops_dot_runs_and_collapses_whitespace(cleaner: TextCleaner) -> None:
    assert cleaner.clean_text("Item 1..........R$ 10,00\n\n\tfim") == "Item 1R$ 10,00 fim"


def test_custom_stopwords_replace_the_portuguese_list() -> None:
    custom = TextCleaner(custom_stopwords=["custom", "words"])
    assert custom.remove_stopwords("custom text with words") == "text with"
    assert custom.remove_stopwords("de para com") == "de para com"


def test_stopwords_match_whatever_the_case_or_accents(cleaner: TextCleaner) -> None:
    # GoblinTools kept "Isso" and "É" when lowercase was off; they are stopwords all the same.
    assert cleaner.clean_text("Isso É um Teste", remove_stopwords=True) == "Teste"
    assert cleaner.remove_stopwords("Não há prazo, até amanhã") == "prazo, amanhã"


def test_empty_inputs(cleaner: TextCleaner) -> None:
    assert cleaner.clean_text("") == ""
    assert cleaner.remove_text_noise("") == ""
    assert cleaner.remove_stopwords("") == ""
    assert TextCleaner(custom_stopwords=[]).clean_text("a b", remove_stopwords=True) == "a b"


def test_portuguese_stopwords_come_from_stopwordsiso() -> None:
    words = portuguese_stopwords()
    assert len(words) == 560
    assert {"isso", "com", "um", "de", "para", "não"} <= words
    assert len(TextCleaner().stopwords) == 560


def test_stopwords_match_through_punctuation_and_folded_accents(cleaner: TextCleaner) -> None:
    # GoblinTools compared whole tokens: "com," and the folded "nao" stayed.
    assert cleaner.remove_stopwords("de, para: com prazo.") == "prazo."
    assert cleaner.clean_text("Não há prazo", lowercase=True, remove_stopwords=True) == "prazo"
