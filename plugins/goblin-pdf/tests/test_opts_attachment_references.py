"""A file attachment annotation may refer to a file outside the PDF.

Its file specification is then a bare file name, or a dictionary naming the file with no
embedded stream (``/EF``): a viewer opens the file beside the PDF, if there is one.
Nothing of the PDF is lost or damaged, so nothing is reported as damage; an embedded
stream that is missing still is.
"""

from __future__ import annotations

from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary, Name, String

from goblin_core import extract


def _pinned(*specifications: object) -> bytes:
    pdf = helvetica_pages("BT /F1 12 Tf 72 700 Td (Minutes of the meeting) Tj ET")
    page = pdf.pages[0]
    page.obj.Annots = Array([pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.FileAttachment, FS=specification,
        Rect=Array([10 + 30 * n, 10, 30 + 30 * n, 30]), Contents=String(f"see attachment {n}")))
        for n, specification in enumerate(specifications)])
    return saved(pdf)


def test_files_referred_to_outside_the_pdf_are_no_damage() -> None:
    document = extract(_pinned(String("budget.xlsx"),
                               Dictionary(Type=Name.Filespec, F=String("annex.docx"))),
                       name="minutes.pdf", ocr="never")
    assert "see attachment 0" in document.text and "see attachment 1" in document.text
    assert document.children == ()
    assert document.report.warnings == (), document.report.warnings


def test_an_embedded_file_entry_that_holds_no_stream_is_still_reported() -> None:
    document = extract(_pinned(Dictionary(Type=Name.Filespec, F=String("annex.docx"),
                                          EF=Dictionary(F=Dictionary(Type=Name.EmbeddedFile)))),
                       name="minutes.pdf", ocr="never")
    assert any(w.kind == "CorruptDocument" and "annex.docx" in w.message
               for w in document.report.warnings), document.report.warnings
