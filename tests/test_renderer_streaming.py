"""Renderers write their output in slices: a document's long text never becomes one more
whole string on its way out, whether to standard output or to a batch's result file."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from goblin_core import Attempt, Document, Page, Table, default_registry
from goblin_core.batch import MANIFEST_NAME, run_batch
from goblin_core.renderers import (
    BUILTIN_RENDERERS,
    WRITE_SLICE,
    write_rendered,
    write_sliced,
)

LONG = ("Edital de licitação número 42, aquisição de materiais. " * 40_000)[:2 * WRITE_SLICE + 17]


class _LongestWrite(io.StringIO):
    """A text stream that remembers the longest string written to it at once."""

    longest = 0

    def write(self, text: str) -> int:
        self.longest = max(self.longest, len(text))
        return super().write(text)


def _page(number: int, text: str) -> Page:
    return Page(number=number, text=text, engine="tests.parser", status="clean", confidence=1.0,
                attempts=(Attempt("tests.parser", "tests==1", "ok", 1.0, len(text)),))


def _documents() -> list[Document]:
    table = Table(rows=(("Item", "Valor"), ("Cimento", "R$ 10,00")), page=1, header_rows=1)
    pages = (_page(1, "first page  \n"), _page(2, ""), _page(3, "third  \n\n"))
    inner = Document("outer.zip/b/inner.txt", "text/plain", pages=(_page(1, "inner"),))
    blank = Document("outer.zip/blank.txt", "text/plain", pages=(_page(1, "  \n "),))
    outer = Document("outer.zip", "application/zip", children=(inner, blank))
    tabled = Document("t.pdf", "application/pdf",
                      pages=(Page(1, "Cimento", "tests.parser", "clean", 1.0, tables=(table,)),))
    return [Document("a.pdf", "application/pdf", pages=pages), outer, tabled,
            Document("empty.zip", "application/zip")]


@pytest.mark.parametrize("renderer", BUILTIN_RENDERERS, ids=lambda r: r.format)
@pytest.mark.parametrize("tables", [False, True])
def test_what_a_renderer_writes_is_what_it_renders(renderer: object, tables: bool) -> None:
    config = default_registry().config(tables=tables)
    for documents in (_documents(), _documents()[:1], []):
        out = io.StringIO()
        write_rendered(renderer, documents, config, out)
        assert out.getvalue() == renderer.render(documents, config)  # type: ignore[attr-defined]


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl"])
def test_a_long_page_is_written_in_slices(fmt: str) -> None:
    renderer = next(r for r in BUILTIN_RENDERERS if r.format == fmt)
    document = Document("long.txt", "text/plain", pages=(_page(1, LONG), _page(2, "end")))
    out = _LongestWrite()
    write_rendered(renderer, [document], default_registry().config(), out)
    assert out.longest <= WRITE_SLICE
    if fmt == "json":
        written = json.loads(out.getvalue())
        assert written["pages"][0]["text"] == LONG and written["text"].endswith("end")
    else:
        assert LONG.rstrip() in out.getvalue()


def test_a_renderer_without_write_is_still_written_in_slices() -> None:
    class OneString:
        format = "shout"

        def render(self, documents: list[Document], config: object) -> str:
            return "".join(d.text.upper() for d in documents)

    out = _LongestWrite()
    write_rendered(OneString(), [Document("long.txt", "text/plain", pages=(_page(1, LONG),))],
                   default_registry().config(), out)
    assert out.getvalue() == LONG.upper() and out.longest == WRITE_SLICE


def test_short_pieces_are_written_as_they_are() -> None:
    out = _LongestWrite()
    write_sliced(out, ["a", "", "b" * WRITE_SLICE, "c" * (WRITE_SLICE + 1)])
    assert out.getvalue() == "a" + "b" * WRITE_SLICE + "c" * (WRITE_SLICE + 1)
    assert out.longest == WRITE_SLICE


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_batch_result_file_holds_the_long_page_and_is_created_as_open_would(
        tmp_path: Path, fmt: str) -> None:
    source = tmp_path / "in"
    source.mkdir()
    (source / "long.txt").write_text(LONG, encoding="utf-8")
    registry = default_registry()
    run_batch(registry, registry.config(), [source], tmp_path / "out", fmt=fmt)
    result = next(p for p in (tmp_path / "out").iterdir() if p.name != MANIFEST_NAME)
    body = result.read_text(encoding="utf-8")
    assert (json.loads(body)["text"] == LONG) if fmt == "json" else (LONG.rstrip() in body)
    # the same permissions as the manifest beside it: the umask decides, not a private 0o600
    umask = os.umask(0)
    os.umask(umask)
    assert result.stat().st_mode & 0o777 == 0o666 & ~umask
    assert (tmp_path / "out" / MANIFEST_NAME).stat().st_mode & 0o777 == 0o666 & ~umask
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.endswith(".part")]
