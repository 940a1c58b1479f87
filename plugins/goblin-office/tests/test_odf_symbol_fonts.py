"""OpenDocument text set in the Symbol and Wingdings fonts reads as the characters those
fonts draw (``α``, ``≥``, ``✓``), as a Word document's does: the font is the one the
text's style names (a span's, else its paragraph's, a parent style's or the default
style's), in content.xml's automatic styles or styles.xml's common ones."""

from __future__ import annotations

from pathlib import Path

from packages import libreoffice_saved, zip_bytes

from goblin_core.testing.corpus import require_binary

_NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
    'office:version="1.3"'
)
_FACES = (
    "<office:font-face-decls>"
    '<style:font-face style:name="Symbol" svg:font-family="Symbol" style:font-charset="x-symbol"/>'
    '<style:font-face style:name="Simbolos1" svg:font-family="&apos;Wingdings&apos;"/>'
    '<style:font-face style:name="Liberation Serif" '
    'svg:font-family="&apos;Liberation Serif&apos;"/>'
    "</office:font-face-decls>"
)

_MANIFEST = (
    '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
    '<manifest:file-entry manifest:full-path="/" '
    'manifest:media-type="application/vnd.oasis.opendocument.text"/>'
    '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
    "</manifest:manifest>"
)


def _text_style(name: str, properties: str, family: str = "text", parent: str = "") -> str:
    inherits = f' style:parent-style-name="{parent}"' if parent else ""
    return (f'<style:style style:name="{name}" style:family="{family}"{inherits}>'
            f"<style:text-properties {properties}/></style:style>")


def _odt(body: str, automatic: str = "", styles: str = "", master: str = "") -> bytes:
    content = (f"<office:document-content {_NAMESPACES}>{_FACES}"
               f"<office:automatic-styles>{automatic}</office:automatic-styles>"
               f"<office:body><office:text>{body}</office:text></office:body>"
               "</office:document-content>")
    members = {"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": content,
               "META-INF/manifest.xml": _MANIFEST}
    if styles or master:
        members["styles.xml"] = (f"<office:document-styles {_NAMESPACES}>{_FACES}{styles}"
                                 f"{master}</office:document-styles>")
    return zip_bytes(members)


def test_a_span_in_the_symbol_font_reads_as_the_characters_it_draws(read) -> None:  # type: ignore[no-untyped-def]
    # LibreOffice keeps what it imports in a symbol font in the private use area
    body = '<text:p>Ângulo <text:span text:style-name="T1">\uf061 \uf0b3</text:span> fim</text:p>'
    data = _odt(body, _text_style("T1", 'style:font-name="Symbol"'))
    assert read(data, "simbolo.odt").text == "Ângulo α ≥ fim"


def test_letters_typed_in_the_symbol_font_read_as_greek(read) -> None:  # type: ignore[no-untyped-def]
    body = ('<text:p>Seja <text:span text:style-name="T1">a + b <text:s/>£ g</text:span>'
            " o ângulo</text:p>")
    data = _odt(body, _text_style("T1", "fo:font-family=\"'Symbol'\""))
    assert read(data, "grego.odt").text == "Seja α + β  ≤ γ o ângulo"


def test_a_paragraph_style_inherits_wingdings_from_its_parent_common_style(read) -> None:  # type: ignore[no-untyped-def]
    styles = ("<office:styles>"
              + _text_style("Base", 'style:font-name="Simbolos1"', "paragraph")
              + '<style:style style:name="Marcas" style:family="paragraph" '
              'style:parent-style-name="Base"/></office:styles>')
    automatic = (_text_style("P1", 'fo:font-weight="bold"', "paragraph", parent="Marcas")
                 + _text_style("T1", 'style:font-name="Liberation Serif"'))
    body = ('<text:p text:style-name="P1">\uf0fc <text:span text:style-name="T1">feito'
            "</text:span></text:p><text:p>\uf0fc sem estilo</text:p>")
    text = read(_odt(body, automatic, styles), "marcas.odt").text
    assert text.split("\n") == ["✓ feito", "\uf0fc sem estilo"]


def test_the_default_paragraph_font_sets_unstyled_text_in_a_symbol_font(read) -> None:  # type: ignore[no-untyped-def]
    styles = ('<office:styles><style:default-style style:family="paragraph">'
              '<style:text-properties style:font-name="Symbol"/></style:default-style>'
              "</office:styles>")
    automatic = _text_style("T1", 'style:font-name="Liberation Serif"')
    body = '<text:p>\uf0b7 a <text:span text:style-name="T1">a</text:span></text:p>'
    assert read(_odt(body, automatic, styles), "padrao.odt").text == "• α a"


def test_a_header_in_a_symbol_font_reads_as_its_characters(read) -> None:  # type: ignore[no-untyped-def]
    styles = ("<office:automatic-styles>" + _text_style("MT1", 'style:font-name="Symbol"')
              + "</office:automatic-styles>")
    master = ('<office:master-styles><style:master-page style:name="Standard"><style:header>'
              '<text:p>Cabeçalho <text:span text:style-name="MT1">p</text:span></text:p>'
              "</style:header></style:master-page></office:master-styles>")
    text = read(_odt("<text:p>Corpo p</text:p>", styles=styles, master=master), "cab.odt").text
    assert text.split("\n") == ["Cabeçalho π", "Corpo p"]


def test_symbol_text_in_a_content_xml_read_as_it_parses_reads_as_its_characters(read) -> None:  # type: ignore[no-untyped-def]
    filler = "".join(f"<text:p>Parágrafo comum número {n}</text:p>" for n in range(240_000))
    body = f'<text:p>Início <text:span text:style-name="T1">\uf061</text:span></text:p>{filler}'
    data = _odt(body, _text_style("T1", 'style:font-name="Symbol"'))
    lines = read(data, "grande.odt").text.split("\n")
    assert lines[0] == "Início α"
    assert lines[-1] == "Parágrafo comum número 239999"


def test_symbol_text_reads_as_in_the_docx_libreoffice_saves(read, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    soffice = require_binary("soffice", "libreoffice-writer-nogui")
    body = ('<text:p>Ângulo <text:span text:style-name="T1">\uf061 \uf0b3</text:span> fim '
            '<text:span text:style-name="T2">\uf0fc</text:span></text:p>')
    automatic = (_text_style("T1", 'style:font-name="Symbol"')
                 + _text_style("T2", 'style:font-name="Simbolos1"'))
    source = tmp_path / "simbolo.odt"
    source.write_bytes(_odt(body, automatic))
    saved = libreoffice_saved(soffice, source, "docx")
    odt = read(source.read_bytes(), "simbolo.odt").text
    assert odt == "Ângulo α ≥ fim ✓"
    assert read(saved, "simbolo.docx").text == odt
