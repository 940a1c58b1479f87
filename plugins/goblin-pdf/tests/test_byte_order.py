"""pdf.byte_order: a ToUnicode map written with each character's bytes swapped."""

from __future__ import annotations

import pikepdf
from pdf_builders import helvetica_pages, saved
from test_glyph_order import ENGLISH_LINES

from goblin_core import extract
from goblin_pdf.byte_order import ByteOrderRecovery
from goblin_pdf.font_rereading import PageCharacters


def _to_unicode(mapping: dict[int, int]) -> bytes:
    entries = [f"<{code:02X}> <{value:04X}>" for code, value in sorted(mapping.items())]
    blocks = []
    for start in range(0, len(entries), 100):  # a bfchar block holds at most 100 entries
        chunk = entries[start:start + 100]
        blocks.append(f"{len(chunk)} beginbfchar\n" + "\n".join(chunk) + "\nendbfchar")
    return ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            "/CMapName /Swapped def\n1 begincodespacerange <00> <FF> endcodespacerange\n"
            + "\n".join(blocks)
            + "\nendcmap CMapName currentdict /CMap defineresource pop end end\n").encode()


def _page_with_map(lines: tuple[str, ...], value_of: dict[int, int]) -> bytes:
    content = "\n".join(
        f"BT /F1 10 Tf 40 {800 - 14 * i} Td ({line}) Tj ET" for i, line in enumerate(lines))
    pdf = helvetica_pages(content)
    font = pdf.pages[0].Resources.Font.F1
    font.Encoding = pikepdf.Name.WinAnsiEncoding
    font.ToUnicode = pdf.make_stream(_to_unicode(value_of))
    return saved(pdf)


def test_a_map_with_swapped_bytes_is_read_the_right_way_round() -> None:
    little_endian = {code: code << 8 for code in range(0x20, 0x7F)}
    document = extract(_page_with_map(ENGLISH_LINES[:4], little_endian), name="swapped.pdf",
                       ocr="never")
    page = document.pages[0]
    assert page.attempts[0].verdict == "garbage"
    assert (page.status, page.engine) == ("recovered", "pdf.byte_order")
    assert "The committee met on Tuesday to review the annual budget" in page.text


def test_a_right_map_is_left_alone() -> None:
    document = extract(_page_with_map(ENGLISH_LINES[:4], {c: c for c in range(0x20, 0x7F)}),
                       name="right.pdf", ocr="never")
    page = document.pages[0]
    assert (page.status, page.engine) == ("clean", "pdf.pypdfium2")
    assert "pdf.byte_order" not in {a.engine for a in page.attempts}


def _characters(text: str) -> PageCharacters:
    return PageCharacters(codes=[ord(c) for c in text], font_keys=[1] * len(text))


def test_chinese_text_is_not_taken_for_swapped_bytes() -> None:
    # one character in the line (一, U+4E00) has a zero low byte, as in real Chinese text
    text = "中华人民共和国国务院关于一九九八年国民经济和社会发展计划执行情况的报告"
    assert ByteOrderRecovery().reread(_characters(text)) is None


def test_a_font_with_few_characters_on_the_page_is_not_judged() -> None:
    assert ByteOrderRecovery().reread(_characters("\u4100\u4200\u4300")) is None
    assert ByteOrderRecovery().reread(_characters("".join(
        chr(ord(c) << 8) for c in "Multicolor"))) == "Multicolor"
