"""Files attached to annotations (a paperclip icon on a page) come out as children, as
embedded files do: they are not in the document's list of embedded files, so a reader of
that list alone never sees them."""

from __future__ import annotations

import pikepdf
from pdf_builders import helvetica_pages, saved
from pikepdf import Array, Dictionary, Name

from goblin_core import extract


def _pinned_files_pdf(files: dict[int, tuple[str | pikepdf.String, bytes]],
                      also_listed: bool = False) -> bytes:
    """Two pages of text; ``files`` maps a page index to the file pinned to it by a
    file-attachment annotation. ``also_listed`` puts each file in the EmbeddedFiles
    name tree as well, as some producers do."""
    pdf = helvetica_pages(*(f"BT /F1 12 Tf 60 760 Td (Page {number} of the board report) Tj ET"
                            for number in (1, 2)))
    listed = Array()
    for index, (name, data) in files.items():
        stream = pdf.make_stream(data, Type=Name.EmbeddedFile)
        spec = pdf.make_indirect(Dictionary(Type=Name.Filespec, F=name, UF=name,
                                            EF=Dictionary(F=stream)))
        pdf.pages[index].Annots = Array([pdf.make_indirect(Dictionary(
            Type=Name.Annot, Subtype=Name.FileAttachment, Rect=Array([40, 700, 60, 720]),
            FS=spec, Contents="See the pinned minutes", Name=Name.PushPin))])
        listed.extend([name, spec])
    if also_listed:
        pdf.Root.Names = Dictionary(EmbeddedFiles=Dictionary(Names=listed))
    return saved(pdf)


def test_a_file_pinned_to_a_page_is_a_child_read_through_the_pipeline() -> None:
    data = _pinned_files_pdf({1: ("minutes.txt", b"Minutes of the March board meeting")})
    document = extract(data, name="report.pdf", ocr="never")
    assert [(c.name, c.text) for c in document.children] == [
        ("report.pdf/minutes.txt", "Minutes of the March board meeting")]
    # the annotation's own note stays on its page
    assert "See the pinned minutes" in document.pages[1].text


def test_a_pinned_file_also_listed_as_embedded_is_read_once() -> None:
    data = _pinned_files_pdf({0: ("a.txt", b"First attached note"),
                              1: ("b.txt", b"Second attached note")}, also_listed=True)
    document = extract(data, name="report.pdf", ocr="never")
    assert sorted(c.text for c in document.children) == ["First attached note",
                                                         "Second attached note"]


def test_pinned_files_come_out_with_annotation_text_turned_off() -> None:
    data = _pinned_files_pdf({0: ("minutes.txt", b"Minutes of the March board meeting")})
    document = extract(data, name="report.pdf", ocr="never", pdf={"annotations": False})
    assert [c.text for c in document.children] == ["Minutes of the March board meeting"]
    assert "See the pinned minutes" not in document.text


def test_a_file_whose_name_is_not_valid_utf16_is_still_read() -> None:
    damaged = pikepdf.String(b"\xfe\xff\xd8\x00\x00n\x00o\x00t\x00e")  # a lone surrogate
    data = _pinned_files_pdf({0: (damaged, b"Minutes of the March board meeting")},
                             also_listed=True)
    document = extract(data, name="report.pdf", ocr="never")
    assert [c.text for c in document.children] == ["Minutes of the March board meeting"]
    assert document.children[0].name.endswith("note")
