"""djvu.djvulibre: DjVu pages with their hidden text layer, page images for OCR, bad files."""

from __future__ import annotations

import os
import struct
import subprocess
from pathlib import Path

import pytest
from conftest import DjvuPage, MakeDjvu

import goblin_core
from goblin_core import CorruptDocument, FileTooLarge, Source, default_registry
from goblin_djvu.parser import TEXT_BATCH, DjvuParser

INVOICE = "Relatório de licitação nº 4471"


@pytest.fixture
def no_ocr() -> None:
    if default_registry().ranked("ocr", None, default_registry().config()):
        pytest.skip("an OCR backend is installed; tests/integration covers DjVu OCR")


def test_pages_carry_their_hidden_text_and_metadata(make_djvu: MakeDjvu, no_ocr: None) -> None:
    book = make_djvu([
        DjvuPage(drawn=[INVOICE], hidden=[INVOICE, "paga em 12 de março"]),
        DjvuPage(drawn=["a page scanned with no text layer"]),
        DjvuPage(drawn=["Colour plate"], hidden=['Plate "3": the \\ mark'], colour=True,
                 dpi=150),
    ], metadata={"Title": "Relatório anual", "Author": "Ana Souza", "CreationDate": "2019",
                 "ISBN": "978-85-0000-000-0"})
    document = goblin_core.extract(book)
    assert document.mime == "image/vnd.djvu"
    assert [p.text for p in document.pages] == [
        f"{INVOICE}\npaga em 12 de março", "", 'Plate "3": the \\ mark']
    assert [(p.status, p.reason) for p in document.pages] == [
        ("clean", ""), ("corrupt", "needs_ocr"), ("clean", "")]
    assert {p.engine for p in document.pages if p.text} == {"djvu.djvulibre"}
    # the layer is an earlier OCR's: none of it is drawn
    first = document.pages[0]
    assert first.hidden_chars == len("".join(first.text.split()))
    assert (document.metadata["title"], document.metadata["author"]) == (
        "Relatório anual", "Ana Souza")
    assert document.metadata["created"] == "2019"
    assert document.raw_metadata["ISBN"] == "978-85-0000-000-0"  # a key of the file's own
    assert document.metadata["page_count"] == 3
    [unavailable] = [w for w in document.report.warnings if w.kind == "EngineUnavailable"]
    assert "goblin-core[ocr]" in unavailable.message


def test_a_one_page_file_is_known_by_its_content(make_djvu: MakeDjvu) -> None:
    page = make_djvu([DjvuPage(drawn=["x"], hidden=[INVOICE])], name="scan.bin")
    assert page.read_bytes()[12:16] == b"DJVU"  # one page: no DJVM directory
    document = goblin_core.extract(page.read_bytes(), name="noext")
    assert document.mime == "image/vnd.djvu" and document.text == INVOICE


def test_the_outline_is_in_the_metadata_with_the_page_of_each_bookmark(
        make_djvu: MakeDjvu) -> None:
    outline = ('(bookmarks ("Capítulo 1" "#1" ("Seção 1.1" "#p2.djvu")) '
               '("Nowhere" "#99") ("Site" "https://example.org"))')
    book = make_djvu([DjvuPage(hidden=["one"]), DjvuPage(hidden=["two"])], outline=outline)
    document = goblin_core.extract(book)
    assert document.raw_metadata["outline"] == [
        {"level": 0, "title": "Capítulo 1", "page": 1},
        {"level": 1, "title": "Seção 1.1", "page": 2},
        {"level": 0, "title": "Nowhere", "page": None},
        {"level": 0, "title": "Site", "page": None},
    ]
    assert document.text == "one\n\ntwo"  # in no page's text: that would stop its OCR


def test_a_bookmark_may_name_its_page_by_the_page_title(make_djvu: MakeDjvu) -> None:
    book = make_djvu([DjvuPage(hidden=["one"]), DjvuPage(hidden=["two"]),
                      DjvuPage(hidden=["three"])])
    outline = book.with_name("outline.txt")
    outline.write_text('(bookmarks ("Prefácio" "#Prefácio") ("Second" "#p2.djvu"))',
                       encoding="utf-8")
    subprocess.run(["djvused", str(book), "-e",
                    f'select 3; set-page-title "Prefácio"; set-outline {outline}; save'],
                   check=True)
    document = goblin_core.extract(book)
    assert document.raw_metadata["outline"] == [
        {"level": 0, "title": "Prefácio", "page": 3},
        {"level": 0, "title": "Second", "page": 2},
    ]


