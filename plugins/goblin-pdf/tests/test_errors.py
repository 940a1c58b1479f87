"""Encrypted, truncated and garbage files: clear errors, never a crash or a silent empty result."""

from __future__ import annotations

import io
from typing import Any

import pytest
from pdf_builders import reportlab_pdf

from goblin_core import extract
from goblin_core.errors import CorruptDocument, PasswordRequired


def test_empty_user_password_just_works() -> None:
    data = reportlab_pdf(user="")
    document = extract(data, name="empty-password.pdf", ocr="never")
    assert "Prefeitura Municipal" in document.text
    assert document.metadata["page_count"] == 1
    assert document.raw_metadata["encrypted"] is True


@pytest.mark.filterwarnings("ignore:Encryption R=5 is deprecated")
@pytest.mark.parametrize("revision", [5, 6])
def test_an_aes_256_file_with_an_empty_owner_password_opens_without_one(revision: int) -> None:
    # PDFium refuses it; any reader that tries the empty password as the owner's opens it
    import pikepdf

    plain = pikepdf.open(io.BytesIO(reportlab_pdf()))
    locked = io.BytesIO()
    plain.save(locked, encryption=pikepdf.Encryption(owner="", user="s3cret", R=revision))
    document = extract(locked.getvalue(), name="owner-empty.pdf", ocr="never")
    assert "Prefeitura Municipal" in document.text
    assert document.status == "clean"
    assert document.pages[0].engine == "pdf.pypdfium2"
    # anyone may open it, so a password given for a whole batch does not shut it out
    batch = extract(locked.getvalue(), name="owner-empty.pdf", ocr="never", password="nope")
    assert "Prefeitura Municipal" in batch.text


@pytest.mark.parametrize("engine", ["pdf.pypdfium2", "pdf.pypdf"])
@pytest.mark.parametrize(("revision", "aes"), [(3, False), (4, True), (6, True)])
def test_a_password_given_does_not_shut_out_a_pdf_that_needs_none(
        engine: str, revision: int, aes: bool) -> None:
    """Encrypted with an owner password only (permissions), the file opens for anyone;
    a password given for a whole batch opens none of its kind in any reader."""
    import pikepdf

    plain = pikepdf.open(io.BytesIO(reportlab_pdf()))
    locked = io.BytesIO()
    plain.save(locked, encryption=pikepdf.Encryption(owner="owner", user="", R=revision, aes=aes,
                                                     metadata=revision >= 4))
    other = "pdf.pypdf" if engine == "pdf.pypdfium2" else "pdf.pypdfium2"
    document = extract(locked.getvalue(), name="statement.pdf", ocr="never", password="batch",
                       tables=True, engines={other: {"enabled": False}})
    assert "Prefeitura Municipal" in document.text
    assert document.status == "clean"
    assert document.pages[0].engine == engine


def test_given_password_opens_it() -> None:
    data = reportlab_pdf(user="s3cret")
    document = extract(data, name="locked.pdf", ocr="never", password="s3cret")
    assert "Prefeitura Municipal" in document.text


def test_pdf_namespace_password_opens_it() -> None:
    data = reportlab_pdf(user="s3cret")
    document = extract(data, name="locked.pdf", ocr="never", pdf={"password": "s3cret"})
    assert document.status == "clean"


def test_missing_password_is_password_required() -> None:
    with pytest.raises(PasswordRequired, match=r"locked.pdf: .*give it with password="):
        extract(reportlab_pdf(user="s3cret"), name="locked.pdf", ocr="never")


def test_wrong_password_says_so() -> None:
    with pytest.raises(PasswordRequired, match="password given does not open it"):
        extract(reportlab_pdf(user="s3cret"), name="locked.pdf", ocr="never", password="nope")


