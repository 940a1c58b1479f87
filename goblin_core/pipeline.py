"""The extraction pipeline: detect, unpack, parse, validate, recover, OCR, assemble.

One ``Pipeline`` holds a registry and a config; ``run(source)`` walks a
document (and, recursively, its archive members and attachments) through the
seven steps of docs/architecture.md and returns a frozen Document. Per-run
state (deadline, byte budget, report) lives in a ``_Run`` object, never on
the pipeline, so one pipeline serves many documents.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
from typing import Any

from goblin_core.archive_safety import ArchiveBudget, expand_members, stopped_after_refusals
from goblin_core.config import Config
from goblin_core.deadline import (
    DeadlineInterrupt,
    EngineInterrupted,
    document_deadline,
    enforced,
    interrupted,
)
from goblin_core.detect import UNKNOWN, detect
from goblin_core.engines import ArchiveLimits
from goblin_core.errors import (
    CorruptDocument,
    EmptyFile,
    ExtractionTimeout,
    FileTooLarge,
    GoblinError,
    OutputLimitReached,
    PasswordRequired,
    UnsafeArchive,
    UnsupportedFormat,
    is_rust_panic,
    unreadable,
)
from goblin_core.executors.page_ranges import parse_page_range
from goblin_core.formats import extra_for
from goblin_core.image_regions import crop, insert_texts, region_text, without_known_lines
from goblin_core.metadata import normalise
from goblin_core.model import (
    Attempt,
    Block,
    Document,
    FileType,
    MemberEntry,
    OCRResult,
    Page,
    PageContent,
    PageContext,
    Report,
    ReportEntry,
    Table,
    Verdict,
    json_safe,
    readable_text,
)
from goblin_core.ranking import (
    Candidate,
    best,
    combine,
    mapped_chars,
    ocr_confidence,
    verdict_problem,
)
from goblin_core.registry import EngineEntry, Registry
from goblin_core.source import Source

log = logging.getLogger(__name__)

#: Errors that no other parser can fix (another parser would not make a bomb safe):
#: stop the parser chain at once.
#: Errors that end a document's parsing, where another parser would fail the same way; a
#: deadline that passed while a parser opened the file is one.
_TERMINAL_ERRORS = (PasswordRequired, FileTooLarge, UnsafeArchive, EngineInterrupted)


def _stop_at_a_verdict(exc: Exception, source: Source) -> None:
    """Raise ``exc`` when it is a verdict on the file itself (``GoblinError.final``):
    another parser would read an unsafe file, or garbage, all the same."""
    if isinstance(exc, GoblinError) and exc.final:
        raise exc.with_file(source.display_name) from exc


#: The report warning kind of a page that could not be rendered for OCR.
RENDER_FAILED = "RenderFailed"
#: The warning kind of a parser that left text out at a limit (``office.max_sheet_cells``)
TRUNCATED = "Truncated"
#: How the warning of pages that needed OCR no backend could give them reads
NO_OCR_BACKEND = "no OCR backend is available"

#: The verdict reason of OCR text read with less than ``ocr_trusted_confidence``.
LOW_OCR_CONFIDENCE = "low_ocr_confidence"

#: Why a recovery attempt has no text: the engine left the page out of its answer.
_UNREAD = "the engine returned no text for this page"
_READS_LESS = ("not used: fewer characters than the first engine's text, which only left "
               "some glyphs out")


def _reads_less(page: _PageWork, candidate: Candidate) -> bool:
    """Whether ``candidate`` is a reading of a page sent on only for the glyphs its
    parser left out (its text otherwise fine) that holds fewer characters than the
    parser's: it would lose more than it finds, however clean it looks."""
    if not page.content.unread:
        return False
    primary = next((c for c in page.candidates if c.source == "primary"), None)
    return (primary is not None and primary.verdict.status != "garbage"
            and candidate.mapped < primary.mapped)


#: Containers the sniffers name only when they cannot tell the kind inside: what they hold
#: (for the message), and the kinds a plugin reads from them (its extra is named when none
#: is installed)
_UNNAMED_CONTAINERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "application/x-ole-storage": (
        "OLE2 compound file (the container of .doc, .xls, .ppt and .msg files)",
        ("application/msword", "application/vnd.ms-excel",
         "application/vnd.ms-powerpoint", "application/vnd.ms-outlook")),
}


class EnginePanic(RuntimeError):
    """A panic inside an engine's Rust extension, as an ordinary engine failure."""


@contextmanager
def _panics_as_errors() -> Iterator[None]:
    """Turn a Rust extension's panic into an EnginePanic: pyo3 raises it as a
    PanicException derived from BaseException, which ``except Exception`` lets through,
    so one damaged file would end the whole run instead of failing one engine."""
    try:
        yield
    except BaseException as exc:
        if not is_rust_panic(exc):
            raise
        raise EnginePanic(f"{type(exc).__name__}: {exc}") from exc


@contextmanager
def _engine_call(engine: str) -> Iterator[None]:
    """A call into ``engine``: a panic is an engine failure, and Python work past the
    document's deadline is interrupted as an ExtractionTimeout naming it."""
    with enforced(engine), _panics_as_errors():
        yield


@dataclass
class _Recorder:
    """Collects a document's report as the pipeline goes."""

    errors: list[ReportEntry] = field(default_factory=list)
    warnings: list[ReportEntry] = field(default_factory=list)
    members: list[MemberEntry] = field(default_factory=list)
    parsed_by: list[str] = field(default_factory=list)
    ocr_pages: list[int] = field(default_factory=list)
    truncated: bool = False

    def error(self, kind: str, message: str, engine: str = "", page: int | None = None) -> None:
        entry = ReportEntry(kind, message, engine, page)
        # One cause seen by several steps is reported once; a deadline is one cause,
        # whether a check between pages or an interrupted engine call met it first.
        if entry in self.errors or (kind == ExtractionTimeout.kind
                                    and kind in (e.kind for e in self.errors)):
            return
        self.errors.append(entry)

    def warn(self, kind: str, message: str, engine: str = "", page: int | None = None) -> None:
        self.warnings.append(ReportEntry(kind, message, engine, page))

    def touched(self, engine: str) -> None:
        if engine not in self.parsed_by:
            self.parsed_by.append(engine)

    def report(self, seconds: float, detected: FileType | None) -> Report:
        return Report(
            errors=tuple(self.errors),
            warnings=tuple(self.warnings),
            members=tuple(self.members),
            seconds=round(seconds, 4),
            detected=detected,
            ocr_pages=tuple(self.ocr_pages),
            # a parser's own limit cut the text too (office.max_sheet_cells)
            truncated=self.truncated or any(w.kind == TRUNCATED for w in self.warnings),
        )


#: Called with each page of the top-level document as soon as it is read (its first
#: engine's text), and again once OCR has read it, with the page count the parser
#: declares and the document's media type.
PageSink = Callable[[Page, "int | None", str], None]

_PAGE_SINK: ContextVar[PageSink | None] = ContextVar("goblin_page_sink", default=None)


@contextmanager
def pages_passed_to(sink: PageSink) -> Iterator[None]:
    """Within the block, extractions pass each page to ``sink`` as soon as it is read.

    A worker process sends them to its supervisor, which keeps them when it has to kill
    the worker later in the document (a native call that never returns, memory): the
    pages already read are not lost with it. The command line shows them as progress.
    """
    token = _PAGE_SINK.set(sink)
    try:
        yield
    finally:
        _PAGE_SINK.reset(token)


@dataclass
class _Run:
    """State of one top-level extraction, shared by its members and attachments."""

    deadline: float
    budget: ArchiveBudget
    output_left: int
    #: the top-level document, whose pages go to ``page_sink`` as they are read
    top: Source | None = None
    page_sink: PageSink | None = None

    def passes_on(self, source: Source) -> bool:
        return self.page_sink is not None and source is self.top

    def pass_on(self, page: Page, page_count: int | None, mime: str) -> None:
        if self.page_sink is None:  # it failed before
            return
        try:
            self.page_sink(page, page_count, mime)
        except Exception as exc:  # the pages still come back whole at the end
            log.warning("pages read are no longer passed on: %s", exc)
            self.page_sink = None

    def check_deadline(self, name: str) -> None:
        if time.monotonic() > self.deadline:
            raise ExtractionTimeout(
                "the per-document time limit (limits.timeout) ran out; pages read so far are kept",
                file=name,
            )


