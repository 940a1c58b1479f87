"""An RTF that ends inside open groups was most likely cut short: the report says so."""

from __future__ import annotations

from collections.abc import Callable

from goblin_core import Document

Read = Callable[..., Document]

_WHOLE = (rb"{\rtf1\ansi{\fonttbl{\f0 Arial;}}\f0 Primeiro par\'e1grafo.\par "
          rb"{\b Segundo par\'e1grafo em negrito.}\par}")


def _cut_warnings(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings
            if w.kind == "CorruptDocument" and "open group" in w.message]


def test_an_rtf_cut_inside_a_group_keeps_its_text_and_warns(read: Read) -> None:
    cut = _WHOLE[: _WHOLE.index(b"negrito")]
    document = read(cut, "cortado.rtf")
    assert "Primeiro parágrafo." in document.text
    assert "Segundo parágrafo em" in document.text
    (message,) = _cut_warnings(document)
    assert "2 open group(s)" in message


def test_a_whole_rtf_gives_no_cut_warning(read: Read) -> None:
    document = read(_WHOLE, "inteiro.rtf")
    assert "Segundo parágrafo em negrito." in document.text
    assert _cut_warnings(document) == []
