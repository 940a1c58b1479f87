"""A short docx body whose deflate stream breaks midway keeps the paragraphs before the
break: the salvage inflated the body in one call, and zlib gives nothing of a call the
damage stops, so a body of a few kB was lost whole ("no readable word/document.xml
survives")."""

from __future__ import annotations

import random
from collections.abc import Callable

from packages import damaged, docx, para

from goblin_core import Document

Read = Callable[..., Document]

_WORDS = ("contrato", "cláusula", "prazo", "pagamento", "entrega", "multa", "foro", "objeto",
          "valor", "garantia")


def _paragraphs(count: int) -> list[str]:
    pick = random.Random(7)
    return [" ".join(pick.choice(_WORDS) for _ in range(12)) + f" ({n})."
            for n in range(1, count + 1)]


def test_a_short_body_damaged_midway_keeps_its_first_paragraphs(read: Read) -> None:
    paragraphs = _paragraphs(20)
    data = damaged(docx("".join(para(p) for p in paragraphs)), "word/document.xml", at=0.5)
    document = read(data, "contrato.docx")
    assert document.parsed_by == ("office.docx_salvage",)
    lines = document.text.splitlines()
    assert 2 <= len(lines) < 20
    assert lines[:2] == paragraphs[:2]
    assert document.report.truncated


def test_the_salvage_inflates_up_to_the_damage() -> None:
    import zlib

    from goblin_office.salvage import _inflate

    text = " ".join(_paragraphs(200)).encode()
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    stream = bytearray(packer.compress(text) + packer.flush())
    whole, consumed = _inflate(bytes(stream), len(text) + 1)
    assert whole == text and consumed == len(stream)
    stream[len(stream) // 2 : len(stream) // 2 + 2] = b"\xff\xff"
    survived, consumed = _inflate(bytes(stream), len(text) + 1)
    assert consumed == 0
    assert len(text) // 4 < len(survived) < len(text)
    assert text.startswith(survived[: len(survived) - 64])
