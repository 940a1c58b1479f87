"""XML, Markdown, calendar and HTML files of millions of small pieces: read in memory near
the file's size, with the same text a small file of the same shape gives."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bounds import bounded

from goblin_core import default_registry, extract
from goblin_core.engines import TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office import xmltext
from goblin_office.safexml import UnsafeXML
from goblin_office.xmltext import XMLParser

_GROWTH = """
import json, resource, sys
from goblin_core import default_registry, extract
from goblin_core.engines import TextDocument
from goblin_core.source import Source
extract(b"<a>warm</a>", name="warm.xml", ocr="never")
extract(b"# warm", name="warm.md", ocr="never")
extract(b"BEGIN:VCALENDAR\\nEND:VCALENDAR\\n", name="warm.ics", ocr="never")
extract(b"<p>warm</p>", name="warm.html", ocr="never")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
document = extract(sys.argv[1], ocr="never")
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps({"mib": grown / 1024, "chars": len(document.text),
                  "blocks": [len(page.blocks) for page in document.pages]}))
"""


def _grown(path: Path) -> dict[str, Any]:
    """Extract ``path`` in a fresh interpreter: how far its peak RSS grew, and what it read."""
    done = subprocess.run([sys.executable, "-c", _GROWTH, str(path)], capture_output=True,
                          text=True, timeout=180, check=True,
                          env={**os.environ, "RUST_BACKTRACE": "0"})
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_xml_of_millions_of_small_elements_is_not_held_as_a_tree(tmp_path: Path) -> None:
    # 12 MB: as a tree, about 400 MB
    path = tmp_path / "export.xml"
    path.write_bytes(b"<records>" + b"<r>x</r>" * 1_500_000 + b"</records>")
    found = _grown(path)
    assert found["chars"] == 2 * 1_500_000 - 1
    assert found["mib"] < 200, found


def test_a_large_damaged_feed_is_read_leniently_near_its_size(tmp_path: Path) -> None:
    # 27 MB of items with a stray "&" each, cut short: escaping them in one substitution
    # held a fragment per match, and the reading grew by 420 MB
    path = tmp_path / "feed.xml"
    path.write_bytes(b"<records>" + b"<r>item & more</r>" * 1_500_000)
    found = _grown(path)
    assert found["chars"] == 1_500_000 * len("item & more\n") - 1
    assert found["mib"] < 250, found


def test_markdown_of_millions_of_short_lines_is_read_near_its_size(tmp_path: Path) -> None:
    # a block per line, and a list of the lines, took 75 times the file
    path = tmp_path / "lines.md"
    path.write_bytes(b"# Title\n\n" + b"x\n" * 4_000_000)
    found = _grown(path)
    assert found["chars"] == len("# Title\n\n") + 2 * 4_000_000
    assert found["blocks"] == [2]  # the heading, and one paragraph of four million lines
    assert found["mib"] < 200, found


MIXED = (b'<?xml version="1.0"?>\n<doc xmlns="urn:x">Intro <b>bold <i>deep</i> after deep'
         b'</b> after bold<!-- a comment --><p>second <?pi x?>para</p>\n  <empty/>tail of empty'
         b'<p>last</p></doc>')


@pytest.fixture(params=["tree", "streamed"])
def xml_reading(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Read XML as a tree (small files) or as it parses (large files: forced from 0 bytes)."""
    if request.param == "streamed":
        monkeypatch.setattr(xmltext, "STREAM_XML_FROM", 0)
    return str(request.param)


def _read_xml(data: bytes) -> TextDocument:
    return XMLParser().open(Source.from_bytes(data, "some.xml"), default_registry().config())


def test_xml_text_comes_in_document_order_either_way(xml_reading: str) -> None:
    document = _read_xml(MIXED)
    # <doc> holds text beside its children, so its pieces join as the file writes them:
    # a space where it has one, nothing where a text touches the next element (its text
    # value reads "after boldsecond" too); the line break before <empty/> starts a line
    assert next(document.pages()).text.splitlines() == [
        "Intro bold deep after deep after boldsecond para", "tail of emptylast"]
    assert document.metadata["root"] == "doc"


def test_xml_entities_become_their_text_either_way(xml_reading: str) -> None:
    data = (b'<!DOCTYPE d SYSTEM "d.dtd" [<!ENTITY who "the <b>goblin</b> team">'
            b'<!ENTITY by "by &who;"><!ENTITY ext SYSTEM "chapter.xml">]>'
            b"<d><p>Caf&eacute;&nbsp;menu, &by;&ext;.</p><p>&unknown;end</p></d>")
    document = _read_xml(data)
    assert next(document.pages()).text.splitlines() == [
        "Caf\u00e9 menu, by the goblin team.", "end"]
    assert document.warnings == [
        ("EntitiesLeftOut", "entity references left out: &ext;, &unknown; (external entities "
                            "and DTDs are never read)")]


def test_a_long_run_of_entities_is_read_in_linear_time(xml_reading: str) -> None:
    """Each reference's text written into the run it joins one at a time was quadratic:
    40,000 took 3 s, and this file would have taken minutes."""
    data = b"<d><p>" + b"&nbsp;x" * 300_000 + b"<b>&eacute;</b>&eacute;</p></d>"
    with bounded(seconds=20, megabytes=400):
        document = _read_xml(data)
    text = next(document.pages()).text
    assert text.count("x") == 300_000
    assert text.endswith("x\u00e9\u00e9")  # mixed content: the pieces touch, as written


