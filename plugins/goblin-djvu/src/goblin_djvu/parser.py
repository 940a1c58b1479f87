"""DjVu documents (``djvu.djvulibre``): each page's hidden text, and its image for OCR.

DjVu holds scanned books and papers: a page is an image, in layers (bitonal text,
colour background), and most files carry a hidden text layer that the OCR of whoever
made them wrote. That layer is the page's text, counted as hidden (``hidden_chars``:
no glyph of it is drawn), and the core's validators judge it as they judge a PDF's. A
page without one draws one image and no text, so the core's ``auto`` rule sends it to
OCR through ``render``, which ddjvu draws at the DPI asked.

DjVuLibre's tools read the file: djvused (page count, metadata, outline), djvutxt
(text, 64 pages in the first run, twice as many in each next) and ddjvu (page
images). A page the tools cannot decode is a page error, which the core reports, and
the pages around it are read.
"""

from __future__ import annotations

import io
import logging
import re
import shutil
import struct
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PIL import Image

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, BaseParsedDocument
from goblin_core.errors import CorruptDocument, EngineUnavailable, FileTooLarge
from goblin_core.executors.page_ranges import parse_page_range
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_djvu.components import (
    Component,
    listed_components,
    page_files_missing,
    pages_past_the_end,
    wrong_form_sizes,
)
from goblin_djvu.djvulibre import INSTALL, DjvuLibre, missing_tools
from goblin_djvu.repair import (
    holds_its_files,
    patched_copy,
    repaired_copy,
    size_note,
    unpacked_by_offsets,
)
from goblin_djvu.sexpr import SExpr, SExprError, parse_all, unescape

log = logging.getLogger(__name__)

DJVU_MIME = "image/vnd.djvu"
#: Pages whose text the first djvutxt run reads, each next run twice as many up to
#: MAX_TEXT_BATCH: a run costs about 30 ms however few pages it reads, so one a page
#: would cost a long book seconds, and one for the whole book would read far past the
#: core's page limit.
TEXT_BATCH = 64
MAX_TEXT_BATCH = 1024
#: Pages whose stored size one djvused run reads when a page is drawn for OCR: a run
#: costs 0.2 s in a 1,500-page book (it reads the whole directory), four times as long
#: as drawing the page.
SIZE_BATCH = 64
#: Bookmarks kept: an outline is a table of contents, and a file can claim millions.
MAX_OUTLINE_ITEMS = 10_000

_FORM = re.compile(rb"AT&TFORM[\x00-\xff]{4}(DJVU|DJVM|DJVI)")
_META_LINE = re.compile(rb'^([A-Za-z][\w-]*)\t"((?:[^"\\]|\\.)*)"\s*$', re.M | re.S)
_PAGE_INFO = re.compile(rb"DjVu (\d+)x(\d+), v\d+, (\d+) dpi")
# the first line djvused's ``size`` prints for a page
_SIZE_LINE = re.compile(rb"^width=\d+ height=\d+(?: rotation=(\d+))?[ \t]*$", re.M)
# DjVuLibre's zone separators in a page's text: end of a column, of the page, of a
# region, of a paragraph
_ZONE_ENDS = re.compile(r"[\x0b\x0c\x1d\x1f]+")
# the other control characters, which no OCR writes: a layer holding terminal escapes
# (ESC [31m) would colour or clear the screen its text is printed on
_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1c\x1e\x7f]")
_TRAILING_SPACE = re.compile(r"[ \t]+\n")
_BLANK_LINES = re.compile(r"\n{3,}")
#: Metadata keys as DjVu files write them (BibTeX's and PDF's names), and goblin's.
_METADATA_KEYS = {"title": "title", "author": "author", "subject": "subject",
                  "keywords": "keywords", "creator": "creator", "producer": "producer",
                  "creationdate": "created", "moddate": "modified", "year": "year",
                  "publisher": "publisher", "language": "language"}


class DjvuParser(BaseEngine):
    """DjVu pages: hidden text through djvutxt, images through ddjvu."""

    name = "djvu.djvulibre"
    formats = (DJVU_MIME,)
    priority = 50

    def available(self) -> tuple[bool, str]:
        missing = missing_tools()
        if missing:
            return False, f"DjVuLibre ({', '.join(missing)}) not found: {INSTALL}"
        return True, ""

    def open(self, source: Source, config: Config) -> DjvuDocument:
        return DjvuDocument(source, config)


