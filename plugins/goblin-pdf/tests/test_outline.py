"""The outline is read whole however deep it goes, a cycle ends it, and a damaged title
costs only itself."""

from __future__ import annotations

import io

import pikepdf
from pdf_builders import reportlab_pdf
from pikepdf import Dictionary

from goblin_core import extract


def _chained_outline(depth: int, cycle: bool = False,
                     titles: dict[int, pikepdf.String] | None = None) -> bytes:
    """A one-page PDF whose outline is a chain: each bookmark the only child of the last;
    ``cycle`` makes the deepest one's child the first again."""
    pdf = pikepdf.open(io.BytesIO(reportlab_pdf(("A page with a long outline",))))
    root = pdf.make_indirect(Dictionary(Type=pikepdf.Name.Outlines))
    parent = root
    items = []
    for level in range(depth):
        title = (titles or {}).get(level, pikepdf.String(f"Level {level}"))
        item = pdf.make_indirect(Dictionary(Title=title, Parent=parent,
                                            Dest=[pdf.pages[0].obj, pikepdf.Name.Fit]))
        parent.First = parent.Last = item
        parent.Count = 1
        items.append(item)
        parent = item
    if cycle:
        parent.First = parent.Last = items[0]
    pdf.Root.Outlines = root
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_an_outline_nine_thousand_deep_with_a_cycle_is_read_whole_once() -> None:
    document = extract(_chained_outline(9000, cycle=True), name="a.pdf", ocr="never")
    outline = document.raw_metadata["outline"]
    assert [entry["title"] for entry in outline] == [f"Level {n}" for n in range(9000)]
    assert outline[-1] == {"level": 8999, "title": "Level 8999", "page": 1}
    lines = document.pages[-1].text.split("\n")
    assert lines[-1].strip() == "Level 8999" and len(lines[-1]) < 60  # indentation capped


def test_a_damaged_title_costs_only_itself() -> None:
    damaged = pikepdf.String(b"\xfe\xff\xd8\x00\x00B\x00a\x00d")  # a lone high surrogate
    document = extract(_chained_outline(3, titles={1: damaged}), name="a.pdf", ocr="never")
    titles = [entry["title"] for entry in document.raw_metadata["outline"]]
    assert titles[0] == "Level 0" and titles[1].endswith("Bad") and titles[2] == "Level 2"
