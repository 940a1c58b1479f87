"""Which password opens an encrypted PDF: each one given is tried, the document's own
(``pdf.password``) first, then the batch's (``goblin.password``); a file anyone may open
opens whatever password a batch gives."""

from __future__ import annotations

import io

import pikepdf
import pytest
from pdf_builders import helvetica_pages, saved

import goblin_core
from goblin_core import PasswordRequired

TEXT = "Secret text on page one"


def _encrypted(user: str, owner: str, revision: int = 6) -> bytes:
    plain = saved(helvetica_pages(f"BT /F1 12 Tf 72 700 Td ({TEXT}) Tj ET"))
    out = io.BytesIO()
    with pikepdf.open(io.BytesIO(plain)) as pdf:
        pdf.save(out, encryption=pikepdf.Encryption(user=user, owner=owner, R=revision,
                                                    aes=revision >= 4,
                                                    metadata=revision >= 4))
    return out.getvalue()


@pytest.mark.parametrize("revision", [3, 4, 6])
def test_the_batch_password_is_tried_after_a_wrong_document_password(revision: int) -> None:
    data = _encrypted("user", "owner", revision)
    document = goblin_core.extract(data, name="locked.pdf", ocr="never", password="user",
                                   pdf={"password": "wrong"})
    assert TEXT in document.text
    with pytest.raises(PasswordRequired, match="password given does not open it"):
        goblin_core.extract(data, name="locked.pdf", ocr="never", password="other",
                            pdf={"password": "wrong"})


@pytest.mark.parametrize("given", [None, "batch-password"])
def test_an_aes256_file_with_an_empty_owner_password_opens_whatever_password_is_given(
        given: str | None) -> None:
    """PDFium does not try the empty password as an AES-256 owner's; pypdf does."""
    document = goblin_core.extract(_encrypted("user", ""), name="open.pdf", ocr="never",
                                   password=given)
    assert TEXT in document.text
    assert document.raw_metadata["encrypted"] is True
