"""Web pages: what a video or audio element holds for browsers that cannot play it is
not read, a legend is a line of its own, hidden content nested past the walker's depth
stays hidden, and XHTML written with a namespace prefix reads as unprefixed XHTML."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Read = Callable[..., Any]


def test_what_video_and_audio_hold_for_old_browsers_is_not_read(read: Read) -> None:
    page = ("<html><body><p>Assista à sessão.</p><video controls src='sessao.mp4'>"
            "Seu navegador não reproduz vídeo.</video><audio src='a.mp3'><p>Sem áudio.</p>"
            "</audio><p>Fim.</p></body></html>")
    assert read(page.encode(), "sessao.html").text == "Assista à sessão.\nFim."


def test_a_legend_is_a_line_of_its_own(read: Read) -> None:
    page = "<html><body><fieldset><legend>Endereço</legend>Rua das Flores, 12</fieldset>"
    assert read(page.encode(), "form.html").text.splitlines() == [
        "Endereço", "Rua das Flores, 12"]


def test_hidden_content_nested_past_the_walker_s_depth_stays_hidden(read: Read) -> None:
    deep = 250
    page = ("<html><body>" + "<div>" * deep + "<p>Texto visível</p>"
            "<template><p>modelo oculto</p></template>"
            "<div style='display:none'><p>bloco oculto</p></div>"
            "<p>mais <b>um</b></p>" + "</div>" * deep + "</body></html>")
    assert read(page.encode(), "fundo.html").text == "Texto visível mais um"


def test_xhtml_with_a_namespace_prefix_reads_as_xhtml(read: Read) -> None:
    page = ('<?xml version="1.0" encoding="utf-8"?>'
            '<h:html xmlns:h="http://www.w3.org/1999/xhtml"><h:head><h:title>Título</h:title>'
            "<h:style>p { color: red }</h:style><h:script>var segredo = 1;</h:script>"
            "</h:head><h:body><h:h1>Capítulo</h:h1><h:p>Primeiro parágrafo.</h:p>"
            "<h:p>Segundo parágrafo.</h:p></h:body></h:html>")
    document = read(page.encode(), "capitulo.xhtml")
    assert document.text.splitlines() == ["Capítulo", "Primeiro parágrafo.",
                                          "Segundo parágrafo."]
    assert document.metadata["title"] == "Título"