def test_truncated_pdf_keeps_what_can_be_read_or_fails_clearly() -> None:
    data = reportlab_pdf(pages=3)
    cut = data[: len(data) * 2 // 3]
    try:
        document = extract(cut, name="truncated.pdf", ocr="never")
    except CorruptDocument as exc:
        assert "truncated.pdf" in str(exc)
        return
    assert document.pages


def test_garbage_after_pdf_header_is_corrupt_document() -> None:
    with pytest.raises(CorruptDocument, match=r"garbage.pdf: no installed parser could read it"):
        extract(b"%PDF-1.7\n" + bytes(range(256)) * 40, name="garbage.pdf", ocr="never")


def test_pypdf_reads_what_pdfium_is_not_allowed_to() -> None:
    document = extract(reportlab_pdf(), name="plain.pdf", ocr="never",
                       engines={"pdf.pypdfium2": {"enabled": False}})
    assert document.parsed_by[0] == "pdf.pypdf"
    assert "Prefeitura Municipal" in document.text


def _public_key_encrypted() -> bytes:
    """A one-page PDF whose /Encrypt names the public-key handler (recipients' certificates
    open it, no password does)."""
    import pikepdf

    pdf = pikepdf.open(io.BytesIO(reportlab_pdf()))
    out = io.BytesIO()
    pdf.save(out)
    data = out.getvalue()
    encrypt = (b"/Encrypt << /Filter /Adobe.PubSec /SubFilter /adbe.pkcs7.s5 /V 4 /Length 128 "
               b"/Recipients [<3082>] /CF << /DefaultCryptFilter << /CFM /AESV2 "
               b"/Recipients [<3082>] >> >> /StmF /DefaultCryptFilter "
               b"/StrF /DefaultCryptFilter >> /ID [<00112233445566778899aabbccddeeff> "
               b"<00112233445566778899aabbccddeeff>] ")
    return data.replace(b"trailer\n<<", b"trailer\n<< " + encrypt, 1) \
        if b"trailer\n<<" in data else data.replace(b"trailer <<", b"trailer << " + encrypt, 1)


def test_public_key_encryption_is_named_not_taken_for_damage() -> None:
    with pytest.raises(PasswordRequired) as raised:
        extract(_public_key_encrypted(), name="for-recipients.pdf")
    message = str(raised.value)
    assert "for-recipients.pdf" in message and "public-key" in message
    assert "give it with password" not in message  # no password opens it


def test_pypdf_names_public_key_encryption_too() -> None:
    from goblin_core.source import Source
    from goblin_pdf.pypdf_parser import open_pypdf

    with pytest.raises(PasswordRequired, match="public-key"):
        open_pypdf(Source.from_bytes(_public_key_encrypted(), "for-recipients.pdf"), None)


def test_a_metadata_value_that_is_not_valid_utf16_costs_only_itself() -> None:
    import pikepdf

    pdf = pikepdf.open(io.BytesIO(reportlab_pdf(("A report with a damaged title",))))
    # UTF-16BE with a high surrogate that no low surrogate follows
    pdf.docinfo["/Title"] = pikepdf.String(b"\xfe\xff\xd8\x00\x00B\x00a\x00d")
    pdf.docinfo["/Author"] = pikepdf.String("Ana Lima")
    out = io.BytesIO()
    pdf.save(out)
    document = extract(out.getvalue(), name="a.pdf", ocr="never")
    assert document.parsed_by[0] == "pdf.pypdfium2"
    assert document.pages[0].status == "clean"
    assert document.metadata["author"] == "Ana Lima"
    assert document.metadata["title"].endswith("Bad")


def test_a_page_label_that_is_not_valid_utf16_costs_only_itself() -> None:
    import pikepdf

    pdf = pikepdf.open(io.BytesIO(reportlab_pdf(("The first page",), pages=2)))
    pdf.Root.PageLabels = pikepdf.Dictionary(Nums=[
        0, pikepdf.Dictionary(P=pikepdf.String(b"\xfe\xff\xd8\x00\x00A")),
        1, pikepdf.Dictionary(S=pikepdf.Name.r)])
    out = io.BytesIO()
    pdf.save(out)
    document = extract(out.getvalue(), name="a.pdf", ocr="never")
    assert document.parsed_by[0] == "pdf.pypdfium2"
    assert [page.status for page in document.pages] == ["clean", "clean"]
    assert document.pages[0].label.endswith("A") and document.pages[1].label == "i"


@pytest.mark.parametrize("damage", [lambda pdf: b"$" + pdf[1:],  # a flipped byte
                                    lambda pdf: pdf[pdf.index(b"\n") + 1:]])  # no header line
def test_a_damaged_or_missing_header_is_supplied_so_pdfium_still_reads_it(damage: Any) -> None:
    data = damage(reportlab_pdf(("The header of this file was lost",)))
    document = extract(data, name="a.pdf", ocr="never")
    assert document.parsed_by[0] == "pdf.pypdfium2"
    assert "The header of this file was lost" in document.text


def test_a_headless_object_over_garbage_is_still_corrupt_not_guessed_at() -> None:
    with pytest.raises(CorruptDocument, match=r"a.pdf: no installed parser could read it"):
        extract(b"$PDF-1.7\n1 0 obj\n" + bytes(range(256)) * 40, name="a.pdf", ocr="never")
