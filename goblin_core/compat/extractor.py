"""GoblinTools' TextExtractor over the goblin pipeline.

Every file goes through ``goblin_core.extract``: detection by content,
validation, recovery, OCR by strategy, archive limits. This module only
translates GoblinTools' arguments into goblin options and goblin's Document
back into GoblinTools' tagged text and ExtractionReport.
"""

from __future__ import annotations

import copy
import os
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from goblin_core.compat.custom_parsers import (
    CALLERS_PATH,
    empty_file_document,
    normalise_extension,
    registry_with,
)
from goblin_core.compat.files import (
    GOBLIN_MAX_MEMBERS,
    KEPT_WHOLE_BY_DEPTH,
    LIMIT_ERRORS,
    depth_line,
    detect_source,
    refused_members,
)
from goblin_core.compat.logging_policy import goblintools_logger, set_suppress_warnings
from goblin_core.compat.ocr import (
    available_with,
    frames_through,
    pdf_pages_through,
    reads_images_its_own_way,
    reads_pdfs_its_own_way,
)
from goblin_core.compat.report import (
    CORRUPT_UNRECOVERABLE,
    RECOVERED,
    ExtractionReport,
    failure_report,
    image_not_read_report,
    is_picture,
    missing_engines,
    report_from_document,
)
from goblin_core.compat.settings import (
    GoblinConfig,
    OCRConfig,
    goblin_options,
    limits_of,
    ocr_of,
)
from goblin_core.config import Config
from goblin_core.errors import GoblinError
from goblin_core.model import Document
from goblin_core.registry import Registry, default_registry
from goblin_core.renderers import file_tag, page_text_with_tables

log = goblintools_logger("parser")

#: The extensions GoblinTools 0.13 parses; goblin reads these and many more.
GOBLINTOOLS_EXTENSIONS = (
    ".pdf", ".docx", ".txt", ".pptx", ".html", ".odt", ".rtf", ".csv", ".xml", ".xlsx",
    ".xlsm", ".xls", ".ods", ".dbf", ".jpg", ".jpeg", ".png", ".tif", ".tiff",
)
TEXTRACT_ENGINE = "ocr.textract"
TESSERACT_ENGINE = "ocr.tesseract"
#: Failures GoblinTools logs as warnings, so ``configure(suppress_warnings=True)``
#: hides them: a file no parser reads ("No parser available"). Other failures
#: (damaged, encrypted, empty files) stay errors, as in GoblinTools.
WARNING_KINDS = frozenset({"UnsupportedFormat"})
#: How goblin's UnsupportedFormat names the extra that would read the file.
EXTRA_HINT = 'pip install "goblin-core['


def has_meaningful_text(text: str) -> bool:
    """True when the text holds a letter, digit, punctuation, symbol or mark.

    Blank pages often yield only whitespace or zero-width characters.

    >>> has_meaningful_text("\\u200b \\n"), has_meaningful_text("a")
    (False, True)
    """
    return any(unicodedata.category(ch)[0] in "LNPSM" for ch in text)


def log_failure(kind: str, message: str, read_as: str = "") -> None:
    """Log why the file read as ``read_as`` gave no text, at the level GoblinTools used
    for it, a file no parser reads in GoblinTools' words (goblin's reason after them).

    A format an uninstalled extra reads stays an error: GoblinTools read it, so
    its text is missing because of the installation, not of the file.
    """
    if kind in WARNING_KINDS and EXTRA_HINT not in message:
        extension = PurePosixPath(read_as.replace("\\", "/")).suffix.lower() or "(none)"
        log.warning("No parser available for file extension: %s (%s)", extension, message)
    else:
        log.error("%s", message)


def warn_if_untrusted(report: ExtractionReport, *, ocr: bool) -> None:
    """GoblinTools' one warning for a PDF whose text is not all trustworthy."""
    if report.is_clean or not report.pages:
        return
    recovered = [p for p in report.pages if p.status == RECOVERED]
    corrupt = sum(1 for p in report.pages if p.status == CORRUPT_UNRECOVERABLE)
    engines: dict[str, int] = {}
    for page in recovered:
        if page.engine:
            engines[page.engine] = engines.get(page.engine, 0) + 1
    detail = ", ".join(f"{k}:{v}" for k, v in sorted(engines.items())) or "none"
    hint = ("; it needs OCR: TextExtractor(ocr_handler=True) reads such pages"
            if corrupt and not ocr else "")
    log.warning("%s: text-layer confidence '%s' (%d pages, %d recovered [%s], "
                "%d still corrupt)%s", report.path, report.overall_status, len(report.pages),
                len(recovered), detail, corrupt, hint)


