"""Encrypted OOXML packages whose inner format the extension does not tell.

An encrypted docx, xlsx or pptx is an OLE2 file; without a trustworthy
extension the format is known only after decryption. This parser decrypts
(PasswordRequired without the right password) and hands the plain package to
the parser of its family.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, ParsedDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.encryption import decrypted
from goblin_office.flatopc import open_as_family
from goblin_office.presentation import PptxParser
from goblin_office.spreadsheet import CalamineParser, OpenpyxlParser, XlsbRecordsParser
from goblin_office.word import DocxParser

# each family's parsers in the order its own chain tries them
_BY_FAMILY: dict[str, tuple[Callable[[], Any], ...]] = {
    fmt.DOCX: (DocxParser,),
    fmt.XLSX: (CalamineParser, OpenpyxlParser),
    fmt.XLSB: (CalamineParser, XlsbRecordsParser),
    fmt.PPTX: (PptxParser,),
}


class ProtectedPackageParser(BaseEngine):
    """Decrypts an encrypted OOXML package, then reads it as the docx, xlsx or pptx it is."""

    name = "office.ooxml_protected"
    formats = (fmt.OOXML_PROTECTED,)
    priority = 50

    def open(self, source: Source, config: Config) -> ParsedDocument:
        return open_as_family(decrypted(source, config), config, _BY_FAMILY)
