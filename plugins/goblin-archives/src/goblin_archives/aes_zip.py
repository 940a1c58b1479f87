"""WinZip AES (AE-1/AE-2) zip members, decrypted through pyzipper.

The standard library lists AES members (compression method 99) but cannot
decrypt them. The zip handler keeps reading everything else with zipfile and
asks an ``AesReader`` for the AES members only; the reader opens the archive
a second time through pyzipper on the first such member, so an archive with
no AES member never pays for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, BinaryIO

from goblin_core.errors import CorruptDocument, PasswordRequired

#: The compression method an AES member declares; the real one sits in its extra field.
AES_METHOD = 99


class AesReader:
    """Opens the AES members of one zip; ``close()`` closes what it opened."""

    def __init__(self, open_stream: Callable[[], BinaryIO]) -> None:
        self._open_stream = open_stream
        self._stream: BinaryIO | None = None
        self._archive: Any = None

    def open(self, index: int, where: str, password: str | None) -> BinaryIO:
        """The decrypted bytes of the ``index``-th member (central-directory order)."""
        if not password:
            raise PasswordRequired("the member is AES-encrypted (WinZip AE-1/AE-2); set "
                                   "goblin.password (or archives.password)", file=where)
        archive = self._opened()
        try:
            inner = archive.open(archive.infolist()[index], pwd=password.encode("utf-8"))
        except RuntimeError as exc:  # pyzipper's way of saying "bad password", like zipfile's
            raise PasswordRequired(f"the password does not open it ({exc}); "
                                   "check goblin.password", file=where) from exc
        return _AesStream(inner, where)  # type: ignore[return-value]

    def _opened(self) -> Any:
        if self._archive is None:
            import pyzipper  # imported on the first AES member: most zips have none

            self._stream = self._open_stream()
            self._archive = pyzipper.AESZipFile(self._stream)
        return self._archive

    def close(self) -> None:
        """Close the second view of the archive, if one was opened."""
        if self._archive is not None:
            self._archive.close()
            self._archive = None
        if self._stream is not None:
            self._stream.close()
            self._stream = None


class _AesStream:
    """A decrypting member stream; pyzipper's own BadZipFile (a failed HMAC) becomes
    CorruptDocument, since it is not the zipfile error the other decoders raise."""

    def __init__(self, inner: Any, where: str) -> None:
        from pyzipper.zipfile import BadZipFile

        self._inner = inner
        self._where = where
        self._bad: type[Exception] = BadZipFile

    def read(self, size: int = -1) -> bytes:
        try:
            data: bytes = self._inner.read(size)
            return data
        except self._bad as exc:
            raise CorruptDocument(f"the AES member does not decrypt cleanly ({exc}); it is "
                                  "damaged or was altered", file=self._where) from exc

    def close(self) -> None:
        self._inner.close()
