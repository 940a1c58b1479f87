"""A PowerPoint 97-2003 deck read as its last save left it, with its speaker notes.

PowerPoint saves incrementally: a new copy of the document record, and of each slide
changed, is appended to the stream, and a persist directory names the live ones. The
slides were read in stream order, so a deck saved twice read each slide twice and a
moved slide's drawing was read with another slide's list text. Each slide is now the
record the persist directory names, in the order of the live slide list, and its notes
page (the notes list's, for its slide id) is read after it as ``Notes: ...``.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from packages import compound_file, ppt_record

from goblin_core import Document

Read = Callable[..., Document]


def _chars(text: str) -> bytes:
    return ppt_record(0x0FA0, text.encode("utf-16-le"))  # TextCharsAtom


def _persist(persist: int, slide_id: int) -> bytes:
    return ppt_record(0x03F3, struct.pack("<IIiII", persist, 0, 0, slide_id, 0))


def _drawing(text: str) -> bytes:
    shape = ppt_record(0xF004, _chars(text), container=True)
    return ppt_record(0x040C, ppt_record(0xF002, shape, container=True), container=True)


def _document(slides: bytes, notes: bytes = b"") -> bytes:
    body = ppt_record(0x0FF0, slides, instance=0, container=True)
    if notes:
        body += ppt_record(0x0FF0, notes, instance=2, container=True)
    return ppt_record(0x03E8, body, container=True)


def _saved_twice() -> bytes:
    """A deck whose first save listed one slide, and whose second listed two, the
    second one (moved to the front) with notes."""
    records: dict[int, bytes] = {
        # persist id -> record: 1 the live document, 3 and 4 the slides, 5 notes
        3: ppt_record(0x03EE, _drawing("Primeiro desenho"), container=True),
        4: ppt_record(0x03EE, _drawing("Segundo desenho"), container=True),
        5: ppt_record(0x03F0, ppt_record(0x03F1, struct.pack("<IHH", 257, 0, 0))
                      + _drawing("Nota do segundo") + _drawing("*"), container=True),
        1: _document(_persist(4, 257) + _chars("Segundo") + _persist(3, 256) + _chars("Primeiro"),
                     _persist(5, 0)),
    }
    stream = _document(_persist(3, 256) + _chars("Versão antiga"))  # the first save's
    offsets = {}
    for persist, record in records.items():
        offsets[persist] = len(stream)
        stream += record
    directory_at = len(stream)
    entry = struct.pack("<I", 1 | (5 << 20)) + struct.pack(
        "<5I", *(offsets.get(persist, 0) for persist in range(1, 6)))
    stream += ppt_record(0x1772, entry)
    edit_at = len(stream)
    # lastSlideIdRef, version, minor, major, offsetLastEdit, offsetPersistDirectory,
    # docPersistIdRef, persistIdSeed, lastView, unused
    stream += ppt_record(0x0FF5, struct.pack("<IHBBIIIIHH", 256, 0, 0, 3, 0, directory_at,
                                             1, 6, 1, 0))
    user = ppt_record(0x0FF6, struct.pack("<III", 20, 0xE391C05F, edit_at) + bytes(12))
    return compound_file({"Current User": user, "PowerPoint Document": stream})


def test_the_live_slides_are_read_once_in_their_order_with_their_notes(read: Read) -> None:
    document = read(_saved_twice(), "apresentacao.ppt")
    assert document.parsed_by == ("office.ppt_records",)
    assert [page.text for page in document.pages] == [
        "Segundo\nSegundo desenho\nNotes: Nota do segundo",
        "Primeiro\nPrimeiro desenho",
    ]


def test_notes_follow_the_option(read: Read) -> None:
    document = read(_saved_twice(), "apresentacao.ppt", office={"notes": False})
    assert "Nota do segundo" not in document.text
    assert document.pages[0].text == "Segundo\nSegundo desenho"


def test_slides_naming_one_large_record_read_it_once(read: Read) -> None:
    # 2,000 slides whose persist ids all name one drawing of 20,000 text atoms: read
    # for each, that would be 40 million atoms
    import time

    drawing = ppt_record(0x03EE, _drawing("x") * 20_000, container=True)
    slides = b"".join(_persist(2, 256 + n) for n in range(2_000))
    stream = drawing
    document_at = len(stream)
    stream += _document(slides)
    directory_at = len(stream)
    stream += ppt_record(0x1772, struct.pack("<I", 1 | (2 << 20))
                         + struct.pack("<2I", document_at, 0))
    edit_at = len(stream)
    stream += ppt_record(0x0FF5, struct.pack("<IHBBIIIIHH", 256, 0, 0, 3, 0, directory_at,
                                             1, 3, 1, 0))
    user = ppt_record(0x0FF6, struct.pack("<III", 20, 0xE391C05F, edit_at) + bytes(12))
    started = time.monotonic()
    document = read(compound_file({"Current User": user, "PowerPoint Document": stream}),
                    "hostil.ppt")
    assert time.monotonic() - started < 20
    assert len(document.pages) == 2_000
    assert document.pages[0].text == "x" and document.pages[1].text == ""


def _show_info(hidden: bool) -> bytes:
    """A SlideShowSlideInfoAtom: slide time, sound, effect, then the flags (fHidden 0x04)."""
    return ppt_record(0x03F9, struct.pack("<iIBBBB", 0, 0, 0, 0, 0x04 if hidden else 0, 0)
                      + bytes(4))


def _deck(slides: list[bytes]) -> bytes:
    """A deck of the given slide containers, listed in order, in one save."""
    stream = b""
    offsets = []
    for slide in slides:
        offsets.append(len(stream))
        stream += slide
    document_at = len(stream)
    persist_ids = range(2, 2 + len(slides))
    stream += _document(b"".join(_persist(p, 256 + n) for n, p in enumerate(persist_ids)))
    directory_at = len(stream)
    count = 1 + len(slides)
    stream += ppt_record(0x1772, struct.pack("<I", 1 | (count << 20))
                         + struct.pack(f"<{count}I", document_at, *offsets))
    edit_at = len(stream)
    stream += ppt_record(0x0FF5, struct.pack("<IHBBIIIIHH", 256, 0, 0, 3, 0, directory_at,
                                             1, count + 1, 1, 0))
    user = ppt_record(0x0FF6, struct.pack("<III", 20, 0xE391C05F, edit_at) + bytes(12))
    return compound_file({"Current User": user, "PowerPoint Document": stream})


def test_a_slide_hidden_from_the_show_is_read_and_named(read: Read) -> None:
    # as a pptx's: the deck holds the slide, so its text is read, counted as hidden text
    slides = [ppt_record(0x03EE, _show_info(hidden) + _drawing(text), container=True)
              for text, hidden in (("Visível", False), ("Escondido", True), ("Fim", False))]
    document = read(_deck(slides), "oculto.ppt")
    assert [page.text for page in document.pages] == ["Visível", "Escondido", "Fim"]
    assert document.raw_metadata["hidden_slides"] == [2]
    assert [page.hidden_chars for page in document.pages] == [0, len("Escondido"), 0]


def test_a_hidden_flag_inside_a_drawing_does_not_hide_the_slide(read: Read) -> None:
    # only the slide container's own SlideShowSlideInfoAtom counts
    inner = ppt_record(0x040C, _show_info(True) + _drawing("Texto"), container=True)
    document = read(_deck([ppt_record(0x03EE, inner, container=True)]), "desenho.ppt")
    assert document.text == "Texto"
    assert "hidden_slides" not in document.raw_metadata
    assert document.pages[0].hidden_chars == 0