class DjvuDocument(BaseParsedDocument):
    """An open DjVu document; the tools read it page by page as the core asks."""

    def __init__(self, source: Source, config: Config) -> None:
        self.source = source
        self.max_pixels = int(config.limits["max_image_pixels"])
        self.page_range = parse_page_range(str(config.core.get("page_range", "")))
        form = _FORM.match(source.head(16))
        if form is None:
            raise CorruptDocument("not a DjVu document: no DJVU or DJVM form after its "
                                  "AT&TFORM header", file=source.display_name)
        if form.group(1) == b"DJVI":
            raise CorruptDocument("a DjVu include file, which holds data shared by the pages "
                                  "of a multi-file document and no page of its own",
                                  file=source.display_name)
        if form.group(1) == b"DJVM":
            head = source.head(32)
            if len(head) < 25 or head[16:20] != b"DIRM":
                raise CorruptDocument("a multi-page DjVu document cut short or damaged before "
                                      "the end of its directory's header: no page can be found",
                                      file=source.display_name)
            if not _bundled(head) and not holds_its_files(source):
                _check_indirect(source)
        self.tools = DjvuLibre(source, config)
        self.warnings: list[tuple[str, str]] = []
        self._missing: dict[int, str] | None = None
        self._sizes: dict[int, tuple[int, int, int, int]] = {}
        self._repaired: Path | None = None
        self._mending_tried = False
        try:
            self._read_header(form.group(1) == b"DJVU")
        except BaseException:
            self.close()
            raise

    def _read_header(self, one_page: bool) -> None:
        """Page count, metadata and outline; from a copy whose outer size is repaired when
        DjVuLibre cannot open the file itself (see ``repair``)."""
        source = self.source
        done = self._count_and_metadata(one_page)
        if not _counted(done) and (one_page or _bundled(source.head(32))
                                   or holds_its_files(source)):
            done = (self._from_repaired_copy(one_page, without_outline=False)
                    or self._from_repaired_copy(one_page, without_outline=True)
                    or (None if one_page else self._from_rebuilt_document()) or done)
        count, _, meta = done.stdout.partition(b"\n")
        if not _counted(done):
            raise CorruptDocument(f"DjVuLibre cannot open it: {self.tools.complaint(done)}"
                                  f"{size_note(source)}", file=source.display_name)
        if int(count) < 1:
            raise CorruptDocument("its directory lists no page", file=source.display_name)
        self.page_count = int(count)
        if done.returncode != 0:
            # the count came first: damaged metadata (a file cut inside the annotations
            # its pages share) costs the metadata, not the pages
            self.warnings.append(("CorruptDocument", "the document's metadata is unreadable "
                                  f"({self.tools.complaint(done)}); left out"))
        self.metadata = document_metadata(meta)
        bookmarks = self._outline()
        if bookmarks:
            self.metadata["outline"] = bookmarks

    def _from_repaired_copy(self, one_page: bool, *, without_outline: bool
                            ) -> subprocess.CompletedProcess[bytes] | None:
        """djvused's count and metadata read from a copy of the file with its outer size
        repaired, and its outline put out of sight when asked, which the tools then read;
        None when there is no such copy, or DjVuLibre cannot open it either (its error
        about the file itself is the one to give)."""
        repaired = repaired_copy(self.source, without_outline=without_outline)
        if repaired is None:
            return None
        original, self.tools.path, self._repaired = self.tools.path, str(repaired.path), \
            repaired.path
        done = self._count_and_metadata(one_page)
        if _counted(done):
            self.warnings.extend(repaired.warnings)
            return done
        self.close()
        self.tools.path = original
        return None

    def _from_rebuilt_document(self) -> subprocess.CompletedProcess[bytes] | None:
        """djvused's count and metadata read from the document made again of its pages by
        djvm, when its directory is damaged (see ``repair.unpacked_by_offsets``), which
        the tools then read; None when it cannot be."""
        original = self.tools.path
        folder = Path(tempfile.mkdtemp(prefix="goblin-djvu-"))
        self._repaired = folder
        rebuilt = folder / "rebuilt.djvu"
        pages = unpacked_by_offsets(self.source, folder)
        if pages is not None:
            # its size is about the file's: past that, djvm is not copying the pages
            try:
                built = self.tools.run("djvm", "-c", str(rebuilt), *map(str, pages),
                                       document=False, limit=2 * self.source.size + 1024**2)
            except (EngineUnavailable, FileTooLarge) as exc:
                # without djvm (or past the bound) the document stays refused, and
                # DjVuLibre's own error about it is the one to give
                log.debug("the document cannot be rebuilt: %s", exc)
                built = None
            if built is not None and built.returncode == 0 and rebuilt.is_file():
                self.tools.path = str(rebuilt)
                done = self._count_and_metadata(False)
                if _counted(done) and int(done.stdout.partition(b"\n")[0]) == len(pages):
                    self._missing = {}  # every page's file was found whole
                    self.warnings.append((
                        "CorruptDocument", "its directory is damaged, and DjVuLibre cannot "
                        "open it: its pages are read in the order of the directory's offsets, "
                        "without what the damaged part held: the pages' names and titles, "
                        "the outline and the document's metadata"))
                    return done
        self.close()
        self.tools.path = original
        return None

    def _mended_page_sizes(self) -> bool:
        """Whether the tools now read a copy in which each page file's own size is the
        one the directory gives; made once, when a page first fails to decode. A flipped
        bit in a page file's header cost DjVuLibre the page, though it was all there."""
        if self._mending_tried:
            return False
        self._mending_tried = True
        head = self.source.head(32)
        if (self._repaired is not None or head[12:16] != b"DJVM"
                or not (_bundled(head) or holds_its_files(self.source))):
            return False
        wrong = wrong_form_sizes(self.source, self._components())
        if not wrong:
            return False
        self._repaired = patched_copy(self.source, self.source.size,
                                      {at: struct.pack(">I", size) for at, size in wrong.items()})
        self.tools.path = str(self._repaired)
        self.warnings.append(("CorruptDocument", f"the header of {len(wrong):,} page file(s) "
                              "gives a size other than the directory's; read with the "
                              "directory's"))
        return True

    def close(self) -> None:
        """Remove the repaired copy, or the folder of the rebuilt document, if one was
        made."""
        if self._repaired is not None:
            if self._repaired.is_dir():
                shutil.rmtree(self._repaired, ignore_errors=True)
            else:
                self._repaired.unlink(missing_ok=True)
            self._repaired = None

    def _count_and_metadata(self, one_page: bool) -> subprocess.CompletedProcess[bytes]:
        """djvused's page count, then the metadata lines; the count alone when the
        metadata is too long to read."""
        # a one-page file has no document-wide annotations: its metadata is its page's
        script = "n; select 1; print-meta" if one_page else "n; print-meta"
        try:
            return self.tools.run("djvused", "-e", script)
        except FileTooLarge as exc:
            self.warnings.append(("FileTooLarge", f"the metadata is left out: {exc}"))
            return self.tools.run("djvused", "-e", "n")

    def _outline(self) -> list[dict[str, Any]]:
        """The bookmarks (``print-outline``) as goblin's PDF reader gives them: ``level``
        (0 at the top), ``title``, ``page`` (None for a link out of the document). Only
        in the metadata: added to a page's text, they would stop that page's OCR."""
        try:
            done = self.tools.run("djvused", "-e", "print-outline")
            found = parse_all(done.stdout) if done.returncode == 0 else []
        except FileTooLarge as exc:
            self.warnings.append(("FileTooLarge", f"the outline is left out: {exc}"))
            return []
        except SExprError as exc:
            self.warnings.append(("CorruptDocument", f"the outline is unreadable ({exc}); "
                                  "left out"))
            return []
        entries = outline_entries(found[0] if found else [], MAX_OUTLINE_ITEMS)
        if len(entries) == MAX_OUTLINE_ITEMS:
            self.warnings.append(("Truncated", f"outline cut at {MAX_OUTLINE_ITEMS:,} bookmarks"))
        named = [e for e in entries if isinstance(e["page"], str)]
        pages = self._component_pages() if named else {}
        for entry in entries:
            if isinstance(entry["page"], str):
                entry["page"] = pages.get(entry["page"])
            elif entry["page"] is not None and not 1 <= entry["page"] <= (self.page_count or 0):
                entry["page"] = None
        return entries

    def _component_pages(self) -> dict[str, int]:
        """The page each page file of the document is (``ls``), by its name, and by its
        title where no file has that name: DjVuLibre follows a ``#`` link to a file's
        name, else to a page's title."""
        pages = [(c, c.page) for c in self._components() if c.page is not None]
        by_title = {c.title: page for c, page in reversed(pages) if c.title}
        return by_title | {c.name: page for c, page in pages}

    def _components(self) -> list[Component]:
        """The document's files (``ls``); none when djvused cannot list them."""
        try:
            done = self.tools.run("djvused", "-e", "ls")
        except FileTooLarge:
            return []
        return listed_components(done.stdout) if done.returncode == 0 else []

    def _missing_pages(self) -> dict[int, str]:
        """Pages whose file is not there (past the end of a bundled document, missing
        beside an indirect one's index), with why; asked once, when a page came back
        without text."""
        if self._missing is None:
            self._missing = {}
            head = self.source.head(32)
            if head[12:16] == b"DJVM":
                components = self._components()
                bundled = _bundled(head) or holds_its_files(self.source)
                self._missing = (pages_past_the_end(self.source, components) if bundled
                                 else page_files_missing(Path(self.tools.path), components))
        return self._missing

    def pages(self) -> Iterator[PageContent]:
        assert self.page_count is not None
        # goblin.page_range: straight to the range (a split book's other ranges are read by
        # other workers)
        first, end = self.page_range or (1, self.page_count)
        end, batch = min(end, self.page_count), TEXT_BATCH
        while first <= end:
            last = min(first + batch - 1, end)
            yield from self._batch(first, last)
            first, batch = last + 1, min(batch * 2, MAX_TEXT_BATCH)

    def _batch(self, first: int, last: int) -> Iterator[PageContent]:
        """Pages ``first`` to ``last``, read in one run; one run a page where that fails,
        so that a page DjVuLibre cannot decode costs only itself."""
        found = self._hidden_text(f"{first}-{last}", last - first + 1)
        if isinstance(found, list):
            for number, expression in enumerate(found, start=first):
                yield self._page(number, expression)
            return
        for number in range(first, last + 1):
            missing = self._missing_pages().get(number)
            one = self._hidden_text(str(number), 1) if missing is None else []
            if not isinstance(one, list) and self._mended_page_sizes():
                one = self._hidden_text(str(number), 1)
            if isinstance(one, list):
                yield self._page(number, one[0] if one else [])
            else:
                yield PageContent(number=number, images=1, glyphs=0,
                                  error=f"DjVuLibre cannot read the page's hidden text: {one}")

    def _page(self, number: int, expression: SExpr) -> PageContent:
        """The page of djvutxt's ``expression``; a page whose file is missing (to which
        djvutxt gives no text, as to a page without a text layer) is a page error."""
        if expression and isinstance(expression, list):
            return page_content(number, expression)
        if not isinstance(expression, list) and self._mended_page_sizes():
            again = self._hidden_text(str(number), 1)
            expression = again[0] if isinstance(again, list) and again else expression
        missing = self._missing_pages().get(number)
        if missing is not None:
            return PageContent(number=number, images=0, glyphs=0, error=missing)
        return page_content(number, expression)

    def _hidden_text(self, pages: str, expected: int) -> list[SExpr] | str:
        """djvutxt's expressions for ``pages``, one a page; else why there are none."""
        try:
            done = self.tools.run("djvutxt", "--detail=page", f"--page={pages}")
        except FileTooLarge as exc:
            return str(exc).removeprefix(f"{self.source.display_name}: ")
        if done.returncode != 0:
            return self.tools.complaint(done)
        try:
            found = parse_all(done.stdout)
        except SExprError as exc:
            return str(exc)
        if len(found) != expected:
            return f"{len(found)} pages of text for {expected} pages"
        return found

    def render(self, page: int, dpi: int) -> Image.Image:
        """Page ``page`` (1-based) drawn by ddjvu at ``dpi``: grey ("L") for bitonal
        and grey pages, RGB for colour ones."""
        if self.page_count is None or not 1 <= page <= self.page_count:
            raise IndexError(f"{self.source.display_name} has no page {page}")
        missing = (self._missing or {}).get(page)
        if missing is not None:
            raise CorruptDocument(f"page {page} cannot be drawn: {missing}",
                                  file=self.source.display_name)
        width, height = self._rendered_size(page, dpi)
        # a PPM's header, then three bytes a pixel
        done = self.tools.run("ddjvu", "-format=pnm", f"-page={page}", f"-size={width}x{height}",
                              limit=width * height * 3 + 1024)
        if done.returncode != 0 or not done.stdout:
            raise CorruptDocument(f"ddjvu cannot draw page {page}: {self.tools.complaint(done)}",
                                  file=self.source.display_name)
        image = Image.open(io.BytesIO(done.stdout))
        image.load()
        drawn = image.convert("L") if image.mode == "1" else image
        drawn.info["dpi"] = (dpi, dpi)
        return drawn

    def _rendered_size(self, page: int, dpi: int) -> tuple[int, int]:
        """The page's size in pixels at ``dpi``, turned as the page says; FileTooLarge past
        ``limits.max_image_pixels``, before anything is drawn."""
        width, height, resolution, rotation = self._stored_size(page)
        scale = dpi / (resolution if 25 <= resolution <= 6000 else 300)
        width, height = max(1, round(width * scale)), max(1, round(height * scale))
        # djvused counts the page's turn in quarter turns: 1 and 3 stand it on its side
        if rotation % 2:
            width, height = height, width
        if width * height > self.max_pixels:
            raise FileTooLarge(
                f"page {page} is {width}x{height} pixels at {dpi} dpi, over "
                f"limits.max_image_pixels ({self.max_pixels:,})", file=self.source.display_name)
        return width, height

    def _stored_size(self, page: int) -> tuple[int, int, int, int]:
        """Page ``page``'s width, height, resolution and quarter turns as stored, read in one
        run with the pages after it (SIZE_BATCH in all): each djvused run reads the whole
        directory again, and a long book's pages are drawn for OCR one after the other."""
        if page not in self._sizes:
            assert self.page_count is not None
            script = "; ".join(f"select {n}; size; dump"
                               for n in range(page, min(page + SIZE_BATCH, self.page_count + 1)))
            done = self.tools.run("djvused", "-e", script)
            self._sizes.update(stored_sizes(done.stdout, page))
            if page not in self._sizes:
                raise CorruptDocument(f"DjVuLibre cannot read the size of page {page}: "
                                      f"{self.tools.complaint(done)}",
                                      file=self.source.display_name)
        return self._sizes[page]


