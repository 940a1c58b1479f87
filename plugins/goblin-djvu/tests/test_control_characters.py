"""djvu.djvulibre on text layers holding control characters, which no OCR writes."""

from __future__ import annotations

from conftest import DjvuPage, MakeDjvu

import goblin_core


def test_terminal_escapes_in_a_text_layer_do_not_reach_the_text(make_djvu: MakeDjvu) -> None:
    layer = (r'(page 0 0 1275 1650 (line 40 1500 1200 1580 "Total\007 \033[2J\033[31mR$ 10,00")'
             r' (line 40 1400 1200 1480 "next\001\002 line\177"))')
    book = make_djvu([DjvuPage(drawn=["x"], hidden=layer)])
    text = goblin_core.extract(book, ocr="never").text
    assert text == "Total [2J[31mR$ 10,00\nnext line"
