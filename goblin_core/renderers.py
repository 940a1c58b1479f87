"""Built-in renderers: text, markdown, html, json and jsonl output of Documents."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO

from goblin_core.config import Config
from goblin_core.engines import BaseEngine
from goblin_core.errors import GoblinError
from goblin_core.model import Block, Document, Page, Table

#: Characters XML 1.0 forbids (C0 controls but tab/newline/return, U+FFFE, U+FFFF):
#: PDF text layers carry them, and one would make the HTML unparsable as XHTML.
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


#: Characters handed to a text stream at a time: a stream encodes each string it is given
#: whole, so a 70 MB page written at once costs another 70 MB of bytes.
WRITE_SLICE = 1 << 20


def write_sliced(out: TextIO, pieces: Iterable[str]) -> None:
    """Write ``pieces`` to ``out``, each long one in slices of WRITE_SLICE characters."""
    for piece in pieces:
        if len(piece) <= WRITE_SLICE:
            out.write(piece)
            continue
        for start in range(0, len(piece), WRITE_SLICE):
            out.write(piece[start:start + WRITE_SLICE])


def write_rendered(renderer: Any, documents: Sequence[Document], config: Config,
                   out: TextIO) -> None:
    """Write what ``renderer.render(documents, config)`` returns to ``out``.

    A renderer with a ``write(documents, config, out)`` method streams its output
    instead, without the whole of it ever being one string: a document of 70 MB of
    text rendered whole as JSON held its text three more times.
    """
    name = getattr(renderer, "name", type(renderer).__name__)
    try:
        write = getattr(renderer, "write", None)
        if callable(write):
            write(documents, config, out)
            return
        text = renderer.render(documents, config)
    except OSError:
        raise  # the output refused it (a closed pipe, a full disk): not the renderer's fault
    except Exception as exc:  # a renderer plugin's bug: one clear error, not a traceback
        raise GoblinError(f"renderer {name} failed: {type(exc).__name__}: {exc}") from exc
    if not isinstance(text, str):
        raise GoblinError(f"renderer {name} returned {type(text).__name__}, not text")
    write_sliced(out, [text])


def escape_html(text: str, *, quote: bool = True) -> str:
    """HTML-escaped text with the characters XML forbids removed."""
    return html.escape(_XML_FORBIDDEN.sub("", text), quote=quote)


def file_tag(name: str) -> str:
    """The GoblinTools block header, with quotes, backslashes and newlines escaped, and
    the other control characters as ``\\xNN`` (a file name's escape codes must not reach
    the terminal that shows the output).

    >>> file_tag('a "b"\\nc.pdf')
    'file_path_pwd:"a \\\\"b\\\\"\\\\nc.pdf"'
    >>> file_tag("bell\\x07.txt")
    'file_path_pwd:"bell\\\\x07.txt"'
    """
    escaped = (
        name.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    )
    if _TAG_CONTROL.search(escaped):
        escaped = _TAG_CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", escaped)
    return f'file_path_pwd:"{escaped}"'


_TAG_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def comment_tag(name: str) -> str:
    """``file_tag`` as an HTML comment, which a name holding ``-->`` must not close early.

    >>> comment_tag("x--><b>.txt")
    '<!-- file_path_pwd:"x-\\\\x2d><b>.txt" -->'
    """
    return "<!-- " + file_tag(name).replace("--", "-\\x2d") + " -->"


def _leaves(documents: Sequence[Document]) -> list[Document]:
    """Every document with pages (or errors), depth-first, archives unfolded."""
    found: list[Document] = []
    for document in documents:
        for doc in document.walk():
            if doc.pages or doc.report.errors or not doc.children:
                found.append(doc)
    return found


def page_text_with_tables(page: Page, tables_inline: bool) -> str:
    """A page's text, then (when asked) each of its tables as a marked Markdown table."""
    if not tables_inline or not page.tables:
        return page.text
    parts = [page.text]
    for table in page.tables:
        markdown = table.to_markdown()
        if markdown:
            parts.append(f"<!-- table page={table.page} index={table.index} -->\n{markdown}")
    return "\n\n".join(p for p in parts if p)


class TextRenderer(BaseEngine):
    """One block per document headed ``file_path_pwd:"name"``."""

    name = "render.text"
    format = "text"

    def render(self, documents: Sequence[Document], config: Config) -> str:
        return "".join(self._pieces(documents, config))

    def write(self, documents: Sequence[Document], config: Config, out: TextIO) -> None:
        write_sliced(out, self._pieces(documents, config))

    def _pieces(self, documents: Sequence[Document], config: Config) -> Iterable[str]:
        """The output in pieces, page texts as they are (not copied into one string)."""
        tables = bool(config.get("goblin", "tables"))
        first = True
        for doc in _leaves(documents):
            pieces = [file_tag(doc.name), "\n"]
            for number, page in enumerate(doc.pages):
                if number:
                    pieces.append(Document.PAGE_SEPARATOR)
                pieces.append(page_text_with_tables(page, tables))
            yield from ([] if first else ["\n\n"])
            yield from _rstripped(pieces)
            first = False
        if not first:
            yield "\n"


