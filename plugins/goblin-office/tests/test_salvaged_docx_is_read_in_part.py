"""A docx read from what survives of its damage is a document read in part, not a clean one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner
from packages import damaged, docx, para

from goblin_core import Document
from goblin_core.cli import cli

Read = Callable[..., Document]

_BODY = "".join(para(f"Parágrafo {n} do memorial descritivo, item {n}.") for n in range(1, 2001))


def test_a_salvaged_docx_reports_its_lost_text_as_truncated(read: Read) -> None:
    document = read(damaged(docx(_BODY), "word/document.xml", at=0.5), "memorial.docx")
    assert document.parsed_by == ("office.docx_salvage",)
    assert "Parágrafo 1 do memorial" in document.text
    assert document.report.truncated
    assert any(w.kind == "Truncated" and "word/document.xml" in w.message
               for w in document.report.warnings)


def test_a_cut_docx_is_a_loss_for_the_exit_status(tmp_path: Path) -> None:
    whole = docx(_BODY)
    cut = tmp_path / "cortado.docx"
    cut.write_bytes(whole[: len(whole) // 2])
    result = CliRunner().invoke(cli, ["extract", str(cut), "--ocr", "never"])
    assert "Parágrafo 1 do memorial" in result.stdout
    assert result.exit_code == 1
    assert 'error: "cortado.docx": Truncated: read from what survives' in result.stderr
