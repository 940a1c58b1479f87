"""The fallback parser and the recovery engines stay bounded on pages that would make
them parse or write far more than a real page: pypdf and pdfplumber get the page census
and a cap on the text of a page."""

from __future__ import annotations

import time
from typing import Any

import pikepdf
import pytest
from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary, Name

from goblin_core import extract
from goblin_core.config import Config
from goblin_core.deadline import document_deadline
from goblin_core.errors import FileTooLarge
from goblin_core.registry import default_registry
from goblin_core.source import Source
from goblin_core.testing.corpus import require_binary
from goblin_pdf import plumber_recovery
from goblin_pdf.plumber_recovery import PdfplumberRecovery

_HELVETICA = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica)
# pypdf alone: no PDFium, and no recovery engine to try what it leaves
_PYPDF_ONLY = {name: {"enabled": False} for name in (
    "pdf.pypdfium2", "pdf.pdfplumber", "pdf.poppler", "pdf.glyph_order", "pdf.byte_order")}


def _expanding_font(pdf: pikepdf.Pdf, characters: int) -> pikepdf.Object:
    """Helvetica with a ToUnicode map giving code 1 ``characters`` letters A."""
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            b"/CMapName /Expanding def /CMapType 2 def\n"
            b"1 begincodespacerange <00> <FF> endcodespacerange\n"
            b"1 beginbfchar <01> <" + b"0041" * characters + b"> endbfchar\n"
            b"endcmap CMapName currentdict /CMap defineresource pop end end\n")
    return pdf.make_indirect(Dictionary(Type=Name.Font, Subtype=Name.Type1,
                                        BaseFont=Name.Helvetica,
                                        ToUnicode=pdf.make_stream(cmap)))


def _three_pages(middle: bytes, fonts: Dictionary | None = None,
                 pdf: pikepdf.Pdf | None = None) -> pikepdf.Pdf:
    """Page 1 and 3 plain text; page 2 runs ``middle`` with ``fonts`` (F1 Helvetica)."""
    pdf = pdf if pdf is not None else pikepdf.new()
    for content in (b"BT /F1 24 Tf 72 720 Td (Before the bomb) Tj ET", middle,
                    b"BT /F1 24 Tf 72 720 Td (After the bomb) Tj ET"):
        pdf.pages.append(pikepdf.Page(Dictionary(
            Type=Name.Page, MediaBox=Array([0, 0, 612, 792]),
            Resources=Dictionary(Font=fonts or Dictionary(F1=_HELVETICA)),
            Contents=pdf.make_stream(content))))
    return pdf


def _expanding_pdf(lines: int, codes: int, characters: int = 256) -> bytes:
    """Page 2 shows ``lines`` lines of ``codes`` codes, each code ``characters`` letters."""
    pdf = pikepdf.new()
    fonts = Dictionary(F1=_HELVETICA, F2=_expanding_font(pdf, characters))
    middle = b"BT /F2 1 Tf 10 700 Td " + (b"(" + b"\x01" * codes + b") Tj 0 -2 Td ") * lines \
        + b"ET"
    return saved(_three_pages(middle, fonts, pdf))


def _pypdf(data: bytes, **options: Any) -> Any:
    return extract(data, name="bomb.pdf", ocr="never", engines=_PYPDF_ONLY, **options)


def test_pypdf_leaves_a_page_the_census_refuses_unread_and_reads_the_others() -> None:
    # 600,000 one-character strings: 4.2 MB, a content bomb by its operators; pypdf
    # took 9 s and 330 MB to give up on 1.5 million of them
    data = saved(_three_pages(b"BT /F1 1 Tf 10 10 Td " + b"(x) Tj " * 600_000 + b"ET"))
    started = time.monotonic()
    document = _pypdf(data)
    assert time.monotonic() - started < 5
    assert document.parsed_by[0] == "pdf.pypdf"
    assert "Before the bomb" in document.pages[0].text
    assert "After the bomb" in document.pages[2].text
    assert document.pages[1].status == "failed"
    assert any("content or form bomb" in (a.error or "") for a in document.pages[1].attempts)


def test_pypdf_cuts_a_page_whose_text_grows_past_the_output_limit() -> None:
    # 4,000 lines of 50 codes, each code 256 characters: 51 million characters from 40 kB
    data = _expanding_pdf(lines=4000, codes=50)
    started = time.monotonic()
    document = _pypdf(data, max_output_chars=2_000_000)
    assert time.monotonic() - started < 10
    assert 1_000_000 < len(document.pages[1].text) <= 2_000_000
    assert any(w.kind == "Truncated" and "page 2" in w.message and "max_output_chars"
               in w.message for w in document.report.warnings)


def test_pypdf_does_not_write_one_string_that_would_pass_the_output_limit() -> None:
    # one string of 20,000 codes: 5 million characters in one operator
    document = _pypdf(_expanding_pdf(lines=1, codes=20_000), max_output_chars=1_000_000)
    assert document.pages[1].status == "failed"
    assert any("limits.max_output_chars" in (a.error or "") for a in document.pages[1].attempts)
    assert "After the bomb" in document.pages[2].text


def _plumber(data: bytes, pages: list[int]) -> dict[int, str]:
    config: Config = default_registry().config(None)
    return PdfplumberRecovery().recover(Source.from_bytes(data, "dense.pdf"), pages, config)


