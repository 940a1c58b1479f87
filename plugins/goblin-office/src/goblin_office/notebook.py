"""Jupyter notebooks (``.ipynb``): the cells a reader sees, not the JSON that holds them.

Read as JSON text, a notebook is its escaped sources, its metadata and the base64 of
every plot it shows, which can be nearly all of the file. Here each cell is a block in
order: Markdown cells with their headings and list items, code cells as code, and
what the cells printed: streams, plain-text results, errors (the terminal's colour
codes taken out). Pictures, HTML twins of plain results and widget state are left out.
nbformat 4 and 3 (cells inside worksheets) are read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.model import Block, FileType, PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.structured import markdown_blocks

_FIRST_KEY = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"(cells|worksheets|metadata|nbformat)"')
# the terminal's escape sequences: colours and cursor moves (CSI), and titles and links
# (OSC, ended by BEL or ST) as IPython and rich write them
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?")
#: what a result shows as text, best first (a plot's text/plain is only its repr)
_TEXT_RESULTS = ("text/plain", "text/markdown", "text/latex")
#: a widget's view (a progress bar, a slider), drawn from the widget state
_WIDGET = "application/vnd.jupyter.widget-view+json"


class NotebookSniffer(BaseEngine):
    """A notebook by its JSON: Jupyter writes its keys sorted, ``cells`` (nbformat 4) or
    ``metadata`` then ``nbformat`` (3) first; any JSON object named ``.ipynb`` too."""

    name = "office.ipynb_sniffer"
    priority = 50

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        first = _FIRST_KEY.match(head)
        if first is None:
            return None
        named = source.extension == "ipynb"
        versioned = b'"nbformat"' in head and (b'"cells"' in head or b'"worksheets"' in head)
        if named or versioned or (first.group(1) == b"cells" and b'"cell_type"' in head):
            return FileType(fmt.IPYNB, "ipynb", 0.9)
        return None


class NotebookParser(BaseEngine):
    """Jupyter notebooks: Markdown and code cells, and what they printed."""

    name = "office.ipynb"
    formats = (fmt.IPYNB,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        name = source.display_name
        data = source.bytes()
        left_out = ""
        try:
            notebook = json.loads(data)
        except (ValueError, RecursionError) as exc:  # RecursionError: nested too deep
            # a notebook cut short (a download or a save that stopped) keeps the cells
            # written before the cut: Jupyter writes "cells" first
            notebook = {"cells": _whole_cells(data)}
            if not notebook["cells"]:
                raise CorruptDocument(f"the notebook is not valid JSON ({exc})",
                                      file=name) from exc
            left_out = (f"the notebook is not valid JSON ({exc}): read up to the "
                        f"damage, {len(notebook['cells']):,} whole cell(s)")
        if not isinstance(notebook, dict):
            raise CorruptDocument("the notebook is not a JSON object", file=name)
        blocks = [block for cell in _cells(notebook) for block in _cell_blocks(cell)]
        text = "\n\n".join(b.text for b in blocks)
        document = TextDocument([PageContent(number=1, text=text, blocks=tuple(blocks))],
                                metadata=_metadata(notebook))
        document.left_out = left_out
        return document


_CELLS_OPEN = re.compile(r'"cells"\s*:\s*\[')
_BETWEEN_CELLS = re.compile(r"[\s,]*")


def _whole_cells(data: bytes) -> list[Any]:
    """The cells of a damaged notebook's first cell list that are whole JSON values,
    up to the first that is not (a key in quotes cannot stand inside a JSON string, so
    the first ``"cells": [`` opens the list: nbformat 4's, or nbformat 3's first
    worksheet's)."""
    text = data.decode("utf-8", "replace").removeprefix("\ufeff")
    opening = _CELLS_OPEN.search(text)
    if opening is None:
        return []
    decoder = json.JSONDecoder()
    cells: list[Any] = []
    position = opening.end()
    while True:
        position = _BETWEEN_CELLS.match(text, position).end()  # type: ignore[union-attr]
        try:
            cell, position = decoder.raw_decode(text, position)
        except (ValueError, RecursionError):
            return cells
        cells.append(cell)


def _cells(notebook: dict[str, Any]) -> Iterator[dict[str, Any]]:
    cells = notebook.get("cells")
    if cells is None:  # nbformat 3: cells inside worksheets
        cells = [c for sheet in _list(notebook.get("worksheets"))
                 if isinstance(sheet, dict) for c in _list(sheet.get("cells"))]
    yield from (cell for cell in _list(cells) if isinstance(cell, dict))


def _cell_blocks(cell: dict[str, Any]) -> list[Block]:
    kind = cell.get("cell_type")
    # nbformat 3 keeps a code cell's source in "input"
    source = _joined(cell.get("source", cell.get("input")))
    if not source.strip() and kind != "code":
        return []
    if kind == "markdown":
        return markdown_blocks(source)
    if kind == "heading":  # nbformat 3
        level = cell.get("level")
        return [Block("heading", source.strip(),
                      level if isinstance(level, int) and 0 < level <= 6 else 1)]
    if kind != "code":
        return [Block("paragraph", source.strip("\n"))]
    blocks = [Block("code", source.strip("\n"))] if source.strip() else []
    blocks += [Block("code", text) for text in _outputs(cell.get("outputs"))]
    return blocks


def _outputs(outputs: Any) -> Iterator[str]:
    for output in _streams_joined(_list(outputs)):
        if not isinstance(output, dict):
            continue
        kind = output.get("output_type")
        if kind == "stream":
            text = _as_shown(_ANSI.sub("", _joined(output.get("text"))))
        elif kind in ("error", "pyerr"):
            trace = _joined(output.get("traceback"), "\n")
            text = trace or f"{_joined(output.get('ename'))}: {_joined(output.get('evalue'))}"
        else:  # execute_result, display_data; nbformat 3's pyout keeps its data in itself
            data = output.get("data")
            data = data if isinstance(data, dict) else _nbformat3_data(output)
            if any(str(kind).startswith("image/") or kind == _WIDGET for kind in data):
                # a picture or a widget: its text/plain is only a name (<Figure size
                # 640x480>, HBox(children=(FloatProgress(...))))
                continue
            text = _result_text(data)
        text = _ANSI.sub("", text).strip("\n")
        if text.strip():
            yield text


def _streams_joined(outputs: list[Any]) -> Iterator[Any]:
    """The outputs with each run of consecutive stream outputs of one stream (stdout,
    stderr) joined into one, as Jupyter shows them: a progress line a later output
    rewrites with a carriage return belongs to the same text."""
    run: dict[str, Any] | None = None
    pieces: list[str] = []
    for output in outputs:
        if (run is not None and isinstance(output, dict)
                and output.get("output_type") == "stream"
                and _stream_name(output) == _stream_name(run)):
            pieces.append(_joined(output.get("text")))
            continue
        if run is not None:
            yield {**run, "text": "".join(pieces)}
            run = None
        if isinstance(output, dict) and output.get("output_type") == "stream":
            run, pieces = output, [_joined(output.get("text"))]
        else:
            yield output
    if run is not None:
        yield {**run, "text": "".join(pieces)}


def _stream_name(output: dict[str, Any]) -> Any:
    """Which stream an output was printed on: ``name`` (nbformat 4), ``stream`` (3)."""
    return output.get("name", output.get("stream"))


_CARRIAGE_RETURNS = re.compile(r"\r+\n")


def _as_shown(text: str) -> str:
    """Stream text as Jupyter shows it: what a carriage return goes back over is
    overwritten by what follows it (a progress bar redrawn a hundred times shows its
    last state once), and a backspace takes out the character before it.

    >>> _as_shown("  0%|    | 0/3\\r100%|####| 3/3\\nok\\r\\n")
    '100%|####| 3/3\\nok\\n'
    >>> _as_shown("loading...\\rdone\\nab\\bc")
    'doneing...\\nac'
    """
    if "\r" not in text and "\b" not in text:
        return text
    lines = _CARRIAGE_RETURNS.sub("\n", text).split("\n")
    return "\n".join(_backspaced(_overwritten(line)) for line in lines)


def _overwritten(line: str) -> str:
    """A line that carriage returns go back over, as it ends up: each piece after a
    return written over the start of what stood before it. Read from the last piece
    back, each earlier piece adding only what stands past the longest later one, so a
    line of a million returns takes linear time."""
    if "\r" not in line:
        return line
    shown: list[str] = []
    covered = 0
    for piece in reversed(line.split("\r")):
        if len(piece) > covered:
            shown.append(piece[covered:])
            covered = len(piece)
    return "".join(shown)


def _backspaced(line: str) -> str:
    """A line with each backspace taking out the character before it (one at the
    line's start takes out nothing)."""
    if "\b" not in line:
        return line
    kept: list[str] = []
    for character in line:
        if character != "\b":
            kept.append(character)
        elif kept:
            kept.pop()
    return "".join(kept)


#: A result's text/plain that is only its object's default name, as Python writes one
#: (``<IPython.core.display.HTML object>``, ``<pandas.io.formats.style.Styler at 0x7f..>``)
_OBJECT_NAME = re.compile(r"\A\s*<[\w.]+ (?:object(?: at 0x[0-9a-fA-F]+)?|at 0x[0-9a-fA-F]+)>\s*\Z")


def _result_text(data: dict[str, Any]) -> str:
    """What a result shows as text: its plain text, else its Markdown or LaTeX, else the
    visible text of its HTML. A plain text that only names its object stands behind the
    other forms: an HTML or Markdown display (``display(HTML(...))``, a styled table)
    keeps what it shows in those."""
    plain = _joined(data.get("text/plain"))
    if plain.strip() and not _OBJECT_NAME.match(plain):
        return plain
    shown = next((_joined(data[m]) for m in _TEXT_RESULTS[1:] if m in data), "")
    if not shown.strip() and "text/html" in data:
        from goblin_office.html_tree import html_page  # BeautifulSoup, loaded when needed

        shown = html_page(_joined(data["text/html"]))[0].text
    return shown if shown.strip() else plain


#: nbformat 3's names for the forms of a result, kept in the output itself
_NBFORMAT3_FORMS = {"text": "text/plain", "markdown": "text/markdown", "latex": "text/latex",
                    "html": "text/html", "png": "image/png", "jpeg": "image/jpeg",
                    "svg": "image/svg+xml", "pdf": "application/pdf"}


def _nbformat3_data(output: dict[str, Any]) -> dict[str, Any]:
    """An nbformat 3 result (``pyout``, ``display_data``) as nbformat 4's ``data``: its
    forms under their MIME types (``text`` is ``text/plain``, ``png`` ``image/png``)."""
    return {_NBFORMAT3_FORMS.get(key, key): value for key, value in output.items()}


def _joined(value: Any, between: str = "") -> str:
    """A notebook string, stored whole or as a list of lines."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return between.join(v for v in value if isinstance(v, str))
    return ""


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _metadata(notebook: dict[str, Any]) -> dict[str, Any]:
    meta = notebook.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    found: dict[str, Any] = {}
    kernel = meta.get("kernelspec")
    language = meta.get("language_info")
    if isinstance(kernel, dict) and isinstance(kernel.get("display_name"), str):
        found["kernel"] = kernel["display_name"]
    if isinstance(language, dict) and isinstance(language.get("name"), str):
        found["programming_language"] = language["name"]
    if isinstance(meta.get("title"), str):
        found["title"] = meta["title"]
    authors = meta.get("authors")
    if isinstance(authors, list):
        names = [a.get("name") for a in authors if isinstance(a, dict)]
        found["author"] = "; ".join(n for n in names if isinstance(n, str) and n)
    if isinstance(notebook.get("nbformat"), int):
        found["nbformat"] = notebook["nbformat"]
    return {k: v for k, v in found.items() if v not in ("", None)}