@dataclass
class _PageWork:
    """Everything the pipeline knows about one page while it works on it."""

    content: PageContent
    primary: str = ""
    candidates: list[Candidate] = field(default_factory=list)
    errors: list[Attempt] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    ocr: Candidate | None = None
    # rendered for OCR to one flat colour: a blank scan, nothing drawn that shows
    blank: bool = False

    @property
    def number(self) -> int:
        return self.content.number

    @property
    def draws(self) -> bool:
        if self.content.glyphs is None:
            return False
        return self.content.glyphs > 0 or self.content.images > 0

    def outlines(self, min_segments: int) -> bool:
        """Whether the page draws only paths, enough of them to be text in outlines."""
        return (not self.draws and min_segments > 0
                and self.content.path_segments >= min_segments)

    @property
    def best(self) -> Candidate | None:
        return best(self.candidates)

    def needs_recovery(self) -> bool:
        winner = self.best
        if winner is None or winner.verdict.status == "garbage":
            return True
        # glyphs drawn and none read, or some the parser could not read at all: another
        # engine may have the font's character map
        if self.content.unread and winner.source == "primary":
            return True
        return winner.verdict.status == "empty" and bool(self.content.glyphs)

    def used(self, engine: str) -> bool:
        return any(c.engine == engine for c in self.candidates) or any(
            a.engine == engine for a in self.errors
        )