def stored_sizes(printed: bytes, first: int) -> dict[int, tuple[int, int, int, int]]:
    r"""Page number -> (width, height, resolution, quarter turns) from djvused's ``select
    N; size; dump`` for pages ``first``, ``first + 1``...; a page whose INFO chunk is not
    in its dump (where djvused stopped) is left out.

    >>> stored_sizes(b"width=850 height=1100 rotation=1\n  FORM:DJVU [9]\n"
    ...              b"    INFO [10]         DjVu 850x1100, v24, 100 dpi, gamma=2.2\n"
    ...              b"width=10 height=10\n  FORM:DJVU [3]\n", 7)
    {7: (850, 1100, 100, 1)}
    """
    heads = list(_SIZE_LINE.finditer(printed))
    sizes: dict[int, tuple[int, int, int, int]] = {}
    ends = [head.start() for head in heads[1:]] + [len(printed)] if heads else []
    for number, (head, end) in enumerate(zip(heads, ends, strict=True), start=first):
        info = _PAGE_INFO.search(printed, head.end(), end)
        if info is not None:
            width, height, resolution = (int(v) for v in info.groups())
            sizes[number] = (width, height, resolution, int(head.group(1) or 0))
    return sizes


def outline_entries(bookmarks: SExpr, most: int) -> list[dict[str, Any]]:
    """``(bookmarks (title url child...) ...)`` in reading order, at most ``most`` entries;
    ``page`` is the number of a ``#N`` link, the file name of a ``#name`` one, else None.

    >>> outline_entries([b"bookmarks", ["Parte 1", "#1", ["Cap. 1", "#p2.djvu"]],
    ...                  ["Site", "https://example.org"]], 10)  # doctest: +NORMALIZE_WHITESPACE
    [{'level': 0, 'title': 'Parte 1', 'page': 1},
     {'level': 1, 'title': 'Cap. 1', 'page': 'p2.djvu'},
     {'level': 0, 'title': 'Site', 'page': None}]
    """
    if not isinstance(bookmarks, list) or bookmarks[:1] != [b"bookmarks"]:
        return []
    entries: list[dict[str, Any]] = []
    stack: list[tuple[SExpr, int]] = [(child, 0) for child in reversed(bookmarks[1:])]
    while stack and len(entries) < most:
        entry, level = stack.pop()
        if not isinstance(entry, list) or len(entry) < 2 or not isinstance(entry[0], str):
            continue
        link = entry[1] if isinstance(entry[1], str) else ""
        target = link[1:] if link.startswith("#") else None
        page: int | str | None = (int(target) if target and target.isdigit() else target) or None
        entries.append({"level": level, "title": entry[0].strip(), "page": page})
        stack.extend((child, level + 1) for child in reversed(entry[2:]))
    return entries


