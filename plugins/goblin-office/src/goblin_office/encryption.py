"""Password-protected Office files: refuse clearly, or decrypt with msoffcrypto-tool.

Encrypted OOXML (docx, xlsx, pptx) is an OLE2 file holding an
``EncryptedPackage``; encrypted legacy files (doc, xls, ppt) are OLE2 too.
``decrypted`` returns a Source of the plain bytes, or the Source itself when
the file is not encrypted.
"""

from __future__ import annotations

import io
import logging
from typing import BinaryIO

import msoffcrypto
from msoffcrypto import exceptions as crypto_errors

from goblin_core.config import Config
from goblin_core.errors import PasswordRequired
from goblin_core.source import Source
from goblin_office.olecheck import check_ole_chains

log = logging.getLogger(__name__)

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


#: The password Excel encrypts with when a workbook is protected but opens without
#: asking (a read-only recommendation, a protected structure): Excel, POI and Tika
#: try it before asking the user, so these files read as any other.
DEFAULT_PASSWORD = "VelvetSweatshop"


def decrypted(source: Source, config: Config) -> Source:
    """``source`` decrypted with ``goblin.password``; itself when not encrypted.

    Without a password, Excel's default one is tried first; with one that does not open
    the file, Excel's default one is tried after it. Raises
    PasswordRequired when the file is encrypted and no password, or a wrong
    one, was given, and CorruptDocument when a sector chain of the OLE file
    loops (every reader handed it would hang or abort).
    """
    if source.head(8) != OLE_MAGIC:
        return source
    check_ole_chains(source)
    with source.open() as stream:
        office = _office_file(stream)
        if office is None or not _is_encrypted(office):
            return source
        password = str(config.get("goblin", "password") or "")
        plain = _decrypt(office, password or DEFAULT_PASSWORD)
        if isinstance(plain, Exception) and password and password != DEFAULT_PASSWORD:
            # a password given for a run of files does not fit a workbook Excel opens
            # without asking: Excel's own password still does
            fallback = _decrypt(office, DEFAULT_PASSWORD)
            plain = plain if isinstance(fallback, Exception) else fallback
        if isinstance(plain, Exception) and not password:
            raise PasswordRequired(
                "the document is password-protected; pass password=... to extract() "
                "(or set [goblin] password)",
                file=source.display_name,
            ) from plain
        if isinstance(plain, Exception):
            raise PasswordRequired(
                f"the password given does not open it ({plain})", file=source.display_name
            ) from plain
    return Source.from_bytes(plain, source.display_name, depth=source.depth, parent=source.parent)


def _decrypt(office: msoffcrypto.OfficeFile, password: str) -> bytes | Exception:
    plain = io.BytesIO()
    try:
        office.load_key(password=password)
        office.decrypt(plain)
    except (crypto_errors.InvalidKeyError, crypto_errors.DecryptionError) as exc:
        return exc
    return plain.getvalue()


def _office_file(stream: BinaryIO) -> msoffcrypto.OfficeFile | None:
    try:
        return msoffcrypto.OfficeFile(stream)
    except Exception as exc:  # msoffcrypto raises many kinds for OLE files it does not know
        log.debug("msoffcrypto does not know this OLE file: %s", exc)
        return None


def _is_encrypted(office: msoffcrypto.OfficeFile) -> bool:
    try:
        return bool(office.is_encrypted())
    except Exception as exc:  # a damaged OLE file: let the parser report it
        log.debug("cannot tell whether the file is encrypted: %s", exc)
        return False
