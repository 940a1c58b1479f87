"""Inline frames written in their ``srcdoc`` attribute, nested in each other past the depth
a page is walked to, keep their text (it was left out without a word)."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

Read = Callable[..., Any]


def test_a_frame_nested_a_hundred_deep_keeps_its_text(read: Read) -> None:
    inner = "<p>Texto do quadro</p>"
    for _ in range(100):
        inner = f'<iframe srcdoc="{html.escape(inner)}"></iframe>'
    page = f"<html><body><p>Topo</p>{inner}<p>Fim</p></body></html>"
    assert read(page.encode(), "quadros.html").text.splitlines() == [
        "Topo", "Texto do quadro", "Fim"]
