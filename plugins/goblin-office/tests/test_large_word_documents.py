"""Word and OpenDocument text documents whose body holds millions of small paragraphs: the
body is read as it parses, in memory near the part's size, with the text and blocks the tree
gives."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packages import R, W, docx, para, rewrite

import samples
from goblin_core import Document, extract
from goblin_core.errors import CorruptDocument, PasswordRequired, UnsafeArchive
from goblin_core.testing.corpus import corpus_dir
from goblin_office import safexml

_GROWTH = """
import json, resource, sys
from goblin_core import extract
import packages, samples
extract(packages.docx(packages.para("warm")), name="warm.docx", ocr="never")
data, name = samples.sample_odt()
extract(data, name=name, ocr="never")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
document = extract(sys.argv[1], ocr="never")
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps({"mib": grown / 1024, "blocks": len(document.pages[0].blocks),
                  "last": document.pages[0].blocks[-1].text}))
"""
_ODF_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_ODF_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
# (template package, body part, the part's opening and closing, one paragraph)
_SHAPES = {
    "docx": (lambda: docx(para("x")), "word/document.xml",
             f'<w:document xmlns:w="{W}"><w:body>', "</w:body></w:document>",
             b"<w:p><w:r><w:t>word%d</w:t></w:r></w:p>"),
    "odt": (lambda: samples.sample_odt()[0], "content.xml",
            f'<office:document-content xmlns:office="{_ODF_OFFICE}" xmlns:text="{_ODF_TEXT}">'
            "<office:body><office:text>",
            "</office:text></office:body></office:document-content>",
            b"<text:p>word%d</text:p>"),
}


@pytest.mark.parametrize("kind", sorted(_SHAPES))
def test_a_body_of_a_million_short_paragraphs_is_not_held_as_a_tree(
        tmp_path: Path, kind: str) -> None:
    # about 40 MB of XML in a 2.5 MB file: as one tree, 450 to 650 MB
    template_bytes, part_name, opening, closing, paragraph = _SHAPES[kind]
    path = tmp_path / f"long.{kind}"
    template = zipfile.ZipFile(io.BytesIO(template_bytes()))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for member in template.infolist():
            if member.filename != part_name:
                archive.writestr(member, template.read(member))
        with archive.open(part_name, "w", force_zip64=True) as part:
            part.write(opening.encode())
            for number in range(1_000_000):
                part.write(paragraph % number)
            part.write(closing.encode())
    done = subprocess.run([sys.executable, "-c", _GROWTH, str(path)], capture_output=True,
                          text=True, timeout=300, check=True,
                          cwd=Path(__file__).parent, env={**os.environ, "RUST_BACKTRACE": "0"})
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["blocks"] == 1_000_000
    assert found["last"] == "word999999"
    assert found["mib"] < 300, found


@pytest.fixture(params=["tree", "streamed"])
def body_reading(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Read the body as a tree (small parts) or as it parses (large parts: forced from 0)."""
    if request.param == "streamed":
        monkeypatch.setattr(safexml, "STREAM_XML_FROM", 0)
    return str(request.param)


_MIXED_BODY = (
    para("Heading text", "Heading1")
    + '<w:sdt><w:sdtContent>' + para("inside a content control") + "</w:sdtContent></w:sdt>"
    + "<w:tbl><w:tr><w:tc>" + para("cell one") + "</w:tc><w:tc>" + para("cell two")
    + "</w:tc></w:tr></w:tbl>"
    + '<w:p><w:r><w:t>before box</w:t></w:r><w:r><w:pict><w:txbxContent>'
    + para("in a text box") + "</w:txbxContent></w:pict></w:r></w:p>"
    + '<w:p><w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden run</w:t></w:r></w:p>'
    + para("last paragraph")
    + "<w:sectPr/>"
)
_STYLES = ('<w:styles><w:style w:type="paragraph" w:styleId="Heading1">'
           '<w:name w:val="heading 1"/></w:style></w:styles>')


def _blocks(document: Document) -> list[tuple[str, str, int]]:
    return [(b.kind, b.text, b.level) for b in document.pages[0].blocks]


def test_the_body_reads_alike_as_a_tree_and_as_it_parses(body_reading: str) -> None:
    document = extract(docx(_MIXED_BODY, {"styles.xml": _STYLES}), name="mixed.docx",
                       ocr="never")
    assert _blocks(document) == [
        ("heading", "Heading text", 1),
        ("paragraph", "inside a content control", 0),
        ("table", "cell one\tcell two", 0),
        ("paragraph", "before box", 0),
        ("paragraph", "in a text box", 0),
        ("paragraph", "hidden run", 0),
        ("paragraph", "last paragraph", 0),
    ]
    assert document.pages[0].hidden_chars == len("hidden run")


