"""full.md puts each PDF table after the text of its own page, also when the pages
read start past the first (page_range)."""

from __future__ import annotations

from goblin_core.model import Document, Page, Table
from goblin_core.structured import structure_document, to_full_md

HEADER = ("ITEM", "DESCRIÇÃO", "QUANT", "VALOR")


def _page(number: int) -> Page:
    table = Table(rows=(HEADER, (str(number), f"Produto {number}", "10", "1.234,56"),
                        (str(number + 10), f"Outro {number}", "3", "45,00")), page=number)
    return Page(number=number, text=f"Texto da página {number}", engine="test",
                status="clean", confidence=1.0, tables=(table,))


def test_tables_of_a_page_range_follow_their_pages_text() -> None:
    doc = structure_document(Document(name="edital.pdf", mime="application/pdf",
                                      pages=(_page(3), _page(4))))

    full = to_full_md(doc)

    page3, table3 = full.index("Texto da página 3"), full.index("page=3 index=0")
    page4, table4 = full.index("Texto da página 4"), full.index("page=4 index=1")
    assert page3 < table3 < page4 < table4
    assert doc.prose == "Texto da página 3\n\nTexto da página 4"
