"""djvu.djvulibre drawing the pages of a long book for OCR, one after the other."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
from conftest import DjvuPage, MakeDjvu

from goblin_core import Source, default_registry
from goblin_djvu.parser import DjvuDocument, DjvuParser


def counted_runs(parsed: DjvuDocument, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of each DjVuLibre tool ``parsed`` runs from now on, in order."""
    run = parsed.tools.run
    tools: list[str] = []

    def counted(tool: str, *arguments: str, **options: Any) -> Any:
        tools.append(tool)
        return run(tool, *arguments, **options)

    monkeypatch.setattr(parsed.tools, "run", counted)
    return tools


def test_pages_drawn_one_after_another_share_one_sizing_run(
    make_djvu: MakeDjvu, monkeypatch: pytest.MonkeyPatch
) -> None:
    """djvused reads the whole directory on each run (0.2 s in a 1,500-page book): the
    sizes of the pages drawn next are read with the first."""
    book = make_djvu([DjvuPage(drawn=[f"p{n}"], size=(200, 260)) for n in range(1, 11)])
    subprocess.run(["djvused", str(book), "-e", "select 4; set-rotation 1; save"], check=True)
    with DjvuParser().open(Source.from_path(book), default_registry().config()) as parsed:
        tools = counted_runs(parsed, monkeypatch)
        sizes = [parsed.render(n, 150).size for n in range(1, 11)]
    assert tools.count("djvused") == 1 and tools.count("ddjvu") == 10
    assert sizes == [(100, 130)] * 3 + [(130, 100)] + [(100, 130)] * 6
