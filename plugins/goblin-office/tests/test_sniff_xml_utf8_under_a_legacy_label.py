"""An XML file declared in a legacy code page but written in UTF-8 reads as UTF-8.

Editors and exporters that write UTF-8 keep a stale ``encoding="ISO-8859-1"``; read as
declared, "Ação" became "AÃ§Ã£o". The same label over Windows-1252 text still reads
in Windows-1252, and a UTF-8 file under a Windows-1252 label read right only when one of
its characters happened to hold a byte Windows-1252 leaves undefined.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Read = Callable[..., Any]
WORDS = "Ação em São Paulo, 10 €"


@pytest.mark.parametrize("label", ["ISO-8859-1", "windows-1252", "ISO-8859-15", "latin2"])
@pytest.mark.parametrize("name", ["ata.xml", "ata.svg"])
def test_utf8_under_a_legacy_label_reads_as_utf8(read: Read, label: str, name: str) -> None:
    body = (f'<svg xmlns="http://www.w3.org/2000/svg"><text x="1" y="2">{WORDS}</text></svg>'
            if name.endswith(".svg") else f"<doc><p>{WORDS}</p></doc>")
    data = f'<?xml version="1.0" encoding="{label}"?>\n{body}\n'.encode()
    document = read(data, name)
    assert document.text == WORDS
    assert document.status == "clean"


def test_the_label_still_reads_text_written_in_it(read: Read) -> None:
    data = f'<?xml version="1.0" encoding="ISO-8859-1"?><doc><p>{WORDS}</p></doc>'
    assert read(data.encode("cp1252"), "ata.xml").text == WORDS
