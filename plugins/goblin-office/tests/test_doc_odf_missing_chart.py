"""An OpenDocument chart the manifest lists but the package does not hold.

A chart's titles are in its own ``Object N/content.xml``; a damaged one was already text
lost, but a missing one (the member or its whole folder gone) was left out silently,
exit status 0. It is now text lost too: a warning naming it, the document read in part.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import pytest
from test_doc_odf_damaged_text_parts import _odt

from goblin_core import Document

Read = Callable[..., Document]


def _without(package: bytes, prefix: str) -> bytes:
    """The package without the members whose name starts with ``prefix``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(package)) as archive, \
            zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as copy:
        for info in archive.infolist():
            if not info.filename.startswith(prefix):
                copy.writestr(info, archive.read(info))
    return buffer.getvalue()


@pytest.mark.parametrize("prefix", ["Object 1/content.xml", "Object 1/"])
def test_a_chart_the_package_does_not_hold_is_a_loss(read: Read, prefix: str) -> None:
    whole = _odt("", chart=True)
    assert "Vendas anuais" in read(whole, "relatorio.odt").text
    document = read(_without(whole, prefix), "relatorio.odt")
    assert document.text.strip() == "Texto do relatório."
    assert document.report.truncated
    assert any(w.kind == "Truncated" and "Object 1/content.xml" in w.message
               for w in document.report.warnings)
