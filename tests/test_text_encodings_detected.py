"""Encodings the detector told apart badly: UTF-16 without a BOM in scripts that give
it few NUL bytes, ISO-2022 escape sequences, ISO-8859-2 beside Windows-1250."""

from __future__ import annotations

import pytest

from goblin_core import extract, load_registry
from goblin_core.builtin.text import decode_text

CORE_ONLY = load_registry(load=[])

JAPANESE = "日本語のテキストです。これはテストです。東京都に住んでいます。"
CHINESE = "这是一个中文文本测试。北京欢迎你。我们在这里。"
KOREAN = "한국어 텍스트입니다. 이것은 긴 문장입니다."
RUSSIAN = "Заседание комитета состоится в следующую среду в здании мэрии."
GREEK = "Η συνεδρίαση της επιτροπής θα γίνει την επόμενη Τετάρτη."


@pytest.mark.parametrize("text", [JAPANESE, CHINESE, KOREAN, RUSSIAN, GREEK,
                                  "香港特別行政區政府公佈了新的財政預算案，總額為五千億元。"])
@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_bom_in_a_non_latin_script_is_read(text: str, codec: str) -> None:
    assert decode_text(text.encode(codec)) == (text, codec)


def test_chinese_utf16_without_a_bom_is_no_binary_content() -> None:
    # "一" is U+4E00: the NUL byte made the file binary when read in a code page
    document = extract(CHINESE.encode("utf-16-be"), name="zh.txt", registry=CORE_ONLY)
    assert document.text == CHINESE
    assert document.raw_metadata["encoding"] == "utf-16-be"


@pytest.mark.parametrize(("text", "encoding"), [
    ("Reunião da comissão de licitação: a sessão começará às nove horas.", "cp1252"),
    ("Schůze výboru se uskuteční příští středu na radnici.", "cp1250"),
    ("Заседание комитета состоится в следующую среду в здании мэрии.", "cp1251"),
    ("Заседание комитета состоится в следующую среду в здании мэрии.", "koi8-r"),
    ("Пример текста на русском языке, строка вторая.", "cp866"),
    ("日本語のテキストです。これは長い文です。", "cp932"),
    ("日本語のテキストです。これは長い文です。", "euc_jp"),
    ("这是一个中文文本测试。北京欢迎你。我们在这里。", "gb18030"),
    ("中文文本測試，這是一個較長的句子。", "big5"),
    ("한국어 텍스트입니다. 이것은 긴 문장입니다.", "euc_kr"),
    ("การประชุมคณะกรรมการจะจัดขึ้นในวันพุธหน้าที่ศาลากลาง", "cp874"),
])
@pytest.mark.parametrize("lines", [1, 2, 7])
def test_legacy_text_of_even_length_is_not_taken_for_utf16(
        text: str, encoding: str, lines: int) -> None:
    data = "\r\n".join([text] * lines).encode(encoding)
    data = data if len(data) % 2 == 0 else data + b"."
    decoded, found = decode_text(data)
    assert not found.startswith("utf-16")
    assert decoded.startswith(text)


def test_ascii_text_with_terminal_colours_stays_utf8() -> None:
    data = b"\x1b[1mERRO\x1b[0m: falha na etapa 3\n" * 10
    assert decode_text(data) == (data.decode(), "utf-8")


@pytest.mark.parametrize("codec", ["iso2022_jp", "iso2022_jp_ext", "iso2022_kr"])
def test_iso_2022_escape_sequences_switch_to_the_set_they_name(codec: str) -> None:
    text = {"iso2022_jp": JAPANESE, "iso2022_jp_ext": "日本語とｶﾀｶﾅの文",
            "iso2022_kr": KOREAN}[codec]
    decoded, found = decode_text(text.encode(codec))
    assert decoded == text
    assert found.startswith("iso2022")


def test_an_iso_2022_jp_text_file_reads_through_the_pipeline() -> None:
    document = extract(JAPANESE.encode("iso2022_jp"), name="ja.txt", registry=CORE_ONLY)
    assert document.text == JAPANESE


