"""LibreOffice headless conversion: an optional, lowest-priority engine for word processing.

When ``soffice`` is installed it reads what the other engines could not
(odd .doc, .rtf, .docx or .odt files), by converting to UTF-8 text in a
private profile and folder. The default install and CI do not need it.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument, ExtractionTimeout
from goblin_core.source import Source, spooled
from goblin_office import formats as fmt
from goblin_office.containers import open_container
from goblin_office.encryption import decrypted


class LibreOfficeParser(BaseEngine):
    """soffice --headless --convert-to txt, for word-processing files every other engine refused."""

    name = "office.libreoffice"
    formats = (fmt.DOC, fmt.DOCX, fmt.ODT, fmt.FODT, fmt.RTF)
    priority = -10
    binary = "soffice"

    def available(self) -> tuple[bool, str]:
        if shutil.which(self.binary) is None:
            return False, "soffice not found: apt-get install libreoffice-writer-nogui (optional)"
        return True, ""

    def open(self, source: Source, config: Config) -> TextDocument:
        binary = str(config.get("office", "libreoffice", self.binary) or self.binary)
        plain = decrypted(source, config)
        if plain.head(4) == b"PK\x03\x04":
            open_container(plain, config).close()  # the same size and ratio limits as ours
        timeout = float(config.get("limits", "timeout", 300.0))
        with tempfile.TemporaryDirectory(prefix="goblin-lo-") as scratch, spooled(plain) as path:
            out = Path(scratch) / "out"
            argv = [
                binary,
                f"-env:UserInstallation=file://{scratch}/profile",
                "--headless",
                "--norestore",
                "--convert-to",
                "txt:Text (encoded):UTF8",
                "--outdir",
                str(out),
                str(path),
            ]
            try:
                subprocess.run(argv, capture_output=True, timeout=timeout, check=False)
            except subprocess.TimeoutExpired as exc:
                raise ExtractionTimeout(
                    "LibreOffice ran longer than limits.timeout", file=source.display_name
                ) from exc
            produced = list(out.glob("*.txt"))
            if not produced:
                raise CorruptDocument("LibreOffice could not convert it", file=source.display_name)
            text = produced[0].read_text("utf-8", errors="replace").lstrip("\ufeff")
        return TextDocument(text.split("\f") if "\f" in text else [text])
