"""The goblin plugin contract: every hook a plugin can implement.

This module is the plugin author's reference. Each hook receives a
``register`` callable and calls it once per engine object it contributes;
pluggy only collects them. Ranking by priority, isolation of a failing engine
and provenance are goblin's own code (see ``goblin_core.registry``).

Every engine object has:

``name``
    globally unique, dotted ``family.engine`` (``"pdf.pypdfium2"``). A second
    engine with a taken name marks the later plugin broken.
``formats``
    a tuple of MIME types it takes, ``"type/*"`` wildcards, or ``("*",)``.
``priority``
    an int; higher runs first, ties ordered by name. Users override it per
    engine name in config (``[engines."pdf.pypdfium2"] priority = 5``).
``available() -> tuple[bool, str]``
    whether it can run here and, when not, why ("pdftotext not found: apt-get
    install poppler-utils"). It never touches the network and never raises.
    A bare bool is read as (that bool, ""); an exception or any other answer
    makes the engine unavailable with the cause as its reason, as do formats
    that are no tuple of MIME strings and a priority that is no int.

A plugin is a module or object with functions decorated ``@goblin_core.hookimpl``,
published through the ``goblin`` entry-point group::

    [project.entry-points.goblin]
    myformat = "goblin_myformat.plugin"

What each kind does with bad input: parsers and archive handlers raise a
``GoblinError`` subclass; sniffers return None; validators return a Verdict;
OCR backends return ``OCRResult("", 0.0)``. The core owns ordering, retries
across engines (never the same engine twice on the same input), timing,
limits and provenance.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

PROJECT_NAME = "goblin"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)

Register = Callable[[Any], None]


@hookspec
def goblin_register_sniffers(register: Register) -> None:
    """Register Sniffer objects that tell what a file is from its content.

    Protocol (``goblin_core.engines.Sniffer``)::

        sniff(head: bytes, source: Source) -> FileType | None

    ``head`` is the file's first 8 KiB; a sniffer may read up to 1 MiB more
    through ``source.read(size, offset)`` or ``source.tail(size)`` (a zip's
    central directory, an OLE2 directory). It returns ``FileType(mime, ext,
    confidence)`` with confidence in [0, 1], or None when it does not know.
    The highest confidence wins, ties by priority: a format plugin refines a
    generic answer (a zip that is a docx) by answering with more confidence.
    Content beats extension: a sniffer that only looks at the extension
    answers with confidence at most 0.3.
    """


@hookspec
def goblin_register_parsers(register: Register) -> None:
    """Register Parser objects that turn a document into pages.

    Protocol (``goblin_core.engines.Parser``)::

        open(source: Source, config: Config) -> ParsedDocument   # a context manager

    ``ParsedDocument`` has ``page_count``, ``metadata`` (a dict),
    ``pages() -> Iterator[PageContent]``, ``render(page, dpi) -> PIL.Image | None``
    and ``attachments() -> Iterator[Source]``, and ``close()``.

    Raise a GoblinError subclass when the file cannot be opened
    (PasswordRequired, CorruptDocument...): the core then tries the next
    parser. A page that cannot be read comes back as ``PageContent(number,
    error="...")`` and goes to recovery. Pages are yielded one at a time and
    their native objects freed as you go: a 2,000-page document never sits
    whole in memory. The ParsedDocument stays open through recovery and OCR,
    which call ``render``.
    """


@hookspec
def goblin_register_validators(register: Register) -> None:
    """Register Validator objects that judge a page's text.

    Protocol (``goblin_core.engines.Validator``)::

        check(text: str, context: PageContext) -> Verdict

    ``Verdict(status, score, reasons)``: status ok, suspect, garbage or empty;
    score in [0, 1] with 1 trustworthy. Every validator whose formats match
    the document's MIME type runs; a candidate's verdict is the worst status
    and the lowest score among them. Validators never raise: a validator that
    does is recorded and ignored for that page.
    """


@hookspec
def goblin_register_recovery_engines(register: Register) -> None:
    """Register RecoveryEngine objects that re-read pages another engine botched.

    Protocol (``goblin_core.engines.RecoveryEngine``)::

        recover(source: Source, page_numbers: Sequence[int], config: Config) -> dict[int, str]

    Only pages whose best text is garbage, or that failed, are sent. Return the
    text of every page you could read (1-based numbers); leave out the rest.
    Each candidate is validated and ranked; good text is never replaced by
    worse.
    """


@hookspec
def goblin_register_ocr_backends(register: Register) -> None:
    """Register OCRBackend objects that read text from page images.

    Protocol (``goblin_core.engines.OCRBackend``)::

        recognize(image: PIL.Image.Image, languages: str, config: Config) -> OCRResult

    ``languages`` is Tesseract-style (``"por+eng"``). Return ``OCRResult(text,
    confidence)`` with confidence in [0, 1]; for an image it cannot read return
    ``OCRResult("", 0.0)``. A failure of the backend itself (its time limit ran
    out, its binary crashed) may be raised as a GoblinError (``ExtractionTimeout``,
    ``EngineFailed``): the core records
    it in the page's attempts and the next backend reads the page. A backend with
    ``cloud = True`` sends pages off the machine and runs only when config or the
    call names it. A backend whose
    availability depends on the call's config (credentials passed in options)
    may also have ``available_for(config) -> tuple[bool, str]``, which the core
    then asks instead of ``available()``.

    Optionally a backend reads whole documents in one request::

        recognize_document(source, page_numbers, languages, config) -> dict[int, OCRResult]

    When the first backend of the chain has it, the core calls it once with
    every page that needs OCR; pages it leaves out are read from page images.
    """


@hookspec
def goblin_register_archive_handlers(register: Register) -> None:
    """Register ArchiveHandler objects that list and read archive members.

    Protocol (``goblin_core.engines.ArchiveHandler``)::

        members(source: Source, limits: ArchiveLimits, config: Config) -> Iterator[Member]

    ``Member(name, size, open, kind, compressed_size, mode, link_target)``:
    ``open()`` returns a binary stream of the member's bytes. The core
    sanitises names, refuses traversal, links and devices, and enforces
    depth, member count, total bytes and compression ratio *while reading*
    (its wrapper around ``open()`` stops a bomb mid-stream). Encrypted members
    raise PasswordRequired unless ``config`` carries a password; unreadable
    archives raise a GoblinError subclass. A later part of a multi-volume set
    (``x.7z.002``) lists one member of kind ``"volume"`` whose ``note`` names
    its set: the core reports it as skipped, not as an error.
    """


@hookspec
def goblin_register_table_engines(register: Register) -> None:
    """Register TableEngine objects that find tables on document pages.

    Protocol (``goblin_core.engines.TableEngine``)::

        tables(source: Source, page_numbers: Sequence[int], config: Config)
            -> dict[int, list[Table]]

    Runs only when tables are asked for (``tables = true``). Table text never
    feeds the page's trust verdict.
    """


@hookspec
def goblin_register_executors(register: Register) -> None:
    """Register Executor objects that run many extractions.

    Protocol (``goblin_core.engines.Executor``)::

        run(tasks: Iterable[Task], config: Config, jobs: int | None = None)
            -> Iterator[TaskResult]

    ``jobs`` is the number of workers the caller asked for (None: the executor's
    default). Results are yielded as they finish, in any order. An executor isolates
    crashes and hangs: a document that kills or stalls its worker comes back
    with a WorkerCrashed / ExtractionTimeout / MemoryLimitExceeded error and
    the batch goes on.
    """


@hookspec
def goblin_register_renderers(register: Register) -> None:
    """Register Renderer objects that turn Documents into an output format.

    Protocol (``goblin_core.engines.Renderer``)::

        format: str                    # "text", "markdown", "html", "json", "jsonl", "report"
        render(documents: Sequence[Document], config: Config) -> str

    The highest-priority available renderer of a format is used.
    """


@hookspec(historic=True)
def goblin_register_options(register: Callable[..., None]) -> None:
    """Declare a config namespace: its options, their types, defaults and help.

    Call ``register(namespace, options, extra=None, help="")`` with a sequence
    of ``goblin_core.options.Option``; each default is checked and converted like
    a configured value. ``goblin``, ``limits`` and ``engines`` belong to
    goblin-core, and a namespace another plugin declared first is taken: either
    breaks the declaring plugin, as does a bad default. An unknown key in a declared namespace,
    or a value of the wrong type, is a ConfigError naming the key. ``extra``
    names the goblin extra that installs the plugin, so that a config naming
    the namespace without the plugin installed warns with the install command.
    Historic: a plugin registered late still sees the call.
    """
