"""goblin's data model: what engines hand to the core and what users get back.

Everything here is a frozen dataclass: a Document is built once by the
pipeline and never changes afterwards, so it can be shared between threads,
pickled to and from worker processes and compared in tests.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

SCHEMA_VERSION = 1

VerdictStatus = Literal["ok", "suspect", "garbage", "empty"]
PageStatus = Literal["clean", "recovered", "ocr", "empty", "corrupt", "failed"]
DocumentStatus = Literal["clean", "partially_recovered", "corrupt_unrecoverable", "failed"]

#: Rank of a verdict status: a candidate with a higher rank always wins.
VERDICT_RANK: Mapping[str, int] = {"ok": 3, "suspect": 2, "garbage": 1, "empty": 0}


@dataclass(frozen=True)
class FileType:
    """What a sniffer thinks a file is.

    >>> FileType("application/pdf", "pdf", 0.95)
    FileType(mime='application/pdf', ext='pdf', confidence=0.95)
    """

    mime: str
    ext: str = ""
    confidence: float = 0.5


@dataclass(frozen=True)
class Verdict:
    """A validator's opinion of one page's text.

    ``score`` is in [0, 1], 1 meaning trustworthy. ``low_confidence`` says the
    validator itself is unsure (a short page, few words to judge by).
    """

    status: VerdictStatus
    score: float = 1.0
    reasons: tuple[str, ...] = ()
    low_confidence: bool = False

    @property
    def rank(self) -> int:
        return VERDICT_RANK[self.status]


OK = Verdict("ok", 1.0)


@dataclass(frozen=True)
class PageContext:
    """What a validator knows about a page besides its text.

    ``glyphs`` counts the characters the page draws (None when the format has
    no such notion), ``images`` the images it draws, ``unmapped`` the glyphs
    with no Unicode mapping. ``options`` is the validator's config namespace.
    """

    number: int
    mime: str
    glyphs: int | None = None
    images: int = 0
    unmapped: int = 0
    engine: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Cell:
    """One table cell; ``header`` marks header cells."""

    text: str
    header: bool = False


@dataclass(frozen=True)
class Table:
    """A table as rows of cell strings, the same model for every format.

    ``page`` is the 1-based page (or sheet, slide) it sits on; ``index`` its
    0-based position on that page; ``header_rows`` how many leading rows are
    headers; ``title`` a sheet name or caption when the format has one.
    """

    rows: tuple[tuple[str, ...], ...]
    page: int = 1
    index: int = 0
    header_rows: int = 0
    title: str = ""
    engine: str = ""

    @property
    def n_columns(self) -> int:
        return max((len(r) for r in self.rows), default=0)

    def to_markdown(self) -> str:
        """GitHub Markdown table; pipes and line breaks in cells escaped."""
        from goblin_core.tables import table_to_markdown

        return table_to_markdown(self)

    def to_html(self) -> str:
        """An HTML ``<table>`` with every cell escaped."""
        from goblin_core.tables import table_to_html

        return table_to_html(self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "page": self.page,
            "index": self.index,
            "title": self.title,
            "header_rows": self.header_rows,
            "engine": self.engine,
            "rows": [list(r) for r in self.rows],
        }


@dataclass(frozen=True, slots=True)
class Block:
    """A layout block of a page: a heading, paragraph, list item, table, figure...

    ``kind`` is one of heading, paragraph, list_item, table, figure, caption,
    header, footer, artifact, code; ``level`` is a heading's level, or a list item's
    depth (1 the outermost; 0 when the parser does not know it); ``bbox``
    (x0, y0, x1, y1) in page points when known. A list item whose parser knows its
    label has ``marker``, the number or bullet its ``text`` starts with as the document
    shows it (``1.``, ``1.2``, ``a)``, ``•``), and ``number``, the item's number in its
    list (3 for ``3.``, ``c)`` or ``iii.``; None for a bullet or when not known).
    """

    # slots: a document of millions of short paragraphs holds a Block for each, and an
    # instance dictionary made each five times larger
    kind: str
    text: str
    level: int = 0
    bbox: tuple[float, float, float, float] | None = None
    marker: str = ""
    number: int | None = None


@dataclass(frozen=True)
class ImageRegion:
    """An image on a page whose text layer does not cover it: an image of text in a
    page of text (a pasted scan, a screenshot, a stamped code) that only OCR reads.

    ``box`` is (left, top, right, bottom) as fractions of the rendered page, the top
    left corner at (0, 0). ``before`` is the start of the page's first line below the
    image ('' when none is known): the image's text goes in before it, else at the end.
    """

    box: tuple[float, float, float, float]
    before: str = ""


@dataclass(frozen=True)
class PageContent:
    """One page as a parser reads it.

    ``error`` set means the parser could not read this page; the core sends it
    to recovery. ``glyphs`` None means "not a drawn format" (a spreadsheet,
    a text file); the core then counts the text's non-space characters.
    ``path_segments``: the vector paths' segments the page draws, for a page with
    little text (outlined text is OCR'd when there are enough).
    """

    number: int
    text: str = ""
    glyphs: int | None = None
    images: int = 0
    unmapped: int = 0
    tables: tuple[Table, ...] = ()
    blocks: tuple[Block, ...] = ()
    error: str | None = None
    label: str = ""
    #: path segments drawn, counted where the page has little text: text turned into
    #: outlines draws no glyph, only paths, and still holds words OCR can read
    path_segments: int = 0
    #: characters of the page's text the document does not show (a PDF's text drawn
    #: invisible, a Word run set hidden): all of them on an OCR layer laid over a scan
    hidden_chars: int = 0
    #: images no text covers, which OCR reads into the page's text (``ocr = "auto"``)
    image_regions: tuple[ImageRegion, ...] = ()
    #: glyphs the page draws that the parser could not read at all (a font it has no
    #: character map for) and left out of ``text``: words known to be missing, so the
    #: page goes to the recovery engines, which may have that map. Count them in
    #: ``unmapped`` too: they are glyphs without a character.
    unread: int = 0
    #: what the parser adds to the page besides what it draws (a PDF's comments, form
    #: field values, the outline): not judged with ``text`` nor counted as the page's
    #: text, so a scan with a sticky note is still OCR'd, and put after the text of
    #: whichever engine reads the page best, OCR and recovery engines included
    added_text: str = ""


@dataclass(frozen=True)
class OCRResult:
    """Text an OCR backend recognised, with its mean confidence in [0, 1].

    ``warnings`` are (kind, message) pairs, as a parser's, for what the reader of the
    text should know about how it was read (a language asked for that the backend
    could not read in): the core puts each distinct one in the document's report once.
    """

    text: str
    confidence: float = 0.0
    warnings: tuple[tuple[str, str], ...] = field(default=(), repr=False)


EMPTY_OCR = OCRResult("", 0.0)


@dataclass(frozen=True)
class Attempt:
    """One engine's try at one page (or at the whole document)."""

    engine: str
    distribution: str = ""
    verdict: str = ""
    score: float = 0.0
    chars: int = 0
    seconds: float = 0.0
    error_kind: str = ""
    error: str = ""
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class Page:
    """One page of a Document, with where its text came from.

    ``status`` is clean, recovered, ocr, empty, corrupt or failed; ``reason``
    explains corrupt and failed pages (needs_ocr, unmapped, garbage, error).
    ``confidence`` is the winning candidate's score in [0, 1]. ``hidden_chars``
    counts the characters of the page's own text layer that the document does
    not show (PDF text drawn invisible, Word hidden text): all of them when the layer is an OCR
    laid over a scan, whose words are as good as that OCR was; a few on a page of
    visible text are words its reader never sees.
    """

    number: int
    text: str
    engine: str
    status: PageStatus
    confidence: float
    reason: str = ""
    verdict: str = ""
    reasons: tuple[str, ...] = ()
    label: str = ""
    tables: tuple[Table, ...] = ()
    blocks: tuple[Block, ...] = ()
    alternatives: tuple[tuple[str, str], ...] = ()
    attempts: tuple[Attempt, ...] = ()
    hidden_chars: int = 0


@dataclass(frozen=True)
class ReportEntry:
    """An error or warning: its kind, message, and where it happened."""

    kind: str
    message: str
    engine: str = ""
    page: int | None = None


@dataclass(frozen=True)
class MemberEntry:
    """What happened to one archive or attachment member."""

    name: str
    action: Literal["extracted", "skipped", "refused"]
    reason: str = ""
    size: int | None = None


@dataclass(frozen=True)
class Report:
    """How a Document was produced: errors, warnings, members, timings."""

    errors: tuple[ReportEntry, ...] = ()
    warnings: tuple[ReportEntry, ...] = ()
    members: tuple[MemberEntry, ...] = ()
    seconds: float = 0.0
    detected: FileType | None = None
    ocr_pages: tuple[int, ...] = ()
    truncated: bool = False

    @property
    def error_kinds(self) -> tuple[str, ...]:
        return tuple(e.kind for e in self.errors)


@dataclass(frozen=True)
class Document:
    """The result of extracting one file (or one archive member).

    ``text`` holds this document's own pages joined by a blank line; children's
    text is not included (use ``walk()``). ``page_offsets[i]`` is the
    (start, end) of page i+1 in ``text`` so chunks can cite pages.

    ``children`` (archive members, attachments) are kept in name order, whatever
    order a handler listed them in: ``walk()``, ``to_dict()`` and a Document
    rebuilt by ``from_dict()`` all see that one order.
    """

    name: str
    mime: str
    pages: tuple[Page, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)
    raw_metadata: Mapping[str, Any] = field(default_factory=dict)
    children: tuple[Document, ...] = ()
    parsed_by: tuple[str, ...] = ()
    report: Report = field(default_factory=Report)
    sha256: str = ""
    size: int | None = None

    PAGE_SEPARATOR = "\n\n"

    def __post_init__(self) -> None:
        if self.children:
            # Frozen: construction is the one place the order can be settled.
            object.__setattr__(self, "children", tuple(sorted(self.children, key=_by_name)))

    @property
    def text(self) -> str:
        return self.PAGE_SEPARATOR.join(p.text for p in self.pages)

    @property
    def page_offsets(self) -> tuple[tuple[int, int], ...]:
        offsets = []
        start = 0
        for page in self.pages:
            end = start + len(page.text)
            offsets.append((start, end))
            start = end + len(self.PAGE_SEPARATOR)
        return tuple(offsets)

    @property
    def tables(self) -> tuple[Table, ...]:
        return tuple(t for p in self.pages for t in p.tables)

    @property
    def status(self) -> DocumentStatus:
        """clean, partially_recovered, corrupt_unrecoverable or failed.

        A document with no pages of its own (an archive) is clean without errors; with
        errors it is partially_recovered when a member was read, else failed.
        """
        if not self.pages:
            if not self.report.errors:
                return "clean"
            # a refused member must not make its readable siblings look lost to a
            # caller that keeps only what did not fail
            if any(child.status != "failed" for child in self.children):
                return "partially_recovered"
            return "failed"
        statuses = {p.status for p in self.pages}
        if statuses <= {"clean", "empty"}:
            return "clean"
        if not statuses & {"clean", "recovered", "ocr"}:
            if statuses <= {"empty", "failed"} and "failed" in statuses:
                return "failed"
            return "corrupt_unrecoverable"
        return "partially_recovered"

    @property
    def error(self) -> ReportEntry | None:
        """The first error of the report, if any."""
        return self.report.errors[0] if self.report.errors else None

    def walk(self) -> Iterator[Document]:
        """Yield this document, then its children depth-first, members in name order."""
        yield self
        for child in self.children:
            yield from child.walk()

    def to_dict(self, *, children: bool = True) -> dict[str, Any]:
        """A JSON-ready dict, with ``schema_version`` and the computed fields."""
        data: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "name": self.name,
            "mime": self.mime,
            "status": self.status,
            "sha256": self.sha256,
            "size": self.size,
            "text": self.text,
            "page_offsets": [list(o) for o in self.page_offsets],
            "metadata": dict(self.metadata),
            "raw_metadata": json_safe(dict(self.raw_metadata)),
            "parsed_by": list(self.parsed_by),
            "pages": [_page_dict(p) for p in self.pages],
            "report": json_safe(asdict(self.report)),
        }
        if children:
            data["children"] = [c.to_dict() for c in self.children]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Document:
        """Rebuild a Document from ``to_dict()`` output."""
        report = data.get("report", {})
        detected = report.get("detected")
        return cls(
            name=data["name"],
            mime=data["mime"],
            pages=tuple(_page_from_dict(p) for p in data.get("pages", ())),
            metadata=dict(data.get("metadata", {})),
            raw_metadata=dict(data.get("raw_metadata", {})),
            children=tuple(cls.from_dict(c) for c in data.get("children", ())),
            parsed_by=tuple(data.get("parsed_by", ())),
            sha256=data.get("sha256", ""),
            size=data.get("size"),
            report=Report(
                errors=tuple(ReportEntry(**e) for e in report.get("errors", ())),
                warnings=tuple(ReportEntry(**e) for e in report.get("warnings", ())),
                members=tuple(MemberEntry(**m) for m in report.get("members", ())),
                seconds=report.get("seconds", 0.0),
                detected=FileType(**detected) if detected else None,
                ocr_pages=tuple(report.get("ocr_pages", ())),
                truncated=report.get("truncated", False),
            ),
        )


