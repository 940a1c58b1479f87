"""GoblinTools' FileValidator, ArchiveHandler, FileManager and ExtractionBudget.

Type decisions use goblin's detection (content beats extension) and the
installed plugins; archives are expanded by ``goblin_core.unpack`` under
goblin's archive safety (names, links, sizes and ratios checked while
reading). The caller's own top-level archive is never deleted by
``extract_files_recursive``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from goblin_core.archive_safety import ESCAPING_NAMES
from goblin_core.compat.logging_policy import goblintools_logger, set_suppress_warnings
from goblin_core.compat.settings import ArchiveLimits, limit_options
from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits as EngineLimits
from goblin_core.errors import GoblinError
from goblin_core.model import FileType, MemberEntry
from goblin_core.registry import Registry, default_registry
from goblin_core.source import Source

if TYPE_CHECKING:
    from goblin_core.unpack import UnpackResult

log = goblintools_logger("file_handling")

ZIP_MAGIC = b"PK\x03\x04"
#: Error kinds that mean "a limit left this out" (GoblinTools' ``skipped``).
LIMIT_ERRORS = frozenset({"UnsafeArchive", "FileTooLarge", "OutputLimitReached"})
#: goblin's own limits, where GoblinTools has none (a compression ratio).
GOBLIN_LIMITS = EngineLimits()
#: goblin's own member cap, kept under GoblinTools' smaller ones (see _unpack).
GOBLIN_MAX_MEMBERS = GOBLIN_LIMITS.max_members


def detect_source(registry: Registry, config: Config, source: Source) -> FileType:
    """goblin's detection of ``source``, a FIFO, socket or device refused first (OSError),
    as the pipeline refuses them: reading the head of a FIFO no one writes to blocks
    for ever."""
    from goblin_core.detect import detect

    source.check_size(0)
    return detect(registry, config, source)


def detect_file(path: str | os.PathLike[str], registry: Registry | None = None) -> FileType | None:
    """goblin's idea of what a file is, or None when it cannot be read or is empty."""
    registry = registry or default_registry()
    try:
        return detect_source(registry, registry.config(), Source.from_path(path))
    except (GoblinError, OSError):
        return None


def file_kind(path: str | os.PathLike[str], registry: Registry | None = None) -> str:
    """``document`` (an installed parser reads it), ``archive`` (only an archive
    handler does) or ``unknown``."""
    registry = registry or default_registry()
    found = detect_file(path, registry)
    if found is None:
        return "unknown"
    if registry.ranked("parser", found.mime):
        return "document"
    if registry.ranked("archive", found.mime):
        return "archive"
    return "unknown"


def _archive_by_name(path: str | os.PathLike[str]) -> bool:
    """True when the name's extension is a format only an installed archive handler
    reads (``x.zip``, ``x.tar.gz``; not ``x.epub``, a document)."""
    from goblin_core.formats import BY_EXTENSION

    known = BY_EXTENSION.get(Path(path).suffix.lower().lstrip("."))
    if known is None:
        return False
    registry = default_registry()
    return bool(registry.ranked("archive", known.mime)) and not registry.ranked("parser",
                                                                                known.mime)


def free_name(path: str) -> str:
    """``path``, or ``stem_1.ext``, ``stem_2.ext``... when it already exists."""
    base, ext = os.path.splitext(path)
    candidate, counter = path, 1
    while os.path.exists(candidate):
        candidate = f"{base}_{counter}{ext}"
        counter += 1
    return candidate


def _read_as_text(found: FileType) -> bool:
    """Text formats are told from their content by guesswork, not by a signature."""
    return found.mime.startswith("text/") or found.mime.endswith(("/xml", "/json"))


