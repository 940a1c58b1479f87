"""A workbook Excel encrypts with its own password (a read-only recommendation, a
protected structure: Excel opens it without asking) reads when a password is given too.

A password set for a run of files (``[goblin] password``) was tried alone: such a
workbook, which reads without any password, failed with PasswordRequired once one was
given. Excel's password is now tried after the given one.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import openpyxl
import pytest
from msoffcrypto.format.ooxml import OOXMLFile

import goblin_core
from goblin_core import Document

Read = Callable[..., Document]


def _encrypted(password: str) -> bytes:
    workbook = openpyxl.Workbook()
    workbook.active.title = "Orçamento"
    workbook.active["A1"] = "Cimento e areia"
    plain = io.BytesIO()
    workbook.save(plain)
    sealed = io.BytesIO()
    OOXMLFile(io.BytesIO(plain.getvalue())).encrypt(password, sealed)
    return sealed.getvalue()


def test_a_workbook_under_excel_s_password_reads_with_another_password_given(
        read: Read) -> None:
    data = _encrypted("VelvetSweatshop")
    assert "Cimento e areia" in read(data, "orcamento.xlsx").text
    assert "Cimento e areia" in read(data, "orcamento.xlsx", password="segredo").text


def test_a_wrong_password_still_fails_a_workbook_under_a_password_of_its_own(
        read: Read) -> None:
    data = _encrypted("segredo")
    assert "Cimento e areia" in read(data, "orcamento.xlsx", password="segredo").text
    with pytest.raises(goblin_core.PasswordRequired, match="does not open it"):
        read(data, "orcamento.xlsx", password="outro")
