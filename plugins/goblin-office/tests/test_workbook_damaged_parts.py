"""A workbook part that inflates but is not well-formed XML costs what it holds.

calamine refused the whole workbook over a styles part cut short or empty ("Cannot
detect file format"), and one sheet's comments part cut short lost the print headers,
footers and comments of every sheet without a word in the report.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import openpyxl
import pytest
from openpyxl.comments import Comment
from packages import rewrite

import samples
from goblin_core import Document

Read = Callable[..., Document]


def _warned(document: Document, member: str) -> bool:
    return any(member in w.message and w.kind == "CorruptDocument"
               for w in document.report.warnings)


def _member(package: bytes, member: str) -> bytes:
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        return archive.read(member)


@pytest.mark.parametrize("damage", ["empty", "cut", "not XML"])
def test_a_styles_part_that_is_not_xml_leaves_every_sheet(read: Read, damage: str) -> None:
    data, name = samples.sample_xlsx()
    styles = _member(data, "xl/styles.xml")
    broken = {"empty": b"", "cut": styles[: len(styles) // 2], "not XML": b"\x00\x01estilos"}
    document = read(rewrite(data, {"xl/styles.xml": broken[damage]}), name)
    assert document.parsed_by == ("office.calamine",)
    assert [(p.label, p.status) for p in document.pages] == [
        ("Planilha", "clean"), ("Resumo", "clean")]
    assert samples.PHRASE in document.text and "Total geral" in document.text
    # without the styles nothing says the serial number 45366 is a date: shown as stored
    assert "3\t2.5\t45366" in document.text
    assert _warned(document, "xl/styles.xml")


def _two_sheets() -> bytes:
    workbook = openpyxl.Workbook()
    first = workbook.active
    first.title = "Obra"
    first["A1"] = "Cimento"
    first["A1"].comment = Comment("Conferir preço", "Ana")
    first.oddHeader.center.text = "Prefeitura de Exemplo"
    second = workbook.create_sheet("Resumo")
    second["A1"] = "Total"
    second["A1"].comment = Comment("Somar os lotes", "Rui")
    second.oddFooter.center.text = "Secretaria de Obras"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def test_one_sheet_s_comments_part_cut_short_costs_only_its_comments(read: Read) -> None:
    data = _two_sheets()
    comments = _member(data, "xl/comments/comment1.xml")
    document = read(rewrite(data, {"xl/comments/comment1.xml": comments[:120]}), "obra.xlsx")
    first, second = document.pages
    assert "Prefeitura de Exemplo" in first.text
    assert "Conferir preço" not in first.text
    assert "Comment A1: Somar os lotes" in second.text
    assert "Secretaria de Obras" in second.text
    assert _warned(document, "xl/comments/comment1.xml")
