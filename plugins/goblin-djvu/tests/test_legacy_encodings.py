"""djvu.djvulibre on files whose text is not UTF-8: older tools wrote text layers,
bookmarks and metadata in the code page of the machine they ran on."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import DjvuPage, MakeDjvu

import goblin_core


def octal(text: str, codec: str) -> str:
    """``text`` in ``codec`` as djvused's octal escapes, so that the bytes go in unchanged."""
    return "".join(chr(b) if 32 <= b < 127 and b not in b'"\\' else f"\\{b:03o}"
                   for b in text.encode(codec))


RUSSIAN = "Протокол заседания конкурсной комиссии № 7"


def test_a_text_layer_in_a_legacy_code_page_is_read_in_it(make_djvu: MakeDjvu) -> None:
    layer = f'(page 0 0 1275 1650 (line 40 1500 1200 1580 "{octal(RUSSIAN, "cp1251")}"))'
    book = make_djvu([DjvuPage(drawn=["x"], hidden=layer),
                      DjvuPage(drawn=["x"], hidden=["plain UTF-8 page"])])
    document = goblin_core.extract(book, ocr="never")
    assert [p.text for p in document.pages] == [RUSSIAN, "plain UTF-8 page"]


def test_bookmarks_and_metadata_in_latin_1_keep_their_accents(make_djvu: MakeDjvu,
                                                             tmp_path: Path) -> None:
    outline = (f'(bookmarks ("{octal("Größenordnung", "latin-1")}" "#1") '
               f'("{octal("Ärger und Übermaß", "latin-1")}" "#2"))')
    book = make_djvu([DjvuPage(hidden=["one"]), DjvuPage(hidden=["two"])], outline=outline)
    script = tmp_path / "meta.dsed"
    script.write_text(f'select\nset-meta\nTitle "{octal("Straße", "latin-1")}"\n.\nsave\n')
    subprocess.run(["djvused", str(book), "-f", str(script)], check=True)
    document = goblin_core.extract(book, ocr="never")
    assert [b["title"] for b in document.raw_metadata["outline"]] == [
        "Größenordnung", "Ärger und Übermaß"]
    assert document.metadata["title"] == "Straße"
