"""The command line's reading of a document read in part: what the cut-short tests of
the document readers share (no tests of its own)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from goblin_core.cli import cli


def assert_read_in_part(path: Path, data: bytes, phrase: str) -> None:
    """``data`` written to ``path`` and extracted on the command line: its text holds
    ``phrase``, a ``Truncated`` warning is reported and the exit status is 1."""
    path.write_bytes(data)
    result = CliRunner().invoke(cli, ["extract", str(path), "--ocr", "never"])
    assert result.exit_code == 1, result.stderr
    assert phrase in result.stdout
    assert "Truncated" in result.stderr
