"""Tagged PDFs built here: the structure tree read behind the coverage gate."""

from __future__ import annotations

import io

import pikepdf
import pypdfium2 as pdfium
import pytest
from pikepdf import Array, Dictionary, Name, String

from goblin_pdf.layout import LayoutSettings, read_page_layout

_TAGGED_CONTENT = [
    ("H1", 18, 50, 780, "Annual Harbour Report"),
    ("P", 11, 50, 750, "The harbour was busy all year and the new quay opened in May."),
    ("LBody", 11, 60, 730, "Dredging finished early"),
    ("LBody", 11, 60, 715, "Two cranes were replaced"),
    ("TH", 11, 50, 690, "Month"),
    ("TH", 11, 150, 690, "Ships"),
    ("TD", 11, 50, 675, "May"),
    ("TD", 11, 150, 675, "42"),
    ("P", 11, 50, 650, "Details are on the port authority site."),
]


def _text(size: int, x: int, y: int, text: str) -> str:
    return f"BT /F1 {size} Tf {x} {y} Td ({text}) Tj ET"


def tagged_pdf() -> bytes:
    """Page 1 fully tagged (heading, paragraph, list, table, figure with alt text, link,
    a running footer as an artifact); page 2 bare spans the tree barely reaches."""
    pdf = pikepdf.new()
    font = pdf.make_indirect(Dictionary(Type=Name.Font, Subtype=Name.Type1,
                                        BaseFont=Name.Helvetica))
    root = pdf.make_indirect(Dictionary(Type=Name.StructTreeRoot))
    document = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Document, P=root))
    root.K = Array([document])
    pages = [pdf.add_blank_page(page_size=(595, 842)) for _ in range(2)]
    for page in pages:
        page.Resources = Dictionary(Font=Dictionary(F1=font))
    kids: list[pikepdf.Object] = []
    parents: list[pikepdf.Object] = []

    def element(kind: str, parent: pikepdf.Object, page: pikepdf.Page, mcids: list[int],
                **extra: object) -> pikepdf.Object:
        elem = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name("/" + kind), P=parent,
                                            Pg=page.obj, K=Array(mcids), **extra))
        for _ in mcids:
            parents.append(elem)
        return elem

    page = pages[0]
    content = []
    heading = element("H1", document, page, [0])
    paragraph = element("P", document, page, [1])
    lst = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.L, P=document))
    items = []
    for mcid in (2, 3):
        item = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.LI, P=lst))
        item.K = Array([element("LBody", item, page, [mcid])])
        items.append(item)
    lst.K = Array(items)
    table = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Table, P=document))
    rows = []
    for cells in ((4, 5), (6, 7)):
        row = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.TR, P=table))
        kind = "TH" if cells[0] == 4 else "TD"
        row.K = Array([element(kind, row, page, [c]) for c in cells])
        rows.append(row)
    table.K = Array(rows)
    figure = element("Figure", document, page, [9], Alt=String("A map of the harbour"))
    link_paragraph = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.P, P=document))
    link_paragraph.K = Array([element("Link", link_paragraph, page, [8])])
    kids += [heading, paragraph, lst, table, link_paragraph, figure]
    for mcid, (kind, size, x, y, text) in enumerate(_TAGGED_CONTENT):
        content.append(f"/{kind} <</MCID {mcid}>> BDC {_text(size, x, y, text)} EMC")
    content.append("/Figure <</MCID 9>> BDC 50 500 200 100 re f EMC")
    content.append(f"/Artifact BMC {_text(9, 280, 30, 'Page 1 of 2')} EMC")
    page.Contents = pdf.make_stream("\n".join(content).encode("latin-1"))
    page.obj.StructParents = 0
    first_page_parents = list(parents)

    parents.clear()
    bare = pages[1]
    lines = [f"/Span BMC {_text(11, 50, 780 - 15 * i, f'Untagged line number {i} of the notes')}"
             " EMC" for i in range(12)]
    lines.append(f"/P <</MCID 0>> BDC {_text(11, 50, 500, 'Tagged tail')} EMC")
    bare.Contents = pdf.make_stream("\n".join(lines).encode("latin-1"))
    bare.obj.StructParents = 1
    kids.append(element("P", document, bare, [0]))
    document.K = Array(kids)
    root.ParentTree = pdf.make_indirect(Dictionary(Nums=Array([
        0, Array(first_page_parents), 1, Array(parents)])))
    root.ParentTreeNextKey = 2
    pdf.Root.StructTreeRoot = root
    pdf.Root.MarkInfo = Dictionary(Marked=True)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


@pytest.fixture(scope="module")
def tagged() -> bytes:
    return tagged_pdf()


def _read(data: bytes, index: int, **settings: object):  # type: ignore[no-untyped-def]
    pdf = pdfium.PdfDocument(data)
    try:
        page = pdf[index]
        textpage = page.get_textpage()
        layout = read_page_layout(page, textpage, textpage.get_text_range(),
                                  LayoutSettings(**settings), tagged=bool(pdf.is_tagged()))  # type: ignore[arg-type]
        textpage.close()
        page.close()
        return layout
    finally:
        pdf.close()


def test_structure_tree_gives_headings_lists_tables_figures_and_links(tagged: bytes) -> None:
    layout = _read(tagged, 0)
    assert layout.tags.used, layout.tags.describe()
    assert layout.tags.coverage == pytest.approx(1.0)
    blocks = [(b.kind, b.text) for b in layout.blocks]
    assert blocks[0] == ("heading", "Annual Harbour Report")
    assert layout.blocks[0].level == 1
    assert ("list_item", "Dredging finished early") in blocks
    assert ("figure", "A map of the harbour") in blocks
    assert ("paragraph", "Details are on the port authority site.") in blocks
    table = next(text for kind, text in blocks if kind == "table")
    assert table.splitlines()[0] == "| Month | Ships |"
    assert table.splitlines()[2] == "| May | 42 |"
    assert blocks[-1] == ("footer", "Page 1 of 2")  # the artifact kept, marked as such
    assert layout.tags.describe().startswith("tags used")


def test_gate_falls_back_on_a_page_of_bare_spans(tagged: bytes) -> None:
    layout = _read(tagged, 1)
    assert not layout.tags.used
    assert "min_coverage" in layout.tags.reason
    assert "Untagged line number 11 of the notes" in layout.text
    assert layout.blocks and all(b.kind != "heading" for b in layout.blocks)


def test_tags_mode_follows_the_tree_even_below_the_gate(tagged: bytes) -> None:
    layout = _read(tagged, 1, marked_content="tags")
    assert layout.tags.used
    assert [b.text for b in layout.blocks if b.kind == "paragraph"] == ["Tagged tail"]
    assert any("Untagged line number 0" in b.text for b in layout.blocks
               if b.kind == "artifact")


def test_none_mode_ignores_the_tree(tagged: bytes) -> None:
    layout = _read(tagged, 0, marked_content="none")
    assert not layout.tags.used and layout.tags.reason == "marked_content = none"
