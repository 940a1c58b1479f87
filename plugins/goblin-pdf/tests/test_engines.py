"""The engines one by one, through the registry: priorities, rendering, metadata, options."""

from __future__ import annotations

import io

import pikepdf
import pytest
from pdf_builders import (
    PROSE_LINES,
    identity_font_pdf,
    reportlab_pdf,
    saved,
    substituted_font_pdf,
)

from goblin_core import default_registry, extract
from goblin_core.source import Source
from goblin_core.testing.corpus import corpus_dir, require_binary

PDF = "application/pdf"


@pytest.fixture(scope="module")
def registry():  # type: ignore[no-untyped-def]
    return default_registry()


def test_engines_are_registered_in_priority_order(registry) -> None:  # type: ignore[no-untyped-def]
    config = registry.config()
    assert [e.name for e in registry.ranked("parser", PDF, config)][:2] == [
        "pdf.pypdfium2", "pdf.pypdf"]
    recovery = [e.name for e in registry.ranked("recovery", PDF, config, with_unavailable=True)]
    assert recovery.index("pdf.pdfplumber") < recovery.index("pdf.poppler")
    validators = {e.name for e in registry.ranked("validator", PDF, config)}
    assert {"pdf.glyph_codes", "pdf.cipher", "pdf.fragmentation"} <= validators


