"""Encrypted OOXML packages whose inner format the extension does not tell.

An encrypted docx, xlsx or pptx is an OLE2 file; without a trustworthy
extension the format is known only after decryption. This parser decrypts
(PasswordRequired without the right password) and hands the plain package to
the parser of its family.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, ParsedDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.encryption import decrypted
from goblin_office.presentation import PptxParser
from goblin_office.spreadsheet import CalamineParser
from goblin_office.word import DocxParser

_BY_FAMILY: dict[str, Callable[[], Any]] = {
    fmt.DOCX: DocxParser,
    fmt.XLSX: CalamineParser,
    fmt.XLSB: CalamineParser,
    fmt.PPTX: PptxParser,
}


class ProtectedPackageParser(BaseEngine):
    """Decrypts an encrypted OOXML package, then reads it as the docx, xlsx or pptx it is."""

    name = "office.ooxml_protected"
    formats = (fmt.OOXML_PROTECTED,)
    priority = 50

    def open(self, source: Source, config: Config) -> ParsedDocument:
        plain = decrypted(source, config)
        try:
            with zipfile.ZipFile(plain.open()) as archive:
                names = set(archive.namelist())
                types = (
                    archive.read("[Content_Types].xml") if "[Content_Types].xml" in names else b""
                )
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise CorruptDocument(
                f"the decrypted package is not a zip ({exc})", file=source.display_name
            ) from exc
        found = fmt.ooxml_format(names, types)
        if found is None or found[0] not in _BY_FAMILY:
            raise CorruptDocument(
                "the decrypted package is not a Word, Excel or PowerPoint file",
                file=source.display_name,
            )
        return _BY_FAMILY[found[0]]().open(plain, config)
