"""djvu.djvulibre reading the metadata of a one-page file, which its page holds."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import DjvuPage, MakeDjvu

import goblin_core


def test_a_one_page_file_gives_the_metadata_its_page_holds(make_djvu: MakeDjvu,
                                                          tmp_path: Path) -> None:
    page = make_djvu([DjvuPage(drawn=["x"], hidden=["Ata da sessão"])], name="ata.djvu")
    script = tmp_path / "meta.dsed"
    script.write_text('select 1\nset-meta\nTitle "Ata nº 12"\nAuthor "Comissão"\n.\nsave\n',
                      encoding="utf-8")
    subprocess.run(["djvused", str(page), "-f", str(script)], check=True)
    assert page.read_bytes()[12:16] == b"DJVU"  # still one page, no document directory
    document = goblin_core.extract(page, ocr="never")
    assert (document.metadata["title"], document.metadata["author"]) == ("Ata nº 12", "Comissão")
    assert document.text == "Ata da sessão"


def test_unreadable_annotations_of_a_one_page_file_cost_only_its_metadata(
    make_djvu: MakeDjvu
) -> None:
    data = make_djvu([DjvuPage(drawn=["x"], hidden=["kept"])], name="one.djvu").read_bytes()
    broken = b'(metadata (Title "x" (((('
    chunk = b"ANTa" + len(broken).to_bytes(4, "big") + broken + b"\0" * (len(broken) % 2)
    body = data[12:] + chunk
    document = goblin_core.extract(b"AT&TFORM" + len(body).to_bytes(4, "big") + body,
                                   name="broken.djvu", ocr="never")
    assert document.text == "kept"
    assert any("metadata is unreadable" in w.message for w in document.report.warnings)
