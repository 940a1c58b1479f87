"""Markdown (files and notebook cells): a fenced code block is one code block, its
``# comments`` and ``- lines`` no headings or list items, its character references as
written; an underlined line is a heading."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from samples import notebook

Read = Callable[..., Any]
GUIDE = """Instalação
==========

Rode:

```bash
# instala as dependências
pip install goblin &amp;&amp; echo ok
- não é item
```

Uso
---

- primeiro passo
"""


def _blocks(document: Any) -> list[tuple[str, str, int]]:
    return [(b.kind, b.text, b.level) for b in document.pages[0].blocks]


def test_a_fenced_code_block_is_code_and_underlined_lines_are_headings(read: Read) -> None:
    document = read(GUIDE.encode(), "guia.md")
    assert _blocks(document) == [
        ("heading", "Instalação", 1), ("paragraph", "Rode:", 0),
        ("code", "# instala as dependências\npip install goblin &amp;&amp; echo ok\n"
                 "- não é item", 0),
        ("heading", "Uso", 2), ("list_item", "primeiro passo", 0)]


def test_a_notebook_markdown_cell_s_code_block_is_code(read: Read) -> None:
    cell = {"cell_type": "markdown", "metadata": {},
            "source": ["Exemplo:\n", "```python\n", "# soma\n", "x = 1 + 1\n", "```"]}
    document = read(notebook([cell]), "exemplo.ipynb")
    assert _blocks(document) == [("paragraph", "Exemplo:", 0),
                                 ("code", "# soma\nx = 1 + 1", 0)]