def _by_name(document: Document) -> str:
    return document.name


def _page_dict(page: Page) -> dict[str, Any]:
    # Field by field: asdict would copy every cell of every table through its recursion
    # (minutes for a sheet of millions of cells) only for the copy to be replaced.
    data = {f.name: getattr(page, f.name) for f in fields(page)}
    data["reasons"] = list(page.reasons)
    data["tables"] = [t.to_dict() for t in page.tables]
    data["blocks"] = [_block_dict(b) for b in page.blocks]
    data["alternatives"] = [{"engine": e, "text": t} for e, t in page.alternatives]
    data["attempts"] = [asdict(a) for a in page.attempts]
    return data


def _block_dict(block: Block) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": block.kind, "text": block.text, "level": block.level,
                            "bbox": list(block.bbox) if block.bbox is not None else None}
    # a list item's label only where one is known: most blocks have none
    if block.marker:
        data["marker"] = block.marker
    if block.number is not None:
        data["number"] = block.number
    return data


def _page_from_dict(data: Mapping[str, Any]) -> Page:
    values = dict(data)
    values["tables"] = tuple(
        Table(
            rows=tuple(tuple(r) for r in t["rows"]),
            page=t.get("page", 1),
            index=t.get("index", 0),
            header_rows=t.get("header_rows", 0),
            title=t.get("title", ""),
            engine=t.get("engine", ""),
        )
        for t in data.get("tables", ())
    )
    values["blocks"] = tuple(
        Block(
            kind=b["kind"],
            text=b["text"],
            level=b.get("level", 0),
            bbox=tuple(b["bbox"]) if b.get("bbox") else None,
            marker=b.get("marker", ""),
            number=b.get("number"),
        )
        for b in data.get("blocks", ())
    )
    values["alternatives"] = tuple((a["engine"], a["text"]) for a in data.get("alternatives", ()))
    values["attempts"] = tuple(
        Attempt(**{**a, "reasons": tuple(a.get("reasons", ()))}) for a in data.get("attempts", ())
    )
    values["reasons"] = tuple(data.get("reasons", ()))
    return Page(**values)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def valid_unicode(text: str) -> str:
    """``text`` with each lone surrogate (half of a UTF-16 pair, which a damaged file or a
    lenient decoder leaves behind) made U+FFFD, so it can be written as UTF-8 anywhere.

    >>> valid_unicode("caf\\ud800e")
    'caf\ufffde'
    """
    return _LONE_SURROGATE.sub("\ufffd", text) if _LONE_SURROGATE.search(text) else text


