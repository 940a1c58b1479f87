"""Rich Text Format: text and document properties (``rtftext``), objects as children.

Embedded objects (and, when asked, pictures) come out as children (``rtfobjects``).
"""

from __future__ import annotations

import codecs
import logging
import re
from typing import Any

from goblin_core.builtin.text import binary_content
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.rtfobjects import rtf_children, without_binary_groups
from goblin_office.rtftext import CHARSET_CODEPAGES, read_rtf

log = logging.getLogger(__name__)


class BinaryText(CorruptDocument):
    """Raw bytes where an RTF's text should be: a verdict on the file, which a more
    forgiving reader (LibreOffice) would only turn into a page of stray characters."""

    final = True

_CODEPAGE = re.compile(rb"\\ansicpg(\d+)")
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
        by_charset = CHARSET_CODEPAGES.get(int(charset))
        if by_charset:
            return by_charset
    return "cp1252"


class RTFParser(BaseEngine):
    """.rtf: text in the fonts' code pages, \\u escapes, table cells, \\info properties."""

    name = "office.rtf"
    formats = (fmt.RTF,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        # NULs padding the end (a copy zero-filled past its data, a decompressed body)
        # are no text, and an RTF holds none of its own: read as text, they made the
        # file binary. Line ends and spaces among them are padding as well.
        whole = source.bytes()
        data = whole.rstrip(b"\x00\r\n\t ")
        if b"\x00" not in whole[len(data):]:
            data = whole
        if not data.lstrip().startswith(b"{\\rtf"):
            raise CorruptDocument(
                "not an RTF document (no {\\rtf header)", file=source.display_name
            )
        encoding = rtf_encoding(data[:65536])
        try:
            content = read_rtf(
                without_binary_groups(data),
                comments=bool(config.get("office", "comments", True)),
                notes=bool(config.get("office", "notes", True)),
                headers_footers=bool(config.get("office", "headers_footers", True)),
                max_depth=int(config.get("limits", "max_xml_depth", 256)),
            )
        except (ValueError, IndexError, RecursionError) as exc:
            raise CorruptDocument(
                f"the RTF cannot be read ({exc})", file=source.display_name
            ) from exc
        text = content.text.replace("\r\n", "\n").replace("\r", "\n")
        if binary_content(text):
            # a \bin payload is skipped; raw bytes where the text should be are damage
            raise BinaryText("the RTF holds binary data where its text should be",
                             file=source.display_name)
        metadata: dict[str, Any] = {"encoding": encoding, **content.metadata}
        found, skipped = rtf_children(data, source, config)
        if skipped:
            metadata["embedded_skipped"] = skipped
        if content.cuts:
            metadata["truncated"] = "; ".join(content.cuts)
            log.warning("%s: %s", source.display_name, metadata["truncated"])
        page = PageContent(number=1, text=text, hidden_chars=content.hidden_chars)
        document = TextDocument([page], metadata=metadata, attachments=found)
        document.warnings = [("Truncated", cut) for cut in content.cuts]
        if content.unclosed_groups:
            document.warnings.append(("CorruptDocument", f"the RTF ends inside "
                                      f"{content.unclosed_groups:,} open group(s): the file "
                                      "may be cut short, losing what followed"))
        if content.cut_inside:
            document.left_out = (f"the RTF ends {content.cut_inside}, as one cut short "
                                 "does: the text after the cut is lost")
        return document
