"""Attached files whose file specification names them oddly are still read."""

from __future__ import annotations

import io

import pikepdf
from pdf_builders import reportlab_pdf
from pikepdf import Array, Dictionary, Name, Stream, String

from goblin_core import extract


def _attaching(specifications: list[tuple[str, dict[str, object]]]) -> bytes:
    """A one-page PDF whose name tree lists each (key, file specification keys) given;
    each specification's ``/EF`` holds a stream of the text ``contents of <key>``."""
    pdf = pikepdf.open(io.BytesIO(reportlab_pdf(("The cover page of the bundle.",))))
    names = []
    for key, fields in specifications:
        stream = Stream(pdf, f"contents of {key or 'the unnamed file'}".encode())
        stream.Type = Name.EmbeddedFile
        specification = pdf.make_indirect(Dictionary(Type=Name.Filespec, EF=Dictionary(F=stream)))
        for field, value in fields.items():
            specification[field] = value
        names += [String(key), specification]
    pdf.Root.Names = Dictionary(EmbeddedFiles=Dictionary(Names=Array(names)))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_an_attachment_named_by_an_empty_string_is_read() -> None:
    """PDFium takes an empty /F for no file at all and gives no data: the file is read
    by qpdf under a name made up for it, not left out."""
    document = extract(_attaching([("", {"/F": String(""), "/UF": String("")}),
                                   ("minutes.txt", {"/F": String("minutes.txt")})]),
                       name="bundle.pdf", ocr="never")
    texts = {child.name: child.text for child in document.children}
    assert texts.get("bundle.pdf/minutes.txt") == "contents of minutes.txt"
    unnamed = [text for name, text in texts.items() if name != "bundle.pdf/minutes.txt"]
    assert unnamed == ["contents of the unnamed file"], texts
    assert not document.report.warnings, document.report.warnings


def test_an_attachment_whose_specification_names_no_file_is_read() -> None:
    """A file specification with /EF but neither /F nor /UF."""
    document = extract(_attaching([("nameless", {})]), name="bundle.pdf", ocr="never")
    assert [child.text for child in document.children] == ["contents of nameless"], \
        (document.children, document.report.warnings)
