"""``display_path`` names a file in its tag and nothing more, as in GoblinTools 0.13.4:
the file is read as its own path says (the parser of its extension, then its
content), whatever name the caller shows it under."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from goblin_core.compat import TextExtractor
from goblin_core.registry import Registry, default_registry
from goblin_core.testing.corpus import skip_or_fail


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def require_parser(mime: str, extra: str) -> None:
    """Skip when no installed plugin reads ``mime``; under CI, fail instead."""
    if not default_registry().ranked("parser", mime):
        skip_or_fail(f"no parser for {mime} is installed (pip install 'goblin-core[{extra}]')")


@pytest.mark.parametrize("display_path", ["registro", "registro.txt", "anexos/registro.pdf"])
def test_a_custom_parser_reads_its_extension_under_any_display_path(
    tmp_path: Path, display_path: str
) -> None:
    path = write(tmp_path / "registro.ref", "cru")
    extractor = TextExtractor()
    extractor.add_parser(".ref", lambda p: f"lido por {Path(p).suffix}")
    assert extractor.extract_from_file(str(path), display_path=display_path) == (
        f'file_path_pwd:"{display_path}"\nlido por .ref')


def test_a_removed_parser_is_decided_by_the_files_own_extension(tmp_path: Path) -> None:
    path = write(tmp_path / "nota.txt", "Valor global")
    extractor = TextExtractor()
    del extractor.parsers[".txt"]
    assert extractor.extract_from_file(str(path), display_path="nota.pdf") == ""
    assert extractor.last_extraction_report is None


def test_a_csv_is_read_as_a_csv_under_a_name_without_extension(tmp_path: Path) -> None:
    require_parser("text/csv", "office")
    path = write(tmp_path / "planilha.csv", "item;valor\n1;10,00\n")
    extractor = TextExtractor()
    as_its_own = extractor.extract_from_file(str(path), display_path="planilha.csv")
    for shown in ("planilha", "planilha.txt"):
        text = extractor.extract_from_file(str(path), display_path=shown)
        assert text == as_its_own.replace('"planilha.csv"', f'"{shown}"', 1)
    assert "item\tvalor" in as_its_own


def test_an_html_page_loses_no_paragraph_under_another_name(tmp_path: Path) -> None:
    require_parser("text/html", "office")
    path = write(tmp_path / "pagina.html", "<p>primeiro</p><p>segundo</p>")
    extractor = TextExtractor()
    for shown in ("pagina", "pagina.txt", "pagina.pdf"):
        text = extractor.extract_from_file(str(path), display_path=shown)
        assert text == f'file_path_pwd:"{shown}"\nprimeiro\nsegundo'


def test_archive_members_are_tagged_under_the_display_path(tmp_path: Path,
                                                          zip_registry: Registry) -> None:
    path = tmp_path / "pacote.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("leia.txt", "conteudo")
    text = TextExtractor().extract_from_file(str(path), display_path="envio")
    assert text == 'file_path_pwd:"envio/leia.txt"\nconteudo'