def _counted(done: subprocess.CompletedProcess[bytes]) -> bool:
    """Whether djvused's run printed the page count first."""
    return done.stdout.partition(b"\n")[0].strip().isdigit()


def _bundled(head: bytes) -> bool:
    """Whether a DJVM document holds its pages (its DIRM chunk's "bundled" flag)."""
    return head[16:20] == b"DIRM" and len(head) > 24 and bool(head[24] & 0x80)


def _check_indirect(source: Source) -> None:
    """An indirect document's pages are files beside it: only a file on disk has them."""
    if not source.is_file:
        raise CorruptDocument(
            "an indirect DjVu document, whose pages are separate files beside it: given as "
            "bytes or as a member of an archive it has none; read it from its folder, or "
            "bundle it first (djvmcvt -b)", file=source.display_name)


def page_content(number: int, expression: SExpr) -> PageContent:
    """A page from djvutxt's expression for it: ``(page x0 y0 x1 y1 "text")``, ``()``
    for a page without hidden text, or the atom ``failed``."""
    if not isinstance(expression, list):
        return PageContent(number=number, images=1, glyphs=0,
                           error="DjVuLibre cannot decode the page's hidden text")
    text = tidy(zone_text(expression))
    visible = sum(1 for c in text if not c.isspace())
    return PageContent(number=number, text=text, glyphs=visible, images=1, hidden_chars=visible)


