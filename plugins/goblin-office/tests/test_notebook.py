"""Jupyter notebooks: the cells and what they printed, never the JSON or the plots."""

from __future__ import annotations

import base64
import json

import pytest

from goblin_core.errors import CorruptDocument
from samples import notebook

PLOT = base64.b64encode(bytes(range(256)) * 64).decode()
CELLS = [
    {"cell_type": "markdown", "metadata": {},
     "source": ["# Análise de licitações\n", "\n", "Lê os **editais** de 2024.\n", "\n",
                "- primeiro item\n", "- segundo item"]},
    {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [
        {"output_type": "stream", "name": "stdout", "text": ["total: 1200\n", "média: 600\n"]},
        {"output_type": "execute_result", "execution_count": 1, "metadata": {},
         "data": {"text/plain": ["   edital  valor\n", "0  12/2024   1200"],
                  "text/html": ["<table><tr><td>12/2024</td></tr></table>"]}},
        {"output_type": "display_data", "metadata": {},
         "data": {"image/png": PLOT, "text/plain": ["<Figure size 640x480 with 1 Axes>"]}},
        {"output_type": "error", "ename": "KeyError", "evalue": "'valor'",
         "traceback": ["\u001b[0;31mKeyError\u001b[0m                Traceback",
                       "\u001b[0;31mKeyError\u001b[0m: 'valor'"]},
     ], "source": "import pandas as pd\ndf = pd.read_csv('editais.csv')\ndf.head()"},
    {"cell_type": "raw", "metadata": {}, "source": "texto cru"},
    {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": []},
]


def test_cells_and_their_printed_output_are_read_in_order(read) -> None:  # type: ignore[no-untyped-def]
    document = read(notebook(CELLS, kernelspec={"display_name": "Python 3", "name": "python3"},
                             language_info={"name": "python"}), "analise.ipynb")
    assert document.mime == "application/x-ipynb+json"
    assert document.parsed_by == ("office.ipynb",)
    page = document.pages[0]
    assert [(b.kind, b.text.splitlines()[0]) for b in page.blocks] == [
        ("heading", "Análise de licitações"),
        ("paragraph", "Lê os **editais** de 2024."),
        ("list_item", "primeiro item"), ("list_item", "segundo item"),
        ("code", "import pandas as pd"),
        ("code", "total: 1200"),
        ("code", "   edital  valor"),
        ("code", "KeyError                Traceback"),  # the terminal's colours taken out
        ("paragraph", "texto cru"),
    ]
    assert "média: 600" in page.text and "KeyError: 'valor'" in page.text
    assert document.raw_metadata["kernel"] == "Python 3"
    assert document.raw_metadata["programming_language"] == "python"


def test_plots_and_html_twins_are_never_text(read) -> None:  # type: ignore[no-untyped-def]
    text = read(notebook(CELLS), "analise.ipynb").text
    assert PLOT[:40] not in text and "<Figure" not in text and "<table>" not in text
    assert '"cell_type"' not in text and "\\n" not in text
    assert len(text) < 600


def test_a_notebook_is_known_by_its_json_whatever_its_name(read) -> None:  # type: ignore[no-untyped-def]
    data = notebook(CELLS)
    assert read(data, "").mime == "application/x-ipynb+json"
    assert read(data, "analise.json").mime == "application/x-ipynb+json"
    # other JSON stays JSON
    assert read(json.dumps({"cells": [1, 2], "rows": 3}).encode(), "table.json").mime \
        == "application/json"


def test_an_nbformat_3_notebook_reads_its_worksheets(read) -> None:  # type: ignore[no-untyped-def]
    old = {"metadata": {"name": "antigo"}, "nbformat": 3, "nbformat_minor": 0,
           "worksheets": [{"cells": [
               {"cell_type": "heading", "level": 2, "metadata": {}, "source": ["Resumo"]},
               {"cell_type": "code", "input": ["print(42)"], "language": "python",
                "outputs": [{"output_type": "stream", "stream": "stdout", "text": ["42\n"]},
                            {"output_type": "pyout", "text": ["'ok'"], "png": PLOT}]},
           ]}]}
    document = read(json.dumps(old).encode(), "antigo.ipynb")
    assert [(b.kind, b.text, b.level) for b in document.pages[0].blocks] == [
        ("heading", "Resumo", 2), ("code", "print(42)", 0), ("code", "42", 0)]


@pytest.mark.parametrize(("data", "message"), [
    (b'{"cells": [{"cell_type": "markdown", "source": "cut', "not valid JSON"),
    (b'{"cells": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "not valid JSON"),
], ids=["cut-short", "nested-too-deep"])
def test_a_broken_notebook_names_the_file_and_the_cause(read, data: bytes,  # type: ignore[no-untyped-def]
                                                        message: str) -> None:
    with pytest.raises(CorruptDocument, match=rf"broken\.ipynb.*{message}"):
        read(data, "broken.ipynb")


def test_cells_of_the_wrong_shape_are_passed_over(read) -> None:  # type: ignore[no-untyped-def]
    odd = {"cells": [7, "x", {"cell_type": "code", "source": 3, "outputs": "none"},
                     {"cell_type": "markdown", "source": ["ainda lido"]}],
           "metadata": [], "nbformat": "4"}
    document = read(json.dumps(odd).encode(), "odd.ipynb")
    assert document.text == "ainda lido"