class Pipeline:
    """Runs documents through the registered engines under one config.

    >>> from goblin_core import default_registry, Source
    >>> registry = default_registry()
    >>> doc = Pipeline(registry, registry.config()).run(Source.from_bytes(b"hi", "a.txt"))
    >>> doc.text
    'hi'
    """

    def __init__(self, registry: Registry, config: Config) -> None:
        self.registry = registry
        self.config = config
        self.limits = config.limits
        self.core = config.core
        self.page_range = parse_page_range(str(self.core.get("page_range", "")))
        # Validators by MIME type: ranked once per pipeline, not once per page.
        self._validators: dict[str, list[EngineEntry]] = {}

    def _validators_for(self, mime: str) -> list[EngineEntry]:
        if mime not in self._validators:
            self._validators[mime] = self.registry.ranked("validator", mime, self.config)
        return self._validators[mime]

    # -- entry points -------------------------------------------------------

    def run(self, source: Source) -> Document:
        """Extract ``source``; raise a GoblinError when it cannot be read at all.

        Problems with single pages, members or attachments are in the report.
        """
        run = _Run(
            deadline=time.monotonic() + float(self.limits["timeout"]),
            budget=ArchiveBudget(ArchiveLimits.from_config(self.config)),
            output_left=int(self.limits["max_output_chars"]),
            top=source,
            page_sink=_PAGE_SINK.get(),
        )
        try:
            with document_deadline(run.deadline):
                try:
                    return self._document(source, run, raise_errors=True)
                except DeadlineInterrupt:
                    # landed just as an engine call ended, outside the block that
                    # turns it into an EngineInterrupted
                    raise interrupted().with_file(source.display_name) from None
        except GoblinError as exc:
            located = source.located(exc)
            if located is exc:
                raise
            raise located from exc

    def _document(self, source: Source, run: _Run, *, raise_errors: bool) -> Document:
        started = time.monotonic()
        recorder = _Recorder()
        detected: FileType | None = None
        checked = False
        try:
            try:
                self._check_size(source)
                checked = True
                detected = detect(self.registry, self.config, source)
            except OSError as exc:
                advice = ("extract_many (or goblin extract) reads every file in a folder"
                          if isinstance(exc, IsADirectoryError)
                          else "check the path and its permissions")
                raise unreadable(exc, f"cannot read it: {exc.strerror or exc}; {advice}",
                                 file=source.display_name) from exc
            return self._dispatch(source, detected, run, recorder, started)
        except GoblinError as exc:
            error = exc.with_file(source.display_name)
            if raise_errors:
                # only a source that passed the size check is read again, to hash it
                raise _with_file_facts(error, source, detected, checked) from exc
            if isinstance(exc, EmptyFile):
                recorder.warn("EmptyFile", str(error))  # an empty member: noted, not failed
            else:
                recorder.error(error.kind, str(error))
                log.warning("%s", error)
            mime = detected.mime if detected else "application/octet-stream"
            return self._assemble(source, mime, [], {}, None, recorder, started, detected)

    def _check_size(self, source: Source) -> None:
        # A stream is read no further than the limit; a caller's buffer is not copied first.
        source.check_size(int(self.limits["max_file_size"]))

    def _dispatch(
        self, source: Source, detected: FileType, run: _Run, recorder: _Recorder, started: float
    ) -> Document:
        mime = detected.mime
        parsers = self.registry.ranked("parser", mime, self.config)
        if parsers:
            return self._parse(source, detected, parsers, run, recorder, started)
        handlers = self.registry.ranked("archive", mime, self.config)
        if handlers:
            children = self._unpack(source, handlers, run, recorder)
            return self._assemble(source, mime, [], {}, None, recorder, started, detected, children)
        raise self._unsupported(source, mime)

    def _unsupported(self, source: Source, mime: str) -> UnsupportedFormat:
        unavailable = [
            f"{e.name} ({self.registry.availability(e)[1]})"
            for kind in ("parser", "archive")
            for e in self.registry.ranked(kind, mime, self.config, with_unavailable=True)
        ]
        disabled = [e.name for e in self.registry.disabled(("parser", "archive"), mime,
                                                           self.config)]
        if disabled:
            cannot_run = f"; installed but cannot run: {'; '.join(unavailable)}" * bool(unavailable)
            return UnsupportedFormat(
                f"every {mime} engine is disabled in config ([engines] enabled = false): "
                f"{', '.join(disabled)}{cannot_run}; enable one to read it",
                file=source.display_name,
                mime=mime,
            )
        if unavailable:
            return UnsupportedFormat(
                f"{mime} engines are installed but cannot run: {'; '.join(unavailable)}",
                file=source.display_name,
                mime=mime,
            )
        extra = extra_for(mime)
        what = f"no installed plugin reads {mime}"
        container = _UNNAMED_CONTAINERS.get(mime)
        if container is not None:
            # the sniffers name the kind inside such a container when they can: with the
            # plugin that reads those kinds installed, it is the file that says nothing
            held, kinds = container
            what = (f"an {held} whose contents name no kind goblin reads: the file is "
                    "damaged, or of a kind no installed plugin reads")
            claimed = self.registry.claimed_formats(("parser",))
            extra = None if any(kind in claimed for kind in kinds) else extra_for(kinds[0])
        return UnsupportedFormat(what, file=source.display_name, mime=mime, extra=extra)

    # -- step 2: archives and attachments ----------------------------------

    def _unpack(
        self, source: Source, handlers: list[EngineEntry], run: _Run, recorder: _Recorder
    ) -> list[Document]:
        children: list[Document] = []
        last_error: GoblinError | None = None
        for entry in handlers:
            recorder.touched(entry.name)
            produced, listed = 0, len(recorder.members)
            try:
                for child in expand_members(entry, source, run.budget, self.config, recorder):
                    produced += 1
                    children.append(self._child(child, run))
                    child.cleanup()
                    run.check_deadline(source.display_name)
                    if self._output_spent(run, recorder, "members"):
                        return children
                return children
            except PasswordRequired:
                raise
            except ExtractionTimeout as exc:
                # Members read before the deadline keep their text; no other handler runs.
                recorder.error(exc.kind, str(exc), entry.name)
                return children
            except MemoryError:
                raise
            except Exception as exc:  # a handler's bug fails that handler, not the document
                error = _handler_error(entry, exc)
                if produced or stopped_after_refusals(error, recorder.members, listed):
                    # Members already read keep their text, whatever stopped the listing.
                    recorder.error(
                        error.kind, str(error.with_file(source.display_name)), entry.name
                    )
                    return children
                if isinstance(error, UnsafeArchive):
                    # Another handler would not make a hostile archive safe: stop here.
                    raise error from None
                recorder.warn(error.kind, str(error.with_file(source.display_name)), entry.name)
                last_error = error
        assert last_error is not None
        raise last_error

    def _child(self, source: Source, run: _Run) -> Document:
        document = self._document(source, run, raise_errors=False)
        # Each document's own text is cut at max_output_chars; members and attachments
        # share one budget too, or ten thousand small members hold gigabytes of text.
        run.output_left -= len(document.text)
        return document

    def _output_spent(self, run: _Run, recorder: _Recorder, what: str) -> bool:
        """Whether the input's text budget is gone: then the rest of ``what`` is not read."""
        if run.output_left > 0:
            return False
        recorder.truncated = True
        recorder.error(
            OutputLimitReached.kind,
            f"the text of its {what} reached limits.max_output_chars "
            f"({int(self.limits['max_output_chars']):,} characters) in all; the rest are "
            "not read (raise it to get them)",
        )
        return True

    def _attachments(
        self, parsed: Any, source: Source, run: _Run, recorder: _Recorder
    ) -> list[Document]:
        if not self.core["attachments"]:
            return []
        children: list[Document] = []
        limits = run.budget.limits
        try:
            for count, attachment in enumerate(parsed.attachments(), start=1):
                # attachments are members too: an e-mail of 50,000 parts or a PDF
                # embedding a bomb gets the limits an archive gets
                if count > limits.max_members:
                    recorder.error(
                        "UnsafeArchive",
                        f"more than limits.max_members ({limits.max_members:,}) attachments; "
                        "the rest are not read",
                    )
                    break
                refusal = _refused_attachment(attachment, limits)
                if refusal is not None:
                    kind, reason, message = refusal
                    recorder.members.append(
                        MemberEntry(attachment.display_name, "refused", reason, attachment.size)
                    )
                    recorder.error(kind, f"{attachment.display_name}: {message}")
                    attachment.cleanup()
                    continue
                run.budget.spend(attachment.size, attachment.display_name)
                recorder.members.append(
                    MemberEntry(attachment.display_name, "extracted", "", attachment.size)
                )
                children.append(self._child(attachment, run))
                attachment.cleanup()
                if self._output_spent(run, recorder, "attachments"):
                    break
        except MemoryError:
            raise
        except Exception as exc:  # the pages are read: a broken attachment list must not lose them
            kind = exc.kind if isinstance(exc, GoblinError) else type(exc).__name__
            recorder.error(kind, f"attachments: {exc}")
        return children

    # -- step 3: parse -----------------------------------------------------

    def _parse(
        self,
        source: Source,
        detected: FileType,
        parsers: list[EngineEntry],
        run: _Run,
        recorder: _Recorder,
        started: float,
    ) -> Document:
        failures: list[str] = []
        for entry in parsers:
            t0 = time.monotonic()
            try:
                with _engine_call(entry.name):
                    parsed = _checked_parsed(entry.engine.open(source, self.config))
            except _TERMINAL_ERRORS as exc:
                raise exc.with_file(source.display_name) from exc
            except MemoryError:
                # The memory limit, not a parser's failure: a worker reports it as such.
                raise
            except Exception as exc:  # any engine failure means: next parser
                _stop_at_a_verdict(exc, source)
                failures.append(self._parser_failed(entry, exc, recorder, t0))
                continue
            try:
                try:
                    with _engine_call(entry.name):
                        pages = iter(parsed.pages())
                        first = _as_page(next(pages, _END))
                except _TERMINAL_ERRORS as exc:
                    raise exc.with_file(source.display_name) from exc
                except MemoryError:
                    raise
                except Exception as exc:
                    _stop_at_a_verdict(exc, source)
                    failures.append(self._parser_failed(entry, exc, recorder, t0))
                    continue
                recorder.touched(entry.name)
                return self._read(
                    source, detected, entry, parsed, first, pages, run, recorder, started
                )
            finally:
                _close_quietly(parsed, entry.name)
        raise CorruptDocument(
            "no installed parser could read it (" + "; ".join(failures) + ")",
            file=source.display_name,
        )

    def _parser_failed(
        self, entry: EngineEntry, exc: Exception, recorder: _Recorder, t0: float
    ) -> str:
        kind = exc.kind if isinstance(exc, GoblinError) else type(exc).__name__
        message = f"{entry.name}: {kind}: {exc}"
        recorder.warn(
            kind,
            f"parser {message} ({time.monotonic() - t0:.2f}s); trying the next one",
            entry.name,
        )
        return message

    def _read(
        self,
        source: Source,
        detected: FileType,
        entry: EngineEntry,
        parsed: Any,
        first: PageContent | None,
        pages: Iterator[PageContent],
        run: _Run,
        recorder: _Recorder,
        started: float,
    ) -> Document:
        mime = detected.mime
        work = self._collect_pages(source, entry, parsed, first, pages, run, recorder, mime)
        if self.page_range and not work:
            total = getattr(parsed, "page_count", None)
            has = f"has {total} page(s)" if total is not None else "has fewer pages"
            recorder.warn("PageRange", f"goblin.page_range {self.core['page_range']!r} "
                          f"holds no page: the document {has}")
        try:
            run.check_deadline(source.display_name)
            # the engines after the parser read the copy it mended, if it made one
            mended = getattr(parsed, "repaired", None)
            later = mended if isinstance(mended, Source) else source
            self._recover(later, mime, work, recorder)
            run.check_deadline(source.display_name)
            self._ocr(later, mime, parsed, work, recorder, run, run.passes_on(source))
            self._ocr_image_regions(source, mime, parsed, work, recorder, run)
            self._tables(later, mime, work, recorder)
        except ExtractionTimeout as exc:
            recorder.error(exc.kind, str(exc))
        children = self._attachments(parsed, source, run, recorder)
        _parser_warnings(parsed, entry.name, recorder)
        left_out = getattr(parsed, "left_out", "")
        if left_out and isinstance(left_out, str):
            recorder.warn(TRUNCATED, left_out, entry.name)
        metadata = dict(getattr(parsed, "metadata", {}) or {})
        page_count = getattr(parsed, "page_count", None)
        return self._assemble(
            source,
            mime,
            work,
            metadata,
            page_count,
            recorder,
            started,
            detected,
            children,
            primary=entry.name,
        )

    def _collect_pages(
        self,
        source: Source,
        entry: EngineEntry,
        parsed: Any,
        first: PageContent | None,
        pages: Iterator[PageContent],
        run: _Run,
        recorder: _Recorder,
        mime: str,
    ) -> list[_PageWork]:
        work: list[_PageWork] = []
        max_pages, by_limit = page_cap(self.core["max_pages"], self.limits["max_pages"])
        wanted = self.page_range
        content = first
        chars = 0
        while content is not None:
            content = _numbered(content, work, entry.name, recorder)
            if wanted and content.number > wanted[1]:
                break
            if wanted and content.number < wanted[0]:
                # Outside this run's range (another worker reads it): dropped
                # before validation, recovery and OCR; a parser that can seek
                # never yields it at all.
                content = self._next_page(pages, entry, source, recorder, parsed, work)
                continue
            if max_pages and len(work) >= max_pages:
                setting = "limits.max_pages" if by_limit else "max_pages"
                recorder.warn("MaxPages", f"stopped after {max_pages} pages ({setting})")
                break
            # The first page is always kept: a parser slow to open still yields text.
            if work:
                try:
                    run.check_deadline(source.display_name)
                except ExtractionTimeout as exc:
                    self._timed_out(exc, work, parsed, recorder)
                    break
            t0 = time.monotonic()
            page = _PageWork(content, primary=entry.name)
            work.append(page)
            page.tables.extend(content.tables)
            if content.error:
                page.errors.append(
                    Attempt(
                        entry.name,
                        entry.provenance,
                        error_kind="PageError",
                        error=content.error,
                        seconds=0.0,
                    )
                )
            else:
                verdict = self._validate(content.text, page, mime, entry.name)
                page.candidates.append(
                    Candidate(
                        entry.name,
                        entry.provenance,
                        content.text,
                        verdict,
                        "primary",
                        time.monotonic() - t0,
                    )
                )
            if run.passes_on(source):
                run.pass_on(self._page(page, entry.name), getattr(parsed, "page_count", None),
                            mime)
            chars += len(content.text) + len(content.added_text)
            if chars > run.output_left:
                recorder.truncated = True
                break
            stated = _stated_pages(parsed)
            if max_pages and len(work) >= max_pages and stated is not None:
                # a parser that knows its pages is not asked for one more: reading it
                # would cost its work and bring its attachments along for nothing
                if stated > content.number and not (
                        wanted and content.number >= wanted[1]):
                    setting = "limits.max_pages" if by_limit else "max_pages"
                    recorder.warn("MaxPages", f"stopped after {max_pages} pages ({setting})")
                break
            content = self._next_page(pages, entry, source, recorder, parsed, work)
        return work

    def _next_page(
        self,
        pages: Iterator[PageContent],
        entry: EngineEntry,
        source: Source,
        recorder: _Recorder,
        parsed: Any,
        work: list[_PageWork],
    ) -> PageContent | None:
        try:
            with _engine_call(entry.name):
                return _as_page(next(pages, _END))
        except EngineInterrupted as exc:  # a page that never ended
            self._timed_out(exc, work, parsed, recorder)
            return None
        except Exception as exc:  # the parser died mid-document: keep what it gave
            kind = exc.kind if isinstance(exc, GoblinError) else type(exc).__name__
            recorder.error(kind, f"{entry.name} stopped after page {len(work)}: {exc}", entry.name)
            self._mark_unread(work, parsed, f"parser stopped: {kind}")
            return None

    def _timed_out(self, exc: ExtractionTimeout, work: list[_PageWork], parsed: Any,
                   recorder: _Recorder) -> None:
        recorder.error(exc.kind, str(exc))
        # The pages not reached are failed pages, not missing ones: the document then
        # reads as partly recovered, never as clean.
        max_pages, _ = page_cap(self.core["max_pages"], self.limits["max_pages"])
        self._mark_unread(work, parsed, f"not read: {exc.kind}", max_pages)

    def _mark_unread(self, work: list[_PageWork], parsed: Any, reason: str,
                     max_pages: int = 0) -> None:
        """Failed pages for the rest of the document (of this run's range, and no more
        than ``max_pages`` in all), each saying why it was not read."""
        total = getattr(parsed, "page_count", None) or 0
        done = work[-1].number if work else len(work)
        if self.page_range:
            done = max(done, self.page_range[0] - 1)
            total = min(total, self.page_range[1])
        if max_pages:
            total = min(total, done + max_pages - len(work))
        for number in range(done + 1, total + 1):
            work.append(_PageWork(PageContent(number, error=reason)))

    # -- step 4: validate --------------------------------------------------

    def _validate(
        self, text: str, page: _PageWork, mime: str, engine: str, *, ocr: bool = False,
        confidence: float | None = None,
    ) -> Verdict:
        """Run the validators; OCR text is judged as text, not by what the page draws.

        The drawn-glyph counts describe the page's text layer: they say whether
        that layer is too thin (so OCR is needed), which means nothing for OCR
        output itself (a logo that reads "Google" is short, not broken).

        OCR text read with a ``confidence`` under ``ocr_trusted_confidence`` is
        suspect: the validators judge how text is encoded, which says nothing of
        words misread, so without this a reading in the wrong script, or of a page
        of formulas, would rank above a text layer whose few unmapped glyphs made
        it suspect. As suspect it still beats text that is garbage or empty, and a
        suspect layer only where it scores higher.
        """
        content = page.content
        verdicts = []
        for entry in self._validators_for(mime):
            context = PageContext(
                number=content.number,
                mime=mime,
                glyphs=None if ocr else content.glyphs,
                images=0 if ocr else content.images,
                unmapped=content.unmapped if engine == page.primary else 0,
                engine=engine,
                options=self.config.section(entry.name.split(".", 1)[0]),
            )
            try:
                with _panics_as_errors():
                    verdict = entry.engine.check(text, context)
                problem = verdict_problem(verdict)
                if problem is not None:
                    raise TypeError(problem)
            except Exception as exc:  # a validator's bug must not lose the page
                log.warning("validator %s failed on page %s: %s", entry.name, content.number, exc)
                _record_validator_failure(page, entry, exc)
                continue
            verdicts.append(verdict)
        if ocr and confidence is not None and confidence < float(
                self.core["ocr_trusted_confidence"]):
            verdicts.append(Verdict("suspect", confidence, (LOW_OCR_CONFIDENCE,)))
        return combine(verdicts)

    # -- step 5: recover ---------------------------------------------------

    def _recover(
        self, source: Source, mime: str, work: list[_PageWork], recorder: _Recorder
    ) -> None:
        probe_from = int(self.core.get("recovery_probe", 0) or 0)
        for entry in self.registry.ranked("recovery", mime, self.config):
            wanted = [p for p in work if p.needs_recovery() and not p.used(entry.name)]
            if not wanted:
                return
            if not probe_from or len(wanted) < probe_from:
                self._recover_pages(entry, source, mime, wanted, recorder)
                continue
            # An engine that reads a document's fonts no better on one page reads them
            # no better on the others (the pages share their fonts), and a slow engine
            # on a long broken document would cost minutes for nothing.
            probe, rest = wanted[0], wanted[1:]
            before = probe.best
            won = self._recover_pages(entry, source, mime, [probe], recorder)
            if won and not _garbage_for_garbage(before, probe.best):
                self._recover_pages(entry, source, mime, rest, recorder)
                continue
            note = f"not tried: page {probe.number} came out no better with this engine"
            if won:
                note += " (garbage, as before)"
            for page in rest:
                page.errors.append(Attempt(entry.name, entry.provenance, verdict="skipped",
                                           reasons=(note,)))

    def _recover_pages(
        self, entry: EngineEntry, source: Source, mime: str, wanted: list[_PageWork],
        recorder: _Recorder,
    ) -> bool:
        """Run one recovery engine on ``wanted``; True when it won some page."""
        t0 = time.monotonic()
        try:
            with _engine_call(entry.name):
                texts = entry.engine.recover(source, [p.number for p in wanted], self.config)
            if not isinstance(texts, dict):
                raise TypeError(f"recover() returned {type(texts).__name__}, not {{page: text}}")
        except EngineInterrupted:
            raise  # the document's deadline, not this engine: no other engine runs either
        except Exception as exc:  # the next engine may still do it
            kind = exc.kind if isinstance(exc, GoblinError) else type(exc).__name__
            for page in wanted:
                page.errors.append(
                    Attempt(
                        entry.name,
                        entry.provenance,
                        error_kind=kind,
                        error=str(exc),
                        seconds=time.monotonic() - t0,
                    )
                )
            recorder.warn(kind, f"recovery engine {entry.name} failed: {exc}", entry.name)
            return False
        recorder.touched(entry.name)
        _warn_stray_answers(texts, wanted, entry.name, recorder)
        share = (time.monotonic() - t0) / max(len(wanted), 1)
        won = False
        for page in wanted:
            text = texts.get(page.number)
            if not isinstance(text, str):
                # No text, so no verdict; the page's record still shows it was tried
                # (the engine's log says why it gave nothing).
                page.errors.append(Attempt(entry.name, entry.provenance, seconds=share,
                                           reasons=(_UNREAD,)))
                continue
            verdict = self._validate(text, page, mime, entry.name)
            candidate = Candidate(entry.name, entry.provenance, text, verdict, "recovery", share)
            if _reads_less(page, candidate):
                page.errors.append(replace(candidate.attempt(),
                                           reasons=(*verdict.reasons, _READS_LESS)))
                continue
            page.candidates.append(candidate)
            won = won or page.best is candidate
        return won

    # -- step 6: OCR -------------------------------------------------------

    def _ocr_wanted(self, page: _PageWork, strategy: str) -> bool:
        if strategy == "never":
            return False
        outlines = page.outlines(int(self.core.get("vector_segments_per_page", 0) or 0))
        if strategy in ("always", "extract_and_ocr"):
            return page.draws or outlines or page.content.error is not None
        if page.content.error is not None:
            # A page no parser could read may still render: OCR is its last chance.
            return True
        if not page.draws:
            return outlines
        winner = page.best
        if winner is None:
            return True
        mapped = mapped_chars(winner.text)
        if mapped < int(self.core["total_chars_per_page"]):
            return True
        if page.content.unmapped > int(self.core["unmapped_chars_per_page"]):
            return winner.source == "primary"
        return winner.verdict.status == "garbage" and winner.score < float(
            self.core["ocr_garbage_score"]
        )

    def _ocr(
        self,
        source: Source,
        mime: str,
        parsed: Any,
        work: list[_PageWork],
        recorder: _Recorder,
        run: _Run,
        pass_on: bool = False,
    ) -> None:
        """OCR the pages the strategy picks; with ``pass_on``, each page OCR'd goes to
        the run's page sink again, as it now reads."""
        strategy = str(self.core["ocr"])
        wanted = [p for p in work if self._ocr_wanted(p, strategy)]
        if not wanted:
            return
        backends = self._ocr_backends(recorder)
        if not backends:
            recorder.warn(
                "EngineUnavailable",
                f"{len(wanted)} page(s) need OCR but {NO_OCR_BACKEND}; "
                + self._no_ocr_reason(),
            )
            return
        dpi = int(self.core["ocr_dpi"])
        languages = str(self.core["ocr_languages"])
        whole = self._ocr_whole_document(source, mime, wanted, backends[0], languages,
                                         recorder)
        read_before: dict[bytes, _ReadImage] = {}
        for page in wanted:
            run.check_deadline(source.display_name)
            candidate = whole.get(page.number) or self._ocr_page(
                parsed, page, backends, dpi, languages, mime, recorder, read_before
            )
            if candidate is None:
                continue
            recorder.touched(candidate.engine)
            recorder.ocr_pages.append(page.number)
            page.ocr = candidate
            page.candidates.append(candidate)
            if pass_on:
                run.pass_on(self._page(page, page.primary), getattr(parsed, "page_count", None),
                            mime)

    def _ocr_whole_document(
        self,
        source: Source,
        mime: str,
        wanted: list[_PageWork],
        entry: EngineEntry,
        languages: str,
        recorder: _Recorder,
    ) -> dict[int, Candidate]:
        """Pages read in one request by a first backend that reads whole documents.

        A backend may offer ``recognize_document(source, page_numbers,
        languages, config) -> {page: OCRResult}`` (Textract's asynchronous
        jobs); pages it leaves out go through page images as usual.
        """
        read_document = getattr(entry.engine, "recognize_document", None)
        if read_document is None:
            return {}
        t0 = time.monotonic()
        try:
            with _engine_call(entry.name):
                results = read_document(source, [p.number for p in wanted], languages,
                                        self.config)
            if not isinstance(results, dict):
                raise TypeError(f"recognize_document() returned {type(results).__name__}, "
                                "not {page: OCRResult}")
        except EngineInterrupted:
            raise
        except Exception as exc:  # the page-image path still runs for every page
            log.warning("OCR backend %s could not read the whole document: %s", entry.name, exc)
            return {}
        share = (time.monotonic() - t0) / max(len(results), 1)
        found: dict[int, Candidate] = {}
        for page in wanted:
            result = results.get(page.number)
            if isinstance(result, OCRResult):
                _ocr_warnings(result, entry.name, page.number, recorder)
            if (not isinstance(result, OCRResult) or not isinstance(result.text, str)
                    or not result.text.strip()):
                continue
            confidence = ocr_confidence(result.confidence)
            verdict = self._validate(result.text, page, mime, entry.name, ocr=True,
                                     confidence=confidence)
            found[page.number] = Candidate(
                entry.name,
                entry.provenance,
                result.text,
                verdict,
                "ocr",
                share,
                confidence=confidence,
            )
        return found

    def _ocr_backends(self, recorder: _Recorder) -> list[EngineEntry]:
        """Backends named in ``ocr_backends`` first, then local ones by priority.

        A cloud backend runs only when named there or enabled in [engines]:
        pages never leave the machine because credentials happen to exist.
        """
        every = self.registry.ranked("ocr", None, self.config, with_unavailable=True)
        status = {e.name: self._ocr_availability(e) for e in every}
        available = [e for e in every if status[e.name][0]]
        by_name = {e.name: e for e in available}
        chosen: list[EngineEntry] = []
        for name in self.core["ocr_backends"]:
            if name in by_name:
                chosen.append(by_name[name])
                continue
            reason = status[name][1] if name in status else "not installed"
            recorder.warn(
                "EngineUnavailable",
                f"OCR backend {name} is not available ({reason}); using local OCR",
                name,
            )
        for entry in available:
            if entry in chosen:
                continue
            if (
                getattr(entry.engine, "cloud", False)
                and self.config.engine_enabled(entry.name) is not True
            ):
                continue
            chosen.append(entry)
        for entry in every:
            # Enabled in [engines] but unable to run (no credentials): say so once.
            if entry.name in by_name or entry.name in self.core["ocr_backends"]:
                continue
            if self.config.engine_enabled(entry.name) is True:
                recorder.warn(
                    "EngineUnavailable",
                    f"OCR backend {entry.name} is enabled but not "
                    f"available ({status[entry.name][1]}); using local OCR",
                    entry.name,
                )
        return chosen

    def _no_ocr_reason(self) -> str:
        """Why the local OCR backends cannot run (a missing language pack, a missing
        binary), or how to install one when none is."""
        local = [e for e in self.registry.ranked("ocr", None, self.config, with_unavailable=True)
                 if not getattr(e.engine, "cloud", False)]
        reasons = [f"{e.name}: {self._ocr_availability(e)[1]}" for e in local]
        if reasons:
            return "; ".join(reasons)
        return 'install one with: pip install "goblin-core[ocr]"'

    def _ocr_availability(self, entry: EngineEntry) -> tuple[bool, str]:
        """``available_for(config)`` when the backend has it (credentials given in this
        call's config count), else its plain ``available()``."""
        check = getattr(entry.engine, "available_for", None)
        if check is None:
            return self.registry.availability(entry)
        try:
            ok, reason = check(self.config)
        except Exception as exc:  # a plugin's bug makes it unavailable, not the run fail
            return False, f"available_for() raised {type(exc).__name__}: {exc}"
        return bool(ok), str(reason or "")

    def _ocr_page(
        self,
        parsed: Any,
        page: _PageWork,
        backends: list[EngineEntry],
        dpi: int,
        languages: str,
        mime: str,
        recorder: _Recorder,
        read_before: dict[bytes, _ReadImage],
    ) -> Candidate | None:
        """The OCR of one page; ``read_before`` holds what the document's earlier page
        images read as, by their pixels, so an image met again is not read again."""
        t0 = time.monotonic()
        try:
            with _engine_call(f"{page.primary or 'the parser'} (rendering page {page.number})"):
                image = parsed.render(page.number, dpi)
        except EngineInterrupted:
            raise
        except Exception as exc:  # a page that cannot be rendered cannot be OCR'd
            page.errors.append(Attempt("render", error_kind=type(exc).__name__, error=str(exc)))
            # the page's status only says it needs OCR; the cause is the damaged page
            recorder.warn(RENDER_FAILED,
                          f"page {page.number} cannot be rendered for OCR "
                          f"({type(exc).__name__}: {exc})", page=page.number)
            return None
        if image is None:
            return None
        try:
            if _flat(image):
                page.blank = True
                page.errors.append(Attempt("render", verdict="empty", reasons=(_FLAT_PAGE,)))
                return None
            key = _pixels_key(image)
            earlier = read_before.get(key) if key is not None else None
            if earlier is not None:
                return self._read_again(earlier, page, mime, t0)
            tried = len(page.errors)
            candidate = self._recognize(image, page, backends, languages, mime, t0, recorder)
            # a backend that failed (a timeout, a throttled service) may read a copy later
            failed = any(attempt.error_kind for attempt in page.errors[tried:])
            if key is not None and (candidate is not None or not failed):
                read_before[key] = _ReadImage(page.number, candidate)
            return candidate
        finally:
            close = getattr(image, "close", None)
            if close is not None:
                close()

    def _read_again(self, earlier: _ReadImage, page: _PageWork, mime: str,
                    t0: float) -> Candidate | None:
        """A page whose image is pixel for pixel an earlier page's: that page's OCR, judged
        for this page. A small PDF can draw one scanned page a thousand times, and each
        copy took Tesseract as long as the first."""
        reason = f"the same image as page {earlier.page}, read once"
        found = earlier.candidate
        if found is None:
            page.errors.append(Attempt("ocr", verdict="empty", reasons=(reason,)))
            return None
        verdict = self._validate(found.text, page, mime, found.engine, ocr=True,
                                 confidence=found.confidence)
        return replace(found, verdict=verdict, seconds=time.monotonic() - t0)

    def _recognize(self, image: Any, page: _PageWork, backends: list[EngineEntry],
                   languages: str, mime: str, t0: float, recorder: _Recorder,
                   whole_page: bool = True) -> Candidate | None:
        """The first backend's text for ``image`` that has any, validated for ``page``;
        an image region's (not ``whole_page``) without regard to the backend's
        confidence, which ``region_text`` weighs against a floor of its own."""
        for entry in backends:
            t1 = time.monotonic()
            try:
                with _engine_call(entry.name):
                    result = entry.engine.recognize(image, languages, self.config)
                if not isinstance(result, OCRResult) or not isinstance(result.text, str):
                    raise TypeError(
                        f"recognize() returned {result!r:.80}, not an OCRResult with text"
                    )
            except EngineInterrupted:
                raise
            except Exception as exc:  # OCR backends should not raise; the next one may work
                page.errors.append(
                    Attempt(
                        entry.name,
                        entry.provenance,
                        error_kind=type(exc).__name__,
                        error=str(exc),
                        seconds=time.monotonic() - t1,
                    )
                )
                continue
            _ocr_warnings(result, entry.name, page.number, recorder)
            if not result.text.strip():
                page.errors.append(
                    Attempt(
                        entry.name,
                        entry.provenance,
                        verdict="empty",
                        seconds=time.monotonic() - t1,
                    )
                )
                continue
            confidence = ocr_confidence(result.confidence)
            verdict = self._validate(result.text, page, mime, entry.name, ocr=True,
                                     confidence=confidence if whole_page else None)
            return Candidate(
                entry.name,
                entry.provenance,
                result.text,
                verdict,
                "ocr",
                time.monotonic() - t0,
                confidence=confidence,
            )
        return None

    def _ocr_image_regions(self, source: Source, mime: str, parsed: Any, work: list[_PageWork],
                           recorder: _Recorder, run: _Run) -> None:
        """Auto OCR of the images on pages of text that no text covers (the regions the
        parser names): each read alone, and what reads as text put into the page's text
        where the image stands. The page keeps its engine and status; the reads are in
        its attempts. See goblin_core.image_regions."""
        if str(self.core["ocr"]) != "auto" or not self.core.get("ocr_image_regions", True):
            return
        pages = [p for p in work if p.content.image_regions and p.ocr is None
                 and p.best is not None and p.best.verdict.status in ("ok", "suspect")]
        if not pages:
            return
        backends = self._ocr_backends(recorder)
        if not backends:
            return  # the pages have their text; the images' is an extra
        dpi = int(self.core["ocr_dpi"])
        languages = str(self.core["ocr_languages"])
        read_before: dict[bytes, Candidate | None] = {}
        for page in pages:
            run.check_deadline(source.display_name)
            try:
                with _engine_call(f"{page.primary or 'the parser'} (rendering page {page.number})"):
                    image = parsed.render(page.number, dpi)
            except EngineInterrupted:
                raise
            except Exception as exc:  # the page keeps its text; the images stay unread
                page.errors.append(Attempt("render", error_kind=type(exc).__name__,
                                           error=str(exc)))
                continue
            if image is None:
                continue
            try:
                found = self._read_regions(image, page, backends, languages, mime,
                                           read_before, recorder)
            finally:
                close = getattr(image, "close", None)
                if close is not None:
                    close()
            winner = page.best
            if found and winner is not None:
                page.candidates[page.candidates.index(winner)] = replace(
                    winner, text=insert_texts(winner.text, found))

    def _read_regions(self, image: Any, page: _PageWork, backends: list[EngineEntry],
                      languages: str, mime: str, read_before: dict[bytes, Candidate | None],
                      recorder: _Recorder) -> list[tuple[str, str]]:
        """The (line below, text) of each region of ``page`` that reads as text; a region
        whose pixels an earlier one had (a logo on every page) is read once."""
        found: list[tuple[str, str]] = []
        regions = page.content.image_regions
        for number, region in enumerate(regions, start=1):
            piece = crop(image, region)
            if piece is None:
                continue
            where = f"image {number} of {len(regions)} on the page"
            try:
                key = _pixels_key(piece)
                if key is not None and key in read_before:
                    earlier = read_before[key]
                    where += ", the same pixels as an image read before"
                    candidate = replace(earlier, seconds=0.0) if earlier is not None else None
                else:
                    candidate = self._recognize(piece, page, backends, languages, mime,
                                                time.monotonic(), recorder, whole_page=False)
                    if key is not None:
                        read_before[key] = candidate
            finally:
                close = getattr(piece, "close", None)
                if close is not None:
                    close()
            if candidate is None:
                continue
            recorder.touched(candidate.engine)
            read = (region_text(candidate.text, candidate.confidence or 0.0)
                    if candidate.verdict.status == "ok" else "")
            # a text layer over part of the image (a scan's OCR layer of its first lines)
            # already holds what the image says there
            kept = without_known_lines(read, page.best.text) if read and page.best else read
            why = (f"{where}: its text put into the page's text" if kept else
                   f"{where}: its text is the page's own text already" if read else
                   f"{where}: not read as text (confidence {candidate.confidence or 0:.2f})")
            page.errors.append(replace(candidate.attempt(), reasons=(why,)))
            if kept:
                found.append((region.before, kept))
        return found

    # -- tables --------------------------------------------------------------

    def _tables(
        self, source: Source, mime: str, work: list[_PageWork], recorder: _Recorder
    ) -> None:
        if not self.core["tables"] or not work:
            return
        numbers = [p.number for p in work]
        for entry in self.registry.ranked("table", mime, self.config):
            try:
                with _engine_call(entry.name):
                    found = _checked_tables(entry.engine.tables(source, numbers, self.config))
            except EngineInterrupted:
                raise
            except Exception as exc:  # tables are extra: the text stays
                recorder.warn(
                    type(exc).__name__, f"table engine {entry.name} failed: {exc}", entry.name
                )
                continue
            recorder.touched(entry.name)
            for page in work:
                page.tables.extend(found.get(page.number, ()))
            return

    # -- step 7: assemble ----------------------------------------------------

    def _assemble(
        self,
        source: Source,
        mime: str,
        work: list[_PageWork],
        metadata: dict[str, Any],
        page_count: int | None,
        recorder: _Recorder,
        started: float,
        detected: FileType | None,
        children: list[Document] | None = None,
        primary: str = "",
    ) -> Document:
        pages = [self._page(p, primary) for p in work]
        pages = self._apply_output_limit(pages, recorder)
        _report_unread_pages(pages, recorder)
        return Document(
            name=source.display_name,
            mime=mime,
            pages=tuple(pages),
            metadata=normalise(metadata, mime=mime,
                               page_count=_page_count(page_count, pages, metadata)),
            raw_metadata=json_safe(metadata),
            children=tuple(children or ()),
            parsed_by=tuple(recorder.parsed_by),
            report=recorder.report(time.monotonic() - started, detected),
            sha256=_safe_sha(source),
            size=_safe_size(source),
        )

    def _apply_output_limit(self, pages: list[Page], recorder: _Recorder) -> list[Page]:
        limit = int(self.limits["max_output_chars"])
        total = 0
        kept: list[Page] = []
        for page in pages:
            if total + len(page.text) > limit:
                room = max(limit - total, 0)
                kept.append(_replace_text(page, page.text[:room]))
                recorder.truncated = True
                break
            total += len(page.text)
            kept.append(page)
        if recorder.truncated:
            recorder.error(
                OutputLimitReached.kind,
                f"text cut at limits.max_output_chars ({limit:,} characters); "
                "raise it to get the rest",
            )
        return kept

    def _page(self, page: _PageWork, primary: str) -> Page:
        winner = page.best
        if winner is not None and winner is page.ocr:
            # OCR reading the very words of a text layer confirms that layer (a page of two
            # words is only sparse): the layer's own text is kept, OCR stays an attempt.
            winner = next((c for c in page.candidates if c.source != "ocr"
                           and c.verdict.status in ("ok", "suspect")
                           and _confirms(c, winner.text)), winner)
        attempts = tuple([c.attempt() for c in page.candidates] + page.errors)
        tables = tuple(page.tables)
        if winner is None:
            message = page.content.error or "no engine could read this page"
            return Page(
                page.number,
                "",
                "",
                "failed",
                0.0,
                reason="error",
                attempts=attempts,
                tables=tables,
                label=page.content.label,
                reasons=(message,),
                hidden_chars=page.content.hidden_chars,
            )
        status, reason = self._status(page, winner, primary)
        alternatives: tuple[tuple[str, str], ...] = ()
        if str(self.core["ocr"]) == "extract_and_ocr" and page.ocr is not None:
            other = (
                best(c for c in page.candidates if c is not page.ocr)
                if winner is page.ocr
                else page.ocr
            )
            if other is not None:
                alternatives = ((other.engine, readable_text(other.text)),)
        if str(self.core["ocr"]) == "always" and page.ocr is not None and winner is not page.ocr:
            winner, status, reason = page.ocr, "ocr", ""
        return Page(
            number=page.number,
            text=readable_text(_with_added(winner.text, page.content.added_text)),
            engine=winner.engine,
            status=status,  # type: ignore[arg-type]
            confidence=round(winner.score, 4),
            reason=reason,
            verdict=winner.verdict.status,
            reasons=winner.verdict.reasons,
            label=page.content.label,
            tables=tables,
            blocks=_readable_blocks(page.content.blocks) if winner.source == "primary" else (),
            alternatives=alternatives,
            attempts=attempts,
            hidden_chars=page.content.hidden_chars,
        )

    def _status(self, page: _PageWork, winner: Candidate, primary: str) -> tuple[str, str]:
        verdict = winner.verdict
        if verdict.status in ("ok", "suspect"):
            if winner.source == "ocr":
                return "ocr", ""
            if winner.engine == primary and winner.source == "primary":
                return "clean", ""
            return "recovered", ""
        if verdict.status == "empty" and page.content.error is not None:
            # the first engine could not read the page: another seeing nothing on it is
            # no sign that it is blank (a stream none can decode draws nothing for all)
            return "failed", "error"
        if verdict.status == "empty" and (not page.draws or page.blank):
            return "empty", ""
        if "needs_ocr" in verdict.reasons or verdict.status == "empty":
            return "corrupt", "needs_ocr"
        if "unmapped" in verdict.reasons:
            return "corrupt", "unmapped"
        return "corrupt", "garbage"


