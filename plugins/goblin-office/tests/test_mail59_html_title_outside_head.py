"""A page's title is shown in the browser's tab, never among the page's words, wherever
the page writes it: after the head's end, or with no head at all in a page read flat.
The metadata keeps it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from goblin_office.html_tree import MAX_TREE_TAGS


@pytest.mark.parametrize("page", [
    "<html><body><title>Edital 12</title><p>Prazo de 30 dias.</p></body></html>",
    "<html><title>Edital 12</title><body><p>Prazo de 30 dias.</p></body></html>",
    "<title>Edital 12</title><p>Prazo de 30 dias.</p>",
])
@pytest.mark.parametrize("flat", [False, True])
def test_a_title_outside_the_head_is_not_page_text(read: Callable[..., Any], page: str,
                                                   flat: bool) -> None:
    if flat:  # past the tags a tree is built for, the page is read in one flat pass
        page = page.replace("<p>", "<span></span>" * (MAX_TREE_TAGS + 1) + "<p>", 1)
    document = read(page.encode(), "edital.html")
    assert document.text == "Prazo de 30 dias."
    assert flat or document.metadata["title"] == "Edital 12"
