"""A notebook cell showing a widget (a progress bar, a slider) prints no text of it: its
text/plain twin is only the widget's name, as a plot's is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from samples import notebook

Read = Callable[..., Any]


def test_a_widget_s_placeholder_text_is_not_read(read: Read) -> None:
    cell = {"cell_type": "code", "execution_count": 1, "metadata": {},
            "source": "for lote in tqdm(lotes): processa(lote)",
            "outputs": [
                {"output_type": "display_data", "metadata": {}, "data": {
                    "application/vnd.jupyter.widget-view+json": {
                        "model_id": "5f1c", "version_major": 2, "version_minor": 0},
                    "text/plain": ["HBox(children=(FloatProgress(value=0.0, max=3.0),))"]}},
                {"output_type": "stream", "name": "stdout", "text": ["3 lotes processados\n"]}]}
    document = read(notebook([cell]), "lotes.ipynb")
    assert document.text == "for lote in tqdm(lotes): processa(lote)\n\n3 lotes processados"
