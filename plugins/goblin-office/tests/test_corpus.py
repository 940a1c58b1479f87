"""Every office, text and mail file of the shared corpus: no crash, every expected phrase found."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from goblin_core import Document, extract
from goblin_core.errors import GoblinError, PasswordRequired
from goblin_core.testing.corpus import (
    contains_phrase,
    corpus_dir,
    find_corpus,
    manifest,
    phrases_for,
    require_binary,
)

pytestmark = pytest.mark.corpus

# tricky/ files that are office, text or mail documents in disguise
_TRICKY_FORMATS = ("docx", "xlsx", "pptx", "msg", "html", "text", "odt")

# phrases we know we miss, with the reason (at most 3); they run as xfail(strict=True)
KNOWN_MISSES: dict[tuple[str, str], str] = {}

# files that must fail with a clear error, and the error kind
EXPECTED_ERRORS = {
    "office/testODTEncrypted.odt": "PasswordRequired",
    "tricky/testWORD_truncated.docx": "CorruptDocument",
    "tricky/testODTnotaZipFile.odt": None,
}


def _rows() -> list[tuple[str, str | None]]:
    root = find_corpus(__file__)
    if root is None:
        return [("<corpus missing>", None)]
    rows = []
    for row in manifest(root):
        top = row.file.split("/", 1)[0]
        fmt_feature = next((f for f in row.features if f.startswith("fmt:")), "fmt:")[4:]
        if top in ("office", "text") or (top == "tricky" and fmt_feature in _TRICKY_FORMATS):
            rows.append((row.file, row.password))
    return rows


def _needs_binary(file: str) -> None:
    if file.endswith(".doc"):
        require_binary("antiword", "antiword")
    if file.endswith(".ppt"):
        require_binary("catppt", "catdoc")


def _phrase_params() -> list[Any]:
    root = find_corpus(__file__)
    if root is None:
        return [pytest.param("<corpus missing>", "", None, id="corpus-missing")]
    params = []
    for file, password in _rows():
        for expected in phrases_for(root, file):
            reason = KNOWN_MISSES.get((file, expected.phrase))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(
                pytest.param(
                    file,
                    expected.phrase,
                    password,
                    marks=marks,
                    id=f"{file}:{expected.phrase[:30]}",
                )
            )
    return params


def _extract(file: str, password: str | None) -> Document:
    root = Path(corpus_dir(__file__))
    _needs_binary(file)
    options = {"password": password} if password else {}
    return extract(root / file, ocr="never", **options)


@pytest.mark.parametrize(("file", "password"), _rows())
def test_corpus_file_is_read_without_crash(file: str, password: str | None) -> None:
    try:
        document = _extract(file, password)
    except GoblinError as exc:
        assert file in EXPECTED_ERRORS, f"{file}: {exc}"
        expected = EXPECTED_ERRORS[file]
        assert expected is None or exc.kind == expected
        assert Path(file).name in str(exc)
        return
    assert document.pages or document.children


@pytest.mark.parametrize(("file", "phrase", "password"), _phrase_params())
def test_expected_phrase_is_found(file: str, phrase: str, password: str | None) -> None:
    document = _extract(file, password)
    text = "\n".join(d.text for d in document.walk())
    assert contains_phrase(text, phrase), f"{file}: {phrase!r} not found"


def test_encrypted_office_file_without_password_asks_for_one() -> None:
    root = Path(corpus_dir(__file__))
    with pytest.raises(PasswordRequired, match="password"):
        extract(root / "office/testWORD_protected_passtika.docx", ocr="never")


def test_encrypted_office_file_with_wrong_password_is_refused() -> None:
    root = Path(corpus_dir(__file__))
    with pytest.raises(PasswordRequired, match="does not open"):
        extract(root / "office/testEXCEL_protected_passtika.xlsx", ocr="never", password="nope")


def test_misnamed_docx_is_read_as_docx() -> None:
    root = Path(corpus_dir(__file__))
    document = extract(root / "tricky/misnamed-3.doc", ocr="never")
    assert document.mime.endswith("wordprocessingml.document")
    assert document.parsed_by[0] == "office.docx"


def test_xlsx_named_csv_is_read_as_a_workbook() -> None:
    root = Path(corpus_dir(__file__))
    document = extract(root / "tricky/misnamed-4.csv", ocr="never")
    assert document.mime.endswith("spreadsheetml.sheet")
    assert document.tables and document.tables[0].title


def test_embedded_pdf_in_docx_comes_out_as_a_child() -> None:
    root = Path(corpus_dir(__file__))
    document = extract(root / "office/testWORD_embedded_pdf.docx", ocr="never")
    assert any(child.mime == "application/pdf" for child in document.children)


def test_msg_attachment_comes_out_as_a_child() -> None:
    root = Path(corpus_dir(__file__))
    document = extract(root / "office/fake-email-attachment.msg", ocr="never")
    names = [child.name for child in document.children]
    assert any(name.endswith("fake-attachment.txt") for name in names)


def test_msg_date_is_iso_8601_like_an_eml_date() -> None:
    # the message's transport headers say "Thu, 29 Jan 2009 20:16:40 +0100"
    root = Path(corpus_dir(__file__))
    document = extract(root / "office/tika-testMSG.msg", ocr="never")
    assert document.metadata["created"] == "2009-01-29T19:16:40Z"
    assert "Date: 2009-01-29T19:16:40Z" in document.text.splitlines()


def test_truncated_docx_body_is_salvaged_and_the_damage_reported() -> None:
    root = Path(corpus_dir(__file__))
    document = extract(root / "tricky/truncated-word_tables.docx", ocr="never")
    assert document.parsed_by == ("office.docx_salvage",)
    assert "A uniform table" in document.text
    assert any("truncated or damaged" in w.message for w in document.report.warnings)


def test_encrypted_odt_is_decrypted_with_its_password() -> None:
    # MANIFEST.tsv names no password for this file; it opens with the one Apache Tika's
    # test suite uses for its encrypted fixtures (AES-256-CBC, PBKDF2, SHA-256 start key)
    root = Path(corpus_dir(__file__))
    document = extract(root / "office/testODTEncrypted.odt", ocr="never", password="tika")
    assert "This should be encrypted." in document.text
    with pytest.raises(PasswordRequired, match="does not open"):
        extract(root / "office/testODTEncrypted.odt", ocr="never", password="wrong")
