"""Reading order on pages built here whose content-stream order is wrong on purpose."""

from __future__ import annotations

import difflib
import io
import random
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pdf_builders import helvetica_pages, saved

import goblin_core
from goblin_pdf.layout import LayoutSettings, read_page_layout
from goblin_pdf.layout.accents import compose
from goblin_pdf.layout.hyphens import dehyphenate, mend_marked_hyphens

pytest.importorskip("reportlab")
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

WORDS = ['river', 'stone', 'market', 'garden', 'window', 'letter', 'silver', 'harbour',
         'morning', 'circle', 'planet', 'meadow', 'lantern', 'engine', 'pocket', 'thunder',
         'valley', 'orchard', 'bridge', 'candle', 'forest', 'signal', 'copper', 'mirror',
         'island', 'ladder', 'museum', 'anchor', 'blanket', 'canyon', 'feather', 'glacier',
         'jungle', 'kettle', 'marble', 'needle', 'pepper', 'quarry', 'saddle', 'timber',
         'velvet', 'walnut', 'yellow', 'zephyr']


def _prose(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)) + "."


@dataclass
class _Page:
    """Text pieces to draw, each (x, y, font size, text), and the truth in reading order."""

    draws: list[tuple[float, float, float, str]] = field(default_factory=list)
    truth: list[str] = field(default_factory=list)


def _column(page: _Page, x: float, top: float, width: float, paragraphs: list[str],
            size: float = 10) -> list[tuple[float, float, float, str]]:
    lines = []
    y = top
    for paragraph in paragraphs:
        for line in simpleSplit(paragraph, "Helvetica", size, width):
            lines.append((x, y, size, line))
            y -= size * 1.2
        y -= size * 1.0  # paragraph gap
        page.truth.extend(paragraph.split())
    return lines


def hard_two_column_page(seed: int = 1, rotate: bool = False,
                         sideways: bool = False) -> tuple[bytes, list[str]]:
    """Full-width title, unequal columns with a figure caption, full-width footnotes;
    drawn footnotes first, title last and the columns line by line across the page.

    ``rotate``: a landscape page with /Rotate 90 whose text is drawn turned so it
    shows upright; ``sideways``: /Rotate 90 on horizontal text (it shows sideways).
    """
    rng = random.Random(seed)
    page = _Page()
    title = "Field Notes On Rivers And Stones"
    page.truth.extend(title.split())
    left = _column(page, 50, 720, 300, [_prose(rng, 70), _prose(rng, 60),
                                       "Figure 1: " + _prose(rng, 12)])
    right = _column(page, 374, 720, 180, [_prose(rng, 55), _prose(rng, 50)])
    notes = [f"{n} " + _prose(rng, 14) for n in (1, 2)]
    for note in notes:
        page.truth.extend(note.split())
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(842, 595) if rotate else (595, 842))
    if rotate or sideways:
        canvas.setPageRotation(90)
    if rotate:
        canvas.translate(842, 0)
        canvas.rotate(90)
    canvas.setFont("Helvetica", 7)
    for index, note in enumerate(notes):
        canvas.drawString(50, 80 - 9 * index, note)
    for index in range(max(len(left), len(right))):
        for lines in (left, right):
            if index < len(lines):
                x, y, size, text = lines[index]
                canvas.setFont("Helvetica", size)
                canvas.drawString(x, y, text)
    canvas.setFont("Helvetica-Bold", 18)
    canvas.drawString(50, 770, title)
    canvas.showPage()
    canvas.save()
    return out.getvalue(), page.truth


def _similarity(text: str, truth: list[str]) -> float:
    return difflib.SequenceMatcher(None, text.split(), truth, autojunk=False).ratio()


def _layout(data: bytes, **settings: object) -> tuple[str, str, object]:
    pdf = pdfium.PdfDocument(data)
    try:
        page = pdf[0]
        textpage = page.get_textpage()
        raw = textpage.get_text_range()
        layout = read_page_layout(page, textpage, raw, LayoutSettings(**settings))  # type: ignore[arg-type]
        textpage.close()
        page.close()
        return raw, layout.text, layout
    finally:
        pdf.close()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_columns_drawn_across_the_page_are_read_column_by_column(seed: int) -> None:
    data, truth = hard_two_column_page(seed)
    raw, text, layout = _layout(data)
    assert _similarity(raw, truth) < 0.8
    assert _similarity(text, truth) >= 0.98
    assert layout.columns == 2 and layout.reordered


