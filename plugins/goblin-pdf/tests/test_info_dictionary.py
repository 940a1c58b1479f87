"""Every key of the document information dictionary is read, not only the standard ones."""

from __future__ import annotations

import io
from typing import Any

import pikepdf
import pypdfium2 as pdfium
from pdf_builders import helvetica_pages, saved
from pikepdf import Dictionary, Name, String

from goblin_core.source import Source
from goblin_pdf.info_dictionary import MAX_INFO_KEYS
from goblin_pdf.pdfium_page import document_info


def _with_info(entries: dict[str, Any], encryption: pikepdf.Encryption | None = None) -> bytes:
    pdf = helvetica_pages("BT /F1 12 Tf 60 760 Td (Annual report) Tj ET")
    pdf.trailer.Info = pdf.make_indirect(Dictionary(entries))
    if encryption is None:
        return saved(pdf)
    out = io.BytesIO()
    pdf.save(out, encryption=encryption)
    return out.getvalue()


def _info(data: bytes, password: str | None = None) -> dict[str, str]:
    document = pdfium.PdfDocument(data, password=password)
    try:
        return document_info(document, Source.from_bytes(data, "report.pdf"), password)
    finally:
        document.close()


def test_a_producers_own_keys_are_read_beside_the_standard_ones() -> None:
    info = _info(_with_info({"/Title": String("Annual report"), "/Company": String("ACME"),
                             "/SourceModified": String("D:20150511111219")}))
    assert info == {"Title": "Annual report", "Company": "ACME",
                    "SourceModified": "D:20150511111219"}


def test_own_keys_are_decoded_as_pdf_text() -> None:
    info = _info(_with_info({
        "/Department": String("Relatório Ω 漢字"),  # pikepdf writes it as UTF-16BE with BOM
        "/Note": String(b"Caf\xe9 \x93rst \x80"),  # PDFDocEncoding: fi ligature, bullet
    }))
    assert info["Department"] == "Relatório Ω 漢字"
    assert info["Note"] == "Café ﬁrst •"


def test_a_key_name_is_read_through_its_escapes() -> None:
    data = _with_info({"/Comp__any_": String("ACME"), "/Cafe_": String("open")})
    data = data.replace(b"/Comp__any_", b"/Comp#20any").replace(b"/Cafe_", b"/Caf#e9")
    assert _info(data) == {"Comp any": "ACME", "Café": "open"}


def test_numbers_booleans_and_names_are_read_as_their_text() -> None:
    info = _info(_with_info({"/Revision": 7, "/Scale": 2.5, "/Approved": True,
                             "/Trapped": Name("/False"), "/Parts": pikepdf.Array([1, 2])}))
    assert info == {"Revision": "7", "Scale": "2.5", "Approved": "true", "Trapped": "False"}


def test_at_most_a_hundred_keys_are_read() -> None:
    info = _info(_with_info({f"/Key{number:04d}": String("x") for number in range(500)}))
    assert len(info) == MAX_INFO_KEYS
    assert "Key0000" in info


def test_an_own_value_over_the_information_limit_is_left_out() -> None:
    info = _info(_with_info({"/Huge": String("x" * 70_000), "/Small": String("kept")}))
    assert info == {"Small": "kept"}


def test_the_own_keys_of_a_locked_file_are_read_with_its_password() -> None:
    data = _with_info({"/Title": String("Secret"), "/Company": String("ACME")},
                      pikepdf.Encryption(user="open sesame", owner="owner", R=6))
    assert _info(data, "open sesame") == {"Title": "Secret", "Company": "ACME"}


def test_a_file_qpdf_cannot_open_as_it_stands_keeps_its_standard_keys() -> None:
    data = _with_info({"/Title": String("Kept"), "/Company": String("ACME")})
    broken = data.replace(b"startxref", b"startxrez")  # PDFium rebuilds the table itself
    assert _info(broken) == {"Title": "Kept"}


def test_a_producers_own_keys_reach_the_documents_raw_metadata() -> None:
    import goblin_core

    document = goblin_core.extract(_with_info({"/Title": String("T"), "/Company": String("ACME")}),
                                   name="report.pdf", ocr="never")
    assert document.raw_metadata["Company"] == "ACME"
    assert document.metadata["title"] == "T"
