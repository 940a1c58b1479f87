"""A bookmark naming its page by number reads the same through both parsers.

The standard has a destination in the document name its page by reference, and one in
another file by number; some writers use the number in the document too. PDFium follows
it; pypdf gave such a bookmark no page.
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary, Name, String

from goblin_core import extract

ENGINES = {"pdf.pypdfium2": {}, "pdf.pypdf": {"engines": {"pdf.pypdfium2": {"enabled": False}}}}


def _numbered_bookmarks() -> bytes:
    pdf = helvetica_pages(*[f"BT /F1 12 Tf 72 700 Td (Body of page {n}) Tj ET" for n in (1, 2, 3)])
    bookmarks = [pdf.make_indirect(Dictionary(Title=String(title), Dest=destination))
                 for title, destination in (
                     ("By reference", Array([pdf.pages[1].obj, Name.Fit])),
                     ("By number", Array([2, Name.Fit])),
                     ("Past the last page", Array([7, Name.Fit])))]
    outline = pdf.make_indirect(Dictionary(Type=Name.Outlines, First=bookmarks[0],
                                           Last=bookmarks[-1]))
    for before, after in pairwise(bookmarks):
        before.Next, after.Prev = after, before
    for bookmark in bookmarks:
        bookmark.Parent = outline
    pdf.Root.Outlines = outline
    return saved(pdf)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_a_bookmark_naming_its_page_by_number_goes_to_that_page(engine: str) -> None:
    document = extract(_numbered_bookmarks(), name="numbered.pdf", ocr="never",
                       **ENGINES[engine])
    assert document.parsed_by == (engine,)
    assert [(entry["title"], entry["page"]) for entry in document.raw_metadata["outline"]] == [
        ("By reference", 2), ("By number", 3), ("Past the last page", None)]
