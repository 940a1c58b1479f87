"""nbformat 3 notebooks keep a result's forms in the output itself (``text``, ``html``,
``png``): the text a cell's result printed is read, as nbformat 4's ``text/plain`` is,
and a plot's stays out."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

Read = Callable[..., Any]
PLOT = base64.b64encode(bytes(range(256)) * 16).decode()


def test_an_nbformat_3_result_s_text_is_read_and_a_plot_s_is_not(read: Read) -> None:
    old = {"metadata": {"name": "antigo"}, "nbformat": 3, "nbformat_minor": 0,
           "worksheets": [{"cells": [
               {"cell_type": "code", "input": ["soma(2, 40)"], "language": "python",
                "outputs": [{"output_type": "pyout", "prompt_number": 1, "metadata": {},
                             "text": ["42"], "html": ["<b>42</b>"]}]},
               {"cell_type": "code", "input": ["tabela"], "language": "python",
                "outputs": [{"output_type": "display_data", "metadata": {},
                             "text": ["   edital  valor\n", "0  12/2024   1200"]}]},
               {"cell_type": "code", "input": ["plot()"], "language": "python",
                "outputs": [{"output_type": "display_data", "metadata": {}, "png": PLOT,
                             "text": ["<matplotlib.figure.Figure at 0x10>"]}]},
           ]}]}
    document = read(json.dumps(old).encode(), "antigo.ipynb")
    assert [b.text for b in document.pages[0].blocks] == [
        "soma(2, 40)", "42", "tabela", "   edital  valor\n0  12/2024   1200", "plot()"]
