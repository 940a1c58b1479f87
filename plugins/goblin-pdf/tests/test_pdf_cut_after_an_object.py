"""A PDF whose writer stopped right after an object, before its cross-reference table
and trailer: every object is whole in the file, so nothing of the page is lost."""

from __future__ import annotations

import pytest

from goblin_core import extract

_SENTENCE = b"Every object of this page is whole in the file"
_CONTENT = b"BT /F1 12 Tf 72 700 Td (" + _SENTENCE + b") Tj ET"
_OBJECTS = {
    "catalog": b"1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n",
    "pages": b"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n",
    "page": (b"3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
             b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>\nendobj\n"),
    "font": b"4 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n",
    "content stream": (b"5 0 obj\n<< /Length %d >>\nstream\n" % len(_CONTENT) + _CONTENT
                       + b"\nendstream\nendobj\n"),
}


def _written_up_to(last: str) -> bytes:
    """The objects written in order with ``last`` at the end, and nothing after it."""
    order = [name for name in _OBJECTS if name != last] + [last]
    return b"%PDF-1.7\n" + b"".join(_OBJECTS[name] for name in order)


@pytest.mark.parametrize("last", ["content stream", "page", "font", "pages"])
def test_the_last_object_before_the_cut_is_kept(last: str) -> None:
    document = extract(_written_up_to(last), name="stopped.pdf", ocr="never")
    assert [(p.number, p.status) for p in document.pages] == [(1, "clean")]
    assert _SENTENCE.decode() in document.text
    assert document.status == "clean"
    assert not any("lost their content" in w.message for w in document.report.warnings)
    assert any("qpdf rebuilt" in w.message for w in document.report.warnings)