def _confirms(layer: Candidate, ocr_text: str) -> bool:
    """Whether OCR read what a text layer says, so the layer's exact codes are kept.

    The same words in the same order, whatever the spacing and letter case, always
    confirm. A layer that is only short (every glyph it draws mapped, so sent to OCR
    merely because it is short) is also confirmed by a reading that adds nothing and
    differs by OCR's usual confusions: ``Potato O`` for ``Potato 0``.
    """
    words, ocr_words = layer.text.casefold().split(), ocr_text.casefold().split()
    if words == ocr_words:
        return True
    if layer.verdict.reasons != ("sparse_text",):
        return False
    said, read = " ".join(words), " ".join(ocr_words)
    if not said or len(read) > len(said) + 1:
        return False
    # a code such as "1lI0O" is all confusions: only what is more than one counts
    said, read = said.translate(_CONFUSABLE), read.translate(_CONFUSABLE)
    return SequenceMatcher(None, said, read, autojunk=False).ratio() >= _CONFIRMING_SIMILARITY


def _handler_error(entry: EngineEntry, exc: Exception) -> GoblinError:
    """A handler's exception as a GoblinError (a library's own exception means damage)."""
    if isinstance(exc, GoblinError):
        return exc
    return CorruptDocument(
        f"archive handler {entry.name} failed: {type(exc).__name__}: {exc}; "
        "the archive is damaged or the handler has a bug"
    )


