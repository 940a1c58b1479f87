"""A command-line converter's complaint names the document, not the temporary copy of it
the converter was handed (``/tmp/goblin-x1y2.xls is not OLE file``)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable

import pytest

from goblin_core import Document
from goblin_core.errors import CorruptDocument
from goblin_core.testing.corpus import require_binary

Read = Callable[..., Document]

#: An OLE2 signature and nothing of a compound file after it.
_SIGNATURE_ALONE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600


def test_the_converter_complaint_names_the_document(read: Read) -> None:
    require_binary("xls2csv", "catdoc")
    with pytest.raises(CorruptDocument) as raised:
        read(_SIGNATURE_ALONE, "planilha.xls", engines={"office.xls2csv": {"priority": 1000}})
    message = str(raised.value)
    assert "xls2csv could not read it" in message
    assert "planilha.xls is not OLE file" in message
    assert tempfile.gettempdir() not in message
