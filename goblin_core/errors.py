"""The one exception family goblin raises.

Every message names the file it is about and says what to do next, so that a
batch log line is enough to act on.
"""

from __future__ import annotations


class GoblinError(Exception):
    """Base of every error goblin raises on purpose.

    ``kind`` is the stable name written into reports and manifests.
    """

    kind = "GoblinError"
    #: A verdict on the file itself (unsafe, or garbage where its text should be) rather
    #: than on one engine's reading of it: the pipeline tries no other parser on it.
    final: bool = False
    #: What the pipeline knew of the file when the error stopped it (its detected type,
    #: size and SHA-256), so the failed document's record still identifies the file.
    detected_mime: str | None = None
    size: int | None = None
    sha256: str = ""

    def __init__(self, message: str, *, file: str | None = None) -> None:
        self.file = file
        self.message = message
        super().__init__(f"{file}: {message}" if file else message)

    def with_file(self, file: str) -> GoblinError:
        """Return the same error naming ``file`` when it named none yet."""
        if self.file:
            return self
        clone = type(self).__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.file = file
        Exception.__init__(clone, f"{file}: {self.message}")
        return clone


class UnsupportedFormat(GoblinError):
    """No installed engine reads this kind of file.

    ``extra`` names the goblin extra that would read it, when one does.
    """

    kind = "UnsupportedFormat"

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        mime: str | None = None,
        extra: str | None = None,
    ) -> None:
        self.mime = mime
        self.extra = extra
        if extra:
            message = f'{message}; install it with: pip install "goblin-core[{extra}]"'
        super().__init__(message, file=file)


class PasswordRequired(GoblinError):
    """The file is encrypted and no (or a wrong) password was given."""

    kind = "PasswordRequired"


class FileTooLarge(GoblinError):
    """The file, or a member of it, is over a configured size limit."""

    kind = "FileTooLarge"


class UnsafeArchive(GoblinError):
    """An archive breaks a safety limit: depth, members, bytes, ratio or paths."""

    kind = "UnsafeArchive"


class ExtractionTimeout(GoblinError):
    """The per-document time limit ran out; pages done before it are kept."""

    kind = "ExtractionTimeout"


class EngineUnavailable(GoblinError):
    """An engine was asked for by name but cannot run here (binary, credentials...)."""

    kind = "EngineUnavailable"


class EngineFailed(GoblinError):
    """An engine ran on the input and broke down (its binary crashed or ended with an
    error status): the input may be sound, and another engine may read it."""

    kind = "EngineFailed"


class CorruptDocument(GoblinError):
    """The file is damaged beyond what every installed engine could read."""

    kind = "CorruptDocument"


class EmptyFile(CorruptDocument):
    """The file has no bytes. On its own that is an error (nothing to extract);
    as a member of an archive or an attachment it is only noted: archives of
    source code hold empty files by the hundred, and each is faithfully empty."""



class OutputLimitReached(GoblinError):
    """The document's text reached ``limits.max_output_chars``; the text is cut there."""

    kind = "OutputLimitReached"


class WorkerCrashed(GoblinError):
    """The worker process extracting the file died (a crash in a native library)."""

    kind = "WorkerCrashed"


class MemoryLimitExceeded(GoblinError):
    """The worker extracting the file went over ``limits.max_memory``."""

    kind = "MemoryLimitExceeded"


class UnreadableFile(GoblinError, OSError):
    """The file cannot be read at all: missing, a folder, no permission, an I/O error.

    Also an OSError, so code that caught the operating system's error keeps working.
    """

    kind = "UnreadableFile"


class MissingFile(UnreadableFile, FileNotFoundError):
    """The path names nothing (also a FileNotFoundError)."""


class NotAFile(UnreadableFile, IsADirectoryError):
    """The path is a folder (also an IsADirectoryError)."""


class NoPermission(UnreadableFile, PermissionError):
    """The file may not be read (also a PermissionError)."""


def unreadable(cause: OSError, message: str, *, file: str | None = None) -> UnreadableFile:
    """The UnreadableFile for ``cause``, of the subclass that is also the same kind of
    OSError, so ``except FileNotFoundError`` around ``extract`` works as it would
    around ``open``.

    >>> isinstance(unreadable(FileNotFoundError(2, "gone"), "cannot read it"),
    ...            FileNotFoundError)
    True
    """
    for os_error, error in ((FileNotFoundError, MissingFile), (IsADirectoryError, NotAFile),
                            (PermissionError, NoPermission)):
        if isinstance(cause, os_error):
            return error(message, file=file)
    return UnreadableFile(message, file=file)


class ConfigError(GoblinError):
    """A configuration key or value is wrong; the message names the key."""

    kind = "ConfigError"


def is_rust_panic(exc: BaseException) -> bool:
    """Whether ``exc`` is a panic of a Rust extension (python-calamine and others built
    with pyo3), which pyo3 raises as a ``PanicException`` derived from BaseException:
    ``except Exception`` lets it through, so an engine that turns a damaged file into a
    CorruptDocument must catch it by this test.

    >>> is_rust_panic(ValueError("bad cell"))
    False
    """
    return type(exc).__module__ == "pyo3_runtime"


ERROR_KINDS: dict[str, type[GoblinError]] = {
    cls.kind: cls
    for cls in (
        GoblinError,
        UnsupportedFormat,
        PasswordRequired,
        FileTooLarge,
        UnsafeArchive,
        ExtractionTimeout,
        EngineUnavailable,
        EngineFailed,
        CorruptDocument,
        OutputLimitReached,
        WorkerCrashed,
        MemoryLimitExceeded,
        UnreadableFile,
        ConfigError,
    )
}