# One character in five may differ: O for 0, l for 1, rn for m on a short page.
_CONFIRMING_SIMILARITY = 0.8
# Characters OCR takes for one another in print, each as one of them (after casefold).
_CONFUSABLE = str.maketrans("oli|", "0111")

#: A parser's own warnings kept per document: a parser that warns per row must not
#: flood the report.
_MAX_PARSER_WARNINGS = 50


def _stated_pages(parsed: Any) -> int | None:
    """The pages the parsed document says it has, or None when it does not know."""
    count = getattr(parsed, "page_count", None)
    return count if isinstance(count, int) and not isinstance(count, bool) else None


def page_cap(asked: Any, limit: Any) -> tuple[int, bool]:
    """The pages a document is read to (0: all), from the ``max_pages`` a user asked for
    and the hard ``limits.max_pages``, and whether the hard limit is what stops it: the
    smaller of the two that are set, so asking for more never lifts the limit.

    >>> page_cap(5, 3), page_cap(2, 3), page_cap(0, 3), page_cap(4, 0)
    ((3, True), (2, False), (3, True), (4, False))
    """
    asked, limit = int(asked), int(limit)
    if limit and (not asked or limit < asked):
        return limit, True
    return asked, False


def _parser_warnings(parsed: Any, engine: str, recorder: _Recorder) -> None:
    """The parser's ``warnings`` ((kind, message) pairs) into the report."""
    try:
        warnings = list(getattr(parsed, "warnings", ()) or ())
    except Exception as exc:  # a parser's broken property must not cost the document
        log.debug("%s: warnings unreadable: %s", engine, exc)
        return
    for item in warnings[:_MAX_PARSER_WARNINGS]:
        kind, message = (item if isinstance(item, tuple) and len(item) == 2
                         else ("ParserWarning", item))
        recorder.warn(str(kind), str(message), engine)
    if len(warnings) > _MAX_PARSER_WARNINGS:
        recorder.warn("ParserWarning", f"{len(warnings) - _MAX_PARSER_WARNINGS} more "
                      "warnings of the parser not listed", engine)