def test_blocks_keep_title_paragraphs_caption_and_footnotes_in_place() -> None:
    data, _ = hard_two_column_page(4)
    _, _, layout = _layout(data)
    kinds = [b.kind for b in layout.blocks]
    assert kinds[0] == "heading" and layout.blocks[0].text.startswith("Field Notes")
    assert "caption" in kinds
    assert layout.blocks[-1].text.startswith(("1 ", "2 "))  # the footnotes close the page
    assert kinds.index("caption") < len(kinds) - 1
    paragraphs = [b for b in layout.blocks if b.kind == "paragraph"]
    assert len(paragraphs) >= 5  # four column paragraphs and the footnotes, breaks kept


def test_raw_mode_keeps_pdfium_order() -> None:
    data, _ = hard_two_column_page(5)
    raw, text, layout = _layout(data, layout="raw")
    assert text == raw and not layout.blocks


@pytest.mark.parametrize("turn", ["rotate", "sideways"])
def test_rotated_page_is_read_in_display_order(turn: str) -> None:
    data, truth = hard_two_column_page(6, **{turn: True})
    raw, text, layout = _layout(data)
    assert _similarity(raw, truth) < 0.8
    assert _similarity(text, truth) >= 0.98 and layout.columns == 2


def _single_column(lines: list[str], draw_twice: bool = False) -> bytes:
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    canvas.setFont("Helvetica", 11)
    for index, line in enumerate(lines):
        canvas.drawString(60, 780 - 14 * index, line)
        if draw_twice:  # fake bold: the same line again, a fraction of a point over
            canvas.drawString(61, 780 - 14 * index, line)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


@pytest.mark.parametrize(("page_rotation", "content_turn"),
                         [(90, 0), (270, 0), (0, 90), (0, 270), (90, 90), (0, 180)])
def test_single_column_page_turned_any_way_reads_first_line_first(
        page_rotation: int, content_turn: int) -> None:
    """/Rotate on horizontal text, text turned in the content stream (a landscape table
    in a portrait report), both, and upside down: the first line is read first."""
    lines = [f"Line {index} of a page whose text is turned." for index in range(12)]
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    canvas.setPageRotation(page_rotation)
    canvas.translate(*{0: (0, 0), 90: (595, 0), 180: (595, 842), 270: (0, 842)}[content_turn])
    canvas.rotate(content_turn)
    canvas.setFont("Helvetica", 11)
    for index, line in enumerate(lines):
        canvas.drawString(60, 400 - 14 * index, line)
    canvas.showPage()
    canvas.save()
    _, text, layout = _layout(out.getvalue())
    assert text.splitlines() == lines, text
    assert layout.columns == 1


def test_single_column_page_keeps_pdfium_text_in_auto_mode() -> None:
    rng = random.Random(7)
    lines = [" ".join(rng.choice(WORDS) for _ in range(10)) for _ in range(30)]
    raw, text, layout = _layout(_single_column(lines))
    assert text == raw and layout.columns == 1 and not layout.reordered


def _overdrawn(lines: list[str], shift: float = 1.0, size: float = 11) -> bytes:
    """Fake bold the way some generators do it: every glyph drawn, then drawn again
    ``shift`` points to the right inside the same text object (TJ kerning back).
    PDFium drops copies closer than about half a point itself; this one it keeps."""
    import pikepdf
    from reportlab.pdfbase.pdfmetrics import stringWidth

    commands = []
    for index, line in enumerate(lines):
        parts = []
        for char in line:
            back = (stringWidth(char, "Helvetica", size) - shift) / size * 1000
            escaped = char.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            parts.append(f"({escaped}) {back:.1f} ({escaped}) {shift / size * 1000:.1f}")
        commands.append(f"BT /F1 {size} Tf 60 {780 - 14 * index} Td [{' '.join(parts)}] TJ ET")
    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(595, 842))
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                              BaseFont=pikepdf.Name.Helvetica)
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    page.Contents = pdf.make_stream("\n".join(commands).encode("latin-1"))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_fake_bold_is_read_once_when_duplicates_are_suppressed() -> None:
    lines = ["the harbour lantern was lit", "before the morning signal"]
    data = _overdrawn(lines)
    _, text, _ = _layout(data, layout="reading_order")
    assert text.split() == " ".join(lines).split()
    _, doubled, _ = _layout(data, layout="reading_order", suppress_duplicate_text=False)
    assert len(doubled.replace(" ", "")) > 1.5 * len(text.replace(" ", ""))


