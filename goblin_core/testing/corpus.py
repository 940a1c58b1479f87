"""Access to the shared document corpus and its expected phrases, for tests.

The corpus lives beside the repository (``../shared/corpus``) and is read in
place; set ``GOBLIN_CORPUS`` to point elsewhere.
"""

from __future__ import annotations

import csv
import functools
import os
import shutil
import unicodedata
from dataclasses import dataclass
from pathlib import Path

CORPUS_ENV = "GOBLIN_CORPUS"


def in_ci() -> bool:
    """True when running under CI, where a missing prerequisite fails instead of skipping."""
    return bool(os.environ.get("CI"))


def skip_or_fail(reason: str) -> None:
    """Skip the running test, or fail it when CI is set."""
    import pytest

    if in_ci():
        pytest.fail(f"{reason} (CI is set, so this is a failure, not a skip)")
    pytest.skip(reason)


def require_binary(name: str, debian_package: str) -> str:
    """The path of a binary a test needs; skip (fail in CI) when it is missing."""
    found = shutil.which(name)
    if found is None:
        skip_or_fail(f"{name} not found: apt-get install {debian_package}")
    return found or ""


def find_corpus(start: str | os.PathLike[str] | None = None) -> Path | None:
    """The corpus folder: $GOBLIN_CORPUS, else ``shared/corpus`` beside an ancestor of ``start``."""
    env = os.environ.get(CORPUS_ENV)
    if env:
        return Path(env) if Path(env).is_dir() else None
    here = Path(start or os.getcwd()).resolve()
    for folder in [here, *here.parents]:
        candidate = folder.parent / "shared" / "corpus"
        if (candidate / "MANIFEST.tsv").is_file():
            return candidate
    return None


def corpus_dir(start: str | os.PathLike[str] | None = None) -> Path:
    """The corpus folder; skip (fail in CI) when it cannot be found."""
    found = find_corpus(start)
    if found is None:
        skip_or_fail("the shared corpus was not found (set GOBLIN_CORPUS)")
    assert found is not None
    return found


def normalize(text: str) -> str:
    """NFC and every whitespace run collapsed to one space, as EXPECTED.tsv is compared."""
    return " ".join(unicodedata.normalize("NFC", text).split())


@dataclass(frozen=True)
class ManifestRow:
    file: str
    kind: str
    features: frozenset[str]
    password: str | None

    @property
    def extension(self) -> str:
        return self.file.rsplit(".", 1)[-1].lower() if "." in self.file.rsplit("/", 1)[-1] else ""


@dataclass(frozen=True)
class ExpectedRow:
    file: str
    phrase: str
    basis: str
    needs_ocr: bool


def _read_tsv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


@functools.cache
def manifest(root: Path) -> tuple[ManifestRow, ...]:
    rows = []
    for row in _read_tsv(root / "MANIFEST.tsv"):
        features = frozenset(f for f in row.get("features", "").split(";") if f)
        password = next((f.split("=", 1)[1] for f in features if f.startswith("password=")), None)
        rows.append(ManifestRow(row["file"], row["kind"], features, password))
    return tuple(rows)


@functools.cache
def expected(root: Path) -> tuple[ExpectedRow, ...]:
    rows = []
    for row in _read_tsv(root / "EXPECTED_BASIS.tsv"):
        checked = row.get("checked_by_reference_extractor", "")
        rows.append(ExpectedRow(row["file"], row["phrase"], row.get("basis", ""),
                                "needs OCR" in checked))
    return tuple(rows)


def phrases_for(root: Path, file: str) -> list[ExpectedRow]:
    return [r for r in expected(root) if r.file == file]


def contains_phrase(text: str, phrase: str) -> bool:
    """True when ``phrase`` is in ``text`` after normalisation on both sides."""
    return normalize(phrase) in normalize(text)
