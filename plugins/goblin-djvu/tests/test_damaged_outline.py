"""djvu.djvulibre on a multi-page document whose outline (bookmarks) is damaged:
DjVuLibre refuses the whole document; its pages are read without the outline."""

from __future__ import annotations

from conftest import DjvuPage, MakeDjvu

import goblin_core

OUTLINE = '(bookmarks ("Capítulo 1" "#1") ("Capítulo 2" "#2"))'


def test_a_damaged_outline_costs_the_outline_not_the_pages(make_djvu: MakeDjvu) -> None:
    data = bytearray(make_djvu([DjvuPage(hidden=["page one"]), DjvuPage(hidden=["page two"])],
                               metadata={"Title": "Relatório"}, outline=OUTLINE).read_bytes())
    bookmarks = data.index(b"NAVM") + 10  # into the compressed bookmarks
    data[bookmarks:bookmarks + 20] = bytes(b ^ 0x33 for b in data[bookmarks:bookmarks + 20])
    document = goblin_core.extract(bytes(data), name="book.djvu", ocr="never")
    assert [p.text for p in document.pages] == ["page one", "page two"]
    assert document.metadata["title"] == "Relatório"
    assert "outline" not in document.raw_metadata
    assert any("outline (bookmarks) is damaged" in w.message
               for w in document.report.warnings)
