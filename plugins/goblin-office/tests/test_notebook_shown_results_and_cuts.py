"""Notebook results shown only as HTML or Markdown, and notebooks cut short."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from goblin_core import Document
from goblin_core.errors import CorruptDocument
from samples import notebook

Read = Callable[..., Document]


def _shown(*results: dict[str, Any]) -> dict[str, Any]:
    """A code cell whose outputs show each of ``results`` (MIME type -> form)."""
    outputs = [{"output_type": "display_data", "metadata": {}, "data": data} for data in results]
    return {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": outputs,
            "source": "mostra()"}


def test_a_result_shown_as_html_or_markdown_is_read_not_its_objects_name(read: Read) -> None:
    cell = _shown(
        {"text/html": ["<table><tr><td>Receita</td><td>1200</td></tr></table>"],
         "text/plain": ["<IPython.core.display.HTML object>"]},
        {"text/html": "<div>Tabela estilizada</div>",
         "text/plain": "<pandas.io.formats.style.Styler at 0x7f1c2b3a4d50>"},
        {"text/markdown": "Total **aprovado**",
         "text/plain": "<IPython.core.display.Markdown object>"},
        {"text/html": ["<p>Somente em HTML</p>"]},
        # a plain text of its own stands, its HTML twin is not read
        {"text/html": "<b>gemeo</b>", "text/plain": "   valor\n0   1200"},
    )
    document = read(notebook([cell]), "exibe.ipynb")
    assert [block.text for block in document.pages[0].blocks] == [
        "mostra()", "Receita\t1200", "Tabela estilizada", "Total **aprovado**",
        "Somente em HTML", "   valor\n0   1200"]
    assert "object>" not in document.text and "gemeo" not in document.text


def test_a_notebook_cut_short_keeps_its_whole_cells_and_says_it_was_cut(read: Read) -> None:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": [f"Capitulo {n}"]}
             for n in range(1, 4)]
    data = notebook(cells)
    cut = data[: data.index(b"Capitulo 3") + 4]
    document = read(cut, "cortado.ipynb")
    assert document.text == "Capitulo 1\n\nCapitulo 2"
    assert document.report.truncated
    assert [(w.kind, "whole cell" in w.message) for w in document.report.warnings] == [
        ("Truncated", True)]


def test_a_notebook_damaged_before_its_first_whole_cell_still_fails(read: Read) -> None:
    data = notebook([{"cell_type": "markdown", "metadata": {}, "source": ["Unico"]}])
    with pytest.raises(CorruptDocument, match=r"vazio\.ipynb.*not valid JSON"):
        read(data[: data.index(b"Unico")], "vazio.ipynb")
