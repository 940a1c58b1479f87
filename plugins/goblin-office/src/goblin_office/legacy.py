"""Legacy binary Office files read by Debian's converters: antiword, catdoc, catppt.

Word 97-2003 (.doc) through antiword (the cleanest body text), catdoc as the
fallback (it also reads Word 6/95); PowerPoint 97-2003 (.ppt) through catppt when goblin's own
record reader (``office.ppt_records``) finds no text. Each engine is unavailable, with the
apt-get line, when its binary is missing.
"""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
from collections.abc import Sequence
from typing import Any

from goblin_core.child_limits import capped_child
from goblin_core.config import Config
from goblin_core.deadline import within_document
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument, ExtractionTimeout
from goblin_core.source import Source, spooled
from goblin_office import formats as fmt
from goblin_office.embedded import ole_children
from goblin_office.encryption import OLE_MAGIC, decrypted
from goblin_office.layout import PageBuilder
from goblin_office.olesummary import summary_metadata
from goblin_office.safexml import STREAM_XML_FROM, children, local_name, parse_xml_file
from goblin_office.wordbinary import (
    WordStreams,
    comment_lines,
    document_stories,
    header_footer_lines,
    holds_no_text,
    without_deletions,
)

log = logging.getLogger(__name__)

#: A UTF-16 surrogate pair written as two 3-byte UTF-8 sequences (CESU-8). antiword and
#: catdoc write every character beyond the Basic Multilingual Plane this way (Gothic,
#: emoji, CJK Extension B), which a UTF-8 decoder turns into six replacement characters.
_SURROGATE_PAIR = re.compile(rb"\xed[\xa0-\xaf][\x80-\xbf]\xed[\xb0-\xbf][\x80-\xbf]")
_LONE_SURROGATE = re.compile(rb"\xed[\xa0-\xbf][\x80-\xbf]")


def converter_text(output: bytes) -> str:
    """A converter's UTF-8 output as text: surrogate pairs joined into the character they
    encode, a surrogate without its partner one replacement character, other bytes that
    are not UTF-8 replaced as usual."""
    joined = _SURROGATE_PAIR.sub(_paired, output)
    return _LONE_SURROGATE.sub("\ufffd".encode(), joined).decode("utf-8", "replace")


def _paired(match: re.Match[bytes]) -> bytes:
    units = match.group().decode("utf-8", "surrogatepass")
    return chr(0x10000 + ((ord(units[0]) - 0xD800) << 10) + (ord(units[1]) - 0xDC00)).encode()


def run_converter(binary: str, arguments: Sequence[str], source: Source,
                  config: Config) -> subprocess.CompletedProcess[bytes]:
    """``binary arguments...`` within ``limits.timeout`` (what the document has left) and
    with its address space capped at ``limits.max_memory``; the exit code is the caller's
    to judge."""
    timeout = within_document(float(config.get("limits", "timeout", 300.0)))
    memory = int(config.get("limits", "max_memory", 0))
    try:
        return subprocess.run([binary, *arguments], capture_output=True, timeout=timeout,
                              check=False, stdin=subprocess.DEVNULL,
                              preexec_fn=capped_child(memory))
    except subprocess.TimeoutExpired as exc:
        raise ExtractionTimeout(f"{binary} ran longer than limits.timeout",
                                file=source.display_name) from exc