@pytest.mark.parametrize("text", [
    "Zażółć gęślą jaźń. Łódź, Kraków i Wrocław są w Polsce.",
    "Posiedzenie komisji odbędzie się w przyszłą środę w ratuszu",
    "Ślub odbył się w sobotę. Świadkowie przyszli na czas.",
    # Czech "š" and "ž" are "ą" and "ľ" in Windows-1250: letters both, the language decides
    "Schůze výboru se uskuteční příští středu na radnici. Šéf řekl, že změny budou později.",
    "Vláda schválila nový zákon o státním rozpočtu na příští rok.",
])
def test_iso_8859_2_is_told_from_windows_1250(text: str) -> None:
    assert decode_text(text.encode("iso8859-2")) == (text, "iso8859-2")


@pytest.mark.parametrize("text", [
    "Posiedzenie komisji odbędzie się w przyszłą środę w ratuszu",
    "Schůze výboru se uskuteční příští středu na radnici. Šéf řekl, že změny budou později.",
    # Windows-1250 with no byte of 0x80-0x9F: "ą" and "ł" are letters in both
    "Wszyscy byli tam przez całą noc, a potem poszli spać do łóżek.",
    "Árvíztűrő tükörfúrógép. A bizottság ülése jövő szerdán lesz.",
])
def test_windows_1250_stays_windows_1250(text: str) -> None:
    assert decode_text(text.encode("cp1250")) == (text, "cp1250")


KATAKANA = "カタカナだけのテキストです。ファイルをひらいてください。"
HIRAGANA = "ひらがなだけのぶんしょうです。よろしくおねがいします。"


SYLLABARY = "アイウエオ カキクケコ サシスセソ タチツテト"


@pytest.mark.parametrize("text", [KATAKANA, HIRAGANA, SYLLABARY])
@pytest.mark.parametrize(("encoding", "codec"), [("shift_jis", "cp932"), ("euc_jp", "euc_jp")])
def test_japanese_written_in_kana_is_read_as_japanese(text: str, encoding: str,
                                                      codec: str) -> None:
    # the detector's models are built on kanji: kana alone read as Baltic or Cyrillic
    assert decode_text(text.encode(encoding)) == (text, codec)


@pytest.mark.parametrize(("text", "encoding"), [
    ("Заседание комитета состоится в следующую среду. Ѓорѓи, ѓубре.", "cp1251"),
    ("这是一个测试文件。中文文本的编码检测。", "gbk"),
    ("這是一個測試檔案。中文文字的編碼偵測。", "big5"),
    ("이것은 테스트 파일입니다. ㅋㅋㅋ 안녕하세요.", "euc_kr"),
    ("Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy.", "cp1250"),
])
def test_other_code_pages_are_not_taken_for_kana(text: str, encoding: str) -> None:
    assert decode_text(text.encode(encoding))[0] == text


def test_hangul_letters_alone_are_not_taken_for_hiragana() -> None:
    # EUC-KR's jamo are EUC-JP's hiragana byte for byte; Japanese is not written in
    # hiragana with no other character at all
    data = "ㅋㅋㅋㅋ ㅎㅎㅎ ㅠㅠ".encode("euc_kr")
    assert "euc_jp" not in decode_text(data)[1]


@pytest.mark.parametrize("text", ["Ľudia v Bratislave hovoria po slovensky. Ľahko.",
                                  "Ľubica a Ľubomír sú doma.", "Łukasz ma kota."])
def test_a_latin2_capital_is_not_taken_for_a_western_sign(text: str) -> None:
    # ISO-8859-2's Ľ and Ł are Windows-1252's ¥ and £, which start no word
    assert decode_text(text.encode("iso8859-2"))[0] == text


def test_western_signs_before_digits_and_units_stay_western() -> None:
    text = "Price: £100, ¥200 and ©2020 Acme®. 25°C, 5µm, ±3 and ½ cup."
    assert decode_text(text.encode("cp1252")) == (text, "cp1252")
