"""Mutation fuzzing of goblin's parsers and archive handlers, shared by the fuzz session
and the regression replay.

Mutants run through the real pipeline in supervised worker processes, so a
segfault, a hang or a memory blow-up is caught as WorkerCrashed,
ExtractionTimeout or MemoryLimitExceeded instead of killing the fuzzer. An
engine that lets a non-goblin exception escape (a KeyError from deep in a
library instead of a CorruptDocument) is a contract violation: the core
survives it, but the plugin must wrap it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from goblin_core.errors import ERROR_KINDS
from goblin_core.model import Document

HERE = Path(__file__).resolve().parent
SEEDS = HERE / "corpus"
REGRESSIONS = HERE / "regressions"

FAMILIES: dict[str, tuple[str, ...]] = {
    "pdf": (".pdf",),
    "office": (
        ".docx",
        ".docm",
        ".xlsx",
        ".xlsm",
        ".xls",
        ".pptx",
        ".ppt",
        ".odt",
        ".ods",
        ".odp",
        ".doc",
        ".rtf",
        ".epub",
        ".msg",
        ".eml",
    ),
    "text": (
        ".txt",
        ".csv",
        ".tsv",
        ".html",
        ".htm",
        ".xml",
        ".json",
        ".ndjson",
        ".dbf",
        ".md",
        ".svg",
    ),
    "archives": (
        ".zip",
        ".tar",
        ".gz",
        ".tgz",
        ".bz2",
        ".xz",
        ".zst",
        ".lz4",
        ".7z",
        ".rar",
        ".cab",
        ".cpio",
        ".z",
        ".warc",
    ),
    "images": (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".gif", ".bmp", ".webp"),
}
#: Report kinds that are ordinary outcomes, not findings.
EXPECTED_KINDS = set(ERROR_KINDS) - {"WorkerCrashed", "ExtractionTimeout", "MemoryLimitExceeded"}
#: Warnings of ordinary outcomes too: an empty member of an archive is noted, not failed;
#: and the ones engines give on purpose, naming what they left out of a damaged file (a
#: page drawn without its annotations, a text cut at a limit), which are no leaked error.
BENIGN_WARNINGS = {"MaxPages", "DuplicateMember", "PageError", "EmptyFile",
                   "AnnotationsNotDrawn", "FormNotLoaded", "Truncated", "FormFeedPages",
                   "RenderFailed"}
MAX_SEED_BYTES = 2 * 1024**2


@dataclass(frozen=True)
class Finding:
    kind: str
    message: str


def family_of(name: str) -> str | None:
    lowered = name.lower()
    for family, extensions in FAMILIES.items():
        if lowered.endswith(extensions):
            return family
    return None


def seed_files(family: str, corpus: Path | None) -> list[Path]:
    """Committed seeds plus shared-corpus files of the family (small ones, read in place)."""
    roots = [SEEDS] + ([corpus] if corpus is not None else [])
    found = []
    for root in roots:
        for path in sorted(root.rglob("*")):
            if (
                path.is_file()
                and family_of(path.name) == family
                and path.stat().st_size <= MAX_SEED_BYTES
            ):
                found.append(path)
    return found


def findings(document: Document) -> list[Finding]:
    """Crashes, hangs, memory blow-ups and engine contract violations in a document's reports."""
    found = []
    for doc in document.walk():
        for entry in doc.report.errors:
            if entry.kind not in EXPECTED_KINDS:
                found.append(Finding(entry.kind, entry.message))
        for entry in doc.report.warnings:
            if entry.kind not in EXPECTED_KINDS and entry.kind not in BENIGN_WARNINGS:
                found.append(Finding(entry.kind, entry.message))
    return found


def save_regression(family: str, name: str, data: bytes, found: Iterable[Finding]) -> Path:
    """Keep a mutant that found something, with a sidecar saying what it found."""
    REGRESSIONS.mkdir(exist_ok=True)
    digest = hashlib.sha256(data).hexdigest()[:12]
    suffix = "".join(Path(name).suffixes[-2:]) or ".bin"
    path = REGRESSIONS / f"{family}-{digest}{suffix}"
    path.write_bytes(data)
    path.with_name(path.name + ".json").write_text(
        json.dumps(
            {"family": family, "seed": name, "findings": [f.__dict__ for f in found]},
            indent=2,
            ensure_ascii=False,
        )
        + "\n"
    )
    return path


def regression_files() -> list[Path]:
    if not REGRESSIONS.is_dir():
        return []
    return sorted(
        p
        for p in REGRESSIONS.iterdir()
        if p.is_file() and not p.name.endswith(".json") and p.name != "README.md"
    )
