"""A parser given to ``add_parser`` receives the path as GoblinTools 0.13.4 hands it:
the caller's own object (a ``pathlib.Path`` stays a ``Path``), and a string for the
files of a folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import goblin_core.compat as compat


def reader_of(module: Any) -> Any:
    extractor = module.TextExtractor()
    # A parser written for Path objects, as a caller passing Paths writes it.
    extractor.add_parser(".ref", lambda p: f"{type(p).__name__}: {p.read_text().strip()}"
                         if isinstance(p, Path) else f"str: {p.rsplit('/', 1)[-1]}")
    return extractor


def answers(module: Any, path: Path) -> list[str]:
    extractor = reader_of(module)
    return [extractor.extract_from_file(path, display_path="r.ref"),
            extractor.extract_from_file(str(path), display_path="r.ref"),
            extractor.extract_from_folder(str(path.parent))]


def test_a_path_object_reaches_the_parser_as_given(tmp_path: Path) -> None:
    path = tmp_path / "registro.ref"
    path.write_text("linha 42", encoding="utf-8")
    assert answers(compat, path) == [f'file_path_pwd:"r.ref"\n{type(path).__name__}: linha 42',
                                     'file_path_pwd:"r.ref"\nstr: registro.ref',
                                     'file_path_pwd:"registro.ref"\nstr: registro.ref']


def test_same_path_types_as_goblintools(goblintools: Any, tmp_path: Path) -> None:
    path = tmp_path / "registro.ref"
    path.write_text("linha 42", encoding="utf-8")
    assert answers(compat, path) == answers(goblintools, path)