def reports_kept_for(document: Document) -> bool:
    """GoblinTools keeps reports for PDFs and images; goblin also for any failure,
    a nested archive a limit left unopened included (its text is missing)."""
    mime = document.mime
    # image/* includes DjVu, which like a PDF has pages with a text layer to report on
    return mime == "application/pdf" or mime.startswith("image/") or bool(document.report.errors)


@dataclass
class ExtractedTree:
    """One input's text blocks and per-document reports, keyed by tag name."""

    blocks: list[str] = field(default_factory=list)
    reports: dict[str, ExtractionReport] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    #: The input has pages of its own (a document, not an archive of members).
    has_pages: bool = False

    @property
    def text(self) -> str:
        return "\n\n".join(self.blocks)

    def skip(self, reason: str) -> None:
        """Record what a limit left out, once."""
        if reason not in self.skipped:
            self.skipped.append(reason)

    def file_report(self, name: str) -> ExtractionReport | None:
        """The report ``last_extraction_report`` shows for the file read as ``name``:
        its own, even when an attachment came after it (a document without one,
        a DOCX, shows none, as in GoblinTools); for an archive, its last member's."""
        report = self.reports.get(name)
        if report is None and not self.has_pages and self.reports:
            return list(self.reports.values())[-1]
        return report


@dataclass(frozen=True)
class TagNames:
    """How the documents of one input are named in tags.

    goblin names an input's members and attachments under the name the input was
    read as (``read_as``); in tags that name is replaced with ``shown``: the
    caller's ``display_path``, or nothing for the members of an archive
    GoblinTools unpacked to a folder first.

    >>> names = TagNames("/in/pacote.zip", "envio")
    >>> names.of_name("/in/pacote.zip/leia.txt"), TagNames("x.zip", "").of_name("x.zip/a.txt")
    ('envio/leia.txt', 'a.txt')
    """

    read_as: str = ""
    shown: str = ""

    def of_name(self, name: str) -> str:
        if not self.read_as or not name.startswith(self.read_as + "/"):
            return name
        inner = name[len(self.read_as) + 1:]
        return f"{self.shown}/{inner}" if self.shown else inner


def tag_name(doc: Document, names: TagNames) -> str:
    """A document's name in its tag."""
    return names.of_name(doc.name)


def walk_order(relative: str) -> list[tuple[int, str]]:
    """Sort key of a relative path in a top-down walk: a folder's files, then its
    subfolders.

    >>> sorted(["b/x.txt", "z.txt", "a.txt"], key=walk_order)
    ['a.txt', 'z.txt', 'b/x.txt']
    """
    *folders, name = relative.split("/")
    return [(1, folder) for folder in folders] + [(0, name)]


class _BuiltinParser:
    """The goblin pipeline behind one of GoblinTools' extensions (``parsers`` values)."""

    def __init__(self, extractor: TextExtractor, extension: str) -> None:
        self.extractor = extractor
        self.extension = extension

    def __call__(self, file_path: str) -> str:
        tree = self.extractor.extract_tree(file_path, None)
        report = tree.file_report(str(file_path))
        if report is not None:
            # As GoblinTools' PDF and image parsers, which record their report themselves.
            self.extractor.last_extraction_report = report
        return "\n\n".join(
            block.split("\n", 1)[1] if "\n" in block else "" for block in tree.blocks
        )

    def __repr__(self) -> str:
        return f"<goblin parser for {self.extension}>"