_ODT_BODY = (
    '<text:h text:outline-level="2">Heading text</text:h>'
    "<text:p>first<text:note><text:note-body><text:p>a footnote</text:p></text:note-body>"
    "</text:note> paragraph</text:p>"
    "<text:list><text:list-item><text:p>an item</text:p></text:list-item>"
    "<text:list-item><text:p>another item</text:p></text:list-item></text:list>"
    '<table:table table:name="T"><table:table-row><table:table-cell><text:p>cell one</text:p>'
    "</table:table-cell><table:table-cell><text:p>cell two</text:p></table:table-cell>"
    "</table:table-row></table:table>"
    "<text:section><text:p>inside a section</text:p></text:section>"
    "<text:p>last paragraph</text:p>"
)


def _odt(body: str) -> bytes:
    content = (
        f'<?xml version="1.0"?><office:document-content xmlns:office="{_ODF_OFFICE}" '
        f'xmlns:text="{_ODF_TEXT}" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0">'
        "<office:automatic-styles/><office:body><office:text>"
        f"{body}</office:text></office:body></office:document-content>"
    )
    return rewrite(samples.sample_odt()[0], {"content.xml": content.encode()})


def test_an_odt_body_reads_alike_as_a_tree_and_as_it_parses(body_reading: str) -> None:
    document = extract(_odt(_ODT_BODY), name="mixed.odt", ocr="never")
    assert _blocks(document) == [
        ("heading", "Heading text", 2),
        ("paragraph", "first paragraph", 0),
        ("list_item", "an item", 0),
        ("list_item", "another item", 0),
        ("table", "cell one\tcell two", 0),
        ("paragraph", "inside a section", 0),
        ("paragraph", "last paragraph", 0),
        ("paragraph", "a footnote", 0),
    ]


def test_an_odt_without_a_text_body_is_refused_either_way(body_reading: str) -> None:
    content = (f'<office:document-content xmlns:office="{_ODF_OFFICE}"><office:body>'
               "<office:drawing/></office:body></office:document-content>")
    data = rewrite(samples.sample_odt()[0], {"content.xml": content.encode()})
    with pytest.raises(CorruptDocument):
        extract(data, name="nobody.odt", ocr="never")


def test_every_corpus_word_and_odt_document_reads_alike_both_ways(
        monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted(p for p in (corpus_dir(__file__) / "office").iterdir()
                   if p.suffix.lower() in (".docx", ".docm", ".dotx", ".dotm", ".odt", ".ott"))
    assert any(p.suffix == ".odt" for p in files) and any(p.suffix == ".docx" for p in files)
    read = 0
    for path in files:
        try:
            as_tree = extract(path, ocr="never")
        except PasswordRequired:
            continue
        with monkeypatch.context() as patched:
            patched.setattr(safexml, "STREAM_XML_FROM", 0)
            streamed = extract(path, ocr="never")
        assert streamed.text == as_tree.text, path.name
        assert _blocks(streamed) == _blocks(as_tree), path.name
        read += 1
    assert read >= len(files) - 3


_DOCUMENT_XML = "word/document.xml"


@pytest.mark.parametrize(("body", "error", "message"), [
    (f'<!DOCTYPE d [<!ENTITY e "boom">]><w:document xmlns:w="{W}"><w:body><w:p><w:r><w:t>'
     "&e;</w:t></w:r></w:p></w:body></w:document>", UnsafeArchive, "declares entities"),
    (f'<w:document xmlns:w="{W}"><w:body>' + "<w:sdt>" * 300 + "</w:sdt>" * 300
     + "</w:body></w:document>", CorruptDocument, "deeper than limits.max_xml_depth"),
    (f'<w:document xmlns:w="{W}" xmlns:r="{R}"><w:body><w:p><w:r><w:t>cut off',
     CorruptDocument, "not well formed"),
], ids=["entities", "too-deep", "truncated"])
def test_a_bad_body_is_refused_alike_either_way(body_reading: str, body: str,
                                                error: type[Exception], message: str) -> None:
    data = rewrite(docx(para("x")), {_DOCUMENT_XML: body.encode()})
    with pytest.raises(error, match=message):
        extract(data, name="bad.docx", ocr="never")
