"""Word text hidden through the styles a paragraph or run is in without naming one
(the default paragraph and character styles) or through the document's default run
properties is read and counted in ``hidden_chars``, as text hidden otherwise is."""

from __future__ import annotations

from packages import docx, para


def _styles(*styles: str, defaults: str = "") -> str:
    doc_defaults = (
        f"<w:docDefaults><w:rPrDefault><w:rPr>{defaults}</w:rPr></w:rPrDefault></w:docDefaults>"
        if defaults else ""
    )
    return "<w:styles>" + doc_defaults + "".join(styles) + "</w:styles>"


def _style(kind: str, style_id: str, props: str = "", default: bool = False) -> str:
    marked = ' w:default="1"' if default else ""
    return (f'<w:style w:type="{kind}" w:styleId="{style_id}"{marked}><w:name w:val="{style_id}"/>'
            f"<w:rPr>{props}</w:rPr></w:style>")


def test_default_paragraph_style_hides(read) -> None:  # type: ignore[no-untyped-def]
    styles = _styles(_style("paragraph", "Normal", "<w:vanish/>", default=True),
                     _style("paragraph", "Visivel"))
    body = (para("Oculto por padrão") + para("Oculto pelo nome", "Normal")
            + para("Estilo inexistente", "Sumido") + para("Mostrado", "Visivel"))
    document = read(docx(body, {"styles.xml": styles}), "padrao.docx")
    assert document.text.splitlines() == [
        "Oculto por padrão", "Oculto pelo nome", "Estilo inexistente", "Mostrado"]
    hidden = ("Oculto por padrão", "Oculto pelo nome", "Estilo inexistente")
    assert document.pages[0].hidden_chars == sum(map(len, hidden))


def test_default_character_style_hides(read) -> None:  # type: ignore[no-untyped-def]
    styles = _styles(_style("character", "Fonte", "<w:vanish/>", default=True))
    document = read(docx(para("Oculto"), {"styles.xml": styles}), "caractere.docx")
    assert document.pages[0].hidden_chars == len("Oculto")


def test_document_defaults_hide_unless_a_style_or_run_shows(read) -> None:  # type: ignore[no-untyped-def]
    styles = _styles(_style("paragraph", "Mostra", "<w:vanish w:val='0'/>"), defaults="<w:vanish/>")
    shown = '<w:r><w:rPr><w:vanish w:val="false"/></w:rPr><w:t>visto</w:t></w:r>'
    body = para("Tudo oculto") + para("Estilo mostra", "Mostra") + f"<w:p>{shown}</w:p>"
    document = read(docx(body, {"styles.xml": styles}), "padroes.docx")
    assert document.text.splitlines() == ["Tudo oculto", "Estilo mostra", "visto"]
    assert document.pages[0].hidden_chars == len("Tudo oculto")