_LAUGHS = (b'<!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">'
           + b"".join(b'<!ENTITY %c "%s">' % (98 + i, b"&%c;" % (97 + i) * 10) for i in range(9))
           + b"]><d>&j;</d>")


@pytest.mark.parametrize(("data", "error", "message"), [
    (_LAUGHS, UnsafeXML, "billion-laughs"),
    (b"<a>" * 300 + b"</a>" * 300, UnsafeXML, "deeper than limits.max_xml_depth"),
    (b"   ", CorruptDocument, "not well formed"),
    (b"<<<>>>", CorruptDocument, "not well formed"),
], ids=["billion-laughs", "too-deep", "no-root", "no-element"])
def test_bad_xml_is_refused_alike_either_way(xml_reading: str, data: bytes,
                                             error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        _read_xml(data)


@pytest.mark.parametrize(("data", "lines"), [
    (b"<doc><title>Report</title><p>first paragraph</p><p>cut off he", [
        "Report", "first paragraph", "cut off he"]),
    (b"<rss><channel><title>Tom & Jerry</title><item>AT&T news</item><item>on</item>"
     b"</channel></rss>", ["Tom & Jerry", "AT&T news", "on"]),
    (b"<a>" * 40 + b"deep text" + b"</a>" * 39, ["deep text"]),
], ids=["cut-short", "stray-markup", "one-end-tag-missing"])
def test_xml_that_is_not_well_formed_keeps_its_text_with_a_warning(
    xml_reading: str, data: bytes, lines: list[str],
) -> None:
    document = _read_xml(data)
    assert next(document.pages()).text.splitlines() == lines
    [(kind, message)] = document.warnings
    assert kind == "CorruptDocument"
    assert message.startswith("XML is not well formed (")
    assert message.endswith("read leniently, so text after the damage may be missing")
    assert document.metadata["recovered"] is True


def test_a_feed_without_an_xml_declaration_is_read_as_xml_and_kept_when_damaged() -> None:
    feed = (b"<rss version='2.0'><channel><title>Goblin news</title><item><title>First &amp; "
            b"best</title></item><item><title>Tom & Jerry</title></item></channel></rss>\n")
    document = extract(feed, name="feed.rss", ocr="never")
    assert (document.mime, document.status) == ("application/xml", "clean")
    assert document.text == "Goblin news\nFirst & best\nTom & Jerry"
    assert [w.kind for w in document.report.warnings] == ["CorruptDocument"]


def test_the_lenient_reading_keeps_the_depth_limit(xml_reading: str) -> None:
    with pytest.raises(UnsafeXML, match=r"deeper than limits\.max_xml_depth"):
        _read_xml(b"<a>" * 300 + b"cut")


def test_markdown_paragraph_lines_are_one_block() -> None:
    text = ("# Título\n\nfirst line of a paragraph\nsecond line\n\n- an item\n  its second line\n"
            "- another item\n## Sub\nplain after a heading\n")
    blocks = extract(text.encode(), name="notes.md", ocr="never").pages[0].blocks
    assert [(b.kind, b.text, b.level) for b in blocks] == [
        ("heading", "Título", 1),
        ("paragraph", "first line of a paragraph\nsecond line", 0),
        ("list_item", "an item\nits second line", 0),
        ("list_item", "another item", 0),
        ("heading", "Sub", 2),
        ("paragraph", "plain after a heading", 0),
    ]


def test_a_calendar_of_millions_of_properties_is_read_near_its_size(tmp_path: Path) -> None:
    # a list of the unfolded lines, and a block per property, took sixty times the file
    path = tmp_path / "feed.ics"
    path.write_bytes(b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n" + b"COMMENT:ok\r\n" * 2_000_000
                     + b"END:VEVENT\r\nEND:VCALENDAR\r\n")
    found = _grown(path)
    assert found["chars"] == len("VEVENT\n") + len("COMMENT: ok\n") * 2_000_000 - 1
    assert found["blocks"] == [2]  # the event's heading, and its properties
    assert found["mib"] < 200, found


def test_each_calendar_component_is_a_heading_and_a_paragraph_of_its_properties() -> None:
    data = (b"BEGIN:VCALENDAR\nX-WR-CALNAME:Agenda\nBEGIN:VEVENT\nSUMMARY:Reuni\xc3\xa3o\n"
            b"DTSTART:20261201T100000Z\nEND:VEVENT\nBEGIN:VEVENT\nSUMMARY:Almo\xc3\xa7o\n"
            b"  de equipe\nEND:VEVENT\nEND:VCALENDAR\n")
    page = extract(data, name="agenda.ics", ocr="never").pages[0]
    assert [(b.kind, b.text) for b in page.blocks] == [
        ("paragraph", "X-WR-CALNAME: Agenda"),
        ("heading", "VEVENT"),
        ("paragraph", "SUMMARY: Reunião\nDTSTART: 20261201T100000Z"),
        ("heading", "VEVENT"),
        ("paragraph", "SUMMARY: Almoço de equipe"),
    ]
    assert page.text == "\n".join(b.text for b in page.blocks)


def test_html_of_millions_of_paragraphs_is_read_near_its_size(tmp_path: Path) -> None:
    # past MAX_TREE_TAGS the page is read flat; a list of the pieces between its tags, and
    # a dictionary in each paragraph's Block, took twenty-five times the page
    path = tmp_path / "dump.html"
    path.write_bytes(b"<html><body>" + b"<p>x &amp; y</p>" * 1_000_000 + b"</body></html>")
    found = _grown(path)
    assert found["chars"] == len("x & y\n") * 1_000_000 - 1
    assert found["blocks"] == [1_000_000]
    assert found["mib"] < 250, found
