"""Rich Text Format read with striprtf, in the code page the document declares.

Embedded objects (and, when asked, pictures) come out as children (``rtfobjects``).
"""

from __future__ import annotations

import codecs
import re
from typing import Any

from striprtf.striprtf import rtf_to_text

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.rtfobjects import rtf_children, without_binary_groups

_CODEPAGE = re.compile(rb"\\ansicpg(\d+)")
_CHARSET_CODEPAGES = {
    128: "cp932",
    129: "cp949",
    134: "gbk",
    136: "cp950",
    161: "cp1253",
    162: "cp1254",
    177: "cp1255",
    178: "cp1256",
    186: "cp1257",
    204: "cp1251",
    222: "cp874",
    238: "cp1250",
}
_FCHARSET = re.compile(rb"\\fcharset(\d+)")


def rtf_encoding(head: bytes) -> str:
    """The code page of ``\\'xx`` escapes: \\ansicpg, else the font charsets, else cp1252."""
    found = _CODEPAGE.search(head)
    if found is not None and found.group(1) != b"0":
        codec = f"cp{int(found.group(1))}"
        try:
            codecs.lookup(codec)
            return codec
        except LookupError:
            pass
    for charset in _FCHARSET.findall(head):
        by_charset = _CHARSET_CODEPAGES.get(int(charset))
        if by_charset:
            return by_charset
    return "cp1252"


class RTFParser(BaseEngine):
    """striprtf for .rtf: text in the declared code page, \\u escapes, table cells."""

    name = "office.rtf"
    formats = (fmt.RTF,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        data = source.bytes()
        if not data.lstrip().startswith(b"{\\rtf"):
            raise CorruptDocument(
                "not an RTF document (no {\\rtf header)", file=source.display_name
            )
        encoding = rtf_encoding(data[:65536])
        try:
            plain = without_binary_groups(data).decode("latin-1")
            text = rtf_to_text(plain, encoding=encoding, errors="replace")
        except (ValueError, IndexError, RecursionError) as exc:
            raise CorruptDocument(
                f"the RTF cannot be read ({exc})", file=source.display_name
            ) from exc
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        metadata: dict[str, Any] = {"encoding": encoding}
        found, skipped = rtf_children(data, source, config)
        if skipped:
            metadata["embedded_skipped"] = skipped
        return TextDocument([text], metadata=metadata, attachments=found)
