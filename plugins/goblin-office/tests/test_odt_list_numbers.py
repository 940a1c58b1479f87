"""OpenDocument list items read with the number or bullet their list style shows, counted
as LibreOffice counts them, in text and as ordered, nested lists in markdown."""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

import pytest

from goblin_core import Source, default_registry
from goblin_core.renderers import page_markdown
from goblin_core.testing.corpus import require_binary
from goblin_office import safexml
from goblin_office.libreoffice import LibreOfficeParser

_NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
    'xmlns:loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"'
)
LIST_STYLES = """
<text:list-style style:name="L1">
 <text:list-level-style-number text:level="1" style:num-format="1" style:num-suffix="."/>
 <text:list-level-style-number text:level="2" style:num-format="a" style:num-suffix=")"
   text:start-value="3"/>
 <text:list-level-style-number text:level="3" style:num-format="i" style:num-suffix="."
   text:display-levels="3"/>
 <text:list-level-style-number text:level="4" style:num-format="A" style:num-prefix="("
   style:num-suffix=")"/>
</text:list-style>
<text:list-style style:name="L2">
 <text:list-level-style-bullet text:level="1" text:bullet-char="&#xF0B7;">
  <style:text-properties style:font-name="Symbol"/></text:list-level-style-bullet>
 <text:list-level-style-bullet text:level="2" text:bullet-char="◦"/>
</text:list-style>
<text:list-style style:name="L3">
 <text:list-level-style-number text:level="1" style:num-format="I" style:num-suffix=")"
   text:start-value="4"/>
 <text:list-level-style-number text:level="2" loext:num-list-format="%1%-%2%"
   style:num-format="1" text:display-levels="2"/>
</text:list-style>
"""


def items(*texts: str, nested: str = "") -> str:
    """List items of one paragraph each, the last one holding ``nested``."""
    out = [f"<text:list-item><text:p>{text}</text:p></text:list-item>" for text in texts]
    if nested:
        out[-1] = out[-1].replace("</text:list-item>", f"{nested}</text:list-item>")
    return "".join(out)


def flat_odt(body: str, styles: str = LIST_STYLES) -> bytes:
    """A flat OpenDocument text (.fodt) of ``body`` with the list styles ``styles``."""
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document {_NAMESPACES} '
        'office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">'
        '<office:font-face-decls><style:font-face style:name="Symbol" svg:font-family="Symbol"/>'
        f"</office:font-face-decls><office:automatic-styles>{styles}</office:automatic-styles>"
        f"<office:body><office:text>{body}</office:text></office:body></office:document>"
    ).encode()


def packaged_odt(body: str) -> bytes:
    """The same document as an .odt package."""
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_NAMESPACES} '
        'office:version="1.3"><office:font-face-decls><style:font-face style:name="Symbol" '
        'svg:font-family="Symbol"/></office:font-face-decls>'
        f"<office:automatic-styles>{LIST_STYLES}</office:automatic-styles>"
        f"<office:body><office:text>{body}</office:text></office:body>"
        "</office:document-content>"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text",
                         compress_type=zipfile.ZIP_STORED)
        archive.writestr("content.xml", content)
        archive.writestr("META-INF/manifest.xml", (
            '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
            '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry '
            'manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.'
            'text"/><manifest:file-entry manifest:full-path="content.xml" '
            'manifest:media-type="text/xml"/></manifest:manifest>'))
    return buffer.getvalue()


OUTLINE = (
    '<text:list xml:id="primeira" text:style-name="L1">'
    + items("Um", nested="<text:list>" + items("Um c", "Um d", nested=(
        "<text:list>" + items("Um d i") + "</text:list>")) + "</text:list>")
    + items("Dois")
    + "</text:list>"
)


def lines(read: Any, data: bytes, name: str = "lista.fodt") -> list[str]:
    text: str = read(data, name).text
    return text.splitlines()


def test_list_items_read_with_the_labels_their_list_style_shows(read: Any) -> None:
    assert lines(read, flat_odt(OUTLINE)) == [
        "1. Um", "c) Um c", "d) Um d", "1.d.i. Um d i", "2. Dois",
    ]


def test_a_list_in_markdown_is_an_ordered_list_nested_as_the_document_nests_it(
        read: Any) -> None:
    page = read(flat_odt(OUTLINE), "lista.fodt").pages[0]
    assert page_markdown(page).split("\n\n") == [
        "1. Um", "   3) Um c", "   4) Um d", "      1. Um d i", "2. Dois",
    ]


