"""What a notebook cell printed reads as Jupyter shows it: a progress bar redrawn with
carriage returns shows its last state once, backspaces take out what they go back over,
and terminal escape sequences (colours, links) leave no control characters behind."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


def _notebook(*outputs: dict[str, Any]) -> bytes:
    cell = {"cell_type": "code", "source": "treina(modelo)", "metadata": {},
            "execution_count": 1, "outputs": list(outputs)}
    return json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4,
                       "nbformat_minor": 5}).encode()


def _stream(text: str | list[str], name: str = "stdout") -> dict[str, Any]:
    return {"output_type": "stream", "name": name, "text": text}


def _printed(document: Any) -> list[str]:
    return [block.text for block in document.pages[0].blocks][1:]


def test_a_progress_bar_shows_its_last_state(read: Callable[..., Any]) -> None:
    # tqdm redraws its bar on stderr, padding each state to the width of the one before
    states = [f"{n * 10:3d}%|{'#' * n:<10}| {n}/10" for n in range(11)]
    document = read(_notebook(_stream("\r".join(states) + "\n", "stderr")), "treino.ipynb")
    assert _printed(document) == ["100%|##########| 10/10"]
    assert "\r" not in document.text


def test_returns_across_outputs_of_one_stream(read: Callable[..., Any]) -> None:
    # Keras writes each redraw of an epoch's line as an output of its own
    document = read(_notebook(
        _stream("Epoch 1/2\n"), _stream("\r1/5 [=>......] - loss: 0.91"),
        _stream("\r5/5 [========] - loss: 0.52\n"), _stream("aviso\n", "stderr"),
        _stream("Epoch 2/2\r\n")), "treino.ipynb")
    assert _printed(document) == ["Epoch 1/2\n5/5 [========] - loss: 0.52", "aviso",
                                  "Epoch 2/2"]


def test_a_backspace_takes_out_the_character_before_it(read: Callable[..., Any]) -> None:
    document = read(_notebook(_stream(["Carregando|\b/\b-\b\\\bpronto\n"])), "x.ipynb")
    assert _printed(document) == ["Carregandopronto"]


def test_terminal_links_leave_no_escape_characters(read: Callable[..., Any]) -> None:
    link = "\x1b]8;id=1;file:///home/ana/dados.py\x1b\\dados.py\x1b]8;;\x1b\\"
    error = {"output_type": "error", "ename": "ValueError", "evalue": "coluna",
             "traceback": ["\x1b[0;31mValueError\x1b[0m: coluna", f"File {link}:3"]}
    titled = _stream("\x1b]0;treino\x07época 1\n")
    document = read(_notebook(error, titled), "x.ipynb")
    assert _printed(document) == ["ValueError: coluna\nFile dados.py:3", "época 1"]
    assert "\x1b" not in document.text


def test_nbformat3_streams_are_told_apart_by_their_stream(read: Callable[..., Any]) -> None:
    cell = {"cell_type": "code", "input": "treina()", "language": "python", "outputs": [
        {"output_type": "stream", "stream": "stdout", "text": "epoca 1\r"},
        {"output_type": "stream", "stream": "stderr", "text": "aviso\n"},
        {"output_type": "stream", "stream": "stdout", "text": "epoca 2\n"}]}
    notebook = {"metadata": {}, "nbformat": 3, "nbformat_minor": 0,
                "worksheets": [{"cells": [cell], "metadata": {}}]}
    document = read(json.dumps(notebook).encode(), "antigo.ipynb")
    assert _printed(document) == ["epoca 1", "aviso", "epoca 2"]