def test_columns_regions_and_paragraphs_become_blank_lines(make_djvu: MakeDjvu) -> None:
    def para(top: int, *lines: str) -> str:
        inner = " ".join(f'(line 0 {top - 10 * i} 500 {top - 10 * i + 9} "{t}")'
                         for i, t in enumerate(lines))
        return f"(para 0 {top - 100} 500 {top} {inner})"

    zones = ("(page 0 0 1275 1650 "
             f"(column 0 0 600 1650 (region 0 0 600 1650 {para(1600, 'First line', 'second')} "
             f"{para(1400, 'Next paragraph')})) "
             f"(column 700 0 1275 1650 {para(1600, 'Right column')}))")
    book = make_djvu([DjvuPage(drawn=["x"], hidden=zones)])
    assert goblin_core.extract(book).text == (
        "First line\nsecond\n\nNext paragraph\n\nRight column")


def test_render_draws_the_page_at_the_dpi_asked(make_djvu: MakeDjvu) -> None:
    book = make_djvu([DjvuPage(drawn=["bitonal"], size=(2550, 3300)),
                      DjvuPage(drawn=["colour"], colour=True, dpi=150)])
    config = default_registry().config()
    with DjvuParser().open(Source.from_path(book), config) as parsed:
        bitonal, colour = parsed.render(1, 150), parsed.render(2, 300)
        assert (bitonal.size, bitonal.mode) == ((1275, 1650), "L")
        assert (colour.size, colour.mode) == ((2550, 3300), "RGB")
        assert bitonal.info["dpi"] == (150, 150)
        assert bitonal.getextrema() == (0, 255)  # ink on paper
        for missing in (0, 3):
            with pytest.raises(IndexError):
                parsed.render(missing, 150)


def test_a_page_stored_turned_is_drawn_turned_at_full_resolution(make_djvu: MakeDjvu) -> None:
    book = make_djvu([DjvuPage(drawn=["landscape"], size=(2550, 3300))])
    subprocess.run(["djvused", str(book), "-e", "select 1; set-rotation 1; save"], check=True)
    with DjvuParser().open(Source.from_path(book), default_registry().config()) as parsed:
        assert parsed.render(1, 100).size == (1100, 850)


def test_a_page_past_the_pixel_limit_is_refused_before_it_is_drawn(make_djvu: MakeDjvu) -> None:
    book = make_djvu([DjvuPage(drawn=["big"])])
    config = default_registry().config(max_image_pixels=1_000_000)
    with DjvuParser().open(Source.from_path(book), config) as parsed, \
            pytest.raises(FileTooLarge, match=r"1275x1650 pixels at 300 dpi"):
        parsed.render(1, 300)


def test_a_long_book_is_read_whole_and_stops_at_the_page_limit(make_djvu: MakeDjvu) -> None:
    count = TEXT_BATCH + 6  # two djvutxt runs
    book = make_djvu([DjvuPage(hidden=[f"page number {n}"], size=(200, 260))
                      for n in range(1, count + 1)])
    document = goblin_core.extract(book)
    assert [p.text for p in document.pages] == [f"page number {n}" for n in range(1, count + 1)]
    limited = goblin_core.extract(book, max_pages=5)
    assert [p.number for p in limited.pages] == [1, 2, 3, 4, 5]
    assert any(w.kind == "MaxPages" for w in limited.report.warnings)
    # a worker given one range of a split book reads that range only
    config = default_registry().config(page_range=f"{count - 3}-{count + 10}")
    with DjvuParser().open(Source.from_path(book), config) as parsed:
        assert [p.text for p in parsed.pages()] == [
            f"page number {n}" for n in range(count - 3, count + 1)]
    ranged = goblin_core.extract(book, page_range=f"{count - 3}-{count}")
    assert [p.number for p in ranged.pages] == list(range(count - 3, count + 1))


def test_a_file_cut_short_keeps_the_pages_before_the_cut(make_djvu: MakeDjvu) -> None:
    book = make_djvu([DjvuPage(hidden=["first page"]), DjvuPage(hidden=["second page"]),
                      DjvuPage(drawn=["a colour page at the end"], hidden=["third page"],
                               colour=True)])
    data = book.read_bytes()
    document = goblin_core.extract(data[: len(data) - 2000], name="cut.djvu", ocr="never")
    assert [p.text for p in document.pages[:2]] == ["first page", "second page"]
    assert document.pages[2].status != "clean"
    assert document.status == "partially_recovered"


