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
from goblin_office.containers import MEMBER_ERRORS, open_container
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
        import_filter = _import_filter(plain, config)
        with tempfile.TemporaryDirectory(prefix="goblin-lo-") as scratch, spooled(plain) as path:
            out = Path(scratch) / "out"
            argv = [
                binary,
                f"-env:UserInstallation=file://{scratch}/profile",
                "--headless",
                "--norestore",
                *([f"--infilter={import_filter}"] if import_filter else []),
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
        if not text.strip():
            # the engine of last resort reads files the others refused: nothing read from
            # one is a failure to read it, not an empty document
            raise CorruptDocument("LibreOffice read no text from it", file=source.display_name)
        return TextDocument(text.split("\f") if "\f" in text else [text])


# LibreOffice's import filter for each container the engine reads: forced, so that a
# file it does not recognise is refused rather than imported as plain text (random
# bytes come out as a page of CJK characters). OLE files are left to LibreOffice's
# detection, which tells Word 97 from Word 6 and 95.
_WORD_FILTER = "MS Word 2007 XML"
_ODF_FILTER = "writer8"
_FLAT_ODF_FILTER = "OpenDocument Text Flat XML"
_RTF_FILTER = "Rich Text Format"
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def _import_filter(plain: Source, config: Config) -> str:
    """The import filter to force for ``plain`` ("" to let LibreOffice detect a Word
    file's version); CorruptDocument when it is none of the containers the engine reads."""
    head = plain.head(512)
    if head.startswith(b"PK\x03\x04"):
        with open_container(plain, config) as archive:  # the same limits as ours
            names = set(archive.namelist())
            if "word/document.xml" in names:
                return _WORD_FILTER
            if "mimetype" in names:
                try:
                    with archive.open("mimetype") as member:
                        kind = member.read(64)
                except MEMBER_ERRORS:
                    # a damaged member: LibreOffice repairs such packages, the text kept
                    kind = b"application/vnd.oasis.opendocument.text" * ("content.xml" in names)
                if kind.startswith(b"application/vnd.oasis.opendocument.text"):
                    return _ODF_FILTER
    elif head.startswith(_OLE_MAGIC):
        return ""
    elif head.lstrip().startswith(b"{\\rtf"):
        return _RTF_FILTER
    elif head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<") and b"office:document" in head:
        return _FLAT_ODF_FILTER
    raise CorruptDocument("not a Word, OpenDocument or RTF file for LibreOffice to read",
                          file=plain.display_name)


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