def test_line_end_hyphens_are_mended_in_prose() -> None:
    data = _single_column(["the harbour was full of fisher-", "men and their families who",
                           "lived near the Jean-", "Pierre bridge"])
    _, text, _ = _layout(data, layout="reading_order")
    assert "fishermen" in text.split()
    assert "Jean-\nPierre" in text


def test_dehyphenate_and_compose_on_strings() -> None:
    assert dehyphenate("con-\ntinued here") == "continued\nhere"
    assert dehyphenate("COVID-\n19") == "COVID-\n19"
    assert compose("g\u02d8") == "\u011f"
    assert compose("na\u0131\u00a8ve \u0131\u02d8 \u0131\u00b8") == "na\u00efve \u012d \u0131\u0327"


@pytest.mark.parametrize("mend", [
    lambda text: dehyphenate(text.replace("~", "-\n")),
    lambda text: mend_marked_hyphens(text.replace("~", "\ufffe")),
], ids=["drawn hyphen", "PDFium's mark"])
@pytest.mark.parametrize(("broken", "read"), [
    ("in the FED~ERAL REGISTER", "FEDERAL"),
    ("the structure ELE~MENT is", "ELEMENT"),
    ("SE~QUENCE OF", "SEQUENCE"),
    ("the Warden~Commander", "Warden-Commander"),
    ("N~Diethyltryptamine", "N-Diethyltryptamine"),
    ("X~RAY", "X-RAY"),
    ("Lucene~BM25", "Lucene-BM25"),
    ("PK20~LQP", "PK20-LQP"),
    ("ICREA~Acadèmia", "ICREA-Acadèmia"),
    ("Fed~ERAL", "Fed-ERAL"),
    ("the LS_COL~ORS variable", "LS_COLORS"),
    ("setting LD_LI~BRARY_PATH=/usr/lib", "LD_LIBRARY_PATH=/usr/lib"),
    ("TAG_FILE_EN~CODING", "TAG_FILE_ENCODING"),
    ("UTF~8", "UTF-8"),
    ("LD_~PRELOAD", "LD_-PRELOAD"),
])
def test_a_word_in_capitals_broken_at_a_line_end_is_joined(mend, broken: str, read: str) -> None:
    """Capitals after capitals are a word broken like any other; a capitalised word,
    a single letter or digits on either side are a compound's."""
    # a hyphen kept at a line end keeps its line break
    assert read in mend(broken).replace("-\n", "-").split()


def _vera() -> Path:
    import reportlab

    return Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"


@pytest.mark.parametrize(("before", "accent", "after", "read"), [
    ("O", "\u02d8", "guz", "O\u011fuz"),
    # TeX's \"{\i}: the diaeresis takes the place of the dot of a dotless i
    ("na", "\u00a8", "\u0131ve", "na\u00efve"),
])
def test_tex_style_accent_glyph_is_composed_onto_its_letter(before: str, accent: str,
                                                             after: str, read: str) -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont("VeraLayout", str(_vera())))
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    canvas.setFont("VeraLayout", 12)
    # TeX draws the accent first, raised and centred over where its letter will go, then
    # the letters.
    x = 100 + pdfmetrics.stringWidth(before, "VeraLayout", 12)
    centre = (pdfmetrics.stringWidth(after[0], "VeraLayout", 12)
              - pdfmetrics.stringWidth(accent, "VeraLayout", 12)) / 2
    canvas.drawString(x + centre, 702, accent)
    canvas.drawString(100, 700, before)
    canvas.drawString(x, 700, after)
    canvas.drawString(x + pdfmetrics.stringWidth(after + " ", "VeraLayout", 12), 700, "wrote this")
    canvas.showPage()
    canvas.save()
    _, text, _ = _layout(out.getvalue(), layout="reading_order")
    assert text.split()[:3] == [read, "wrote", "this"]


def test_a_tilde_beside_letters_in_formulas_keeps_pdfium_text() -> None:
    # ``x~y`` and ``n~2``: the tilde sits on the baseline between letters, over none of them,
    # so nothing is an accent to compose and PDFium's own text stands.
    lines = ["the potential V~x2 and the mode n~2 are set so that a~b holds for every ion"] * 12
    raw, text, layout = _layout(_single_column(lines))
    assert "V~x2" in raw
    assert text == raw and not layout.reordered


