"""The committed samples: tiny, what the README says they are, and readable by goblin-core.

Regenerating them and reading the PDF, DOCX, CSV and ZIP need the plugins:
tests/integration/test_samples_with_plugins.py does that.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from goblin_core import UnsupportedFormat, extract, load_registry

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
NAMES = ("hello.txt", "hello.pdf", "hello.docx", "orcamento.csv", "samples.zip")


@pytest.mark.parametrize("name", NAMES)
def test_each_sample_is_committed_and_tiny(name: str) -> None:
    path = SAMPLES / name
    assert path.is_file()
    assert 0 < path.stat().st_size < 64 * 1024


def test_hello_txt_is_read_by_goblin_core_alone() -> None:
    document = extract(SAMPLES / "hello.txt", registry=load_registry(entry_points=lambda: []))
    assert document.status == "clean"
    assert document.text.startswith("Olá, goblin!")
    assert "Edital de licitação nº 12/2024" in document.text


def test_hello_pdf_without_the_pdf_extra_names_it() -> None:
    with pytest.raises(UnsupportedFormat, match=r'pip install "goblin-core\[pdf\]"'):
        extract(SAMPLES / "hello.pdf", registry=load_registry(entry_points=lambda: []))


def test_the_csv_is_a_cp1252_semicolon_export() -> None:
    raw = (SAMPLES / "orcamento.csv").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    header = raw.decode("cp1252").splitlines()[0]
    assert header.split(";") == ["item", "descrição", "quantidade", "preço unitário"]


def test_the_zip_holds_two_of_the_samples() -> None:
    with zipfile.ZipFile(SAMPLES / "samples.zip") as archive:
        assert sorted(archive.namelist()) == ["docs/hello.pdf", "docs/hello.txt"]
        assert archive.read("docs/hello.txt") == (SAMPLES / "hello.txt").read_bytes()
        assert archive.read("docs/hello.pdf") == (SAMPLES / "hello.pdf").read_bytes()
