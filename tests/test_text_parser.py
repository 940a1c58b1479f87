"""The built-in plain-text parser: encodings, pages, and what it refuses."""

from __future__ import annotations

import unicodedata

import pytest

from goblin_core import CorruptDocument, extract, load_registry
from goblin_core.builtin.text import decode_text

CORE_ONLY = load_registry(load=[])

SAMPLES = [
    ("Licitação nº 12/2024 — R$ 1.234,56", "cp1252"),
    ("São Paulo", "cp1252"),
    ("Der Bürgermeister läßt grüßen", "cp1252"),
    ("Le garçon a mangé une crème brûlée", "latin-1"),
    ("Zażółć gęślą jaźń", "cp1250"),
    ("Árvíztűrő tükörfúrógép", "cp1250"),
    ("Пример текста на русском языке", "cp1251"),
    ("Пример текста на русском языке", "cp866"),
    ("Ελληνικά κείμενα εδώ", "cp1253"),
    ("中文文本測試，這是一個較長的句子。", "big5"),
    ("日本語のテキストです。これは長い文です。", "cp932"),
    ("Olá, mundo ✓", "utf-8"),
    ("Olá, mundo ✓", "utf-8-sig"),
    ("Olá, mundo ✓", "utf-16"),
    ("Olá, mundo ✓", "utf-32"),
    ("Olá, mundo, sem BOM", "utf-16-le"),
    ("Olá, mundo, sem BOM", "utf-16-be"),
]


# Sentences a character-frequency guess got wrong: each legacy code page also decodes
# the others' bytes without error, so only which letters follow which tells them apart.
SENTENCES = [
    ("Reunião da comissão de licitação: a sessão começará às nove horas, na sala de "
     "reuniões do edifício principal", "cp1252"),
    ("La reunión del comité se celebrará el próximo miércoles en la sede de la compañía",
     "cp1252"),
    ("Udvalgets møde finder sted på onsdag på rådhuset. Ændringerne meddeles senere", "cp1252"),
    ("Schůze výboru se uskuteční příští středu na radnici. O změnách se rozhodne později, "
     "řekl předseda.", "cp1250"),
    ("Posiedzenie komisji odbędzie się w przyszłą środę w ratuszu", "cp1250"),
    ("Komite toplantısı önümüzdeki çarşamba günü belediye binasında yapılacak", "cp1254"),
    ("Komiteto posėdis vyks kitą trečiadienį rotušėje. Apie pakeitimus bus pranešta vėliau.",
     "cp1257"),
    ("Komitejas sēde notiks nākamajā trešdienā rātsnamā", "cp1257"),
    ("Заседание комитета состоится в следующую среду в здании мэрии. Об изменениях будет "
     "объявлено позже.", "koi8-r"),
    ("Засідання комітету відбудеться наступної середи в будівлі мерії", "cp1251"),
    ("Die Sitzung findet am nächsten Mittwoch in Köln statt. Über die Änderungen wird "
     "später entschieden.", "cp850"),
    ("Ata da reunião ordinária: aprovação do orçamento e eleição da nova diretoria",
     "latin-1"),
    ("Ὁ Σωκράτης", "utf-8"),
]


@pytest.mark.parametrize(("text", "encoding"), SENTENCES,
                         ids=[f"{enc}-{i}" for i, (_, enc) in enumerate(SENTENCES)])
def test_legacy_code_pages_are_told_apart_by_their_language(text: str, encoding: str) -> None:
    assert decode_text(text.encode(encoding))[0] == text


def test_vietnamese_in_cp1258_keeps_its_tone_marks() -> None:
    # cp1258 has "ô", "ư", "ơ", "â", "ê" whole and writes each tone mark after its letter
    written = ("Cuô\u0323c ho\u0323p cu\u0309a u\u0309y ban se\u0303 diê\u0303n ra va\u0300o "
               "thư\u0301 Tư tuâ\u0300n tơ\u0301i")
    text, encoding = decode_text(written.encode("cp1258"))
    assert encoding == "cp1258"
    expected = "Cuộc họp của ủy ban sẽ diễn ra vào thứ Tư tuần tới"
    assert unicodedata.normalize("NFC", text) == expected


@pytest.mark.parametrize("text", [
    "item,price\nBread,2.50 €\nMilk,1.20 €\n",
    "He said “hello” — and left… it’s fine.",
    "Temperature: 25°C, price £12 © 2020",
])
def test_ascii_with_typographic_signs_is_windows_1252(text: str) -> None:
    """The detector weighs only the signs' bytes: "€" alone reads as Hebrew in cp862."""
    assert decode_text(text.encode("cp1252")) == (text, "cp1252")


@pytest.mark.parametrize("text", [
    "CONTRATAÇÃO DE EMPRESA",
    "EDITAL DE LICITAÇÃO",
    "DÉCLARATION DES DROITS",
    "CONTRATACIÓN PÚBLICA",
])
def test_capitals_are_not_read_as_ebcdic(text: str) -> None:
    """Upper-case Western headings decode in an EBCDIC code page too, to letters and
    control characters; no text holds controls, so that reading is never taken."""
    assert decode_text(text.encode("cp1252")) == (text, "cp1252")


@pytest.mark.parametrize("text", ["Perché è così", "GROSSE ÄNDERUNGEN", "umlauts-ÄÖÜäöüß"])
def test_a_reading_mixing_alphabets_in_a_word_is_never_taken(text: str) -> None:
    """Western letters read in a Cyrillic code page land inside Latin words
    (``Perchй``, ``дNDERUNGEN``): no one writes words like that."""
    assert decode_text(text.encode("cp1252"))[0] == text