def test_pdfplumber_stops_on_a_page_of_too_many_characters(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # 40,000 characters against a cap of 10,000: pdfplumber alone took 28 s and 920 MB on
    # a page of 400,000
    monkeypatch.setattr(plumber_recovery, "MAX_PAGE_CHARS", 10_000)
    data = saved(_three_pages(b"BT /F1 1 Tf 10 10 Td " + (b"(" + b"x" * 1000 + b") Tj ") * 40
                              + b"ET"))
    texts = _plumber(data, [1, 2, 3])
    assert sorted(texts) == [1, 3] and "After the bomb" in texts[3]
    with pytest.raises(FileTooLarge, match=r"page\(s\) 2 draw more than 10,000 characters"):
        _plumber(data, [2])


def test_pdfplumber_counts_the_characters_a_code_maps_to() -> None:
    # 2,000 codes of 256 characters each: half a million characters from 2 kB of content
    started = time.monotonic()
    with pytest.raises(FileTooLarge, match="draw more than"):
        _plumber(_expanding_pdf(lines=1, codes=2000), [2])
    assert time.monotonic() - started < 10


def test_pypdf_reads_only_the_pages_of_the_range_asked_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from goblin_pdf.pypdf_parser import PypdfDocument

    read: list[int] = []
    real = PypdfDocument._page

    def counted(self: PypdfDocument, index: int) -> Any:
        read.append(index + 1)
        return real(self, index)

    monkeypatch.setattr(PypdfDocument, "_page", counted)
    pdf = _three_pages(b"BT /F1 24 Tf 72 720 Td (Middle page) Tj ET")
    _three_pages(b"BT /F1 24 Tf 72 720 Td (Fifth page) Tj ET", pdf=pdf)  # pages 4 to 6
    document = _pypdf(saved(pdf), goblin={"page_range": "2-3"})
    # a worker given one range of a split document reads that range, not all before it
    assert read == [2, 3]
    assert [page.number for page in document.pages] == [2, 3]
    assert "Middle page" in document.text and "Before the bomb" not in document.text


@pytest.mark.parametrize("engine_name", ["pdf.poppler", "pdf.pdfplumber"])
def test_a_recovery_engine_reads_pages_only_while_the_document_has_time(
        engine_name: str, caplog: pytest.LogCaptureFixture) -> None:
    # one call reads every page asked for: without the check, a long document of slow
    # pages would run its whole length past limits.timeout
    if engine_name == "pdf.poppler":
        require_binary("pdftotext", "poppler-utils")
    data = saved(helvetica_pages(*(f"BT /F1 12 Tf 72 700 Td (Page {n} words) Tj ET"
                                   for n in range(1, 13))))
    registry = default_registry()
    engine = registry.get(engine_name).engine
    source = Source.from_bytes(data, "slow.pdf")
    with document_deadline(time.monotonic() + 60):
        texts = engine.recover(source, list(range(1, 13)), registry.config())
    assert sorted(texts) == list(range(1, 13))
    assert "Page 12 words" in texts[12]
    with caplog.at_level("WARNING"), document_deadline(time.monotonic() - 1):
        assert engine.recover(source, list(range(1, 13)), registry.config()) == {}
    assert "limits.timeout ran out" in caplog.text
    assert "page(s) 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more" in caplog.text


def _slow_for_pdfplumber() -> bytes:
    """Page 2 holds 1,000 lines of 80 characters: pdfminer makes an object of each glyph,
    about 1.7 s for the page where a page of prose takes a few hundredths."""
    line = b"(" + b"word " * 16 + b") Tj 0 -1 Td "
    return saved(_three_pages(b"BT /F1 1 Tf 10 780 Td " + line * 1000 + b"ET"))


def test_pdfplumber_gives_up_a_page_past_its_page_timeout_and_reads_the_rest(
        caplog: pytest.LogCaptureFixture) -> None:
    registry = default_registry()
    config = registry.config(pdf={"page_timeout": 0.2})
    source = Source.from_bytes(_slow_for_pdfplumber(), "slow.pdf")
    started = time.monotonic()
    with caplog.at_level("WARNING"):
        texts = PdfplumberRecovery().recover(source, [1, 2, 3], config)
    assert time.monotonic() - started < 0.2 + 1.5
    assert sorted(texts) == [1, 3] and "After the bomb" in texts[3]
    assert "pdfplumber on page 2 took longer than 0.2 s and was interrupted " \
        "(pdf.page_timeout)" in caplog.text
    # within the default page_timeout the page is read whole
    texts = PdfplumberRecovery().recover(source, [2], registry.config())
    assert len(texts[2].replace("\n", "")) > 50_000


def test_pypdf_gives_up_a_page_past_its_page_timeout_and_reads_the_rest(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from goblin_pdf.pypdf_parser import PypdfDocument

    real = PypdfDocument._bounded_text

    def stuck_on_page_2(self: PypdfDocument, page: Any, number: int) -> str:
        # a parser looping on one damaged object, swallowing errors as pypdf's loops do
        end = time.monotonic() + (60 if number == 2 else 0)
        while time.monotonic() < end:
            try:
                sum(range(1000))
            except Exception:  # what a page loop in a parser does
                continue
        return real(self, page, number)

    monkeypatch.setattr(PypdfDocument, "_bounded_text", stuck_on_page_2)
    data = saved(_three_pages(b"BT /F1 24 Tf 72 720 Td (Middle page) Tj ET"))
    started = time.monotonic()
    document = _pypdf(data, pdf={"page_timeout": 0.5})
    assert time.monotonic() - started < 0.5 + 3
    assert "Before the bomb" in document.pages[0].text
    assert "After the bomb" in document.pages[2].text
    assert document.pages[1].status == "failed"
    assert any(a.error == "pypdf on page 2 took longer than 0.5 s and was interrupted "
               "(pdf.page_timeout)" for a in document.pages[1].attempts)
