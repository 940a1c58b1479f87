"""GoblinTools' PDF tables and StructuredExtractor through goblin's table engines."""

from __future__ import annotations

from pathlib import Path

from goblin_core.compat import (
    StructuredDocument,
    StructuredExtractor,
    TableBlock,
    TextExtractor,
    extract_pdf_tables,
)
from goblin_core.testing.corpus import corpus_dir

CORPUS = corpus_dir(__file__)
TABLE_PDF = str(CORPUS / "pdf/qd-fake_table.pdf")


def test_extract_pdf_tables_gives_pages_indexes_and_rows() -> None:
    tables = extract_pdf_tables(TABLE_PDF)
    assert [(t["page"], t["index"]) for t in tables] == [(1, 0)]
    assert tables[0]["rows"][0] == ["This is a table.", "After running tabula on this table."]
    assert TextExtractor().extract_tables_from_pdf(TABLE_PDF) == tables


def test_tables_are_embedded_in_text_only_when_asked() -> None:
    plain = TextExtractor().extract_from_file(TABLE_PDF, display_path="t.pdf")
    assert "<!-- table" not in plain
    text = TextExtractor(extract_tables=True).extract_from_file(TABLE_PDF, display_path="t.pdf")
    marker = text.index("<!-- table page=1 index=0 -->")
    assert text[marker:].splitlines()[1] == (
        "| This is a table. | After running tabula on this table. |"
    )


def test_a_missing_pdf_gives_no_tables(tmp_path: Path) -> None:
    assert extract_pdf_tables(str(tmp_path / "none.pdf")) == []


def test_structured_extractor_renders_full_md(tmp_path: Path) -> None:
    extractor = StructuredExtractor()
    doc = extractor.extract_from_file(TABLE_PDF)
    assert isinstance(doc, StructuredDocument)
    assert doc.tables and isinstance(doc.tables[0], TableBlock)
    assert doc.tables[0].page == 1 and doc.tables[0].source == "pdf"
    full = extractor.to_full_md(doc)
    assert "<table>" in full and "This is a table." in full
    assert extractor.write_full_md(doc, tmp_path / "out" / "full.md")
    assert (tmp_path / "out" / "full.md").read_text(encoding="utf-8") == full
    assert extractor.supports("planilha.XLSX") and not extractor.supports("nota.txt")