def test_a_few_mixed_words_do_not_overturn_a_cyrillic_text() -> None:
    text = ("Новое iPhone-приложение для заказа такси уже доступно в магазине "
            "приложений. Скачайте его сегодня.")
    assert decode_text(text.encode("cp1251")) == (text, "cp1251")


def test_ebcdic_text_with_next_line_controls_keeps_its_lines() -> None:
    """Mainframe text ends its lines with NEL (0x15 in EBCDIC, U+0085 decoded)."""
    data = "RELATORIO MENSAL\nTOTAL DE VENDAS 1234\n".encode("cp500").replace(b"\x25", b"\x15")
    document = extract(data, name="report.txt", registry=CORE_ONLY)
    assert document.text.split("\n")[:2] == ["RELATORIO MENSAL", "TOTAL DE VENDAS 1234"]


def test_dos_letters_are_not_taken_for_windows_quotes() -> None:
    # in cp1252 the cp850 "ö" and "ä" are a closing and a low quote: "K”ln", "n„chsten"
    text = "Köln und Mönchengladbach"
    assert decode_text(text.encode("cp850"))[0] == text


def test_the_accented_line_at_the_end_of_a_large_file_decides() -> None:
    """Past the detector's window, the lines that hold non-ASCII bytes are what it sees."""
    text = "id;cidade\n" + "1;Rio\n" * 100_000 + "2;São João da Barra, Paraná\n"
    decoded, encoding = decode_text(text.encode("cp1252"))
    assert (decoded, encoding) == (text, "cp1252")


@pytest.mark.parametrize(("text", "encoding"), SAMPLES,
                         ids=[f"{enc}-{i}" for i, (_, enc) in enumerate(SAMPLES)])
def test_text_in_common_encodings_is_decoded(text: str, encoding: str) -> None:
    assert decode_text(text.encode(encoding))[0].lstrip("\ufeff") == text


def test_core_alone_extracts_a_legacy_text_file_through_the_pipeline() -> None:
    document = extract("Edital de licitação\r\nObjeto: aquisição".encode("cp1252"),
                       name="edital.txt", registry=CORE_ONLY)
    assert document.text == "Edital de licitação\nObjeto: aquisição"
    assert document.pages[0].engine == "text.plain"
    assert document.raw_metadata["encoding"] == "cp1252"


def test_form_feeds_split_pages() -> None:
    document = extract(b"first page\fsecond page\fthird page", name="a.txt", registry=CORE_ONLY)
    assert [p.text for p in document.pages] == ["first page", "second page", "third page"]
    assert document.page_offsets[1] == (12, 23)
    assert document.text[12:23] == "second page"


def test_a_file_of_form_feed_pages_cut_at_the_output_limit_says_it_was_cut() -> None:
    """Past four bytes a character of the output limit the file is not read at all; the
    form feeds kept are no page's text, so the pages must still hold a character past the
    limit for the cut to be seen and said."""
    data = "\f".join(f"page {n:04d} " + "x" * 40 for n in range(3000)).encode()
    document = extract(data, name="pages.txt", registry=CORE_ONLY,
                       config={"limits": {"max_output_chars": 10_000}})
    assert document.report.truncated
    assert "OutputLimitReached" in document.report.error_kinds
    assert sum(len(page.text) for page in document.pages) == 10_000


def test_binary_bytes_in_a_text_file_are_refused() -> None:
    with pytest.raises(CorruptDocument, match=r"bin\.txt: binary content"):
        extract(b"looks like text\x00\x00\x01\x02 but is not", name="bin.txt", registry=CORE_ONLY)


def test_binary_noise_without_a_nul_is_refused_too() -> None:
    # every byte but NUL, shuffled: no code page reads it as text
    noise = bytes((i * 97) % 255 + 1 for i in range(5000))
    assert b"\x00" not in noise
    with pytest.raises(CorruptDocument, match=r"ruido\.txt: binary content"):
        extract(noise, name="ruido.txt", registry=CORE_ONLY)


@pytest.mark.parametrize("text", [
    "Relatório\ttotal\f" * 200,
    "N\bNA\bAM\bME\bE  ls - list directory contents\n" * 50,  # a saved man page
    "\x1b[1mERRO\x1b[0m: falha na etapa 3\x1a\n" * 100,  # a log with colours, DOS's EOF
    "um caractere de controle perdido\x07 num texto longo " * 5,
])
def test_text_with_the_controls_text_holds_is_read(text: str) -> None:
    from goblin_core.builtin.text import binary_content

    assert not binary_content(text)
    document = extract(text.encode("utf-8"), name="texto.txt", registry=CORE_ONLY)
    assert document.text


def test_whitespace_only_text_is_an_empty_page() -> None:
    document = extract(b"   \n\n  ", name="blank.txt", registry=CORE_ONLY)
    assert document.pages[0].status == "empty"
    assert document.status == "clean"


def test_soft_hyphens_are_left_out_of_the_page_text() -> None:
    # an optional hyphen is invisible unless a line breaks there, and a search for the
    # word misses a text that keeps it
    data = "Die Bundes\u00adrepublik und die Licita\u00ad\nção, e\u00ad mais".encode()
    document = extract(data, name="hifen.txt")
    assert document.text == "Die Bundesrepublik und die Licitação, e mais"
    assert document.pages[0].status == "clean"
