"""PowerPoint 97-2003 files cut short (a download or a copy that stopped).

A .ppt cut short failed whole: its directory, or the sectors of its streams, and the
persist directory the record reader follows (written at the end of the PowerPoint
Document stream) were lost, so olefile, the record reader and catppt refused it, though
its slides were still in the file. ``office.ppt_salvage`` now finds the PowerPoint
Document stream by the record it opens with and reads its records in stream order, as
far as the file holds them: the slides before the cut are kept and the document counts
as read in part (a ``Truncated`` warning, exit status 1). A .ppt cut short with no name,
or a name saying nothing, is still known by that record.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from packages import compound_file, ppt_record
from test_doc59_cli import assert_read_in_part

from goblin_core import CorruptDocument, Document
from goblin_core.config import Config
from goblin_core.source import Source
from goblin_core.testing.corpus import corpus_dir
from goblin_office.pptrecords import PptSalvageParser

Read = Callable[..., Document]


def _chars(text: str) -> bytes:
    return ppt_record(0x0FA0, text.encode("utf-16-le"))  # TextCharsAtom


def _deck(slides: int) -> bytes:
    """A deck of ``slides`` slides, each a drawing holding its title and a long text (so
    the stream spans many sectors), with the persist directory at the stream's end."""
    persist = ppt_record(0x03F3, bytes(20))  # SlidePersistAtom
    slide_list = ppt_record(0x0FF0, persist * slides, container=True)
    records = ppt_record(0x03E8, slide_list, container=True)  # Document
    for number in range(1, slides + 1):
        shape = ppt_record(0xF004, _chars(f"Slide número {number}")
                           + _chars(" ".join(["palavra"] * 60)), container=True)
        drawing = ppt_record(0x040C, ppt_record(0xF002, shape, container=True), container=True)
        records += ppt_record(0x03EE, drawing, container=True)  # Slide
    records += ppt_record(0x1772, bytes(64))  # the persist directory the last save wrote
    return compound_file({"Current User": bytes(20), "PowerPoint Document": records})


def _titles(document: Document) -> list[str]:
    return [page.text.splitlines()[0] for page in document.pages if page.text]


def test_a_deck_cut_short_keeps_the_slides_before_the_cut(read: Read) -> None:
    whole = _deck(12)
    document = read(whole[: len(whole) // 2], "aula.ppt")
    assert document.parsed_by == ("office.ppt_salvage",)
    titles = _titles(document)
    assert titles[:3] == ["Slide número 1", "Slide número 2", "Slide número 3"]
    assert 3 <= len(titles) < 12
    (message,) = [w.message for w in document.report.warnings if w.kind == "Truncated"]
    assert "cut short" in message


def test_the_whole_deck_is_left_to_the_record_reader(read: Read) -> None:
    whole = _deck(3)
    document = read(whole, "aula.ppt")
    assert document.parsed_by == ("office.ppt_records",)
    assert _titles(document) == ["Slide número 1", "Slide número 2", "Slide número 3"]
    with pytest.raises(CorruptDocument, match="nothing to salvage"):
        PptSalvageParser().open(Source.from_bytes(whole, "aula.ppt"), Config({}))


def test_a_powerpoint_file_that_lost_its_directory_is_read(read: Read) -> None:
    path = corpus_dir(__file__) / "office" / "fake-power-point.ppt"  # its directory comes last
    whole = path.read_bytes()
    document = read(whole[: len(whole) // 2], "apresentacao")
    assert document.mime == "application/vnd.ms-powerpoint"
    assert document.parsed_by == ("office.ppt_salvage",)
    assert "Adding a Bullet Slide" in document.text
    assert document.report.truncated


def test_the_command_line_exits_1_for_a_cut_deck(tmp_path: Path) -> None:
    whole = _deck(12)
    assert_read_in_part(tmp_path / "aula.ppt", whole[: len(whole) // 2], "Slide número 1")
