"""Which password to try on an encrypted PDF, and the errors when none works."""

from __future__ import annotations

import io
import logging

import pypdfium2 as pdfium

from goblin_core.config import Config
from goblin_core.errors import PasswordRequired
from goblin_core.source import Source
from goblin_pdf.pypdf_warnings import pypdf_warnings_held

log = logging.getLogger(__name__)


def configured_passwords(config: Config) -> list[str]:
    """The passwords given, in the order they are tried: ``pdf.password``, then
    ``goblin.password`` (the one given for a whole batch)."""
    found: list[str] = []
    for namespace in ("pdf", "goblin"):
        value = config.get(namespace, "password")
        if value and str(value) not in found:
            found.append(str(value))
    return found


def document_password(source: Source, config: Config) -> str | None:
    """The password to open ``source`` with: None when it opens without one, else the
    first configured password that opens it (the first one given when none does, for
    the error to name).

    A PDF encrypted with only an owner password (permissions: no printing, no
    copying, as bank statements and invoices often are) opens for anyone with the
    empty password, and no reader opens it with another one: a password given for
    a batch must not shut out every such file in it. That holds for an AES-256 file
    whose owner password is empty too, which only pypdf opens so.
    """
    passwords = configured_passwords(config)
    if not passwords:
        return None
    target = str(source.path()) if source.is_file else source.bytes()
    for password in (None, *passwords):
        if _opens_in_pdfium(target, password):
            return password
    for password in (None, *passwords):
        if _opens_in_pypdf(source.bytes(), password):
            return password
    # a wrong password (or damage, which the readers then report with the password)
    return passwords[0]


def _opens_in_pdfium(target: str | bytes, password: str | None) -> bool:
    try:
        pdfium.PdfDocument(target, password=password).close()
    except pdfium.PdfiumError:
        return False
    return True


def _opens_in_pypdf(data: bytes, password: str | None) -> bool:
    """Whether pypdf decrypts ``data`` with ``password`` (the empty one when None): it
    reads only the file's cross-reference and encryption dictionary for that."""
    try:
        import pypdf  # only for the rare file PDFium cannot decrypt (see decrypted_copy)

        with pypdf_warnings_held():
            reader = pypdf.PdfReader(io.BytesIO(data))
            return bool(reader.is_encrypted and reader.decrypt(password or ""))
    except Exception as exc:  # pypdf fails in many ways on a damaged file: PDFium's error stands
        log.debug("pypdf could not decrypt the file either: %s", exc)
        return False


def password_error(name: str, password: str | None) -> PasswordRequired:
    """The PasswordRequired for a document that did not open with ``password``."""
    if password:
        return PasswordRequired(
            "the PDF is encrypted and the password given does not open it; "
            "check goblin.password (or [pdf] password)",
            file=name,
        )
    return PasswordRequired(
        "the PDF is encrypted with a user password; give it with password=... "
        "(goblin.password or [pdf] password)",
        file=name,
    )


def other_security_error(name: str) -> PasswordRequired:
    """The PasswordRequired for a PDF encrypted with a security handler other than the
    standard password one: public-key security (a certificate and its private key open
    it) or a vendor's own. No password opens it, so none is asked for."""
    return PasswordRequired(
        "the PDF is encrypted for particular recipients (public-key security) or with a "
        "vendor's own security handler, not with a password: goblin can open only "
        "password-encrypted PDFs",
        file=name,
    )


def decrypted_copy(data: bytes, password: str | None) -> bytes | None:
    """``data`` decrypted by pypdf when ``password`` (the empty one when None) opens it
    there, else None.

    PDFium refuses some files other readers open: an AES-256 file (revision 5 or 6)
    whose owner password is empty opens for anyone, yet PDFium does not try the empty
    password as the owner's. pypdf does; its decrypted copy is then what PDFium reads.
    """
    try:
        import pypdf  # only for the rare file PDFium cannot decrypt (see pypdf_parser)

        with pypdf_warnings_held():
            reader = pypdf.PdfReader(io.BytesIO(data))
            if not reader.is_encrypted or not reader.decrypt(password or ""):
                return None
            copy = io.BytesIO()
            pypdf.PdfWriter(clone_from=reader).write(copy)
        return copy.getvalue()
    except Exception as exc:  # pypdf fails in many ways on a damaged file: PDFium's error stands
        log.debug("pypdf could not decrypt the file either: %s", exc)
        return None