class FileValidator:
    """Questions about one file, answered from its content where it matters."""

    PARSEABLE_EXTENSIONS = frozenset({
        ".pdf", ".docx", ".txt", ".pptx", ".html", ".odt", ".rtf", ".csv", ".xml", ".xlsx",
        ".xlsm", ".xls", ".ods", ".dbf", ".jpg", ".jpeg", ".png", ".tif", ".tiff",
    })
    OFFICE_CONTAINER_EXTENSIONS = frozenset({".docx", ".xlsx", ".xlsm", ".pptx", ".odt", ".ods"})

    @classmethod
    def office_container_extension(cls, file_path: str) -> str | None:
        """The Office extension of a ZIP-based Office file (by name or content), else None."""
        suffix = Path(file_path).suffix.lower()
        if suffix in cls.OFFICE_CONTAINER_EXTENSIONS:
            return suffix
        detected = cls.detect_extension_from_magic(file_path)
        return detected if detected in cls.OFFICE_CONTAINER_EXTENSIONS else None

    @staticmethod
    def is_empty(file_path: str) -> bool:
        """True for a 0-byte file (False when it cannot be read)."""
        try:
            return os.path.getsize(file_path) == 0
        except OSError as exc:
            log.info("Cannot check %s: %s", file_path, exc.strerror)
            return False

    @staticmethod
    def is_archive(file_path: str) -> bool:
        """True when an installed archive handler (not a document parser) reads it:
        judged by its content, or, for a path that is no file (a missing one), by its
        name, as GoblinTools does."""
        if not os.path.isfile(file_path):
            return _archive_by_name(file_path)
        return file_kind(file_path) == "archive"

    @classmethod
    def is_parseable_document(cls, file_path: str) -> bool:
        """True for a document extension GoblinTools parses (by name only)."""
        return Path(file_path).suffix.lower() in cls.PARSEABLE_EXTENSIONS

    @staticmethod
    def is_zip_by_magic(file_path: str) -> bool:
        """True when the file starts with a ZIP local header (a FIFO, socket or device,
        whose reading would block, is no ZIP)."""
        try:
            if not os.path.isfile(file_path):
                return False
            with open(file_path, "rb") as stream:
                return stream.read(4) == ZIP_MAGIC
        except OSError:
            return False

    @staticmethod
    def detect_extension_from_magic(file_path: str) -> str | None:
        """The extension of the document the content is (``.pdf``, ``.docx``...), or None.

        As in GoblinTools, an archive (a plain zip, a tar) is None: it is told by
        ``is_archive`` and ``is_zip_by_magic``, and unpacked, not renamed.
        """
        registry = default_registry()
        found = detect_file(file_path, registry)
        if found is None or not found.ext or found.mime in ("text/plain",):
            return None
        if registry.ranked("archive", found.mime) and not registry.ranked("parser", found.mime):
            return None
        return f".{found.ext}"


class ExtractionBudget:
    """Running totals over one (possibly nested) archive extraction.

    Anything left out is recorded in ``skipped`` with the reason; nothing is raised.
    """

    def __init__(self, limits: ArchiveLimits | None = None) -> None:
        self.limits = limits or ArchiveLimits()
        self.members = 0
        self.total_bytes = 0
        self.skipped: list[str] = []
        self.exhausted = False

    def snapshot(self) -> tuple[int, int, int, bool]:
        return (self.members, self.total_bytes, len(self.skipped), self.exhausted)

    def restore(self, snapshot: Any) -> None:
        """Go back to a ``snapshot()`` so a retried extraction does not count twice."""
        self.members, self.total_bytes, kept, self.exhausted = snapshot
        del self.skipped[kept:]

    def skip(self, reason: str) -> None:
        self.skipped.append(reason)
        log.warning("Archive extraction limit: %s", reason)

    def admit_member(self, name: str) -> bool:
        """False once the member cap (or an earlier total-size stop) is reached."""
        if self.exhausted:
            return False
        if self.members >= self.limits.max_members:
            self.skip(f"{name}: member limit ({self.limits.max_members}) reached; "
                      "remaining members skipped")
            self.exhausted = True
            return False
        return True

    def over_limit(self, name: str, member_bytes: int) -> str | None:
        """Why a member of ``member_bytes`` bytes must be dropped, else None."""
        if member_bytes > self.limits.max_member_bytes:
            return f"{name}: exceeds the per-member limit ({self.limits.max_member_bytes} bytes)"
        if self.total_bytes + member_bytes > self.limits.max_total_bytes:
            self.exhausted = True
            return total_limit_line(name, self.limits)
        return None

    def commit(self, member_bytes: int) -> None:
        self.members += 1
        self.total_bytes += member_bytes

    def remaining_limits(self) -> ArchiveLimits:
        """The limits left for the next archive of this tree."""
        return ArchiveLimits(
            max_depth=self.limits.max_depth,
            max_members=max(self.limits.max_members - self.members, 0),
            max_member_bytes=self.limits.max_member_bytes,
            max_total_bytes=max(self.limits.max_total_bytes - self.total_bytes, 0),
        )