class TextExtractor:
    """Text from a file or a folder as GoblinTools returns it, read by goblin.

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "a.txt"), "w") as f:
    ...     _ = f.write("Olá")
    >>> TextExtractor().extract_from_file(os.path.join(folder, "a.txt"), display_path="a.txt")
    'file_path_pwd:"a.txt"\\nOlá'
    """

    def __init__(
        self,
        ocr_handler: Any = False,
        use_aws: Any = False,
        aws_access_key: Any = None,
        aws_secret_key: Any = None,
        aws_region: Any = "us-east-1",
        config: GoblinConfig | None = None,
        suppress_warnings: bool | None = None,
        extract_tables: bool = False,
        table_format: str = "markdown",
        aws_session_token: Any = None,
        use_default_aws_credentials: bool = False,
        ocr_images: bool = False,
    ) -> None:
        if isinstance(config, OCRConfig):
            # GoblinTools' own README passes an OCRConfig here (its "Brazilian Portuguese"
            # example), which GoblinTools then failed on: its OCR settings are meant.
            config = GoblinConfig(ocr=config)
        # The caller's own config object, as in GoblinTools: changes made to it
        # later reach this extractor.
        self.config = config or GoblinConfig.default()
        explicit_aws = [use_aws, aws_access_key, aws_secret_key, aws_region != "us-east-1",
                        aws_session_token, use_default_aws_credentials]
        if any(explicit_aws):
            # A copy here: GoblinTools wrote the AWS arguments into the caller's config.
            ocr = ocr_of(self.config)
            self.config = copy.copy(self.config)
            self.config.ocr = OCRConfig(
                bool(use_aws), aws_access_key, aws_secret_key, aws_region,
                tesseract_lang=ocr.tesseract_lang,
                aws_session_token=aws_session_token,
                use_default_aws_credentials=use_default_aws_credentials,
                pdf_ocr_dpi=ocr.pdf_ocr_dpi,
                max_ocr_pages=ocr.max_ocr_pages,
            )
        if suppress_warnings is not None:
            set_suppress_warnings(suppress_warnings)
        if table_format != "markdown":
            raise ValueError(
                f"Unsupported table_format={table_format!r}; only 'markdown' is supported"
            )
        self.extract_tables = extract_tables
        self.table_format = table_format
        self.ocr_images = ocr_images
        self.ocr_handler = self._ocr_processor() if ocr_handler else None
        self.last_extraction_report: ExtractionReport | None = None
        self.last_extraction_reports: dict[str, ExtractionReport] = {}
        self._parsers: dict[str, Callable[..., Any]] | None = None
        self._registry_key: tuple[tuple[str, int], ...] | None = None
        self._registry_cache: Registry | None = None

    def _ocr_processor(self) -> Any:
        from goblin_core.compat.ocr import OCRProcessor

        return OCRProcessor(ocr_of(self.config))

    # -- parsers ---------------------------------------------------------------

    @property
    def parsers(self) -> dict[str, Callable[..., Any]]:
        """Extension -> parser function; goblin's pipeline unless replaced with ``add_parser``."""
        if self._parsers is None:
            self._parsers = {ext: _BuiltinParser(self, ext) for ext in GOBLINTOOLS_EXTENSIONS}
        return self._parsers

    def add_parser(self, extension: str, parser_func: Callable[..., Any]) -> None:
        """Read files with this extension with ``parser_func(path) -> str``.

        The function runs as a goblin parser, so its text is validated and
        reported like any other.
        """
        self.parsers[extension.lower()] = parser_func

    def _custom_parsers(self) -> dict[str, Callable[..., Any]]:
        return {e: f for e, f in self.parsers.items() if not isinstance(f, _BuiltinParser)}

    def parser_removed_for(self, name: str, mime: str) -> str | None:
        """The extension whose entry the caller removed from ``parsers`` (``del``,
        ``pop``, ``clear``) and that turns this document off, as in GoblinTools; None
        when it is read.

        As GoblinTools, the name's extension decides first, then what the content
        is: ``x.pdf`` holding a DOCX is read while ``.docx`` is in ``parsers``.
        Formats GoblinTools had no entry for (``.doc``, ``.md``, archives) are
        always read.
        """
        kept = {f".{normalise_extension(e)}" for e in self.parsers}
        removed = set(GOBLINTOOLS_EXTENSIONS) - kept
        if not removed:
            return None
        suffix = PurePosixPath(name).suffix.lower()
        by_content = {e for e in GOBLINTOOLS_EXTENSIONS if _mime_of_extension(e) == mime}
        if suffix in kept or by_content & kept:
            return None
        if suffix in removed:
            return suffix
        return min(by_content & removed, default=None)

    def _turned_off(self, name: str, mime: str) -> bool:
        """True (and GoblinTools' warning logged) for a document ``parser_removed_for``
        turns off."""
        extension = self.parser_removed_for(name, mime)
        if extension is None:
            return False
        log.warning("No parser available for file extension: %s", extension)
        return True

    @property
    def registry(self) -> Registry:
        """The registry extraction uses: installed plugins plus any custom parser."""
        custom = self._custom_parsers()
        if not custom:
            return default_registry()
        key = tuple(sorted((e, id(f)) for e, f in custom.items()))
        if key != self._registry_key or self._registry_cache is None:
            self._registry_cache = registry_with(custom)
            self._registry_key = key
        return self._registry_cache

    def goblin_config(self, registry: Registry | None = None, *,
                      ocr: bool | None = None) -> Config:
        """The goblin Config this extractor's settings amount to (``ocr`` overrides
        whether goblin's OCR backends may run)."""
        registry = registry or self.registry
        if ocr is None:
            ocr = self.ocr_handler is not None
        options = goblin_options(self.config, ocr=ocr,
                                 tables=self.extract_tables, namespaces=registry.namespaces)
        # GoblinTools' max_members caps the members read from a whole archive tree
        # and keeps the first ones; goblin refuses an archive listing more than
        # its cap. So goblin keeps its own cap and tree_of applies GoblinTools'.
        options["max_members"] = max(options["max_members"], GOBLIN_MAX_MEMBERS)
        return registry.config(**options)

    # -- extraction ------------------------------------------------------------

    def extract_tree(
        self, source: Any, name: str | None, *, strip_root: bool = False,
        shown_as: str | None = None,
    ) -> ExtractedTree:
        """Extract one input (path or bytes) into tagged blocks and reports.

        Errors are logged and kept in the reports; nothing is raised.
        ``strip_root`` names archive members without the archive's own name,
        as GoblinTools does after unpacking to a folder. ``shown_as`` is the
        name in the tags when it is not the one the input is read as (GoblinTools'
        ``display_path``): ``name`` alone decides how the input is read.
        """
        registry = self.registry
        config = self.goblin_config(registry)
        label = name if name is not None else str(source)
        shown = label if shown_as is None else shown_as
        if self._skip_image(registry, config, source, label):
            return self._unread_image_tree(registry, config, source, label, shown)
        return self.tree_of(self._read(source, label, registry, config), shown,
                            strip_root=strip_root)

    def _handler_image(self, registry: Registry, config: Config, source: Any,
                       label: str) -> str | None:
        """The MIME type of an image the caller's own ``ocr_handler`` must read, else None."""
        if not (self.ocr_images and self.ocr_handler is not None
                and reads_images_its_own_way(self.ocr_handler)):
            return None
        return self._image_mime(registry, config, source, label)

    def _read(self, source: Any, label: str, registry: Registry,
              config: Config) -> Document | Exception:
        """As the module's ``_read``, but an empty file named for a custom parser
        goes to that parser, as GoblinTools does (goblin's detection stops at it)."""
        image = self._handler_image(registry, config, source, label)
        if image is not None:
            max_frames = int(config.get("limits", "max_pages", 0) or 0)
            try:
                return frames_through(self.ocr_handler, source, label, image, max_frames,
                                      int(config.limits["max_image_pixels"]))
            except GoblinError as exc:
                return exc
        if isinstance(source, (str, os.PathLike)):
            path = Path(source)
            custom = {normalise_extension(e): f for e, f in self._custom_parsers().items()}
            func = custom.get(normalise_extension(path.suffix)) if path.suffix else None
            if func is not None and path.is_file() and path.stat().st_size == 0:
                try:
                    return empty_file_document(func, path.suffix, str(path), label)
                except GoblinError as exc:
                    return exc
            if self._handler_reads_pdf(registry, config, source, label):
                # The caller's OCR object reads what the text layer cannot, as in
                # GoblinTools; goblin's own backends stay out of its way.
                result = _read(source, label, registry, self.goblin_config(registry, ocr=False))
                if isinstance(result, Document):
                    return pdf_pages_through(self.ocr_handler, result, str(path))
                return result
        return _read(source, label, registry, config)

    def _handler_reads_pdf(self, registry: Registry, config: Config, source: Any,
                           label: str) -> bool:
        """True for a PDF the caller's own ``ocr_handler`` must OCR."""
        if self.ocr_handler is None or not reads_pdfs_its_own_way(self.ocr_handler):
            return False
        return self._detected_mime(registry, config, source, label) == "application/pdf"

    def tree_of(
        self, result: Document | Exception, label: str, *, strip_root: bool = False
    ) -> ExtractedTree:
        """Tagged blocks, reports and skipped members of one extraction (or its failure)."""
        tree = ExtractedTree()
        if isinstance(result, Exception):
            log_failure(getattr(result, "kind", ""), str(result),
                        str(getattr(result, "file", None) or label))
            tree.reports[label] = failure_report(label, str(result))
            if getattr(result, "kind", "") in LIMIT_ERRORS:
                tree.skip(str(result))
            return tree
        document = result
        tree.has_pages = bool(document.pages)
        # An archive unpacked first, as GoblinTools does with bytes: its members are named
        # without it, and it has no report of its own when only limits refused members.
        unpacked = not document.pages and bool(document.children or document.report.members)
        root = document.name if strip_root and unpacked else None
        # Members and attachments go by the caller's name for the input, as the input does.
        names = TagNames(document.name, "" if root is not None else label)
        admitted = within_member_cap(document, limits_of(self.config).max_members, tree)
        # Files inside a document (a PDF's or an e-mail's), not members of an archive.
        attached = {id(child) for doc in document.walk() if doc.pages for child in doc.children}

        def tag_of(doc: Document) -> str:
            # The input itself goes by the caller's name, even one goblin would not
            # name a document by (display_path="").
            return label if doc is document else tag_name(doc, names)

        # In GoblinTools' folder order, as it reads an archive after unpacking it.
        for doc in sorted((d for d in document.walk() if id(d) in admitted),
                          key=lambda d: walk_order(tag_of(d))):
            self._collect(doc, root, tag_of(doc), tree, attached=id(doc) in attached)
        return tree

    def _unread_image_tree(self, registry: Registry, config: Config, source: Any,
                           label: str, shown: str) -> ExtractedTree:
        """An image read as ``label`` left unread: its report under ``shown``, unless
        its parser was removed (then, as in GoblinTools, there is none)."""
        mime = self._image_mime(registry, config, source, label) or ""
        if self._turned_off(label, mime):
            return ExtractedTree()
        return unread_image_tree(shown)

    def _skip_image(self, registry: Registry, config: Config, source: Any, label: str) -> bool:
        """Standalone images are OCR'd only with ``ocr_handler`` and ``ocr_images``."""
        if self.ocr_handler is not None and self.ocr_images:
            return False
        return self._image_mime(registry, config, source, label) is not None

    def _image_mime(self, registry: Registry, config: Config, source: Any,
                    label: str) -> str | None:
        mime = self._detected_mime(registry, config, source, label)
        return mime if mime is not None and is_picture(mime) else None

    @staticmethod
    def _detected_mime(registry: Registry, config: Config, source: Any,
                       label: str) -> str | None:
        from goblin_core.inputs import as_source

        try:
            return detect_source(registry, config, as_source(source, label)).mime
        except (GoblinError, OSError):
            return None

    def _collect(
        self, doc: Document, root: str | None, name: str, tree: ExtractedTree,
        *, attached: bool = False,
    ) -> None:
        """Add one document of a tree, tagged ``name``, to ``tree``."""
        registry = self.registry
        # As GoblinTools, the name the file is read as decides, not the tag's.
        if self._turned_off(doc.name, doc.mime):
            return
        for error in doc.report.errors:
            message = error.message
            log_failure(error.kind, message if doc.name in message else f"{name}: {message}",
                        doc.name)
        for missing in missing_engines(doc):
            log.warning("%s: %s", name, missing)
        limits = limits_of(self.config)
        lines, refused = refused_members(doc.report.members, limits, doc.size)
        for line in lines:
            tree.skip(line)
        for error in doc.report.errors:
            # A refused member is also an error of its archive: list it once.
            if error.kind not in LIMIT_ERRORS or error.message in refused:
                continue
            if KEPT_WHOLE_BY_DEPTH in error.message:
                tree.skip(depth_line(doc.name, limits))
            else:
                tree.skip(error.message)
        if not doc.pages and doc.children and not doc.report.errors:
            return
        if doc.name == root and not doc.pages:
            # The archive itself: its members carry the text; a problem of its
            # own (a damaged central directory) still gets a report.
            if any(e.kind not in LIMIT_ERRORS for e in doc.report.errors):
                tree.reports[name] = report_from_document(doc, name, registry)
            return
        if is_picture(doc.mime) and not (self.ocr_handler and self.ocr_images):
            if not attached:  # GoblinTools never sees a document's attached images
                tree.reports[name] = image_not_read_report(name)
            return
        if reports_kept_for(doc):
            report = report_from_document(doc, name, registry)
            tree.reports[name] = report
            if doc.mime == "application/pdf":
                warn_if_untrusted(report, ocr=self.ocr_handler is not None)
        # As GoblinTools, extract_tables embeds a PDF's tables, whose text layer loses
        # their columns; other formats' text already holds each row, cells tab-separated,
        # and a Markdown copy would give every cell twice.
        tables_inline = self.extract_tables and doc.mime == "application/pdf"
        body = joined_pages(doc, [page_text_with_tables(p, tables_inline) for p in doc.pages])
        if has_meaningful_text(body):
            tree.blocks.append(f"{file_tag(name)}\n{body}")

    def extract_from_file(self, file_path: str, display_path: str | None = None) -> str:
        """Text of one file headed ``file_path_pwd:"..."`` ("" when there is none).

        An archive gives one block per member. ``last_extraction_report``
        holds the report of the (last) PDF or image read, or of the failure.
        """
        self.last_extraction_report = None
        if not os.path.exists(file_path):
            log.warning("File not found: %s", file_path)
            return ""
        if isinstance(file_path, bytes):
            # As GoblinTools (its Path() refuses bytes): a bytes path is a caller's bug,
            # not a name to write into the tag.
            raise TypeError("argument should be a str object or an os.PathLike object "
                            f"returning str, not {type(file_path)}")
        if os.path.isdir(file_path):
            # Not a file that failed: GoblinTools finds no parser and keeps no report.
            log.warning("Not a file (extract_from_folder reads folders): %s", file_path)
            return ""
        # GoblinTools formats whatever it is given (a Path, a number) into the tag.
        name = str(display_path) if display_path is not None else str(file_path)
        # The file is read as its own path says; display_path only names it in the tag.
        handing = CALLERS_PATH.set(file_path)  # a custom parser gets the path as given
        try:
            tree = self.extract_tree(file_path, str(file_path), shown_as=name)
        finally:
            CALLERS_PATH.reset(handing)
        self.last_extraction_report = tree.file_report(name)
        return tree.text

    def extract_from_folder(self, folder_path: str) -> str:
        """Text of every file under a folder, tagged by relative path, in GoblinTools'
        order: a folder's files (sorted), then its subfolders.

        ``last_extraction_reports`` maps each PDF's tag path to its report;
        ``last_extraction_report`` is the last file's report (None when it has none).
        """
        from goblin_core.inputs import InputProblem, walk_inputs

        self.last_extraction_reports = {}
        if not os.path.isdir(folder_path):
            log.warning("Folder not found: %s", folder_path)
            return ""
        files: list[tuple[Path, str]] = []
        for item in walk_inputs([folder_path]):
            if isinstance(item, InputProblem):
                log.warning("%s: %s", item.path, item.message)
            elif not self._too_large(item[0]):
                files.append(item)
        # GoblinTools' walk: a folder's files, then its subfolders, each sorted.
        files.sort(key=lambda item: walk_order(item[1]))
        texts: list[str] = []
        for (_, rel), tree in zip(files, self._folder_trees(files), strict=True):
            self.last_extraction_report = tree.file_report(rel)
            self.last_extraction_reports.update(tree.reports)
            if tree.blocks:
                texts.append(tree.text)
        return "\n\n".join(texts)

    def _folder_trees(self, files: list[tuple[Path, str]]) -> Iterator[ExtractedTree]:
        """Each file's blocks and reports, in the order given, read in this process.

        Not in worker processes: they start by re-importing the caller's main
        module, which a GoblinTools script written without an
        ``if __name__ == "__main__":`` guard cannot survive.
        ``goblin_core.extract_many`` is the parallel, isolated way.
        """
        registry = self.registry
        config = self.goblin_config(registry)
        for path, rel in files:
            if self._skip_image(registry, config, path, rel):
                yield self._unread_image_tree(registry, config, path, rel, rel)
            else:
                yield self.tree_of(self._read(path, rel, registry, config), rel)

    def _too_large(self, path: Path) -> bool:
        try:
            size = path.stat().st_size
        except OSError as exc:
            log.warning("Cannot read %s: %s", path, exc.strerror)
            return True
        if size > self.config.max_file_size:
            log.warning("Skipping large file: %s (%d bytes > max_file_size %d)",
                        path, size, self.config.max_file_size)
            return True
        return False

    # -- helpers GoblinTools has -------------------------------------------------

    def extract_tables_from_pdf(
        self, file_path: str, *, max_pages: int | None = None
    ) -> list[dict[str, Any]]:
        """Tables of a PDF as ``[{"page": 1-based, "index", "rows"}]``."""
        from goblin_core.compat.tables import extract_pdf_tables

        return extract_pdf_tables(file_path, max_pages=max_pages)

    def pdf_needs_ocr(self, file_path: str) -> bool:
        """True when no page of the PDF yields trustworthy text without OCR."""
        registry = self.registry
        options = goblin_options(self.config, ocr=False, namespaces=registry.namespaces)
        try:
            document = _extract(file_path, None, registry, registry.config(**options))
        except (GoblinError, OSError, TypeError, ValueError) as exc:
            # As GoblinTools: whatever cannot be read (None included) needs OCR.
            log.error("Error checking PDF %s: %s", file_path, exc)
            return True
        usable = [p for p in document.pages
                  if p.status in ("clean", "recovered") and has_meaningful_text(p.text)]
        return not usable

    def validate_installation(self) -> dict[str, bool]:
        """Whether local OCR (and, with ``use_aws``, Textract) can run here."""
        registry = self.registry
        config = self.goblin_config(registry)
        results = {"tesseract": _available(registry, TESSERACT_ENGINE, config)}
        ocr = ocr_of(self.config)
        # Asked for with credentials, as in GoblinTools: the key says Textract was
        # wanted, its value whether it can run (False without goblin-ocr-textract).
        if self.ocr_handler is not None and ocr.use_aws and ocr.has_aws_credentials:
            results["aws_textract"] = _available(registry, TEXTRACT_ENGINE, config)
        return results


