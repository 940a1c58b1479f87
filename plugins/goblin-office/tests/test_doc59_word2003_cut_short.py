"""Word 2003 XML documents (``w:wordDocument``) cut short, as a download or a copy that
stopped leaves them.

Such a file failed whole: the strict parse refused it, and no other engine reads the
format. It is now read as far as libxml2 recovers it (the same hardening, entities
still refused), the text before the cut kept; a cut inside a text, a paragraph, a table
or the body (whose last section holds the headers and footers) is a ``Truncated``
warning, so the document counts as read in part (exit status 1). A file that lost only
its closing root tag loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from test_doc59_cli import assert_read_in_part

from goblin_core import CorruptDocument, Document
from samples import word2003

Read = Callable[..., Document]

_SECTION = (
    "<w:p><w:r><w:t>Primeiro par\u00e1grafo da ata.</w:t></w:r></w:p>"
    "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Alfa</w:t></w:r></w:p></w:tc>"
    "<w:tc><w:p><w:r><w:t>Beta</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
    "<w:p><w:r><w:t>Segundo par\u00e1grafo da ata.</w:t></w:r></w:p>"
    "<w:sectPr><w:ftr w:type=\"odd\"><w:p><w:r><w:t>Rodap\u00e9 da ata</w:t></w:r></w:p>"
    "</w:ftr></w:sectPr>"
)
_WHOLE = word2003(f"<wx:sect>{_SECTION}</wx:sect>")


def _through(marker: str) -> bytes:
    """The document up to the end of the first ``marker`` in it."""
    encoded = marker.encode()
    return _WHOLE[: _WHOLE.index(encoded) + len(encoded)]


def _truncated(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "Truncated"]


def test_the_whole_document_reads_clean(read: Read) -> None:
    document = read(_WHOLE, "ata.xml")
    assert "Segundo parágrafo da ata." in document.text
    assert "Rodapé da ata" in document.text
    assert not document.report.warnings


_LOST = {
    "inside-a-word": "Segundo par\u00e1gr",
    "inside-a-table-cell": "<w:t>Alfa</w:t>",
    "after-a-paragraph-start-tag": "<w:tbl>",
    "between-two-paragraphs": "Segundo par\u00e1grafo da ata.</w:t></w:r></w:p>",
}


@pytest.mark.parametrize("marker", _LOST.values(), ids=_LOST.keys())
def test_a_document_cut_inside_its_body_keeps_the_text_before_the_cut(read: Read,
                                                                      marker: str) -> None:
    document = read(_through(marker), "ata.xml")
    assert document.parsed_by == ("office.word2003",)
    assert "Primeiro parágrafo da ata." in document.text
    assert document.report.truncated
    (message,) = _truncated(document)
    assert "cut short" in message
    assert document.raw_metadata.get("recovered") is True


def test_a_document_cut_inside_a_table_keeps_the_cells_read(read: Read) -> None:
    document = read(_through("<w:t>Beta</w:t>"), "ata.xml")
    assert "Alfa\tBeta" in document.text
    assert document.report.truncated


def test_a_document_missing_only_its_closing_root_tag_loses_nothing(read: Read) -> None:
    document = read(_WHOLE[: _WHOLE.rindex(b"</w:wordDocument>")], "ata.xml")
    assert "Segundo parágrafo da ata." in document.text
    assert "Rodapé da ata" in document.text
    assert any("read leniently" in w.message for w in document.report.warnings)
    assert not document.report.truncated


def test_a_cut_document_still_refuses_declared_entities(read: Read) -> None:
    declared = _WHOLE.replace(
        b"<w:wordDocument", b'<!DOCTYPE w:wordDocument [<!ENTITY a "aaaa">]><w:wordDocument', 1)
    with pytest.raises(CorruptDocument, match="entit"):
        read(declared[: declared.index(b"Segundo")], "ata.xml")


def test_the_command_line_exits_1_for_a_cut_document(tmp_path: Path) -> None:
    assert_read_in_part(tmp_path / "ata.xml", _through("Segundo par\u00e1gr"),
                        "Primeiro parágrafo da ata.")