def _apply_budget(root: str, budget: ExtractionBudget) -> None:
    """Keep out of ``root`` whatever a custom handler extracted beyond the budget."""
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            if os.path.islink(path):
                os.remove(path)
                budget.skip(f"{rel}: symlink not extracted")
                continue
            if not budget.admit_member(rel):
                os.remove(path)
                continue
            size = os.path.getsize(path)
            reason = budget.over_limit(rel, size)
            if reason:
                os.remove(path)
                budget.skip(reason)
                continue
            budget.commit(size)


def _move_tree(source_root: str, destination: str) -> None:
    """Move every file under ``source_root`` to the same place under ``destination``."""
    for folder, _, files in os.walk(source_root):
        for name in sorted(files):
            src = os.path.join(folder, name)
            target = free_name(os.path.join(destination, os.path.relpath(src, source_root)))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.move(src, target)


#: How goblin words an archive it wrote whole (unpack) or left closed (extract)
#: instead of opening it.
KEPT_WHOLE_BY_DEPTH = "nested deeper than limits.max_depth"


def _unpack(file_path: str, destination: str, budget: ExtractionBudget, *,
            remove_source: bool) -> tuple[bool, list[Path]]:
    """Expand one archive with goblin, under the budget's limits, as GoblinTools'
    ArchiveHandler does: archives inside it are written as they are. Whether it counts
    as extracted, and the files kept. ``remove_source`` deletes the archive only when
    nothing but a limit left a member out.
    """
    from goblin_core.unpack import unpack

    limits = budget.remaining_limits()
    if budget.exhausted or limits.max_members <= 0:
        # As GoblinTools, the cap refuses this archive's members and stops the tree: a
        # limit, not a failure, so it counts as extracted. The archive is kept, unread.
        if not budget.exhausted:
            budget.skip(f"{os.path.basename(file_path)}: member limit reached; not extracted")
            budget.exhausted = True
        return True, []
    registry = default_registry()
    options = limit_options(limits)
    # goblin refuses an archive listing more members than its cap; GoblinTools
    # keeps the first ones, which _record_result does under the budget.
    options["max_members"] = max(options["max_members"], GOBLIN_MAX_MEMBERS)
    options["max_depth"] = 1
    config = registry.config(**options)
    existed = os.path.exists(destination)
    try:
        result = unpack(file_path, destination, config=config, flatten=False,
                        registry=registry)
    except (GoblinError, OSError) as exc:
        log.error("Error extracting %s: %s", file_path, exc)
        _drop_if_left_empty(destination, existed)
        return False, []
    extracted, kept = _record_result(result, budget, _size_or_none(file_path))
    _drop_if_left_empty(destination, existed)
    if extracted and remove_source and _complete(result):
        os.remove(file_path)
    return extracted, kept


def _drop_if_left_empty(destination: str, existed: bool) -> None:
    """Remove the destination folder an extraction made when nothing stayed in it: as
    GoblinTools, which moves files into place, a failure or an empty archive (or one
    whose every member a limit refused) leaves no folder behind."""
    if not existed and os.path.isdir(destination) and not os.listdir(destination):
        os.rmdir(destination)


def _complete(result: UnpackResult) -> bool:
    """True when every member was unpacked or left out by a limit (as GoblinTools,
    which deletes the archive then): an encrypted or damaged member keeps it. An inner
    archive written whole was asked for, not left out."""
    return all(error.kind in LIMIT_ERRORS or KEPT_WHOLE_BY_DEPTH in error.message
               for error in result.errors)


def _size_or_none(path: str) -> int | None:
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def _record_result(result: UnpackResult, budget: ExtractionBudget,
                   packed: int | None) -> tuple[bool, list[Path]]:
    """Count what goblin wrote, note what it left out: True when it wrote something
    or left out only what a limit refused (GoblinTools' success), and the files kept."""
    kept: list[Path] = []
    dest = result.dest.resolve()
    for path in result.written:
        if not budget.admit_member(os.path.relpath(path, dest)):
            _remove_written(path, dest)
            continue
        kept.append(path)
        try:
            budget.commit(os.path.getsize(path))
        except OSError:
            budget.commit(0)
    lines, refused = refused_members(result.members, budget.limits, packed)
    for line in lines:
        budget.skip(line)
        if TOTAL_LIMIT_WORDS in line:
            # As GoblinTools: the total size stops the rest of the tree, not one archive.
            budget.exhausted = True
    for error in result.errors:
        if error.message in refused or KEPT_WHOLE_BY_DEPTH in error.message:
            continue
        # A limit or a refusal left something out: GoblinTools lists those in ``skipped``.
        budget.skipped.append(error.message)
        log.error("%s", error.message)
    return bool(kept) or _complete(result), kept