def _mime_of_extension(extension: str) -> str | None:
    """The MIME type goblin knows a GoblinTools extension (``.pdf``) by."""
    from goblin_core.formats import BY_EXTENSION

    known = BY_EXTENSION.get(extension.lstrip("."))
    return known.mime if known is not None else None


def joined_pages(document: Document, texts: list[str]) -> str:
    """A document's page texts joined as GoblinTools joins them.

    A PDF's pages are joined by one line break, each page kept (a blank one adds
    its line), except pages that hold no text because an OCR handler read the whole
    file into the first one. An image's frames that gave text are joined by a blank
    line. Pages GoblinTools never saw (slides, sheets) are joined by goblin's blank
    line, trailing pages without text left out.
    """
    if document.mime == "application/pdf":
        kept = [text for page, text in zip(document.pages, texts, strict=True)
                if text or page.status != "ocr"]
        return "\n".join(kept)
    if is_picture(document.mime):
        return "\n\n".join(text for text in texts if text)
    while texts and not texts[-1]:
        texts = texts[:-1]  # trailing pages without text add only separators
    return Document.PAGE_SEPARATOR.join(texts)


def within_member_cap(document: Document, limit: int, tree: ExtractedTree) -> set[int]:
    """The ids of the documents GoblinTools' ``max_members`` lets through; the
    first member left out is noted in ``tree.skipped``.

    GoblinTools counts every member of the whole tree in the order it unpacks
    them: all members of an archive, then the archives among them, in turn.
    """
    admitted = {id(document)}
    capped: list[str] = []

    def unpack(archive: Document) -> None:
        for member in archive.children:
            if len(admitted) <= limit:
                admitted.add(id(member))
            elif not capped:
                name = member.name.removeprefix(archive.name + "/")
                capped.append(f"{name}: member limit ({limit}) reached; remaining members "
                              "skipped (limits.max_members)")
        for member in archive.children:
            if id(member) in admitted and member.children:
                unpack(member)

    unpack(document)
    for reason in capped:
        log.warning("Archive extraction limit: %s", reason)
        tree.skip(reason)
    return admitted


def unread_image_tree(name: str) -> ExtractedTree:
    """No text, and the report GoblinTools gives an image it did not OCR."""
    tree = ExtractedTree()
    tree.reports[name] = image_not_read_report(name)
    return tree


def _available(registry: Registry, name: str, config: Config) -> bool:
    entry = registry.get(name)
    return entry is not None and available_with(registry, entry, config)


def _read(source: Any, name: str, registry: Registry, config: Config) -> Document | Exception:
    """The Document of one input, or the error that stopped it (never raised)."""
    try:
        return _extract(source, name, registry, config)
    except (GoblinError, OSError) as exc:
        return exc


def _extract(source: Any, name: str | None, registry: Registry, config: Config) -> Document:
    from goblin_core.api import extract

    return extract(source, name=name, config=config, registry=registry)
