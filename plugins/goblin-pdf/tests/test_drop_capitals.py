"""A drop capital drawn after its paragraph (as LibreOffice draws it) opens the paragraph
again; one that is a word of its own stays a word."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_builders import helvetica_pages, saved, wkhtmltopdf_pdf

import goblin_core

SIZE = 11.0
LEADING = 13.0
MARGIN = 65.0
BESIDE = 100.0  # where the lines beside the capital start
CAPITAL = 48.0
LAYOUTS = pytest.mark.parametrize("layout", ["auto", "reading_order", "raw"])


def _text(text: str, x: float, y: float, size: float = SIZE) -> str:
    return f"BT /F1 {size:g} Tf {x:.2f} {y:.2f} Td ({text}) Tj ET\n"


def _paragraph_then_capital(capital: str, lines: list[str], first_indent: float = 0.0) -> str:
    """A paragraph whose first three lines stand beside ``capital`` (set three lines tall,
    drawn last), the rest back at the margin; a paragraph of another line above it."""
    top = 700.0
    content = _text("The paragraph before ends on this line of its own, above the other.",
                    MARGIN, top + LEADING + 4)
    for row, line in enumerate(lines):
        x = BESIDE + (first_indent if row == 0 else 0.0) if row < 3 else MARGIN
        content += _text(line, x, top - LEADING * row)
    return content + _text(capital, MARGIN, top - 2 * LEADING, CAPITAL)


def _read(content: str, layout: str) -> str:
    return goblin_core.extract(saved(helvetica_pages(content)), name="capital.pdf", ocr="never",
                               pdf={"layout": layout}).text


@LAYOUTS
def test_a_drop_capital_drawn_after_its_paragraph_opens_it(layout: str) -> None:
    text = _read(_paragraph_then_capital("F", [
        "inally, every program is threatened constantly by",
        "software patents. States should not allow patents to",
        "restrict development and use of software on general",
        "purpose computers, but in those that do, we wish to avoid the danger.",
    ]), layout)
    assert "Finally, every program is threatened" in text, text
    assert "\nF\n" not in text and not text.rstrip().endswith("F")


@LAYOUTS
def test_a_drop_capital_that_is_a_word_of_its_own_stays_a_word(layout: str) -> None:
    """The line beside ``A`` starts a space further in than the next: ``A`` is a word."""
    text = _read(_paragraph_then_capital("A", [
        "long time ago the program was shared by all of",
        "the people who used it, and they changed it as",
        "they liked, sending their changes back to others",
        "who had written the first version of it many years before.",
    ], first_indent=4.0), layout)
    assert "A long time ago the program" in text, text


@LAYOUTS
def test_a_tall_letter_above_its_paragraph_stays_above_it(layout: str) -> None:
    """A tall letter on a line of its own that no lines stand beside (an appendix's
    letter, a section mark) stays where it is."""
    content = _text("B", MARGIN, 730, CAPITAL)
    for row, line in enumerate(["the second appendix lists the changes made to it",
                                "since the first version, each with its date."]):
        content += _text(line, MARGIN, 700 - LEADING * row)
    text = _read(content, layout)
    assert "Bthe" not in text and "B the" not in text, text
    assert text.index("B") < text.index("the second")


@LAYOUTS
@pytest.mark.parametrize("opening", ["T", "\u201cT"])
def test_a_browsers_first_letter_drawn_before_the_page_opens_its_paragraph(
        layout: str, opening: str, tmp_path: Path) -> None:
    """wkhtmltopdf draws a ``::first-letter`` dropped beside its lines before anything else
    on the page, an opening quote with it."""
    rest = ("o protect your rights, we need to prevent others from denying you these "
            "rights or asking you to surrender the rights, so you have certain duties "
            "if you distribute copies of the software or if you modify it.")
    body = ("<style>p.first::first-letter { float: left; font-size: 3.2em; "
            "line-height: 0.8; padding-right: 0.08em }</style>"
            "<p>The heading paragraph of the page comes first.</p>"
            f"<p class='first'>{opening}{rest}</p>")
    document = goblin_core.extract(wkhtmltopdf_pdf(body, tmp_path, width="420px"),
                                   name="report.pdf", ocr="never", pdf={"layout": layout})
    text = " ".join(document.text.split())
    assert f"{opening}o protect your rights" in text, document.text
    assert text.startswith("The heading paragraph"), document.text
