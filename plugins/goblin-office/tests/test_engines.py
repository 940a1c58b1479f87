"""Fallback engines, each run on its own: what they read when the first choice cannot."""

from __future__ import annotations

import stat
import time
from pathlib import Path

import psutil
import pytest
from packages import compound_file, ppt_record

import samples
from goblin_core import Source, default_registry
from goblin_core.errors import ExtractionTimeout
from goblin_core.testing.corpus import corpus_dir, require_binary
from goblin_office.legacy import AntiwordParser
from goblin_office.libreoffice import LibreOfficeParser


def test_openpyxl_reads_xlsx_when_calamine_is_off(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_xlsx()
    document = read(data, name, engines={"office.calamine": {"enabled": False}})
    assert document.parsed_by == ("office.openpyxl",)
    assert document.tables[0].rows[1] == ("3", "2.5", "2024-03-15")


def test_xlrd_reads_xls_when_calamine_is_off(read) -> None:  # type: ignore[no-untyped-def]
    path = Path(corpus_dir(__file__)) / "office/tika-testEXCEL.xls"
    document = read(path.read_bytes(), path.name, engines={"office.calamine": {"enabled": False}})
    assert document.parsed_by == ("office.xlrd",)
    assert "Numbers and their Squares" in document.text


def test_ppt_record_reader_reads_a_deck_catppt_cannot(read) -> None:  # type: ignore[no-untyped-def]
    path = Path(corpus_dir(__file__)) / "office/fake-power-point.ppt"
    document = read(path.read_bytes(), path.name)
    assert "office.ppt_records" in document.parsed_by
    assert "Adding a Bullet Slide" in document.text
    assert "Click to edit" not in document.text  # master-slide placeholders are skipped


def _ppt_chars(text: str) -> bytes:
    return ppt_record(0x0FA0, text.encode("utf-16-le"))  # TextCharsAtom


def test_ppt_text_kept_in_a_slide_drawing_is_read_and_master_titles_left_out(read) -> None:  # type: ignore[no-untyped-def]
    persist = ppt_record(0x03F3, bytes(20))  # SlidePersistAtom
    masters = ppt_record(0x0FF0, persist + _ppt_chars("Tema do Office"), instance=1, container=True)
    slides = ppt_record(0x0FF0, persist, instance=0, container=True)
    document_records = ppt_record(0x03E8, masters + slides, container=True)
    shape = ppt_record(
        0xF004, _ppt_chars("Cronograma de obras"), container=True
    )  # OfficeArtSpContainer
    drawing = ppt_record(0x040C, ppt_record(0xF002, shape, container=True), container=True)
    slide = ppt_record(0x03EE, drawing, container=True)
    data = compound_file(
        {"Current User": bytes(20), "PowerPoint Document": document_records + slide}
    )
    document = read(data, "apresentacao.ppt")
    assert document.parsed_by == ("office.ppt_records",)
    assert document.text == "Cronograma de obras"


def test_catdoc_reads_word6_when_antiword_cannot(read) -> None:  # type: ignore[no-untyped-def]
    require_binary("antiword", "antiword")
    require_binary("catdoc", "catdoc")
    path = Path(corpus_dir(__file__)) / "office/testWORD6.doc"
    document = read(path.read_bytes(), path.name)
    assert document.parsed_by == ("office.catdoc",)
    assert any("office.antiword" in w.message for w in document.report.warnings)
    assert "The quick brown fox jumps over the lazy dog" in document.text


def test_binary_engines_say_how_to_install_what_is_missing() -> None:
    engine = AntiwordParser()
    engine.binary = "antiword-not-installed-here"
    ok, reason = engine.available()
    assert not ok
    assert reason == "antiword-not-installed-here not found: apt-get install antiword"


def test_libreoffice_engine_is_unavailable_without_soffice() -> None:
    engine = LibreOfficeParser()
    engine.binary = "soffice-not-installed-here"
    ok, reason = engine.available()
    assert not ok
    assert "soffice not found" in reason


def test_doc_headers_and_footers_frame_antiword_body(read) -> None:  # type: ignore[no-untyped-def]
    require_binary("antiword", "antiword")
    path = Path(corpus_dir(__file__)) / "office/testWORD_various.doc"
    document = read(path.read_bytes(), path.name)
    lines = document.text.splitlines()
    assert lines[0] == "This is the header text."
    assert lines[-1] == "This is the footer text."
    left_out = read(path.read_bytes(), path.name, office={"headers_footers": False})
    assert "This is the header text." not in left_out.text


def test_word6_has_no_header_story_of_the_97_layout() -> None:
    from goblin_office.wordbinary import header_footer_lines

    path = Path(corpus_dir(__file__)) / "office/testWORD6.doc"
    assert header_footer_lines(path.read_bytes()) == ([], [])


def _blanked_word97(path: Path, into: Path) -> bytes:
    """A copy of a Word 97 file whose every story character is a paragraph mark."""
    import struct

    import olefile

    from goblin_office.wordbinary import _stories

    stories = _stories(path.read_bytes())
    assert stories is not None
    word, _table, pieces = stories
    blank = bytearray(word)
    for piece in pieces:
        count = piece.end - piece.start
        if piece.compressed:
            blank[piece.offset : piece.offset + count] = b"\r" * count
        else:
            blank[piece.offset : piece.offset + 2 * count] = "\r".encode("utf-16-le") * count
    assert struct.unpack_from("<i", blank, 0x4C)[0] > 0
    into.write_bytes(path.read_bytes())
    with olefile.OleFileIO(str(into), write_mode=True) as ole:
        ole.write_stream("WordDocument", bytes(blank))
    return into.read_bytes()


def test_a_blank_word97_document_is_an_empty_page_not_a_failure(read, tmp_path) -> None:  # type: ignore[no-untyped-def]
    require_binary("antiword", "antiword")
    path = Path(corpus_dir(__file__)) / "office/fake-doc-emphasized-text.doc"
    data = _blanked_word97(path, tmp_path / "em-branco.doc")
    document = read(data, "em-branco.doc")
    assert document.parsed_by == ("office.antiword",)
    assert not document.report.errors
    assert [page.status for page in document.pages] == ["empty"]


def test_holds_no_text_tells_a_blank_word97_document_from_one_with_text(read, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from goblin_office.wordbinary import holds_no_text

    path = Path(corpus_dir(__file__)) / "office/fake-doc-emphasized-text.doc"
    assert not holds_no_text(path.read_bytes())
    assert holds_no_text(_blanked_word97(path, tmp_path / "em-branco.doc"))


def test_an_xls_sheet_xlrd_cannot_load_fails_it_as_damaged_for_the_next_engine() -> None:
    import struct

    import olefile

    import goblin_core
    from goblin_core.errors import CorruptDocument
    from goblin_core.source import Source

    path = Path(corpus_dir(__file__)) / "office/tika-testEXCEL.xls"
    with olefile.OleFileIO(path.read_bytes()) as ole:
        workbook = bytearray(ole.openstream("Workbook").read())
    # the last BOUNDSHEET record (0x0085) points at its sheet's BOF: send it into the middle
    # of another record, as a damaged file does
    at = max(i for i in range(len(workbook) - 4) if workbook[i:i + 2] == b"\x85\x00"
             and struct.unpack_from("<I", workbook, i + 4)[0] < len(workbook))
    struct.pack_into("<I", workbook, at + 4, struct.unpack_from("<I", workbook, at + 4)[0] + 3)
    registry = goblin_core.default_registry()
    xlrd_engine = registry.get("office.xlrd").engine
    source = Source.from_bytes(compound_file({"Workbook": bytes(workbook)}), "planilha.xls")
    # xlrd's own error (XLRDError) would leave the engine as a contract violation
    with pytest.raises(CorruptDocument, match=r"planilha\.xls: xlrd cannot read sheet '.+' "
                                              r"\(.*BOF"):
        xlrd_engine.open(source, registry.config())


@pytest.mark.parametrize("engine", ["office.antiword", "office.catdoc"])
def test_characters_beyond_the_bmp_survive_the_word_converters(read, engine) -> None:  # type: ignore[no-untyped-def]
    # both converters write such a character as a surrogate pair, each half its own
    # three-byte sequence; read as plain UTF-8 that was six replacement characters
    require_binary(engine.removeprefix("office."), engine.removeprefix("office."))
    path = Path(corpus_dir(__file__)) / "office/testWORD_various.doc"
    off = {"office.antiword": {"enabled": False}} if engine == "office.catdoc" else {}
    document = read(path.read_bytes(), path.name, engines=off)
    assert document.parsed_by == (engine,)
    assert "\N{GOTHIC LETTER GIBA}\N{GOTHIC LETTER URUS}" in document.text
    assert "\ufffd" not in document.text


def test_converter_text_joins_surrogate_pairs_and_replaces_what_is_not_utf8() -> None:
    from goblin_office.legacy import converter_text

    assert converter_text("Olá €".encode()) == "Olá €"
    pair = "\N{GOTHIC LETTER AHSA}".encode("utf-16-le")
    cesu = (chr(int.from_bytes(pair[:2], "little")) + chr(int.from_bytes(pair[2:], "little"))
            ).encode("utf-8", "surrogatepass")
    assert converter_text(b"a" + cesu + b"b") == "a\N{GOTHIC LETTER AHSA}b"
    assert converter_text(cesu + "😀".encode()) == "\N{GOTHIC LETTER AHSA}😀"
    assert converter_text(cesu[:3] + b"z") == "\ufffdz"  # a high half alone
    assert converter_text(cesu[3:] + cesu[:3]) == "\ufffd\ufffd"  # halves in the wrong order
    assert converter_text(b"\xff\xe2\x82\xac") == "\ufffd€"


def test_libreoffice_past_its_time_is_ended_with_the_process_it_handed_the_work_to(
    tmp_path: Path,
) -> None:
    # soffice passes the document to soffice.bin, which the launcher starts
    # and waits for: the stand-in does the same with a sleep
    pid_file = tmp_path / "worker.pid"
    launcher = tmp_path / "soffice"
    launcher.write_text(f"#!/bin/sh\nsleep 300 & echo $! > {pid_file}; wait\n")
    launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR)
    config = default_registry().config(office={"libreoffice": str(launcher)},
                                       limits={"timeout": 2})
    source = Source.from_bytes(b"{\\rtf1\\ansi Ol\\'e1 mundo\\par}", "carta.rtf")
    started = time.monotonic()
    with pytest.raises(ExtractionTimeout, match=r"LibreOffice ran longer than limits\.timeout"):
        LibreOfficeParser().open(source, config)
    assert time.monotonic() - started < 15
    converter = int(pid_file.read_text())
    try:
        psutil.Process(converter).wait(5)
    except psutil.NoSuchProcess:
        pass
    except psutil.TimeoutExpired:
        psutil.Process(converter).kill()
        pytest.fail("the process soffice started outlived the timeout")
