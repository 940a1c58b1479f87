"""Password-protected OpenDocument packages, decrypted member by member.

ODF encrypts each member on its own; ``META-INF/manifest.xml`` says how: a
start key (SHA-256 or SHA-1 of the password), PBKDF2 with a salt and
iteration count, then AES-256-CBC (current LibreOffice) or Blowfish CFB
(OpenOffice.org), over raw-deflated data. A wrong password shows as data that
does not inflate, or a checksum that does not match.
"""

from __future__ import annotations

import base64
import hashlib
import io
import logging
import zipfile
import zlib
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.decrepit.ciphers.algorithms import Blowfish
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

from goblin_core.config import Config
from goblin_core.errors import CorruptDocument, PasswordRequired
from goblin_core.source import Source
from goblin_office.containers import MEMBER_ERRORS, open_container, read_member
from goblin_office.safexml import attr, children, descendants, parse_xml

log = logging.getLogger(__name__)

_AES = "http://www.w3.org/2001/04/xmlenc#aes256-cbc"


@dataclass(frozen=True)
class Encryption:
    """How one member is encrypted, from its manifest entry."""

    algorithm: str
    iv: bytes
    salt: bytes
    iterations: int
    key_size: int
    start_key: str
    checksum_type: str
    checksum: bytes


def encrypted_members(manifest: Any) -> dict[str, Encryption]:
    """Members the manifest marks encrypted, with their parameters."""
    found: dict[str, Encryption] = {}
    for entry in descendants(manifest, "file-entry"):
        data = next(iter(children(entry, "encryption-data")), None)
        if data is None:
            continue
        algorithm = next(iter(children(data, "algorithm")), None)
        derivation = next(iter(children(data, "key-derivation")), None)
        start = next(iter(children(data, "start-key-generation")), None)
        if algorithm is None or derivation is None:
            continue
        found[attr(entry, "full-path")] = Encryption(
            algorithm=attr(algorithm, "algorithm-name"),
            iv=base64.b64decode(attr(algorithm, "initialisation-vector")),
            salt=base64.b64decode(attr(derivation, "salt")),
            iterations=int(attr(derivation, "iteration-count", "1024") or 1024),
            key_size=int(attr(derivation, "key-size", "16") or 16),
            start_key=attr(start, "start-key-generation-name", "SHA1")
            if start is not None
            else "SHA1",
            checksum_type=attr(data, "checksum-type"),
            checksum=base64.b64decode(attr(data, "checksum")),
        )
    return found


def decrypt_member(data: bytes, how: Encryption, password: str, name: str) -> bytes:
    """The plain bytes of one encrypted member; PasswordRequired when the password is wrong."""
    if "argon2" in how.algorithm.lower():
        raise PasswordRequired(
            "the package uses Argon2 key derivation, which goblin does not "
            "support yet; save it with the default encryption",
            file=name,
        )
    digest = hashlib.sha256 if "sha256" in how.start_key.lower() else hashlib.sha1
    start_key = digest(password.encode("utf-8")).digest()
    key = PBKDF2HMAC(hashes.SHA1(), how.key_size, how.salt, how.iterations).derive(start_key)
    decryptor = _cipher(how, key).decryptor()
    plain = decryptor.update(data) + decryptor.finalize()
    if how.algorithm == _AES and plain:
        plain = plain[: -plain[-1]] if 0 < plain[-1] <= 16 else plain
    try:
        return zlib.decompressobj(-15).decompress(plain)
    except zlib.error as exc:
        raise PasswordRequired("the password given does not open it", file=name) from exc


def _cipher(how: Encryption, key: bytes) -> Cipher[Any]:
    if how.algorithm == _AES:
        return Cipher(algorithms.AES(key), modes.CBC(how.iv))
    return Cipher(Blowfish(key), modes.CFB(how.iv))


def _looks_encrypted(archive: zipfile.ZipFile, member: str) -> bool:
    """Whether ``member`` is there but does not start as XML does (after a byte-order
    mark and white space): encrypted members are random bytes."""
    if member not in archive.namelist():
        return False
    try:
        with archive.open(member) as stream:
            head = stream.read(64)
    except MEMBER_ERRORS:
        return False
    return not head.removeprefix(b"\xef\xbb\xbf").lstrip().startswith(b"<")


def decrypted_package(source: Source, config: Config) -> Source:
    """``source`` itself when no member is encrypted, else a plain copy of the package.

    Raises PasswordRequired when members are encrypted and no password, or a wrong
    one, was given.
    """
    name = source.display_name
    depth = int(config.get("limits", "max_xml_depth", 256))
    with open_container(source, config) as archive:
        manifest = "META-INF/manifest.xml"
        if manifest not in archive.namelist():
            return source
        try:
            data = read_member(archive, manifest, name)
        except CorruptDocument as exc:
            # the manifest only says how members are encrypted: a package whose content
            # is XML is read as plain; one whose content is not was encrypted
            if _looks_encrypted(archive, "content.xml"):
                raise CorruptDocument(
                    f"{exc.message}, and content.xml is not XML: the package is encrypted, "
                    "and its manifest holds what decrypts it", file=name) from exc
            log.warning("%s; the package is read as unencrypted", exc)
            return source
        if b"encryption-data" not in data:
            return source
        encrypted = encrypted_members(parse_xml(data, name=f"{name}:{manifest}", max_depth=depth))
        password = str(config.get("goblin", "password") or "")
        if not password:
            raise PasswordRequired(
                "the OpenDocument file is password-protected; pass password=... to extract() "
                "(or set [goblin] password)",
                file=name,
            )
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as plain:
            for info in archive.infolist():
                member = read_member(archive, info.filename, name)
                if info.filename in encrypted:
                    member = decrypt_member(member, encrypted[info.filename], password, name)
                plain.writestr(info.filename, member)
    return Source.from_bytes(buffer.getvalue(), name, depth=source.depth, parent=source.parent)