def refused_members(members: Iterable[MemberEntry], limits: ArchiveLimits,
                    packed: int | None) -> tuple[list[str], set[str]]:
    """The members goblin refused, as GoblinTools' ``skipped`` lines, and the same
    refusals as goblin words them among the archive's errors (to list each once: a
    refusal that stopped the archive is also its error, word for word).

    ``limits`` are the caller's; ``packed`` is the archive's size in bytes, when known.
    Directories and later volumes of a set are skipped, not left out: not listed.
    """
    refused = [m for m in members if m.action == "refused"]
    return ([_skipped_line(m, limits, packed) for m in refused],
            {f"member {m.name!r} refused: {m.reason}" for m in refused}
            | {m.reason for m in refused})


#: How goblin's reasons name the limits GoblinTools' ArchiveLimits has too.
_MEMBER_SIZE_LIMIT = "limits.max_member_size"
_TOTAL_SIZE_LIMIT = "limits.max_total_bytes"


def _skipped_line(member: MemberEntry, limits: ArchiveLimits, packed: int | None) -> str:
    """A refused member as GoblinTools lists it. The limits GoblinTools has in its
    ArchiveLimits (a member's size, the total size) and a name that would climb out
    of the destination are in its words, goblin's reason after an escaping name;
    goblin's own limits (a compression ratio, a link) in goblin's words."""
    if member.reason in ESCAPING_NAMES:
        return (f"{member.name}: path escapes the extraction root; member skipped "
                f"({member.reason})")
    if _MEMBER_SIZE_LIMIT in member.reason:
        return f"{member.name}: exceeds the per-member limit ({limits.max_member_bytes} bytes)"
    if _TOTAL_SIZE_LIMIT in member.reason and _total_bound(limits, packed):
        return total_limit_line(member.name, limits)
    return f"{member.name}: {member.reason}"


#: GoblinTools' words for the total size limit.
TOTAL_LIMIT_WORDS = "total extracted size limit"


def total_limit_line(name: str, limits: ArchiveLimits) -> str:
    """A member the total size limit left out, in GoblinTools' words."""
    return (f"{name}: {TOTAL_LIMIT_WORDS} ({limits.max_total_bytes} bytes) reached; "
            "remaining members skipped")


def _total_bound(limits: ArchiveLimits, packed: int | None) -> bool:
    """True when the total size limit, not goblin's compression ratio (a reason may name
    both), is what an archive of ``packed`` bytes reached first."""
    if packed is None:
        return True
    ratio_ceiling = packed * GOBLIN_LIMITS.max_ratio + GOBLIN_LIMITS.ratio_grace_bytes
    return limits.max_total_bytes < ratio_ceiling


def depth_line(name: str, limits: ArchiveLimits) -> str:
    """An archive ``max_depth`` left closed, in GoblinTools' words (its base name)."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    return f"{base}: nesting deeper than {limits.max_depth} archive levels; not extracted"


def _remove_written(path: Path, dest: Path) -> None:
    """Take back a file written beyond GoblinTools' member cap, and the folders it emptied."""
    os.remove(path)
    folder = path.parent
    while folder != dest and folder.is_relative_to(dest) and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