# A soft hyphen only marks where a word may be broken: invisible inside a line, and where
# a line ends on one the word goes on at the start of the next.
_SOFT_HYPHEN = re.compile("\u00ad(?:[ \t]*\r?\n[ \t]*(?=[^\\W\\d_]))?")


def readable_text(text: str) -> str:
    """``text`` as a page's text: :func:`valid_unicode`, without soft hyphens (HTML's
    ``&shy;``, RTF's ``\\-``, Word's optional hyphen), which a search for the word misses.

    >>> readable_text("Bundes\\u00adrepublik, Licita\\u00ad\\nção")
    'Bundesrepublik, Licitação'
    """
    if "\u00ad" in text:
        text = _SOFT_HYPHEN.sub("", text)
    return valid_unicode(text)


def json_safe(value: Any) -> Any:
    """``value`` as JSON has it: str keys, lists for tuples, ISO 8601 for dates and times,
    str for anything else, so a Document survives ``to_dict``/``from_dict`` unchanged.

    >>> import datetime
    >>> json_safe({"created": datetime.datetime(2010, 5, 4, 6, 43), "pages": (1, 2)})
    {'created': '2010-05-04T06:43:00', 'pages': [1, 2]}
    """
    # plain values first, and the Mapping ABC last: a PDF's metadata holds a record per page
    if isinstance(value, str):
        return valid_unicode(value)
    if value is None or isinstance(value, (int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, (dict, Mapping)):
        return {k if isinstance(k, str) else str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)