def zone_text(zone: SExpr) -> str:
    """The text of a zone: its string, or its child zones' texts (words by spaces, the
    rest by line breaks) when a tool wrote the zones out."""
    if isinstance(zone, str):
        return zone
    if not isinstance(zone, list) or not zone:
        return ""
    children = [zone_text(child) for child in zone[5:] if isinstance(child, str | list)]
    return (" " if zone[0] == b"line" else "\n").join(c for c in children if c)


def tidy(text: str) -> str:
    r"""Zone separators as blank lines, no other control characters, no spaces at line
    ends, no runs of blank lines.

    >>> tidy("First line \nsecond\n\x1fnext para\n\x1f\x1d\x0bright column\n\x0b")
    'First line\nsecond\n\nnext para\n\nright column'
    >>> tidy("alert\x07 \x1b[2Jcleared\r\nline")
    'alert [2Jcleared\nline'
    """
    text = _CONTROLS.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    text = _ZONE_ENDS.sub("\n", text)
    text = _TRAILING_SPACE.sub("\n", text)
    return _BLANK_LINES.sub("\n\n", text).strip()


def document_metadata(printed: bytes) -> dict[str, Any]:
    r"""goblin's metadata from ``djvused -e print-meta``: one ``Key<TAB>"value"`` line a key.

    >>> document_metadata(b'Title\t"Relat\\303\\263rio"\nAuthor\t"Ana"\nISBN\t"978"\n')
    {'title': 'Relatório', 'author': 'Ana', 'ISBN': '978'}
    """
    metadata: dict[str, Any] = {}
    for found in _META_LINE.finditer(printed):
        key = found.group(1).decode("ascii")
        value = unescape(found.group(2)).strip()
        if value:
            metadata[_METADATA_KEYS.get(key.lower(), key)] = value
    return metadata