class ArchiveHandler:
    """Archive extraction into a folder, with GoblinTools' ``add_format`` hook."""

    # Process-wide on purpose: GoblinTools' add_format is a class method.
    _custom_formats: ClassVar[dict[str, Callable[[str, str], Any]]] = {}

    @classmethod
    def add_format(cls, extension: str, handler: Callable[[str, str], Any]) -> None:
        """Extract files ending in ``extension`` with ``handler(file_path, destination)``.

        The handler writes into a private folder; goblin then applies the
        archive limits and moves the result into place.
        """
        cls._custom_formats[extension.lower()] = handler

    @classmethod
    def extract(cls, file_path: str, destination: str, remove_source: bool = True,
                limits: ArchiveLimits | None = None,
                budget: ExtractionBudget | None = None) -> bool:
        """Expand an archive into ``destination`` (member folders kept, names made unique).

        One level, as in GoblinTools: an archive inside it is written as it is
        (``FileManager.extract_files_recursive`` opens those too).
        ``remove_source=True`` (GoblinTools' default) deletes the archive afterwards.
        """
        return cls._extract(file_path, destination, budget or ExtractionBudget(limits),
                            remove_source=remove_source, nested=False)

    @classmethod
    def _extract(cls, file_path: str, destination: str, budget: ExtractionBudget, *,
                 remove_source: bool, nested: bool, depth: int = 0) -> bool:
        if FileValidator.is_empty(file_path) or not os.path.exists(file_path):
            return False
        handler = cls._custom_formats.get(Path(file_path).suffix.lower())
        if handler is not None:
            ok = cls._extract_custom(handler, file_path, destination, budget)
            if ok and remove_source:
                os.remove(file_path)
            return ok
        extracted, kept = _unpack(file_path, destination, budget, remove_source=remove_source)
        if nested:
            cls._extract_nested(kept, budget, depth)
        return extracted

    @classmethod
    def _extract_nested(cls, written: list[Path], budget: ExtractionBudget, depth: int) -> None:
        """Open the archives among the files an extraction wrote, each into the folder
        it lies in, as GoblinTools does (its members beside it, the archive removed once
        read whole), down to ``max_depth`` levels: one deeper stays closed and is
        listed in ``budget.skipped``. Files that were there before are never opened."""
        for path in written:
            if not path.is_file() or FileValidator.office_container_extension(str(path)):
                continue
            if file_kind(path) != "archive":
                continue
            if depth + 1 >= budget.limits.max_depth:
                budget.skip(f"{path.name}: nesting deeper than {budget.limits.max_depth} "
                            "archive levels; not extracted")
                continue
            cls._extract(str(path), str(path.parent), budget, remove_source=True, nested=True,
                         depth=depth + 1)

    @classmethod
    def _extract_custom(cls, handler: Callable[[str, str], Any], file_path: str,
                        destination: str, budget: ExtractionBudget) -> bool:
        with tempfile.TemporaryDirectory(prefix="goblin-unpack-") as tmp:
            try:
                handler(file_path, tmp)
            except Exception as exc:  # a user's handler may raise anything: report, go on
                log.error("Error extracting %s with its custom handler: %s: %s",
                          file_path, type(exc).__name__, exc)
                return False
            _apply_budget(tmp, budget)
            _move_tree(tmp, destination)
        return True

    @classmethod
    def extract_zip(cls, file_path: str, destination: str, remove_source: bool = True,
                    limits: ArchiveLimits | None = None,
                    budget: ExtractionBudget | None = None) -> bool:
        """Expand a ZIP whatever its name says (a ``.pdf`` that is really a ZIP), one level."""
        if not FileValidator.is_zip_by_magic(file_path):
            return False
        budget = budget or ExtractionBudget(limits)
        extracted, _ = _unpack(file_path, destination, budget, remove_source=remove_source)
        return extracted


