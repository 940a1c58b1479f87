"""PostScript and EPS: run by Ghostscript into a PDF, which is then read as any PDF.

A PostScript file is a program, and its text is what the program draws, not its
source. Ghostscript runs it in a private folder that is also its temporary folder
(``-dSAFER`` lets a program open files there and nowhere else: not beside the input,
not in the system's temporary folder) and writes a PDF there; PDFium then reads that
PDF page by page, with the validators, recovery engines and OCR a PDF gets. The run
is bounded by ``limits.timeout``, by an address-space cap at ``limits.max_memory``
and by a file-size cap at ``limits.max_file_size`` on each file it writes: a program
can loop, or draw without end.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from goblin_core.child_limits import capped_child
from goblin_core.config import Config
from goblin_core.deadline import within_document
from goblin_core.engines import BaseEngine
from goblin_core.errors import CorruptDocument, EngineUnavailable, ExtractionTimeout, FileTooLarge
from goblin_core.source import Source, spooled
from goblin_pdf.formats import POSTSCRIPT_MIME
from goblin_pdf.pdf_metadata import pdf_date
from goblin_pdf.pdfium_parser import PdfiumDocument, PdfiumParser

BINARY = "gs"
_INSTALL = "apt-get install ghostscript"


class PostScriptParser(BaseEngine):
    """PostScript and EPS pages through the PDF Ghostscript writes of them."""

    name = "pdf.ghostscript"
    formats = (POSTSCRIPT_MIME,)
    priority = 50

    def available(self) -> tuple[bool, str]:
        if shutil.which(BINARY) is None:
            return False, f"Ghostscript ({BINARY}) not found: {_INSTALL}"
        return True, ""

    def open(self, source: Source, config: Config) -> PdfiumDocument:
        converted = Source.from_bytes(converted_pdf(source, config), source.display_name)
        document = PdfiumParser().open(converted, config)
        # the recovery engines and the table engine read the PDF, not the program
        document.repaired = converted
        document.metadata = postscript_metadata(document.metadata, source.head(_DSC_BYTES))
        return document


_DSC_BYTES = 64 * 1024
_DSC_LINE = re.compile(
    rb"^%%(Title|Creator|For|CreationDate|LanguageLevel|Pages):[ \t]*(.*?)\s*$", re.M)
# what the PDF says of its own making, which is the conversion's and not the document's
_CONVERSION_KEYS = ("Producer", "producer", "CreationDate", "ModDate", "created", "modified",
                    "pdf_version")
_DSC_KEYS = {"Title": "title", "Creator": "creator", "For": "author"}
# goblin's keys and the information-dictionary keys that say them: a key set with no such
# entry was filled from the converted PDF's XMP packet
_INFO_SOURCES = {"title": "Title", "author": "Author", "subject": "Subject",
                 "keywords": "Keywords", "creator": "Creator", "producer": "Producer",
                 "created": "CreationDate", "modified": "ModDate", "language": "Lang"}
# DSC's word for a value given in the trailer, at the end of the program
_AT_END = "atend"
# a PostScript string's escapes: \ddd octal, a named control, an escaped character, a
# backslash before a line break (the string goes on)
_ESCAPE = re.compile(rb"\\([0-7]{1,3}|\r?\n|.)", re.S)
_NAMED_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def postscript_metadata(converted: Mapping[str, Any], head: bytes) -> dict[str, Any]:
    r"""The converted PDF's metadata with what belongs to the conversion taken out, and the
    PostScript's own header comments (DSC: ``%%Title``, ``%%Creator``, ``%%For``,
    ``%%CreationDate``) put in, read as UTF-8 when they are, else as Latin-1.

    >>> meta = postscript_metadata({"Producer": "GPL Ghostscript", "page_count": 1},
    ...                            "%!PS-Adobe-3.0\n%%Title: Relatório\n".encode())
    >>> meta["title"], "Producer" in meta, meta["page_count"]
    ('Relatório', False, 1)
    """
    metadata = {key: value for key, value in converted.items() if key not in _CONVERSION_KEYS}
    # Ghostscript's XMP packet is its own: "Untitled" for a program that names no title,
    # its name as producer, the conversion's time
    for key, value in dict(metadata.pop("xmp", None) or {}).items():
        if metadata.get(key) == value and _INFO_SOURCES.get(key) not in converted:
            del metadata[key]
    comments = head.split(b"%%EndComments", 1)[0]
    for found in _DSC_LINE.finditer(comments):
        key, raw = found.group(1).decode(), found.group(2)
        value = _dsc_text(raw)
        if not value:
            continue
        metadata[key] = value
        if key in _DSC_KEYS:
            metadata[_DSC_KEYS[key]] = value
        elif key == "CreationDate" and (created := _dsc_date(value)):
            metadata["created"] = created
    metadata["converted_by"] = "Ghostscript"
    return metadata


def _dsc_text(raw: bytes) -> str:
    r"""A DSC value: a PostScript string in parentheses, its escapes read (``\363``,
    ``\(``), or bare text; UTF-8 when it decodes so, else Latin-1. ``(atend)``, which
    defers the value to the trailer, is no value.

    >>> _dsc_text(rb"(Relat\363rio \(final\))"), _dsc_text(b"Relat\xc3\xb3rio")
    ('Relatório (final)', 'Relatório')
    >>> _dsc_text(b"(atend)")
    ''
    """
    if raw.startswith(b"(") and raw.endswith(b")"):
        raw = _ESCAPE.sub(_unescaped, raw[1:-1])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    text = text.strip()
    return "" if text == _AT_END else text


def _unescaped(escape: re.Match[bytes]) -> bytes:
    code = escape[1]
    if code[:1].isdigit():
        return bytes([int(code, 8) & 0xFF])
    if code in (b"\n", b"\r\n"):
        return b""
    return _NAMED_ESCAPES.get(code, code)


def _dsc_date(value: str) -> str | None:
    """ISO 8601 for the two forms writers use: a PDF date (``D:20240311...``) and C's
    ``ctime`` (``Mon Mar 11 10:00:00 2024``); None for any other (DSC leaves it free)."""
    if value.startswith("D:"):
        return pdf_date(value)
    try:
        return datetime.strptime(" ".join(value.split()), "%a %b %d %H:%M:%S %Y").isoformat()
    except ValueError:
        return None


def converted_pdf(source: Source, config: Config) -> bytes:
    """The PDF Ghostscript writes of the PostScript ``source``, within the limits."""
    binary = shutil.which(BINARY)
    if binary is None:
        raise EngineUnavailable(f"Ghostscript ({BINARY}) not found: {_INSTALL}",
                                file=source.display_name)
    timeout = within_document(float(config.get("limits", "timeout", 300.0)))
    largest = int(config.get("limits", "max_file_size", 0))
    memory = int(config.get("limits", "max_memory", 0))
    with spooled(source) as path, tempfile.TemporaryDirectory(prefix="goblin-ps-") as folder:
        target = Path(folder) / "converted.pdf"
        command = [binary, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dEPSCrop",
                   "-sDEVICE=pdfwrite", f"-sOutputFile={target}", "-f", str(Path(path).resolve())]
        try:
            # -dSAFER lets a program write in the temporary folder: make it this one
            private = {"TMPDIR": folder, "TEMP": folder, "TMP": folder}
            done = subprocess.run(command, capture_output=True, timeout=timeout, check=False,
                                  cwd=folder, env={**os.environ, **private},
                                  preexec_fn=capped_child(memory, largest))
        except subprocess.TimeoutExpired as exc:
            raise ExtractionTimeout(
                f"Ghostscript ran the PostScript program longer than limits.timeout "
                f"({timeout:.0f} s)", file=source.display_name) from exc
        written = target.stat().st_size if target.exists() else 0
        if largest and (written >= largest or done.returncode == -signal.SIGXFSZ):
            raise FileTooLarge(
                f"the PostScript program draws a PDF past limits.max_file_size "
                f"({largest:,} bytes); not read", file=source.display_name)
        if done.returncode != 0 or not written:
            said = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
            cause = next((line.strip() for line in said.splitlines() if "Error" in line),
                         said.strip().splitlines()[-1] if said.strip() else "no output")
            raise CorruptDocument(
                f"Ghostscript cannot run it as PostScript (exit {done.returncode}: "
                f"{cause[:200]})", file=source.display_name)
        return target.read_bytes()
