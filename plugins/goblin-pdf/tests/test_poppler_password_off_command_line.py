"""pdftotext never sees the password of an encrypted PDF on its command line, which every
user of the machine can read: it reads a copy decrypted in goblin's own process."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from pdf_builders import reportlab_pdf

from goblin_core import PasswordRequired, default_registry
from goblin_core.source import Source
from goblin_core.testing.corpus import require_binary
from goblin_pdf.poppler_recovery import PopplerRecovery

_LINES = ("Parecer sigiloso sobre o contrato",)


def _pdftotext_watched(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in for pdftotext, first on PATH, that writes down every process's command
    line (what ``ps`` shows any user) while pdftotext runs, then runs it."""
    real = require_binary("pdftotext", "poppler-utils")
    bin_folder = folder / "bin"
    bin_folder.mkdir()
    record = folder / "processes.txt"
    shim = bin_folder / "pdftotext"
    shim.write_text(
        "#!/bin/sh\n"
        f"echo 'ran pdftotext' >> '{record}'\n"
        f"for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < \"$f\"; echo; done >> '{record}' "
        "2>/dev/null\n"
        f"exec '{real}' \"$@\"\n", encoding="utf-8")
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_folder}{os.pathsep}{os.environ['PATH']}")
    return record


def test_pdftotext_reads_an_encrypted_pdf_without_the_password_on_its_command_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    password = f"-upw ş\"q' {uuid.uuid4().hex}"
    record = _pdftotext_watched(tmp_path, monkeypatch)
    source = Source.from_bytes(reportlab_pdf(_LINES, user=password), "sigiloso.pdf")
    config = default_registry().config(None, password=password)
    texts = PopplerRecovery().recover(source, [1], config)
    assert "Parecer sigiloso" in texts[1]
    seen = record.read_text(encoding="utf-8", errors="replace")
    assert "ran pdftotext" in seen
    assert password not in seen
    with pytest.raises(PasswordRequired, match="the password given does not open it"):
        PopplerRecovery().recover(source, [1], default_registry().config(None, password="x"))
