"""An ODF document whose content.xml is damaged midway (a deflate stream broken, XML cut
short) keeps its text up to the damage, as a docx's body does, and counts as read in
part (``Truncated``); it was lost whole. A flat document cut short is read the same way.
Content with nothing readable before the damage stays an error."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import pytest
from packages import damaged, rewrite
from test_doc_xml_read_leniently import _truncated

from goblin_core import CorruptDocument, Document
from samples import flat_odf

Read = Callable[..., Document]

_PARAGRAPHS = "".join(f"<text:p>Parágrafo {n} do relatório anual, seção {n % 7}.</text:p>"
                      for n in range(1, 301))


def _odt() -> bytes:
    from odf.opendocument import OpenDocumentText
    from odf.text import P

    document = OpenDocumentText()
    for n in range(1, 301):
        document.text.addElement(P(text=f"Parágrafo {n} do relatório anual, seção {n % 7}."))
    buffer = io.BytesIO()
    document.write(buffer)
    return buffer.getvalue()


def _cut_xml(package: bytes, member: str, keep: float) -> bytes:
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        whole = archive.read(member)
    return rewrite(package, {member: whole[: int(len(whole) * keep)]})


def _read_in_part(document: Document) -> None:
    assert document.parsed_by == ("office.odt",)
    lines = document.text.splitlines()
    assert lines[0] == "Parágrafo 1 do relatório anual, seção 1."
    assert 10 < len(lines) < 300
    assert document.report.truncated
    (message,) = _truncated(document)
    assert "content.xml" in message


def test_an_odt_whose_content_does_not_inflate_past_midway_keeps_the_text_before(
    read: Read,
) -> None:
    _read_in_part(read(damaged(_odt(), "content.xml", at=0.5), "relatorio.odt"))


def test_an_odt_whose_content_xml_is_cut_keeps_the_text_before(read: Read) -> None:
    _read_in_part(read(_cut_xml(_odt(), "content.xml", 0.5), "relatorio.odt"))


def test_a_flat_odt_cut_short_keeps_the_text_before(read: Read) -> None:
    whole = flat_odf("text", _PARAGRAPHS)
    _read_in_part(read(whole[: len(whole) // 2], "relatorio.fodt"))


def test_an_odt_whose_content_is_damaged_from_its_start_is_an_error(read: Read) -> None:
    with pytest.raises(CorruptDocument, match=r"content\.xml"):
        read(damaged(_odt(), "content.xml", at=0.0), "relatorio.odt")


def test_a_whole_odt_is_clean(read: Read) -> None:
    document = read(_odt(), "relatorio.odt")
    assert len(document.text.splitlines()) == 300
    assert not document.report.truncated