def _ocr_warnings(result: OCRResult, engine: str, page: int, recorder: _Recorder) -> None:
    """An OCR backend's warnings into the report, each once a document (a language it
    cannot read in is so for every page), with the first page it was said of."""
    try:
        warnings = list(result.warnings or ())[:_MAX_PARSER_WARNINGS]
    except Exception as exc:  # a backend's malformed warnings must not cost the page
        log.debug("%s: warnings unreadable: %s", engine, exc)
        return
    said = {(w.kind, w.message, w.engine) for w in recorder.warnings}
    for item in warnings:
        kind, message = (item if isinstance(item, tuple) and len(item) == 2
                         else ("OCRWarning", item))
        if (str(kind), str(message), engine) not in said:
            said.add((str(kind), str(message), engine))
            recorder.warn(str(kind), str(message), engine, page)


_FLAT_PAGE = "the page renders to one flat colour: nothing to recognise, not OCR'd"


@dataclass(frozen=True)
class _ReadImage:
    """What a page image read as: the page first rendered so, and its OCR (None: no
    backend found text in it)."""

    page: int
    candidate: Candidate | None


#: Bytes of pixels hashed at a time: the whole page at once would be two more copies of
#: it for a moment (400 MB for a 10,000 x 10,000 grayscale scan).
_DIGEST_STRIP = 4 << 20


