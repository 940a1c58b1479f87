"""office.wordperfect: WordPerfect documents through libwpd's wpd2text."""

from __future__ import annotations

import pytest

import goblin_core
from goblin_core import CorruptDocument, PasswordRequired
from goblin_core.builtin.sniffer import MagicSniffer
from goblin_core.source import Source
from goblin_core.testing.corpus import normalize, require_binary
from goblin_office.wordperfect import WordPerfectParser
from samples import PHRASE, wordperfect51


@pytest.fixture(autouse=True)
def wpd2text() -> str:
    return require_binary("wpd2text", "libwpd-tools")


def test_paragraphs_and_accents_are_read_from_a_file_without_a_name() -> None:
    data = wordperfect51("Edital de licitação", PHRASE, "Valor: R$ 1.234,56")
    document = goblin_core.extract(data, name="documento")
    assert document.mime == "application/vnd.wordperfect"
    assert normalize(document.text) == normalize(
        f"Edital de licitação\n{PHRASE}\nValor: R$ 1.234,56")
    assert document.pages[0].engine == "office.wordperfect"
    assert document.status == "clean"


def test_a_protected_document_asks_for_its_password() -> None:
    protected = wordperfect51(PHRASE, encryption_key=0x1234)
    with pytest.raises(PasswordRequired, match="pass password="):
        goblin_core.extract(protected, name="sigiloso.wpd")
    with pytest.raises(PasswordRequired, match="the password given does not open it"):
        goblin_core.extract(protected, name="sigiloso.wpd", password="errada")


def test_a_damaged_document_names_the_file_and_the_cause() -> None:
    # the text would start past the end of the file
    cut = b"\xffWPC\xff\xff\xff\x7f\x01\x0a\x00\x01\x00\x00\x00\x00Hello"
    with pytest.raises(CorruptDocument, match=r"quebrado\.wpd: .*wpd2text cannot read it \(File "
                                              r"Exception!\)"):
        goblin_core.extract(cut, name="quebrado.wpd")


def test_wordperfect_graphics_are_not_taken_for_a_document() -> None:
    graphic = b"\xffWPC\x10\x00\x00\x00\x01\x16\x01\x00\x00\x00\x00\x00" + bytes(32)
    found = MagicSniffer().sniff(graphic, Source.from_bytes(graphic, "logo"))
    assert found is None or found.mime != "application/vnd.wordperfect"


def test_without_wpd2text_the_engine_says_what_to_install(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setenv("PATH", "")
    available, reason = WordPerfectParser().available()
    assert not available and "apt-get install libwpd-tools" in reason
