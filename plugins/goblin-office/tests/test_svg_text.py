"""SVG text as the image shows it: a text element's pieces joined into its lines, the
words after a tspan kept, flowed text, labels written as HTML in a foreignObject, and
of a switch the choice a browser shows (all its languages)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Read = Callable[..., Any]
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" '
       'xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd">{}</svg>')


def _lines(read: Read, content: str) -> list[str]:
    return list(read(SVG.format(content).encode(), "figura.svg").text.splitlines())


def test_the_words_after_a_tspan_are_read_in_their_line(read: Read) -> None:
    assert _lines(read, '<text x="5" y="5">Total: <tspan font-weight="bold">42</tspan> '
                        "units</text><text>H<tspan dy='3'>2</tspan>O</text>") == [
        "Total: 42 units", "H2O"]


def test_tspans_on_other_baselines_are_lines_and_along_one_are_words(read: Read) -> None:
    assert _lines(read, (
        '<text x="10" y="20"><tspan sodipodi:role="line" x="10" y="20">First line</tspan>'
        '<tspan sodipodi:role="line" x="10" y="40">Second line</tspan></text>'
        '<text><tspan x="0" dy="1.2em">d3 one</tspan><tspan x="0" dy="1.2em">d3 two</tspan>'
        '</text><text y="5"><tspan x="5" y="5">Word</tspan><tspan x="50">apart</tspan></text>'
    )) == ["First line", "Second line", "d3 one", "d3 two", "Word apart"]


def test_flowed_text_and_foreign_html_are_read_scripts_and_styles_are_not(read: Read) -> None:
    assert _lines(read, (
        "<style>.label { fill: red }</style><script>alert('x')</script>"
        "<flowRoot><flowRegion><rect/></flowRegion><flowPara>Flowed one</flowPara>"
        "<flowPara>Flowed <flowSpan>two</flowSpan></flowPara></flowRoot>"
        '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">Caixa de texto</div>'
        "</foreignObject>"
    )) == ["Flowed one", "Flowed two", "Caixa de texto"]


def test_a_switch_reads_the_choice_a_browser_shows_and_every_language(read: Read) -> None:
    # as diagrams.net exports a wrapped label and its drawing's closing notice
    label = (
        '<switch><foreignObject requiredExtensions="http://www.w3.org/1999/xhtml">'
        '<div xmlns="http://www.w3.org/1999/xhtml"><div><div>Aprovar o orçamento<br/>'
        "da comissão</div></div></div></foreignObject>"
        '<text x="60" y="34">Aprovar o orça...</text></switch>'
        '<switch><g requiredFeatures="http://www.w3.org/TR/SVG11/feature#Extensibility"/>'
        "<a><text>Text is not SVG - cannot display</text></a></switch>"
        '<switch><text systemLanguage="de">Hallo</text>'
        '<text systemLanguage="pt">Olá</text><text>Hello</text></switch>'
    )
    assert _lines(read, label) == ["Aprovar o orçamento da comissão", "Hallo", "Olá", "Hello"]


def test_what_an_svg_does_not_draw_is_not_read(read: Read) -> None:
    assert _lines(read, (
        '<g style="display:none" id="layer2"><text>camada oculta</text></g>'
        '<text visibility="hidden">invisível</text>'
        '<text>Total: <tspan display="none">rascunho </tspan>42</text>'
        '<g><text>visível</text></g>'
    )) == ["Total: 42", "visível"]
