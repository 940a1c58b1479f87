"""A Word XML document (Flat OPC) that is damaged keeps its text: a binary part whose
base64 is damaged is left out with a warning naming it, where the whole document was
refused ("is not valid base64"); a file cut short is read leniently, up to the cut, and
counts as read in part when the cut fell inside its text."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

from packages import flat_opc

from goblin_core import Document

Read = Callable[..., Document]


def _with_picture() -> bytes:
    import docx
    from PIL import Image

    picture = io.BytesIO()
    Image.new("RGB", (40, 40), "navy").save(picture, "PNG")
    picture.seek(0)
    document = docx.Document()
    document.add_paragraph("Relatório com figura.")
    document.add_picture(picture)
    document.add_paragraph("Texto depois da figura.")
    buffer = io.BytesIO()
    document.save(buffer)
    return flat_opc(buffer.getvalue(), "Word.Document")


def test_a_picture_whose_base64_is_damaged_costs_only_the_picture(read: Read) -> None:
    whole = _with_picture()
    # a stray character in the middle of the picture's base64
    damaged = re.sub(rb"(<pkg:binaryData>[A-Za-z0-9+/]{20})", rb"\1!", whole, count=1)
    assert damaged != whole
    document = read(damaged, "relatorio.xml")
    assert document.parsed_by == ("office.flat_opc",)
    assert document.text.splitlines() == ["Relatório com figura.", "Texto depois da figura."]
    assert any("base64" in w.message for w in document.report.warnings)


def _long_report() -> tuple[bytes, list[str]]:
    import docx

    paragraphs = [f"Parágrafo {n} do relatório, com o texto da seção {n}." for n in range(1, 201)]
    document = docx.Document()
    for paragraph in paragraphs:
        document.add_paragraph(paragraph)
    buffer = io.BytesIO()
    document.save(buffer)
    return flat_opc(buffer.getvalue(), "Word.Document"), paragraphs


def test_a_flat_opc_cut_inside_its_body_keeps_the_text_before_and_says_so(read: Read) -> None:
    whole, paragraphs = _long_report()
    body = whole.index(b'pkg:name="/word/document.xml"')
    middle = whole.index("Parágrafo 100 ".encode(), body)
    document = read(whole[: middle + len("Parág")], "relatorio.xml")  # inside a word
    assert document.parsed_by == ("office.flat_opc",)
    assert document.text.splitlines()[:99] == paragraphs[:99]
    assert len(document.text.splitlines()) <= 100
    assert document.report.truncated


def test_a_flat_opc_missing_only_its_end_tag_loses_nothing(read: Read) -> None:
    whole, paragraphs = _long_report()
    document = read(whole[: whole.rindex(b"</pkg:package>")], "relatorio.xml")
    assert document.text.splitlines() == paragraphs
    assert not document.report.truncated
    assert any("read leniently" in w.message for w in document.report.warnings)