def test_rotated_margin_note_does_not_break_the_main_text() -> None:
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    canvas.setFont("Helvetica", 11)
    lines = ["first line of the body text", "second line of the body text"]
    canvas.drawString(60, 700, lines[0])
    canvas.saveState()
    canvas.translate(30, 500)
    canvas.rotate(90)
    canvas.drawString(0, 0, "archive copy margin note")
    canvas.restoreState()
    canvas.drawString(60, 686, lines[1])
    canvas.showPage()
    canvas.save()
    _, text, layout = _layout(out.getvalue(), layout="reading_order")
    assert text.split()[:12] == " ".join(lines).split()
    assert layout.blocks[-1].text == "archive copy margin note"


def test_a_page_of_rotated_text_only_is_laid_out() -> None:
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(595, 842))
    canvas.setFont("Helvetica", 11)
    canvas.translate(30, 500)
    canvas.rotate(90)
    canvas.drawString(0, 0, "archive copy margin note")
    canvas.showPage()
    canvas.save()
    _, text, layout = _layout(out.getvalue(), layout="reading_order")
    assert text == "archive copy margin note"
    assert [block.text for block in layout.blocks] == ["archive copy margin note"]


@pytest.mark.parametrize("layout", ["auto", "reading_order"])
def test_a_caret_standing_alone_is_no_accent_of_the_letter_below_it(layout: str) -> None:
    """``The ^ operator`` in a manual, the caret over a letter of the next line: it stays
    a caret of its own line, the letter below it bare."""
    lines = ["The \\303 operator converts lowercase letters to uppercase; the",
             "lowercase letters matching pattern to uppercase are converted,"]
    content = "".join(f"BT /F1 10 Tf 72 {700 - 12 * row} Td ({line}) Tj ET\n"
                      for row, line in enumerate(lines))
    document = goblin_core.extract(saved(helvetica_pages(content)), name="manual.pdf",
                                   ocr="never", pdf={"layout": layout})
    text = unicodedata.normalize("NFD", document.text)
    assert not any(unicodedata.combining(char) for char in text), document.text
    assert "The \u02c6 operator" in document.text


def _tall_boxed_columns(gutter: float) -> tuple[bytes, str]:
    """Two columns of 10-point type on 12-point lines, ``gutter`` points apart, in a font
    whose descriptor gives it an ascent and descent of 1.5 em (Latin Modern as LuaTeX
    embeds it): PDFium's glyph boxes stand taller than the lines are apart."""
    import pikepdf
    from reportlab.pdfbase.pdfmetrics import stringWidth

    rng = random.Random(3)
    width = 200.0
    content = ""
    truth = []
    for x in (72.0, 72.0 + width + gutter):
        words = _prose(rng, 160)
        truth.append(words)
        lines = simpleSplit(words, "Helvetica", 10, width)
        for row, line in enumerate(lines):
            # justified, as TeX sets its columns: every line but the last fills the width
            spacing = 0.0 if row == len(lines) - 1 else (
                (width - stringWidth(line, "Helvetica", 10)) / line.count(" "))
            content += f"BT /F1 10 Tf {spacing:.3f} Tw {x:g} {720 - 12 * row} Td ({line}) Tj ET\n"
    pdf = helvetica_pages(content)
    font = pdf.pages[0].Resources.Font.F1
    font.FontDescriptor = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/Helvetica"), Flags=32,
        FontBBox=[-200, -450, 1200, 1150], ItalicAngle=0, Ascent=1100, Descent=-400,
        CapHeight=718, StemV=88))
    font.FirstChar, font.LastChar = 32, 126
    font.Widths = [round(stringWidth(chr(code), "Helvetica", 1000)) for code in range(32, 127)]
    return saved(pdf), " ".join(truth)


def test_columns_of_a_font_boxed_taller_than_its_lines_are_apart_are_read_apart() -> None:
    """TeX's two columns stand a type size apart. A font whose boxes reach far above and
    below its letters must not hide that gutter from the rebuild: each column is read
    whole, not line across line."""
    data, truth = _tall_boxed_columns(gutter=8.0)
    text = goblin_core.extract(data, name="tall.pdf", ocr="never",
                               pdf={"layout": "reading_order"}).text
    assert " ".join(text.split()) == truth
