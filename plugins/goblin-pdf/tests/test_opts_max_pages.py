"""pdf.max_pages says in the report that it left pages unread, as goblin.max_pages does."""

from __future__ import annotations

from pdf_builders import reportlab_pdf

from goblin_core import extract
from goblin_core.model import Document

FIVE_PAGES = reportlab_pdf(("A page of the annual report.",), pages=5)


def _cuts(document: Document) -> list[str]:
    return [entry.message for entry in document.report.warnings
            if entry.kind == "PdfMaxPages"]


def test_pdf_max_pages_reports_the_pages_it_left_unread() -> None:
    document = extract(FIVE_PAGES, name="annual.pdf", ocr="never", pdf={"max_pages": 3})
    assert [page.number for page in document.pages] == [1, 2, 3]
    assert _cuts(document) == ["stopped after 3 pages (pdf.max_pages)"]


def test_the_pypdf_parser_reports_it_too() -> None:
    document = extract(FIVE_PAGES, name="annual.pdf", ocr="never", pdf={"max_pages": 2},
                       engines={"pdf.pypdfium2": {"enabled": False}})
    assert document.parsed_by == ("pdf.pypdf",)
    assert [page.number for page in document.pages] == [1, 2]
    assert _cuts(document) == ["stopped after 2 pages (pdf.max_pages)"]


def test_no_word_when_nothing_is_left_unread() -> None:
    for options in ({"max_pages": 5}, {"max_pages": 9}, {}):
        assert not _cuts(extract(FIVE_PAGES, name="annual.pdf", ocr="never", pdf=options))
    # the range asks for two pages, and max_pages lets both through
    ranged = extract(FIVE_PAGES, name="annual.pdf", ocr="never", page_range="2-3",
                     pdf={"max_pages": 2})
    assert [page.number for page in ranged.pages] == [2, 3] and not _cuts(ranged)


def test_the_core_max_pages_stopping_first_is_reported_once_by_the_core() -> None:
    document = extract(FIVE_PAGES, name="annual.pdf", ocr="never", max_pages=1,
                       pdf={"max_pages": 3})
    assert [page.number for page in document.pages] == [1]
    assert not _cuts(document)
    assert [entry.kind for entry in document.report.warnings] == ["MaxPages"]


def _with_outline(data: bytes) -> bytes:
    """``data`` with a bookmark to its first page."""
    import io

    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.add_outline_item(title="Resumo executivo", page_number=0)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_the_outline_follows_the_last_page_pdf_max_pages_reads() -> None:
    """The document's own text went after the file's last page: a cut by pdf.max_pages,
    which asks for fewer pages, lost it from the text."""
    data = _with_outline(FIVE_PAGES)
    for engines in ({}, {"pdf.pypdfium2": {"enabled": False}}):
        document = extract(data, name="annual.pdf", ocr="never", pdf={"max_pages": 2},
                           engines=engines)
        assert [page.number for page in document.pages] == [1, 2]
        assert document.text.count("Resumo executivo") == 1, engines
        assert "Resumo executivo" in document.pages[-1].text
        whole = extract(data, name="annual.pdf", ocr="never", engines=engines)
        assert "Resumo executivo" in whole.pages[-1].text
        assert whole.text.count("Resumo executivo") == 1


def test_a_range_short_of_the_end_leaves_the_outline_to_the_range_that_has_it() -> None:
    data = _with_outline(FIVE_PAGES)
    first = extract(data, name="annual.pdf", ocr="never", page_range="1-3")
    last = extract(data, name="annual.pdf", ocr="never", page_range="4-5", pdf={"max_pages": 1})
    assert "Resumo executivo" not in first.text
    assert [page.number for page in last.pages] == [4]
    assert "Resumo executivo" in last.pages[-1].text
