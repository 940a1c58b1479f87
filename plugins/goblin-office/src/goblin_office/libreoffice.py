"""LibreOffice headless conversion: an optional, lowest-priority engine for word processing.

When ``soffice`` is installed it reads what the other engines could not
(odd .doc, .rtf, .docx or .odt files), by converting to UTF-8 text in a
private profile and folder. The default install and CI do not need it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from goblin_core.config import Config
from goblin_core.deadline import within_document
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
            _convert(argv, within_document(float(config.get("limits", "timeout", 300.0))),
                     source.display_name)
            produced = list(out.glob("*.txt"))
            if not produced:
                raise CorruptDocument("LibreOffice could not convert it", file=source.display_name)
            text = produced[0].read_text("utf-8", errors="replace").lstrip("\ufeff")
        return TextDocument(text.split("\f") if "\f" in text else [text])


def _convert(argv: list[str], timeout: float, name: str) -> None:
    """Run soffice; on a timeout, or anything that stops the caller, end it and its children.

    ``soffice`` hands the document to ``soffice.bin``, a process of its own:
    killing the launcher alone left that one converting for nobody. It runs
    in a session of its own so the whole group goes at once.
    """
    if timeout <= 0:
        raise ExtractionTimeout("no time left for LibreOffice under limits.timeout", file=name)
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        process.wait(timeout)
    except BaseException as exc:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        if isinstance(exc, subprocess.TimeoutExpired):
            raise ExtractionTimeout("LibreOffice ran longer than limits.timeout",
                                    file=name) from None
        raise