def test_poppler_is_unavailable_with_the_reason_without_pdftotext(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from goblin_pdf.poppler_recovery import PopplerRecovery

    monkeypatch.setenv("PATH", "")
    ok, reason = PopplerRecovery().available()
    assert not ok and "apt-get install poppler-utils" in reason


def test_recovery_engines_read_the_pages_asked_for(registry) -> None:  # type: ignore[no-untyped-def]
    require_binary("pdftotext", "poppler-utils")
    config = registry.config()
    source = Source.from_bytes(reportlab_pdf(pages=3), "three.pdf")
    for name in ("pdf.pdfplumber", "pdf.poppler"):
        engine = registry.get(name).engine
        texts = engine.recover(source, [2, 3, 9], config)
        assert sorted(texts) == [2, 3], name
        assert "Prefeitura Municipal" in texts[2], name


def _ligature_pdf() -> bytes:
    from pdf_builders import _vera
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    pdfmetrics.registerFont(TTFont("Vera", str(_vera())))
    out = io.BytesIO()
    canvas = Canvas(out)
    canvas.setFont("Vera", 11)
    canvas.drawString(40, 800, "The \ufb01lm club reprinted the \ufb02yers for the "
                               "\ufb01rst \ufb02oor.")
    canvas.save()
    return out.getvalue()


def test_every_engine_spells_ligatures_as_their_letters(registry) -> None:  # type: ignore[no-untyped-def]
    # PDFium does; pdftotext, pdfminer and pypdf give the ligature's one character,
    # which a search for "film" misses
    require_binary("pdftotext", "poppler-utils")
    config = registry.config()
    source = Source.from_bytes(_ligature_pdf(), "ligatures.pdf")
    expected = "The film club reprinted the flyers for the first floor."
    for name in ("pdf.pdfplumber", "pdf.poppler"):
        texts = registry.get(name).engine.recover(source, [1], config)
        assert " ".join(texts[1].split()) == expected, name
    for name in ("pdf.pypdfium2", "pdf.pypdf"):
        with registry.get(name).engine.open(source, config) as parsed:
            assert " ".join(next(parsed.pages()).text.split()) == expected, name


def test_render_gives_a_grayscale_page_image_at_the_dpi(registry) -> None:  # type: ignore[no-untyped-def]
    config = registry.config()
    parser = registry.get("pdf.pypdfium2").engine
    with parser.open(Source.from_bytes(reportlab_pdf(), "r.pdf"), config) as parsed:
        image = parsed.render(1, 72)
        assert image.mode == "L"
        assert abs(image.width - 595) <= 1 and abs(image.height - 842) <= 1
        assert parsed.render(1, 144).width == pytest.approx(image.width * 2, abs=2)
        assert image.getextrema()[0] < 128  # the text is drawn, not a blank page


def test_pages_carry_glyph_image_and_unmapped_counts(registry) -> None:  # type: ignore[no-untyped-def]
    config = registry.config()
    parser = registry.get("pdf.pypdfium2").engine
    with parser.open(Source.from_bytes(reportlab_pdf(), "r.pdf"), config) as parsed:
        page = next(parsed.pages())
    assert page.glyphs and page.glyphs > 500
    assert page.images == 0 and page.unmapped == 0


def test_glyphs_a_tounicode_map_sends_to_the_replacement_character_count_as_unmapped(
        registry) -> None:  # type: ignore[no-untyped-def]
    # cairo writes U+FFFD into ToUnicode for glyphs it cannot name; PDFium raises no map
    # error for them, yet they are as unread as glyphs without any mapping
    unread = "ÇÃçã"
    pdf = substituted_font_pdf(dict.fromkeys(unread, "\ufffd"))
    expected = sum(line.count(char) for line in PROSE_LINES for char in unread)
    with registry.get("pdf.pypdfium2").engine.open(Source.from_bytes(pdf, "s.pdf"),
                                                   registry.config()) as parsed:
        page = next(parsed.pages())
    assert page.text.count("\ufffd") == expected
    assert page.unmapped == expected
    page = extract(pdf, name="s.pdf", ocr="never").pages[0]
    assert (page.verdict, page.reasons) == ("suspect", ("unmapped",))


def test_metadata_has_the_normalised_keys() -> None:
    root = corpus_dir(__file__)
    document = extract(root / "pdf" / "testPDFPackage.pdf", ocr="never")
    raw = document.raw_metadata
    for key in ("creator", "producer", "created", "modified", "page_count", "encrypted",
                "tagged"):
        assert key in raw, key
    assert raw["created"] == "2006-05-24T13:28:02-07:00"
    assert raw["tagged"] is True and raw["encrypted"] is False


def _with_language(language: object) -> bytes:
    pdf = pikepdf.open(io.BytesIO(reportlab_pdf()))
    if language is not None:
        pdf.Root.Lang = language
    return saved(pdf)


@pytest.mark.parametrize("engine", ["pdf.pypdfium2", "pdf.pypdf"])
def test_the_catalog_language_is_the_document_language(engine: str) -> None:
    only = {name: {"enabled": name == engine} for name in ("pdf.pypdfium2", "pdf.pypdf")}
    root = corpus_dir(__file__)
    tagged = extract(root / "pdf" / "tagged.pdf", ocr="never", engines=only)
    assert tagged.parsed_by[0] == engine
    assert tagged.metadata["language"] == "en-CA"
    assert extract(root / "pdf" / "word365_structure.pdf", ocr="never",
                   engines=only).metadata["language"] == "fr"
    cases = [(pikepdf.String(" pt-BR "), "pt-BR"), (None, None),
             # a sentence or a blob in /Lang is not a language tag
             (pikepdf.String("the language of this document is English"), None),
             (pikepdf.String("x" * 200), None),
             # a name where a string belongs is read leniently, as PDFium reads it
             (pikepdf.Name("/en"), "en")]
    for value, expected in cases:
        document = extract(_with_language(value), ocr="never", engines=only)
        assert document.metadata.get("language") == expected, value
        assert "Prefeitura Municipal" in document.text


def test_embedded_files_become_children_through_the_pipeline() -> None:
    root = corpus_dir(__file__)
    document = extract(root / "pdf" / "testPDFPackage.pdf", ocr="never")
    names = sorted(c.name for c in document.children)
    assert len(names) == 2 and all(n.startswith("testPDFPackage.pdf/") for n in names)
    assert all(c.mime == PDF and c.text for c in document.children)


def test_annotations_forms_and_outline_follow_their_options() -> None:
    root = corpus_dir(__file__)
    annotated = root / "pdf" / "testAnnotations.pdf"
    assert "Here is a comment" in extract(annotated, ocr="never").text
    assert "Here is a comment" not in extract(annotated, ocr="never",
                                              pdf={"annotations": False}).text
    form = root / "pdf" / "testPDF_acroform3.pdf"
    assert "aTextField: TIKA-1226" in extract(form, ocr="never").text
    assert "TIKA-1226" not in extract(form, ocr="never", pdf={"forms": False}).text
    bookmarks = root / "pdf" / "testPDF_bookmarks.pdf"
    with_outline = extract(bookmarks, ocr="never")
    assert "Denmark bookmark is here" in with_outline.pages[-1].text
    assert with_outline.raw_metadata["outline"][0] == {"level": 0, "title": "Countries",
                                                       "page": 1}
    assert "Denmark bookmark" not in extract(bookmarks, ocr="never", pdf={"outline": False}).text


def test_the_outline_is_in_the_metadata_when_the_last_page_is_not_read() -> None:
    # the outline is read after the pages; a stop before the last page must not lose it
    bookmarks = corpus_dir(__file__) / "pdf" / "testPDF_bookmarks.pdf"
    whole = extract(bookmarks, ocr="never")
    assert len(whole.pages) > 1
    first = extract(bookmarks, ocr="never", pdf={"max_pages": 1})
    assert [p.number for p in first.pages] == [1]
    assert first.raw_metadata["outline"] == whole.raw_metadata["outline"]
    # pdf.max_pages asks for fewer pages: the outline follows the last page read (as Tika
    # writes bookmarks at the end of what it read), once
    assert first.text.count("Denmark bookmark") == 1
    assert "Denmark bookmark" in first.pages[-1].text


def test_an_outline_that_fails_to_read_costs_only_the_outline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the outline is read after the pages: whatever breaks there must not lose them
    import goblin_pdf.pdfium_parser

    def broken_outline(*args: object, **kwargs: object) -> None:
        raise ValueError("a bookmark that points nowhere")

    monkeypatch.setattr(goblin_pdf.pdfium_parser, "read_outline", broken_outline)
    document = extract(corpus_dir(__file__) / "pdf" / "testPDF_bookmarks.pdf", ocr="never")
    assert document.pages and document.status == "clean"
    assert "outline" not in document.raw_metadata
    assert "Denmark bookmark is here" not in document.text


def test_max_pages_stops_early() -> None:
    document = extract(reportlab_pdf(pages=5), name="five.pdf", ocr="never", pdf={"max_pages": 2})
    assert [p.number for p in document.pages] == [1, 2]


def test_without_an_ocr_backend_pages_needing_ocr_stay_corrupt_with_one_warning(
    registry,  # type: ignore[no-untyped-def]
) -> None:
    if registry.ranked("ocr", None, registry.config()):
        pytest.skip("an OCR backend is installed; tests/integration covers this case")
    root = corpus_dir(__file__)
    document = extract(root / "pdf" / "ocr_test.pdf", ocr="auto")
    assert [(p.status, p.reason) for p in document.pages] == [("corrupt", "needs_ocr")]
    warnings = [w for w in document.report.warnings if w.kind == "EngineUnavailable"]
    assert len(warnings) == 1 and "goblin-core[ocr]" in warnings[0].message


def test_ocr_page_images_come_from_render_for_garbage_pages(registry) -> None:  # type: ignore[no-untyped-def]
    config = registry.config()
    parser = registry.get("pdf.pypdfium2").engine
    with parser.open(Source.from_bytes(identity_font_pdf(), "id.pdf"), config) as parsed:
        next(parsed.pages())
        assert parsed.render(1, 100).size[0] == pytest.approx(595 * 100 / 72, abs=2)


def _text_and_image_pdf(lines: int) -> bytes:
    import io

    from PIL import Image
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    canvas = Canvas(out)
    canvas.drawInlineImage(Image.new("L", (20, 20), 128), 40, 40, 20, 20)
    for index in range(lines):
        canvas.drawString(40, 800 - 14 * index, "Aviso de licitação, pregão presencial nº 12")
    canvas.save()
    return out.getvalue()


@pytest.mark.parametrize(("lines", "below", "images"), [(1, 200, 1), (20, 200, 0), (20, 0, 1)])
def test_images_are_counted_where_they_can_decide_ocr(
    registry, lines: int, below: int, images: int,  # type: ignore[no-untyped-def]
) -> None:
    config = registry.config(pdf={"count_images_below": below})
    parser = registry.get("pdf.pypdfium2").engine
    with parser.open(Source.from_bytes(_text_and_image_pdf(lines), "img.pdf"), config) as parsed:
        page = next(parsed.pages())
    assert page.images == images


def test_poppler_output_is_capped(registry) -> None:  # type: ignore[no-untyped-def]
    require_binary("pdftotext", "poppler-utils")
    config = registry.config(pdf={"poppler_max_output": 1024})
    engine = registry.get("pdf.poppler").engine
    texts = engine.recover(Source.from_bytes(reportlab_pdf(pages=1), "p.pdf"), [1], config)
    assert 0 < len(texts[1].encode("utf-8")) <= 1024


def test_path_segments_are_counted_on_pages_with_little_text(registry) -> None:  # type: ignore[no-untyped-def]
    from pdf_builders import helvetica_pages, saved

    grid = "\n".join(f"{40 + 9 * (i % 50)} {100 + 9 * (i // 50)} 6 6 re f" for i in range(400))
    busy = "BT /F1 9 Tf 40 800 Td (" + "word " * 80 + ") Tj ET\n" + grid
    data = saved(helvetica_pages(grid, "BT /F1 9 Tf 40 800 Td (Short) Tj ET", busy))
    parser = registry.get("pdf.pypdfium2").engine
    with parser.open(Source.from_bytes(data, "paths.pdf"), registry.config()) as parsed:
        pages = list(parsed.pages())
    assert pages[0].path_segments >= 1200  # 400 rectangles of 3 to 5 segments each
    assert pages[1].path_segments == 0
    # a page with plenty of text is not walked: its words are read, outlines or not
    assert pages[2].path_segments == 0


def test_pypdf_is_imported_only_when_a_document_needs_it() -> None:
    import subprocess
    import sys

    probe = ("import sys, goblin_core; goblin_core.default_registry(); "
             "print('pypdf' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"
