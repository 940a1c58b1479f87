"""Text in ISO-8859-15 (Latin-9, Unix's "@euro" locales) reads its euro signs and
ligatures: guessed as Windows-1252, "10 €" read "10 ¤" and "cœur" read "c½ur"."""

from __future__ import annotations

from goblin_core import extract, load_registry
from goblin_core.builtin.text import decode_text

CORE_ONLY = load_registry(load=[])

FRENCH = ("Le prix du billet est de 10 € pour les adultes et 5 € pour les enfants.\n"
          "Les œuvres du musée sont exposées ; le cœur de la collection date du XIXe siècle.\n"
          "Nous espérons que vous apprécierez votre visite. Où sont les vestiaires ? À gauche.\n")


def test_latin9_text_reads_its_euro_signs_and_ligatures() -> None:
    document = extract(FRENCH.encode("iso8859-15"), name="tarifs.txt", registry=CORE_ONLY)
    assert document.text == FRENCH
    assert document.raw_metadata["encoding"] == "iso8859-15"


def test_windows_1252_text_with_fractions_and_accents_stays_windows_1252() -> None:
    for words in ("Receita: 1½ kg de farinha, ½ litro de leite e açúcar a gosto.\n",
                  "Sant´Anna e João Gonçalves — “preço” de 10 €.\n"):
        text, encoding = decode_text(words.encode("cp1252"))
        assert (text, encoding) == (words, "cp1252")