def _rstripped(pieces: list[str]) -> list[str]:
    """``pieces`` whose concatenation has its trailing whitespace removed."""
    while pieces:
        last = pieces[-1].rstrip()
        if last:
            pieces[-1] = last
            break
        pieces.pop()
    return pieces


def _block_markdown(block: Block) -> str:
    if block.kind == "heading":
        return "#" * max(1, min(block.level or 1, 6)) + " " + block.text
    if block.kind == "list_item":
        return f"- {block.text}"
    if block.kind == "figure":
        return f"> **Figure:** {block.text}"
    if block.kind in _MARKED:  # kept, but fenced so consumers can drop them
        return f"<!-- {block.kind} -->\n{block.text}\n<!-- /{block.kind} -->"
    return block.text


_MARKED = frozenset({"header", "footer", "artifact"})
#: CommonMark reads an ordered item's number of at most nine digits
_MAX_MARKDOWN_NUMBER = 999_999_999


class _MarkdownBlocks:
    """Markdown of a page's blocks in turn. A list item whose depth is known is indented
    under the item before it that is less deep (so the list nests as the document's
    does), and written as an ordered item when it has a number, with the number the
    document shows (``3.``; ``3)`` for a label closed by a parenthesis)."""

    def __init__(self) -> None:
        # the open items, outermost first: (depth, column their content starts at)
        self._open: list[tuple[int, int]] = []

    def __call__(self, block: Block) -> str:
        if block.kind != "list_item" or block.level < 1:
            self._open.clear()
            return _block_markdown(block)
        while self._open and self._open[-1][0] >= block.level:
            self._open.pop()
        indent = self._open[-1][1] if self._open else 0
        text = block.text
        if block.marker and text.startswith(block.marker):
            text = text[len(block.marker):].lstrip(" \t")
        if block.number is not None and 0 <= block.number <= _MAX_MARKDOWN_NUMBER:
            mark = f"{block.number}{')' if block.marker.endswith(')') else '.'}"
        else:
            mark = "-"
        content = indent + len(mark) + 1
        self._open.append((block.level, content))
        return " " * indent + mark + " " + text.replace("\n", "\n" + " " * content)


def _in_order(page: Page, block_text: Callable[[Block], str],
              table_text: Callable[[Table], str]) -> tuple[list[str], list[str]]:
    """Rendered blocks, a ``table`` block standing for the page's next table; then the
    tables no block placed (rendered after the blocks)."""
    tables = list(page.tables)
    parts = []
    for block in page.blocks:
        if block.kind == "table" and tables:
            parts.append(table_text(tables.pop(0)))
        else:
            parts.append(block_text(block))
    return parts, [table_text(t) for t in tables]


def page_markdown(page: Page) -> str:
    """A page as Markdown: its layout blocks when known, then its tables.

    A block of kind ``table`` stands for the page's next table, rendered in its place.
    """
    if not page.blocks:
        tables = [t.to_markdown() for t in page.tables]
        return "\n\n".join(p for p in [page.text, *tables] if p)
    parts, rest = _in_order(page, _MarkdownBlocks(), lambda t: t.to_markdown())
    return "\n\n".join(p for p in [*parts, *rest] if p)


class MarkdownRenderer(BaseEngine):
    """Markdown: a heading per document, headings and lists kept, tables as GFM tables."""

    name = "render.markdown"
    format = "markdown"

    def render(self, documents: Sequence[Document], config: Config) -> str:
        out = []
        for doc in _leaves(documents):
            pages = "\n\n".join(page_markdown(p) for p in doc.pages)
            out.append(f"{comment_tag(doc.name)}\n\n{pages}".rstrip())
        return "\n\n".join(out) + "\n" if out else ""


def _block_html(block: Block) -> str:
    text = escape_html(block.text)
    if block.kind == "heading":
        level = max(1, min(block.level or 1, 6))
        return f"<h{level}>{text}</h{level}>"
    if block.kind == "list_item":
        return f"<ul><li>{text}</li></ul>"
    if block.kind == "figure":
        return f"<figure><figcaption>{text}</figcaption></figure>"
    if block.kind in _MARKED:
        return f'<aside class="{block.kind}">{text}</aside>'
    if block.kind == "table" and block.text.startswith("|"):
        return _pipe_table_html(block.text)
    return f'<p class="{block.kind}">{text}</p>' if block.kind == "caption" else f"<p>{text}</p>"


