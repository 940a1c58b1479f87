"""Protocols of the engines plugins register, and small bases to build them on.

A plugin need not inherit from anything here: any object with the attributes
of its protocol works. The bases only save typing and give safe defaults.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, Protocol, runtime_checkable

from goblin_core.model import FileType, OCRResult, PageContent, PageContext, Table, Verdict
from goblin_core.source import Source

if TYPE_CHECKING:
    from goblin_core.config import Config
    from goblin_core.model import Document

ENGINE_KINDS = (
    "sniffer",
    "parser",
    "validator",
    "recovery",
    "ocr",
    "archive",
    "table",
    "executor",
    "renderer",
)


@runtime_checkable
class Engine(Protocol):
    name: str
    formats: tuple[str, ...]
    priority: int

    def available(self) -> tuple[bool, str]: ...


class BaseEngine:
    """Defaults every engine may inherit: all formats, priority 0, available."""

    name: str = ""
    formats: tuple[str, ...] = ("*",)
    priority: int = 0

    def available(self) -> tuple[bool, str]:
        return True, ""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} priority={self.priority}>"


def accepts(formats: Iterable[str], mime: str) -> bool:
    """True when a format list takes ``mime`` (exact, ``type/*`` or ``*``)."""
    for fmt in formats:
        if fmt in ("*", mime):
            return True
        if fmt.endswith("/*") and mime.startswith(fmt[:-1]):
            return True
    return False


class Sniffer(Protocol):
    name: str
    formats: tuple[str, ...]
    priority: int

    def available(self) -> tuple[bool, str]: ...
    def sniff(self, head: bytes, source: Source) -> FileType | None: ...


class ParsedDocument(Protocol):
    page_count: int | None
    metadata: Mapping[str, Any]

    def pages(self) -> Iterator[PageContent]: ...
    def render(self, page: int, dpi: int) -> Any: ...
    def attachments(self) -> Iterator[Source]: ...
    def close(self) -> None: ...
    def __enter__(self) -> ParsedDocument: ...
    def __exit__(self, *exc: object) -> None: ...


class BaseParsedDocument:
    """A ParsedDocument with no pages, no images and no attachments.

    Subclasses override ``pages`` and whatever else their format has.
    """

    page_count: int | None = None
    metadata: Mapping[str, Any] = {}
    #: What the parser left out or could not read, as (kind, message) pairs, filled as
    #: it reads (``("Truncated", "rows after 1,000,000 cut: office.max_sheet_cells")``):
    #: the core puts them in the document's report once the pages are read.
    warnings: Sequence[tuple[str, str]] = ()
    #: What text of the document was left out, when some is known lost to damage (a
    #: chapter the package lacks): the core reports it as a ``Truncated`` warning, so the
    #: document counts as read in part (``report.truncated``, exit status 1)
    left_out: str = ""
    #: A copy of the file the parser mended before it could read it (a PDF qpdf rebuilt
    #: from its objects), named as the original: recovery engines, whole-document OCR
    #: and table engines read it instead of the damaged file.
    repaired: Source | None = None

    def pages(self) -> Iterator[PageContent]:
        return iter(())

    def render(self, page: int, dpi: int) -> Any:
        """A page image (PIL) for OCR, or None when the format has none."""
        return None

    def attachments(self) -> Iterator[Source]:
        return iter(())

    def close(self) -> None:
        return None

    def __enter__(self) -> BaseParsedDocument:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class TextDocument(BaseParsedDocument):
    """A ParsedDocument whose pages are known strings (text, sheets, slides)."""

    def __init__(
        self,
        pages: Sequence[str | PageContent],
        metadata: Mapping[str, Any] | None = None,
        attachments: Sequence[Source] = (),
    ) -> None:
        self._pages = [
            p if isinstance(p, PageContent) else PageContent(number=i, text=p)
            for i, p in enumerate(pages, start=1)
        ]
        self.page_count = len(self._pages)
        self.metadata = dict(metadata or {})
        self._attachments = list(attachments)

    def pages(self) -> Iterator[PageContent]:
        return iter(self._pages)

    def attachments(self) -> Iterator[Source]:
        return iter(self._attachments)


class Parser(Protocol):
    name: str
    formats: tuple[str, ...]
    priority: int

    def available(self) -> tuple[bool, str]: ...
    def open(self, source: Source, config: Config) -> ParsedDocument: ...


class Validator(Protocol):
    name: str
    formats: tuple[str, ...]
    priority: int

    def available(self) -> tuple[bool, str]: ...
    def check(self, text: str, context: PageContext) -> Verdict: ...


class RecoveryEngine(Protocol):
    name: str
    formats: tuple[str, ...]
    priority: int

    def available(self) -> tuple[bool, str]: ...
    def recover(
        self, source: Source, page_numbers: Sequence[int], config: Config
    ) -> dict[int, str]: ...


class OCRBackend(Protocol):
    name: str
    formats: tuple[str, ...]
    priority: int
    cloud: bool

    def available(self) -> tuple[bool, str]: ...
    def recognize(self, image: Any, languages: str, config: Config) -> OCRResult: ...


MemberKind = Literal["file", "dir", "symlink", "hardlink", "device", "fifo", "other", "volume"]


@dataclass(frozen=True)
class Member:
    """One archive member as a handler lists it.

    ``open`` returns a binary stream of the member's bytes. ``size`` is the
    declared expanded size (None when unknown), ``compressed_size`` the stored
    size. ``link_target`` is set for symlinks and hard links. ``mode`` holds
    the Unix permission bits when the format records them.

    A handler given a later part of a multi-volume set (``x.7z.002``,
    ``x.part2.rar``) lists one member of kind ``"volume"`` whose ``note``
    says which set it belongs to: it is reported as skipped (the set is read
    through its first volume), not as an error.

    ``decompressed`` marks the one member of a single-file compressor (the
    ``x.pdf`` of ``x.pdf.gz``): the compressed file's content rather than a file
    an archive stores, so ``goblin unpack`` writes it where the compressed file
    sat, as gunzip does, not in a folder named after it.
    """

    name: str
    open: Callable[[], BinaryIO]
    size: int | None = None
    compressed_size: int | None = None
    kind: MemberKind = "file"
    mode: int | None = None
    link_target: str | None = None
    encrypted: bool = False
    note: str = ""
    decompressed: bool = False


@dataclass(frozen=True)
class ArchiveLimits:
    """Safety limits for archives, enforced while reading."""

    max_depth: int = 10
    max_members: int = 10_000
    max_total_bytes: int = 2 * 1024**3
    max_member_size: int = 1024**3
    max_ratio: float = 200.0
    ratio_grace_bytes: int = 1024**2

    @classmethod
    def from_config(cls, config: Config) -> ArchiveLimits:
        limits = config.section("limits")
        return cls(
            max_depth=limits["max_depth"],
            max_members=limits["max_members"],
            max_total_bytes=limits["max_total_bytes"],
            max_member_size=limits["max_member_size"],
            max_ratio=limits["max_ratio"],
            ratio_grace_bytes=limits["ratio_grace_bytes"],
        )


class ArchiveHandler(Protocol):
    name: str
    formats: tuple[str, ...]
    priority: int

    def available(self) -> tuple[bool, str]: ...
    def members(
        self, source: Source, limits: ArchiveLimits, config: Config
    ) -> Iterator[Member]: ...


class TableEngine(Protocol):
    name: str
    formats: tuple[str, ...]
    priority: int

    def available(self) -> tuple[bool, str]: ...
    def tables(
        self, source: Source, page_numbers: Sequence[int], config: Config
    ) -> dict[int, list[Table]]: ...


@dataclass(frozen=True)
class Task:
    """One document for an executor: a path (or bytes) and its display name."""

    path: str | None
    display_name: str
    data: bytes | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    index: int = 0


@dataclass(frozen=True)
class TaskResult:
    """An executor's answer for one Task: a Document (errors are in its report)."""

    task: Task
    document: Document
    seconds: float = 0.0
    worker: str = ""


class Executor(Protocol):
    name: str
    formats: tuple[str, ...]
    priority: int

    def available(self) -> tuple[bool, str]: ...
    def run(
        self, tasks: Iterable[Task], config: Config, jobs: int | None = None
    ) -> Iterator[TaskResult]: ...


def run_executor(
    executor: Any, tasks: Iterable[Task], config: Config, jobs: int | None = None
) -> Iterator[TaskResult]:
    """``executor.run`` with ``jobs`` passed only when its ``run`` takes it.

    ``jobs`` is a wish (how many workers the caller asked for); an executor that
    sizes itself (a Dask cluster) may leave it out of its signature.
    """
    if _takes_jobs(executor.run):
        return iter(executor.run(tasks, config, jobs=jobs))
    return iter(executor.run(tasks, config))


def _takes_jobs(method: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(method).parameters.values()
    except (TypeError, ValueError):  # no signature to read (a builtin): pass it
        return True
    return any(p.name == "jobs" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


class Renderer(Protocol):
    name: str
    formats: tuple[str, ...]
    priority: int
    format: str

    def available(self) -> tuple[bool, str]: ...
    def render(self, documents: Sequence[Document], config: Config) -> str: ...