class _BinaryEngine(BaseEngine):
    """An engine that runs one command-line converter on a file path."""

    binary = ""
    package = ""
    #: whether the converter's form feeds split the document into its pages
    form_feeds_split_pages = True

    def available(self) -> tuple[bool, str]:
        if shutil.which(self.binary) is None:
            return False, f"{self.binary} not found: apt-get install {self.package}"
        return True, ""

    def arguments(self, path: str) -> Sequence[str]:
        raise NotImplementedError

    def converted(self, plain: Source) -> Source:
        """The file the converter reads, made from the decrypted one."""
        return plain

    def run(self, source: Source, config: Config, plain: Source | None = None) -> str:
        """The converter's text of ``source``; ``plain``: the file it reads, when the
        caller made it already (else ``converted`` of the decrypted file)."""
        if source.head(8) != OLE_MAGIC:
            raise CorruptDocument(
                f"not an OLE2 Office file, so {self.binary} cannot read it",
                file=source.display_name,
            )
        if plain is None:
            plain = self.converted(decrypted(source, config))
        with spooled(plain) as path:
            done = run_converter(self.binary, self.arguments(str(path)), source, config)
        text = converter_text(done.stdout)
        if done.returncode == 0 and not text.strip() and self.blank(plain.bytes()):
            return ""
        if done.returncode != 0 or not text.strip():
            message = done.stderr.decode("utf-8", "replace").strip().splitlines()
            # the converter names the temporary copy it was handed, not the document
            said = message[-1].replace(str(path), source.display_name) if message else \
                "no text"
            raise CorruptDocument(
                f"{self.binary} could not read it (exit {done.returncode}: {said})",
                file=source.display_name,
            )
        return text

    def blank(self, data: bytes) -> bool:
        """Whether the file itself holds no text, so printing none is no failure."""
        return False

    def open(self, source: Source, config: Config) -> TextDocument:
        text = self.run(source, config).replace("\r\n", "\n")
        if not self.form_feeds_split_pages:
            text = text.replace("\f", "\n")
        pages = [p for p in text.split("\f")] if "\f" in text else [text]
        while len(pages) > 1 and not pages[-1].strip():
            pages.pop()
        plain = decrypted(source, config)
        return TextDocument(pages, metadata=summary_metadata(plain),
                            attachments=ole_children(source, plain, config))


class _WordEngine(_BinaryEngine):
    """A converter of Word documents, where a blank document is read as an empty page."""

    formats = (fmt.DOC,)

    def blank(self, data: bytes) -> bool:
        return holds_no_text(data)

    def converted(self, plain: Source) -> Source:
        """The file with its tracked deletions blanked, so it reads with its changes
        accepted, as a .docx does (the converters print deleted text as the document's)."""
        accepted = without_deletions(plain.bytes())
        return plain if accepted is None else Source.from_bytes(accepted, plain.display_name)


class AntiwordParser(_WordEngine):
    """antiword for Word 97-2003 documents (text, tables, footnotes), with the page
    headers and footers and the comments antiword does not print read from the file's
    stories; a file antiword refuses whose piece table reads is read from it whole."""

    name = "office.antiword"
    priority = 50
    binary = "antiword"
    package = "antiword"

    def arguments(self, path: str) -> Sequence[str]:
        return ["-w", "0", "-m", "UTF-8.txt", path]

    def open(self, source: Source, config: Config) -> TextDocument:
        plain = decrypted(source, config)
        accepted = self.converted(plain)
        stories: dict[str, list[str]] | None = None
        try:
            body = self.run(source, config, accepted).replace("\r\n", "\n").strip("\n")
        except CorruptDocument as refused:
            # antiword refuses some files whose piece table reads (a text stream it finds
            # too small): their stories are read from it instead
            stories = document_stories(accepted.bytes())
            if not stories or not any(stories.values()):
                raise
            log.info("%s: %s; read from its piece table", source.display_name, refused)
            body = ""
        paragraphs: list[str | list[list[str]]] = list(body.replace("\f", "\n").split("\n\n"))
        if stories is None and any(_is_table(paragraph) for paragraph in paragraphs):
            paragraphs = self.with_tables(paragraphs, source, config, accepted)
        page = word97_page(self.name, accepted.bytes(), config, paragraphs, stories)
        return TextDocument([page.build()], metadata=summary_metadata(plain),
                            attachments=ole_children(source, plain, config))


    def with_tables(self, paragraphs: list[str | list[list[str]]], source: Source,
                    config: Config, plain: Source) -> list[str | list[list[str]]]:
        """``paragraphs`` with antiword's drawing of each table (cells padded to columns
        between bars, a cell's text wrapped onto the lines below, which cannot be told from
        a row whose first cells are empty) replaced by its rows of cells, as antiword's
        DocBook output gives them; a drawing no table of it matches is left as drawn."""
        with spooled(plain) as path:
            done = run_converter(self.binary, ["-x", "db", str(path)], source, config)
        if len(done.stdout) > STREAM_XML_FROM:
            # a tree of it would take thirty times its size: the tables stay as drawn
            return paragraphs
        try:
            # characters past the Basic Multilingual Plane come as CESU-8 here too
            root, _entities = parse_xml_file(
                converter_text(done.stdout).encode(), name=source.display_name,
                max_depth=int(config.get("limits", "max_xml_depth", 256)))
        except CorruptDocument as exc:
            log.info("%s: antiword's DocBook output unread (%s): tables left as drawn",
                     source.display_name, exc)
            return paragraphs
        tables = iter([_docbook_rows(table) for table in root.iter("informaltable")
                       if not any(local_name(above) == "informaltable"
                                  for above in table.iterancestors())])
        # each drawing is matched with the next table holding the same words: a paragraph
        # written between bars is no table, and keeps its place in the order
        table = next(tables, None)
        for at, paragraph in enumerate(paragraphs):
            if table is not None and _is_table(paragraph) \
                    and _words(str(paragraph)) == _words("\n".join("\t".join(r) for r in table)):
                paragraphs[at] = table
                table = next(tables, None)
        return paragraphs