def _pipe_table_html(markdown: str) -> str:
    """A Markdown pipe table (a table block with no detected table behind it) as HTML."""
    rows = []
    for line in markdown.splitlines():
        cells = [c.strip().replace("\\|", "|")
                 for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if cells and not all(set(c) <= {"-", ":", " "} and c for c in cells):
            rows.append(cells)
    body = []
    for index, cells in enumerate(rows):
        tag = "th" if index == 0 else "td"
        body.append("<tr>" + "".join(f"<{tag}>{escape_html(c)}</{tag}>" for c in cells) + "</tr>")
    return "<table>\n" + "\n".join(body) + "\n</table>"


_HTML_HEAD = ('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>goblin</title></head>\n'
              "<body>\n")
_HTML_TAIL = "\n</body></html>\n"


def _html_section(doc: Document) -> str:
    """One document's ``<section>``: its name, then a ``<div>`` per page."""
    pages = []
    for page in doc.pages:
        if page.blocks:
            parts, rest = _in_order(page, _block_html, lambda t: t.to_html())
            body, tables = "\n".join(parts), "\n".join(rest)
        else:
            paragraphs = [p for p in page.text.split("\n\n") if p]
            body = "\n".join(f"<p>{escape_html(p)}</p>" for p in paragraphs)
            tables = "\n".join(t.to_html() for t in page.tables)
        pages.append(
            f'<div class="page" data-page="{page.number}" data-status="{page.status}">'
            f"\n{body}\n{tables}\n</div>"
        )
    return (f'<section data-name="{escape_html(doc.name, quote=True)}">\n'
            f"<h1>{escape_html(doc.name)}</h1>\n" + "\n".join(pages) + "\n</section>")


class _HTMLStream:
    """The page ``HTMLRenderer.render`` makes of every document added, written as each is
    added: the head with the first, the end of the page on ``close``."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.started = False
        self.sections = 0

    def add(self, document: Document) -> None:
        if not self.started:
            self.out.write(_HTML_HEAD)
            self.started = True
        for doc in _leaves([document]):
            self.out.write("\n" if self.sections else "")
            write_sliced(self.out, [_html_section(doc)])
            self.sections += 1

    def close(self) -> None:
        if self.started:
            self.out.write(_HTML_TAIL)


class HTMLRenderer(BaseEngine):
    """A well-formed HTML page: one <section> per document, one <div> per page."""

    name = "render.html"
    format = "html"

    def render(self, documents: Sequence[Document], config: Config) -> str:
        sections = [_html_section(doc) for doc in _leaves(documents)]
        return _HTML_HEAD + "\n".join(sections) + _HTML_TAIL

    def stream_documents(self, out: TextIO, config: Config) -> _HTMLStream:
        """A page of several documents written as they come, not held until the last."""
        return _HTMLStream(out)


class JSONRenderer(BaseEngine):
    """One JSON array of documents (children nested), each with schema_version."""

    name = "render.json"
    format = "json"

    def render(self, documents: Sequence[Document], config: Config) -> str:
        return "".join(self._pieces(documents))

    def write(self, documents: Sequence[Document], config: Config, out: TextIO) -> None:
        write_sliced(out, self._pieces(documents))

    def _pieces(self, documents: Sequence[Document]) -> Iterable[str]:
        data = [d.to_dict() for d in documents]
        encoder = json.JSONEncoder(ensure_ascii=False, indent=2)
        yield from encoder.iterencode(data[0] if len(data) == 1 else data)
        yield "\n"

    def stream_documents(self, out: TextIO, config: Config) -> _JSONArrayStream:
        """The array of several documents written as they come, not held until the last."""
        return _JSONArrayStream(out)


class _JSONArrayStream:
    """The array ``JSONRenderer.render`` makes of several documents, byte for byte, written
    as each document is added; ``close`` ends it (an array of those added so far)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.count = 0

    def add(self, document: Document) -> None:
        encoder = json.JSONEncoder(ensure_ascii=False, indent=2)
        self.out.write(",\n  " if self.count else "[\n  ")
        # an item of the array is indented one level more; a line break in the encoding
        # is only ever indentation (one inside a string is written as \\n)
        write_sliced(self.out, (piece.replace("\n", "\n  ")
                                for piece in encoder.iterencode(document.to_dict())))
        self.count += 1

    def close(self) -> None:
        if self.count:
            self.out.write("\n]\n")


class JSONLinesRenderer(BaseEngine):
    """One JSON object per line per document, archives unfolded (children not nested)."""

    name = "render.jsonl"
    format = "jsonl"

    def render(self, documents: Sequence[Document], config: Config) -> str:
        return "".join(self._pieces(documents))

    def write(self, documents: Sequence[Document], config: Config, out: TextIO) -> None:
        write_sliced(out, self._pieces(documents))

    def _pieces(self, documents: Sequence[Document]) -> Iterable[str]:
        # the encoder's pieces rather than json.dumps: the C encoder holds a long page's
        # escaped text and the whole line besides
        encoder = json.JSONEncoder(ensure_ascii=False)
        for document in documents:
            for doc in document.walk():
                yield from encoder.iterencode(doc.to_dict(children=False))
                yield "\n"


BUILTIN_RENDERERS = (TextRenderer(), MarkdownRenderer(), HTMLRenderer(), JSONRenderer(),
                     JSONLinesRenderer())