def test_headers_items_without_a_paragraph_and_later_paragraphs_take_no_label(
        read: Any) -> None:
    body = (
        '<text:list text:style-name="L1">' + items("Um")
        + "<text:list-header><text:p>Cabecalho</text:p></text:list-header>"
        + "<text:list-item><text:list>" + items("Filho") + "</text:list></text:list-item>"
        + "<text:list-item><text:p>Dois</text:p><text:p>Continua</text:p></text:list-item>"
        + '<text:list-item text:start-value="10"><text:p>Dez</text:p></text:list-item>'
        + "<text:list-item><text:p/></text:list-item>" + items("Doze") + "</text:list>"
    )
    assert lines(read, flat_odt(body)) == [
        "1. Um", "Cabecalho", "c) Filho", "2. Dois", "Continua", "10. Dez", "12. Doze",
    ]


def test_a_list_continues_the_one_it_names_or_the_one_before_it(read: Any) -> None:
    body = (
        OUTLINE + "<text:p>Entre</text:p>"
        + '<text:list text:style-name="L1" text:continue-numbering="true">' + items("Tres")
        + "</text:list>"
        + '<text:list text:style-name="L1">' + items("Nova") + "</text:list>"
        + '<text:list text:style-name="L1" text:continue-list="primeira">' + items("Quatro")
        + "</text:list>"
    )
    assert lines(read, flat_odt(body))[5:] == ["Entre", "3. Tres", "1. Nova", "4. Quatro"]


def test_bullets_formats_and_patterns_of_list_styles(read: Any) -> None:
    body = (
        '<text:list text:style-name="L2">' + items("Simbolo", nested=(
            "<text:list>" + items("Branco") + "</text:list>")) + "</text:list>"
        + '<text:list text:style-name="L3">' + items("Quatro", nested=(
            "<text:list>" + items("Sub") + "</text:list>")) + items("Cinco") + "</text:list>"
        + '<text:list text:style-name="L1"><text:list-item><text:list><text:list-item>'
        + "<text:list>" + items("Fundo") + "</text:list></text:list-item></text:list>"
        + "</text:list-item></text:list>"
    )
    assert lines(read, flat_odt(body)) == [
        "• Simbolo", "◦ Branco", "IV) Quatro", "IV-1 Sub", "V) Cinco", "1.c.i. Fundo",
    ]


def test_a_label_the_document_keeps_is_taken_as_it_stands(read: Any) -> None:
    body = ('<text:list text:style-name="L1"><text:list-item><text:number>7.</text:number>'
            "<text:p>Sete</text:p></text:list-item></text:list>")
    assert lines(read, flat_odt(body)) == ["7. Sete"]


def test_typed_numbers_beside_a_numbered_list_are_not_numbered_again(read: Any) -> None:
    body = ("<text:p>1. Digitado</text:p><text:p>2. Digitado</text:p>"
            '<text:list text:style-name="L1">' + items("Numerado") + "</text:list>")
    assert lines(read, flat_odt(body)) == ["1. Digitado", "2. Digitado", "1. Numerado"]


def test_a_content_part_read_as_it_parses_is_numbered(
        read: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A large content.xml is read block by block, its list styles from the part of it
    before the body."""
    monkeypatch.setattr(safexml, "STREAM_XML_FROM", 0)
    assert lines(read, packaged_odt(OUTLINE), "grande.odt") == [
        "1. Um", "c) Um c", "d) Um d", "1.d.i. Um d i", "2. Dois",
    ]


def test_numbers_match_what_libreoffice_shows(read: Any) -> None:
    """LibreOffice converting the same document to text shows the same labels (a label the
    document keeps, which LibreOffice counts anew, is not in this one)."""
    require_binary("soffice", "libreoffice-writer-nogui")
    body = (
        OUTLINE + "<text:p>Entre</text:p>"
        + '<text:list text:style-name="L1" text:continue-numbering="true">' + items("Tres")
        + "</text:list>"
        + '<text:list text:style-name="L1" text:continue-list="primeira">' + items("Quatro")
        + "</text:list>"
        + '<text:list text:style-name="L1">' + items("Nova") + "</text:list>"
        + '<text:list text:style-name="L2">' + items("Simbolo", nested=(
            "<text:list>" + items("Branco") + "</text:list>")) + "</text:list>"
        + '<text:list text:style-name="L3">' + items("Quatro", nested=(
            "<text:list>" + items("Sub") + "</text:list>")) + items("Cinco") + "</text:list>"
        + '<text:list text:style-name="L1">' + items("Um")
        + "<text:list-header><text:p>Cabecalho</text:p></text:list-header>"
        + "<text:list-item><text:list>" + items("Filho") + "</text:list></text:list-item>"
        + "<text:list-item><text:p>Dois</text:p><text:p>Continua</text:p></text:list-item>"
        + '<text:list-item text:start-value="10"><text:p>Dez</text:p></text:list-item>'
        + "</text:list>"
    )
    data = flat_odt(body)
    config = default_registry().config()
    converted = LibreOfficeParser().open(Source.from_bytes(data, display_name="lo.fodt"), config)
    shown = [re.sub(r"\s+", " ", line).strip()
             for page in converted.pages() for line in page.text.splitlines() if line.strip()]
    assert lines(read, data, "lo.fodt") == shown
