"""A declared charset is read as browsers read its label (the WHATWG Encoding
Standard): the wider code page its writers use, else the charset itself."""

from __future__ import annotations

import pytest

from goblin_core.builtin.text import declared_codecs, decode_text

BIG5_TEXT = "香港特別行政區政府公佈了新的財政預算案，總額為五千億元。價格為 100 €。"


@pytest.mark.parametrize(("label", "text", "written_in", "encoding"), [
    # Windows-1252 quotes, dashes and euro sign under an ISO-8859-1 label
    ("iso-8859-1", "Preço “especial” – 10 €", "cp1252", "cp1252"),
    ("latin1", "Preço “especial” – 10 €", "cp1252", "cp1252"),
    ("ISO_8859-1", "Preço “especial” – 10 €", "cp1252", "cp1252"),
    ("iso88591", "Preço “especial” – 10 €", "cp1252", "cp1252"),
    ("iso-8859-9", "Türkçe “metin” €", "cp1254", "cp1254"),
    ("tis-620", "ภาษาไทย “x”", "cp874", "cp874"),
    ("iso-8859-11", "ภาษาไทย “x”", "cp874", "cp874"),
    ("windows-874", "ภาษาไทย “x”", "cp874", "cp874"),
    # the euro sign of cp950, which Big5 lacks
    ("big5", BIG5_TEXT, "cp950", "cp950"),
    ("x-x-big5", BIG5_TEXT, "cp950", "cp950"),
    # a Hong Kong character (HKSCS) under the Big5 label
    ("big5", "香港𣲷", "big5hkscs", "big5hkscs"),
    # GBK letters past GB2312 (the 镕 of 朱镕基)
    ("gb2312", "朱镕基总理访问了上海", "gbk", "gb18030"),
    ("x-gbk", "朱镕基总理访问了上海", "gbk", "gb18030"),
    # Korean Unified Hangul Code syllables past EUC-KR (똠)
    ("euc-kr", "똠방각하 한국어", "cp949", "cp949"),
    ("ks_c_5601-1987", "똠방각하 한국어", "cp949", "cp949"),
    # NEC's circled digits, in cp932 and not in Shift_JIS
    ("shift_jis", "番号①②③の日本語", "cp932", "cp932"),
    ("windows-31j", "番号①②③の日本語", "cp932", "cp932"),
    ("iso-8859-8-i", "שלום עולם", "iso8859-8", "iso8859-8"),
    ("x-mac-roman", "Café crème", "mac-roman", "mac-roman"),
])
def test_a_declared_label_is_read_as_browsers_read_it(
        label: str, text: str, written_in: str, encoding: str) -> None:
    assert decode_text(text.encode(written_in), label) == (text, encoding)


def test_bytes_the_wider_code_page_lacks_fall_back_to_the_declared_charset() -> None:
    # 0x81 is unassigned in Windows-1252 and a control code in ISO-8859-1
    data = b"Caf\xe9 \x81 cr\xe8me"
    assert decode_text(data, "iso-8859-1") == ("Café \x81 crème", "iso8859-1")


def test_a_declared_charset_that_does_not_decode_still_falls_back_to_detection() -> None:
    text = "Relatório de licitação"
    assert decode_text(text.encode("cp1252"), "utf-8") == (text, "cp1252")
    assert decode_text(text.encode("utf-8"), "no-such-charset") == (text, "utf-8")


def test_a_declared_ascii_label_leaves_bytes_past_it_to_detection() -> None:
    # a UTF-8 body labelled us-ascii by a mailer that knows no better is UTF-8
    text = "Reunião amanhã às 9h"
    assert decode_text(text.encode(), "us-ascii") == (text, "utf-8")


def test_labels_that_need_no_wider_code_page_keep_their_own() -> None:
    assert decode_text("Zażółć gęślą".encode("iso8859-2"), "iso-8859-2")[1] == "iso8859-2"
    assert decode_text("Ελληνικά".encode("cp1253"), "windows-1253")[1] == "cp1253"
    assert declared_codecs("utf-8") == ("utf-8",)
    assert declared_codecs(" \"KOI8-R\" ") == ("koi8-r",)


@pytest.mark.parametrize("label", ["no-such-charset", "bad\x00name", "", "x-cp9999"])
def test_a_label_no_codec_has_names_none(label: str) -> None:
    assert declared_codecs(label) == ()