#: a line of antiword's drawing of a table: cells between bars
_DRAWN_ROW = re.compile(r"\|.*\|")


def _is_table(paragraph: str | list[list[str]]) -> bool:
    return isinstance(paragraph, str) and all(
        _DRAWN_ROW.fullmatch(line.strip()) for line in paragraph.strip("\n").splitlines())


def _words(text: str) -> list[str]:
    """The words of a text, bars apart, in an order its layout does not change."""
    return sorted(text.replace("|", " ").split())


def _docbook_rows(table: Any) -> list[list[str]]:
    """The rows of a DocBook table, each cell's text on one line (a table nested in it
    and its paragraphs joined by spaces)."""
    return [[" ".join("".join(entry.itertext()).split()) for entry in children(row, "entry")]
            for row in table.iter("{*}row", "row")]


def word97_page(engine: str, data: bytes | WordStreams, config: Config,
                paragraphs: Sequence[str | list[list[str]]],
                stories: dict[str, list[str]] | None) -> PageBuilder:
    """The page of a Word 97-2003 file (``data``, or the streams found in it): headers, the
    body's ``paragraphs``, a table as its rows of cells (or, when given, the ``stories``
    read from its piece table: the
    body, then the notes the options keep, text boxes after the body as antiword prints
    them), comments and footers, as the options keep them."""
    page = PageBuilder(engine=engine)
    headers: list[str] = []
    footers: list[str] = []
    if config.get("office", "headers_footers", True):
        headers, footers = header_footer_lines(data)
    for line in headers:
        page.add(line, "header")
    if stories is None:
        for paragraph in paragraphs:
            if isinstance(paragraph, str):
                page.add(paragraph)
            else:
                page.add_table(paragraph)
    else:
        kept = ["body", "text boxes"]
        if config.get("office", "notes", True):
            kept += ["footnotes", "endnotes"]
        for name in kept:
            for line in stories.get(name, []):
                page.add(line)
    if config.get("office", "comments", True):
        for comment in comment_lines(data):
            page.add(comment)
    for line in footers:
        page.add(line, "footer")
    return page


class CatdocParser(_WordEngine):
    """catdoc for Word documents antiword refuses (Word 6/95, fast-saved files)."""

    name = "office.catdoc"
    priority = 40
    binary = "catdoc"
    package = "catdoc"

    def arguments(self, path: str) -> Sequence[str]:
        return ["-w", "-d", "utf-8", path]


class CatpptParser(_BinaryEngine):
    """catppt for PowerPoint 97-2003 presentations the record reader finds no text in.

    It comes second: catppt reads only the slide lists, so the text of shapes
    that live in a slide's drawing (what PowerPoint 2007 and later write for
    most shapes) is lost, and the masters' titles ("Office Theme") are printed
    as if they were slide text. Its text is one page: the form feeds it prints
    mark no slides (a slide without text prints none, text outside the slides
    prints one), so pages split at them would number the slides wrongly.
    """

    name = "office.catppt"
    formats = (fmt.PPT,)
    priority = 40
    binary = "catppt"
    package = "catdoc"
    form_feeds_split_pages = False

    def arguments(self, path: str) -> Sequence[str]:
        return ["-d", "utf-8", path]


class Xls2csvParser(_BinaryEngine):
    """xls2csv (catdoc) as the last resort for .xls files calamine and xlrd refuse."""

    name = "office.xls2csv"
    formats = (fmt.XLS,)
    priority = 20
    binary = "xls2csv"
    package = "catdoc"

    def arguments(self, path: str) -> Sequence[str]:
        return ["-d", "utf-8", "-x", path]
