"""Embedded files read by the fallback parser (pypdf, when PDFium cannot open the PDF):
one that cannot be decoded is left out with a warning, the others are read once each."""

from __future__ import annotations

import pikepdf
from pdf_builders import helvetica_pages, saved
from pikepdf import Dictionary, Name

from goblin_core import extract

# pypdf alone: no PDFium, and no recovery engine
_PYPDF_ONLY = {name: {"enabled": False} for name in (
    "pdf.pypdfium2", "pdf.pdfplumber", "pdf.poppler", "pdf.glyph_order", "pdf.byte_order")}


def _with_attachments(files: dict[str, tuple[bytes, str | None]]) -> bytes:
    """A one-page PDF embedding each file (name -> (stored bytes, filter or None));
    the file specification's /UF names it ``<name>.txt``."""
    pdf = helvetica_pages("BT /F1 24 Tf 72 720 Td (Text of the page) Tj ET")
    names = pikepdf.Array()
    for name, (stored, filter_name) in files.items():
        stream = pikepdf.Stream(pdf, stored)
        stream.Type = Name.EmbeddedFile
        if filter_name is not None:
            stream.Filter = Name(filter_name)
        spec = pdf.make_indirect(Dictionary(Type=Name.Filespec, F=pikepdf.String(name),
                                            UF=pikepdf.String(f"{name}.txt"),
                                            EF=Dictionary(F=stream)))
        names.extend([pikepdf.String(name), spec])
    pdf.Root.Names = Dictionary(EmbeddedFiles=Dictionary(Names=names))
    return saved(pdf)


def test_an_attachment_pypdf_cannot_decode_is_left_out_and_the_rest_are_read() -> None:
    data = _with_attachments({"broken": (b"\x00\x01", "/NoSuchDecode"),
                              "notes": (b"Fallback attachment text", None)})
    document = extract(data, name="attached.pdf", ocr="never", engines=_PYPDF_ONLY)
    assert "Text of the page" in document.text
    assert [child.name for child in document.children] == ["attached.pdf/notes.txt"]
    assert document.children[0].text.strip() == "Fallback attachment text"
    assert not document.report.errors
    warned = [w for w in document.report.warnings if "attachment 1 cannot be decoded" in w.message]
    assert warned and "NotImplementedError" in warned[0].message
