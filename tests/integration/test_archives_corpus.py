"""Archives and tricky files of the corpus through every plugin: the EXPECTED phrases are found.

Members are PDFs, Office files and text inside zip, tar, 7z, rar, cab, cpio
and single-file compressors (nested ones too), so this needs goblin-archives
together with the format plugins.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import goblin_core
from goblin_core.testing.corpus import (
    contains_phrase,
    corpus_dir,
    expected,
    find_corpus,
    manifest,
)

CORPUS = find_corpus(__file__)


def _rows() -> list[tuple[str, str]]:
    if CORPUS is None:
        return [("<corpus missing>", "")]
    return [(r.file, r.phrase) for r in expected(CORPUS)
            if r.file.startswith(("archives/", "tricky/")) and not r.needs_ocr]


def _password(root: Path, file: str) -> str:
    row = next((r for r in manifest(root) if r.file == file), None)
    return (row.password or "") if row else ""


@pytest.mark.parametrize(("file", "phrase"), _rows())
def test_expected_phrase_is_found(file: str, phrase: str) -> None:
    root = corpus_dir(__file__)
    doc = goblin_core.extract(root / file, password=_password(root, file))
    text = "\n".join(d.text for d in doc.walk())
    problems = [f"{d.name}: {e.kind}: {e.message}" for d in doc.walk() for e in d.report.errors]
    assert contains_phrase(text, phrase), f"{phrase!r} not found; problems: {problems[:5]}"


def test_every_archive_row_is_covered() -> None:
    root = corpus_dir(__file__)
    files = {f for f, _ in _rows()}
    archive_rows = {r.file for r in expected(root) if r.file.startswith("archives/")}
    assert archive_rows <= files
