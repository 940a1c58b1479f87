"""A Word XML document (Flat OPC) whose picture's base64 is damaged keeps its text: the
picture's part is left out with a warning naming it, where the whole document was
refused ("is not valid base64")."""

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
