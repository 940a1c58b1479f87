"""Tracked deletions an OpenDocument text keeps in place, read as accepted.

A packaged .odt keeps a deleted passage apart, in ``text:tracked-changes``, and marks
its place with a ``text:change``; it read as accepted. A flat .fodt as LibreOffice saves
it keeps the deleted text in place instead, between a ``text:change-start`` and a
``text:change-end`` naming a deletion, and that text was read as the document's
("Inserido.Apagado.Final", where LibreOffice and the packaged file show
"Inserido.Final"). It is now left out, within a paragraph or across paragraphs and
tables; the passages an insertion marks the same way are kept.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from packages import docx, libreoffice_saved, para

from goblin_core import Document
from goblin_core.testing.corpus import require_binary
from samples import flat_odf

Read = Callable[..., Document]

_CHANGES = (
    '<text:tracked-changes text:track-changes="false">'
    '<text:changed-region xml:id="ct1" text:id="ct1"><text:insertion>'
    "<office:change-info><dc:creator>Ana</dc:creator></office:change-info>"
    "</text:insertion></text:changed-region>"
    '<text:changed-region xml:id="ct2" text:id="ct2"><text:deletion>'
    "<office:change-info><dc:creator>Ana</dc:creator></office:change-info>"
    "</text:deletion></text:changed-region>"
    "</text:tracked-changes>")


def _document(paragraphs: str) -> bytes:
    return flat_odf("text", _CHANGES + paragraphs).replace(
        b"<office:document ", b'<office:document xmlns:dc="http://purl.org/dc/elements/1.1/" ', 1)


def test_a_deletion_within_a_paragraph_is_left_out(read: Read) -> None:
    document = read(_document(
        '<text:p><text:change-start text:change-id="ct1"/>Inserido. '
        '<text:change-end text:change-id="ct1"/><text:change-start text:change-id="ct2"/>'
        'Apagado <text:span>em negrito</text:span><text:s text:c="3"/>'
        '<text:change-end text:change-id="ct2"/>Final do corpo.</text:p>'), "ata.fodt")
    assert document.text == "Inserido. Final do corpo."


def test_a_deletion_across_paragraphs_and_a_table_is_left_out(read: Read) -> None:
    document = read(_document(
        '<text:p>Começo mantido, <text:change-start text:change-id="ct2"/>fim apagado.</text:p>'
        "<text:p>Parágrafo inteiro apagado.</text:p>"
        "<table:table><table:table-row><table:table-cell><text:p>Célula apagada</text:p>"
        "</table:table-cell></table:table-row></table:table>"
        '<text:p>Também apagado <text:change-end text:change-id="ct2"/>e o resto fica.</text:p>'
        "<text:p>Último parágrafo.</text:p>"), "ata.fodt")
    text = document.text
    assert "apagad" not in text.lower()
    assert "Começo mantido," in text and "e o resto fica." in text
    assert text.splitlines()[-1] == "Último parágrafo."


def test_a_flat_document_libreoffice_saved_with_a_deletion_reads_as_accepted(
    read: Read, tmp_path: Path
) -> None:
    soffice = require_binary("soffice", "libreoffice")
    body = ('<w:p><w:ins w:id="5" w:author="Ana"><w:r><w:t xml:space="preserve">Inserido. '
            '</w:t></w:r></w:ins><w:del w:id="6" w:author="Ana"><w:r><w:delText>Apagado. '
            "</w:delText></w:r></w:del><w:r><w:t>Final do corpo.</w:t></w:r></w:p>"
            + para("Outro parágrafo."))
    source = tmp_path / "ata.docx"
    source.write_bytes(docx(body))
    flat = libreoffice_saved(soffice, source, "fodt")
    packaged = libreoffice_saved(soffice, source, "odt")
    assert b"Apagado" in flat  # kept in the file, as a tracked deletion
    expected = ["Inserido. Final do corpo.", "Outro parágrafo."]
    assert read(flat, "ata.fodt").text.splitlines() == expected
    assert read(packaged, "ata.odt").text.splitlines() == expected