def test_garbage_after_the_header_is_a_clear_error() -> None:
    data = b"AT&TFORM\x00\x00\x01\x00DJVM" + os.urandom(256)
    with pytest.raises(CorruptDocument, match=r"junk\.djvu: .*djvu\.djvulibre"):
        goblin_core.extract(data, name="junk.djvu")


def test_an_include_file_is_refused_as_holding_no_page(make_djvu: MakeDjvu) -> None:
    data = b"AT&TFORM\x00\x00\x00\x10DJVIANTa\x00\x00\x00\x04(x) "
    with pytest.raises(CorruptDocument, match="include file"):
        DjvuParser().open(Source.from_bytes(data, "shared.iff"), default_registry().config())


def _indirect(folder: Path, book: Path) -> Path:
    target = folder / "indirect"
    target.mkdir()
    subprocess.run(["djvmcvt", "-i", str(book), str(target), "index.djvu"], check=True)
    return target / "index.djvu"


def test_an_indirect_document_is_read_from_its_folder(make_djvu: MakeDjvu,
                                                      tmp_path: Path) -> None:
    book = make_djvu([DjvuPage(hidden=["one"]), DjvuPage(hidden=["two"])])
    index = _indirect(tmp_path, book)
    assert [p.text for p in goblin_core.extract(index).pages] == ["one", "two"]
    with pytest.raises(CorruptDocument, match=r"indirect DjVu .* bundle it first"):
        goblin_core.extract(index.read_bytes(), name="index.djvu")


def test_an_indirect_document_naming_a_file_elsewhere_does_not_read_it(make_djvu: MakeDjvu,
                                                                       tmp_path: Path) -> None:
    """A component named outside the index's folder stays unread (DjVuLibre refuses the
    path); the pages inside are read, and the report says which page failed and why."""
    book = make_djvu([DjvuPage(hidden=["one"]), DjvuPage(hidden=["secret"])])
    index = _indirect(tmp_path, book)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (index.parent / "p2.djvu").rename(outside / "p2.djvu")
    _rename_component(index, b"p2.djvu", b"../elsewhere/p2.djvu")
    document = goblin_core.extract(index)
    assert document.pages[0].text == "one" and "secret" not in document.text
    outside_page = document.pages[1]
    assert outside_page.status == "failed"
    assert "cannot decode the page's hidden text" in outside_page.attempts[0].error
    with DjvuParser().open(Source.from_path(index), default_registry().config()) as parsed, \
            pytest.raises(CorruptDocument, match="points outside of the INDIRECT document"):
        parsed.render(2, 100)


def _rename_component(index: Path, old: bytes, new: bytes) -> None:
    """Rename a component in the index's directory (DIRM: a flags byte, a file count, then
    the sizes, flags and names, BZZ-compressed) with DjVuLibre's bzz."""
    data = index.read_bytes()
    assert data[12:20] == b"DJVMDIRM"
    size = struct.unpack(">I", data[20:24])[0]
    head, packed, rest = data[24:27], data[27:24 + size], data[24 + size + size % 2:]
    folder = index.parent
    (folder / "dirm.bzz").write_bytes(packed)
    subprocess.run(["bzz", "-d", str(folder / "dirm.bzz"), str(folder / "dirm")], check=True)
    listing = (folder / "dirm").read_bytes()
    assert old + b"\x00" in listing
    (folder / "dirm").write_bytes(listing.replace(old + b"\x00", new + b"\x00"))
    subprocess.run(["bzz", "-e", str(folder / "dirm"), str(folder / "dirm.bzz")], check=True)
    directory = head + (folder / "dirm.bzz").read_bytes()
    chunk = b"DIRM" + struct.pack(">I", len(directory)) + directory + b"\x00" * (len(directory) % 2)
    body = b"DJVM" + chunk + rest
    index.write_bytes(b"AT&TFORM" + struct.pack(">I", len(body)) + body)


def test_without_djvulibre_the_engine_says_what_to_install(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.setenv("PATH", "")
    available, reason = DjvuParser().available()
    assert not available and "apt-get install djvulibre-bin" in reason