class FileManager:
    """Archive extraction and file housekeeping, GoblinTools style."""

    def __init__(self, suppress_warnings: bool | None = None) -> None:
        if suppress_warnings is not None:
            set_suppress_warnings(suppress_warnings)

    @staticmethod
    def delete_if_empty(file_path: str) -> bool:
        """Delete a 0-byte file; True when it was deleted or does not exist."""
        try:
            if os.path.getsize(file_path) != 0:
                return False
            os.remove(file_path)
            log.info("Deleted empty file: %s", file_path)
            return True
        except FileNotFoundError:
            return True
        except (OSError, TypeError, ValueError) as exc:  # GoblinTools never raises here
            log.error("Cannot delete %s: %s", file_path, exc)
            return False

    @staticmethod
    def delete_folder(folder_path: str) -> bool:
        """Delete a folder and everything in it; False when it is missing or locked."""
        try:
            if not os.path.exists(folder_path):
                log.info("Folder not found: %s", folder_path)
                return False
            shutil.rmtree(folder_path)
            return True
        except (OSError, TypeError, ValueError) as exc:  # GoblinTools never raises here
            log.error("Cannot delete %s: %s", folder_path, exc)
            return False

    @staticmethod
    def move_file(source: str | Path, destination: str | Path) -> bool:
        """Move a file, renaming it ``stem_N.ext`` when the destination exists.

        Empty files are not moved (False); moving a file onto itself is True.
        """
        src, dest = Path(source), Path(destination)
        if not src.exists():
            log.error("Source file does not exist: %s", src)
            return False
        if FileValidator.is_empty(str(src)):
            log.info("Skipping empty file: %s", src)
            return False
        if dest.exists() and src.resolve() == dest.resolve():
            return True
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(src), free_name(str(dest)))
            return True
        except OSError as exc:
            log.error("Cannot move %s to %s: %s", src, dest, exc)
            return False

    @classmethod
    def move_files(cls, folder_path: str) -> None:
        """Flatten a folder: ``sub/dir/file.pdf`` becomes ``sub_dir_file.pdf`` at its top."""
        if not os.path.isdir(folder_path):
            log.error("Directory not found: %s", folder_path)
            return
        root = os.path.abspath(folder_path)
        for folder, _, files in sorted(os.walk(root), reverse=True):
            if folder == root:
                continue
            for name in sorted(files):
                path = os.path.join(folder, name)
                if cls.delete_if_empty(path):
                    continue
                rel = os.path.relpath(path, root)
                suffix = Path(name).suffix
                stem = rel[: -len(suffix)] if suffix else rel
                flat = stem.replace(os.sep, "_").rstrip("_") + suffix.lower()
                cls.move_file(path, os.path.join(root, flat))
            if not os.listdir(folder):
                os.rmdir(folder)

    @classmethod
    def extract_files_recursive(cls, file_path: str, destination: str,
                                limits: ArchiveLimits | None = None,
                                budget: ExtractionBudget | None = None, _depth: int = 0) -> bool:
        """Expand an archive and the archives inside it into ``destination``, or copy
        a document there whole (Office files are documents, never unpacked). As in
        GoblinTools, an inner archive is opened in the folder it lies in and removed
        once read whole.

        Decided by content: a ``.zip`` holding a PDF is copied as ``.pdf``, a
        ``.pdf`` holding a ZIP is expanded. An empty file is copied when its
        name is a document GoblinTools parses, as GoblinTools does. The
        caller's file is never deleted. Returns False for an unreadable or
        unsupported file.
        """
        if not os.path.isfile(file_path):
            return False
        if FileValidator.is_empty(file_path):
            # Nothing to detect: the name decides, and extraction reports it empty.
            return FileValidator.is_parseable_document(file_path) and cls._copy_document(
                file_path, destination)
        budget = budget or ExtractionBudget(limits)
        custom = Path(file_path).suffix.lower() in ArchiveHandler._custom_formats
        kind = "archive" if custom else file_kind(file_path)
        if kind == "document":
            return cls._copy_document(file_path, destination)
        if kind == "archive":
            return ArchiveHandler._extract(file_path, destination, budget, remove_source=False,
                                           nested=True, depth=_depth)
        log.warning("No parser or archive handler for %s; not extracted", file_path)
        return False

    @staticmethod
    def _copy_document(file_path: str, destination: str) -> bool:
        os.makedirs(destination, exist_ok=True)
        name = os.path.basename(file_path)
        found = detect_file(file_path)
        suffix = Path(name).suffix.lower()
        office = found is not None and f".{found.ext}" in FileValidator.OFFICE_CONTAINER_EXTENSIONS
        if office and not suffix and found is not None:
            # GoblinTools names an Office file without extension by its content.
            name = f"{name}.{found.ext}"
        elif (found is not None and found.ext and suffix and suffix != f".{found.ext}"
                and not _read_as_text(found)):
            from goblin_core.formats import BY_EXTENSION

            # Only a name that promises another known format is wrong (a .zip
            # holding a PDF); an extension goblin does not know is left alone,
            # and so is a name over text, which no signature contradicts.
            named = BY_EXTENSION.get(suffix.lstrip("."))
            if named is not None and named.mime != found.mime:
                log.info("Treating misnamed file as .%s: %s", found.ext, file_path)
                name = f"{Path(name).stem}.{found.ext}"
        office_named = suffix in FileValidator.OFFICE_CONTAINER_EXTENSIONS
        if name == os.path.basename(file_path) and office_named:
            # GoblinTools writes an Office file's extension in lower case (D.DOCX -> D.docx).
            name = f"{Path(name).stem}{suffix}"
        shutil.copy2(file_path, free_name(os.path.join(destination, name)))
        return True

    @classmethod
    def batch_extract(cls, file_paths: list[str], destination: str,
                      progress_callback: Callable[[int, int], None] | None = None) -> list[bool]:
        """``extract_files_recursive`` for each path, in order; ``progress_callback(done, total)``
        after each one."""
        results: list[bool] = []
        total = len(file_paths)
        for done, path in enumerate(file_paths, start=1):
            results.append(cls.extract_files_recursive(path, destination))
            if progress_callback is not None:
                progress_callback(done, total)
        return results