def _pixels_key(image: Any) -> bytes | None:
    """A digest of a page image's mode, size and pixels (a PIL image's ``tobytes``, a
    strip of rows at a time); None for an image without them."""
    if getattr(image, "tobytes", None) is None:
        return None
    digest = hashlib.blake2b(digest_size=20)
    digest.update(repr((getattr(image, "mode", ""), getattr(image, "size", ""))).encode())
    try:
        for strip in _pixel_strips(image):
            digest.update(strip)
    except Exception:  # not a PIL image after all: it is read as it comes
        return None
    return digest.digest()


def _pixel_strips(image: Any) -> Iterator[bytes]:
    width, height = image.size
    bands = len(image.getbands()) if hasattr(image, "getbands") else 1
    rows = max(1, _DIGEST_STRIP // max(1, width * bands))
    if rows >= height or not hasattr(image, "crop"):
        yield image.tobytes()
        return
    for top in range(0, height, rows):
        with image.crop((0, top, width, min(top + rows, height))) as strip:
            yield strip.tobytes()


def _flat(image: Any) -> bool:
    """True for a page image of one flat colour (a PIL image's every band has min == max).

    It holds no text, and OCR of a large one (an image-only page claiming
    100,000 x 100,000 pixels, rendered at the pixel limit) takes Tesseract a minute.
    """
    extrema = getattr(image, "getextrema", None)
    if extrema is None:
        return False
    try:
        found = extrema()
    except Exception:  # not a PIL image after all: let the backends judge it
        return False
    bands = found if found and isinstance(found[0], tuple) else (found,)
    return all(low == high for low, high in bands)


def _page_count(stated: int | None, pages: list[Page], metadata: Mapping[str, Any]) -> int | None:
    """The document's page count: the parser's, else the pages read; None when unknown.
    A count of none is taken only when the parser's metadata says so too (a PDF whose
    page tree is empty), not from a parser that read no pages (an archive's own entry)."""
    if stated or pages:
        return stated or len(pages)
    return 0 if stated == 0 and metadata.get("page_count") == 0 else None


def _report_unread_pages(pages: list[Page], recorder: _Recorder) -> None:
    """A document whose every page failed (a page tree that loops, pages PDFium cannot
    load) fails with the first page's cause in its report, not only in its pages."""
    failed = [p for p in pages if p.status == "failed"]
    if not failed or any(p.status not in ("failed", "empty") for p in pages) or recorder.errors:
        return
    first = failed[0]
    cause = first.reasons[0] if first.reasons else "no engine could read it"
    recorder.error(
        CorruptDocument.kind,
        f"no page could be read ({len(failed)} failed; page {first.number}: {cause})",
    )


def _refused_attachment(attachment: Source, limits: ArchiveLimits) -> tuple[str, str, str] | None:
    """(error kind, member reason, message) when ``attachment`` is over a limit, else None."""
    if attachment.depth > limits.max_depth:
        return "UnsafeArchive", "max_depth", "nested deeper than limits.max_depth"
    if attachment.size > limits.max_member_size:
        return (
            "FileTooLarge",
            "max_member_size",
            f"{attachment.size:,} bytes, over limits.max_member_size "
            f"({limits.max_member_size:,} bytes); not read",
        )
    return None


def _checked_parsed(parsed: Any) -> Any:
    """The parser's ParsedDocument, or a TypeError (next parser) when it is none."""
    if not callable(getattr(parsed, "pages", None)) or not hasattr(parsed, "__enter__"):
        raise TypeError(f"open() returned {type(parsed).__name__}, not a ParsedDocument")
    return parsed


#: What ``next`` gives at the end of a parser's pages: a page yielded as None is a bug,
#: not the end (it would silently drop every later page).
_END = object()


def _as_page(item: Any) -> PageContent | None:
    """A page the parser yielded; anything else is the parser's bug, raised as TypeError."""
    if item is _END:
        return None
    if isinstance(item, PageContent):
        return item
    raise TypeError(f"pages() yielded {type(item).__name__}, not a PageContent")


def _numbered(content: PageContent, work: list[_PageWork], engine: str,
              recorder: _Recorder) -> PageContent:
    """The page with a usable number and text: a page numbered 0, -1 or again, or text
    that is no string, is the parser's bug, and must cost neither the page nor the run."""
    previous = work[-1].number if work else 0
    number = content.number
    fixes: dict[str, Any] = {}
    if isinstance(number, bool) or not isinstance(number, int) or number <= previous:
        fixes["number"] = previous + 1
        recorder.warn("BadPageNumber", f"{engine} numbered a page {number!r} after page "
                      f"{previous}; it is read as page {previous + 1}", engine, previous + 1)
    if not isinstance(content.text, str):
        fixes["text"] = ""
        fixes["error"] = f"{engine} gave the text as {type(content.text).__name__}, not str"
    if not isinstance(content.added_text, str):
        fixes["added_text"] = ""
        recorder.warn("BadAnswer", f"{engine} gave page {number}'s added text as "
                      f"{type(content.added_text).__name__}, not str; it is left out", engine)
    return replace(content, **fixes) if fixes else content


def _with_added(text: str, added: str) -> str:
    """``text`` (the winning engine's) followed by what the parser added to the page,
    unless that engine's text holds it already.

    >>> _with_added("Page text", "Note: check").splitlines()
    ['Page text', '', 'Note: check']
    >>> _with_added("Page text. Note: check", "Note: check")
    'Page text. Note: check'
    >>> _with_added("", "Note: check")
    'Note: check'
    """
    if not added.strip() or added in text:
        return text
    if not text.strip():
        return added
    return f"{text.rstrip(chr(10))}\n\n{added}"


def _garbage_for_garbage(before: Candidate | None, after: Candidate | None) -> bool:
    """Whether a probe page's new best text is garbage that beat garbage: two unreadable
    texts, often judged by different validators, whose scores say nothing of how the
    engine reads the document's fonts. Such a win is no reason to read the other pages,
    where the engine may be slow (pdfminer on long pages of broken fonts)."""
    return (before is not None and after is not None
            and before.verdict.status == "garbage" and after.verdict.status == "garbage")


def _warn_stray_answers(texts: dict[Any, Any], wanted: list[_PageWork], engine: str,
                        recorder: _Recorder) -> None:
    """One warning for what a recovery engine answered beyond the contract: pages it was
    not asked for, texts that are not str. Both are ignored; the engine's author should
    hear of it."""
    asked = {p.number for p in wanted}
    stray = sorted(repr(k) for k in texts if k not in asked)
    wrong = sorted(repr(k) for k, v in texts.items() if k in asked and not isinstance(v, str)
                   and v is not None)
    if stray:
        recorder.warn("BadAnswer", f"recovery engine {engine} answered for pages it was not "
                      f"asked for ({', '.join(stray[:5])}); ignored", engine)
    if wrong:
        recorder.warn("BadAnswer", f"recovery engine {engine} gave page(s) "
                      f"{', '.join(wrong[:5])} something other than text; ignored", engine)


def _checked_tables(found: Any) -> dict[int, list[Table]]:
    """A table engine's answer, or a TypeError naming what is wrong with it."""
    if not isinstance(found, dict):
        raise TypeError(f"tables() returned {type(found).__name__}, not {{page: [Table]}}")
    for page, tables in found.items():
        if (isinstance(tables, (str, bytes)) or not isinstance(tables, (list, tuple))
                or not all(isinstance(t, Table) for t in tables)):
            raise TypeError(f"tables() gave page {page!r} {tables!r:.60}, not a list of Table")
    return found


def _record_validator_failure(page: _PageWork, entry: EngineEntry, exc: Exception) -> None:
    """Note a failing validator once per page in its attempts; the page goes on without it."""
    if any(a.engine == entry.name for a in page.errors):
        return
    page.errors.append(
        Attempt(
            entry.name,
            entry.provenance,
            error_kind=type(exc).__name__,
            error=f"validator failed: {exc}",
        )
    )


def _close_quietly(parsed: Any, engine: str) -> None:
    """Close a ParsedDocument; a failing close() must not cost the text already read."""
    try:
        parsed.close()
    except Exception as exc:  # the document is assembled already; only the warning is left
        log.warning("%s: close() failed: %s: %s", engine, type(exc).__name__, exc)


def _readable_blocks(blocks: tuple[Block, ...]) -> tuple[Block, ...]:
    """The blocks with their text as the page's is (:func:`readable_text`)."""
    return tuple(replace(b, text=readable_text(b.text)) if "\u00ad" in b.text else b
                 for b in blocks)


def _replace_text(page: Page, text: str) -> Page:
    return replace(page, text=text)


def _with_file_facts(error: GoblinError, source: Source, detected: FileType | None,
                     readable: bool) -> GoblinError:
    """``error`` carrying the file's detected type, size and hash, which the failed
    document made of it reports. Nothing is read for them but a ``readable`` source
    (one the size check let through): a FIFO, an unread stream or a file over the
    size limit gives at most what a stat tells."""
    error.detected_mime = detected.mime if detected and detected.mime != UNKNOWN.mime else None
    error.size = source.known_size
    if readable:
        error.sha256 = _safe_sha(source)
    return error


def _safe_sha(source: Source) -> str:
    try:
        return source.sha256
    except OSError:
        return ""


def _safe_size(source: Source) -> int | None:
    try:
        return source.size
    except OSError:
        return None
