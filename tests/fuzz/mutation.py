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
    "pdf": (".pdf", ".ps", ".eps"),  # PostScript is read through the PDF Ghostscript writes
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
        ".wpd",
        ".sxw",
        ".rtf",
        ".epub",
        ".fb2",
        ".msg",
        ".eml",
        ".emlx",
    ),
    "text": (
        ".txt",
        ".csv",
        ".tsv",
        ".html",
        ".htm",
        ".xml",
        ".json",
        ".ipynb",
        ".srt",
        ".vtt",
        ".ass",
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
        ".lz",
        ".lzo",
        ".tzo",
        ".rz",
        ".lrz",
        ".zpaq",
        ".warc",
    ),
    "images": (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".gif", ".bmp", ".webp",
               ".heic", ".heif", ".avif", ".djvu"),
}
#: Report kinds that are ordinary outcomes, not findings.
EXPECTED_KINDS = set(ERROR_KINDS) - {"WorkerCrashed", "ExtractionTimeout", "MemoryLimitExceeded"}
#: Warnings of ordinary outcomes too: an empty member of an archive is noted, not failed;
#: and the ones engines give on purpose, naming what they left out of a damaged file (a
#: page drawn without its annotations, a text cut at a limit) or what a whole one lacks (a
#: PDF of no pages, formulas saved without their values), which are no leaked error.
BENIGN_WARNINGS = {"MaxPages", "DuplicateMember", "PageError", "EmptyFile",
                   "AnnotationsNotDrawn", "FormNotLoaded", "Truncated", "FormFeedPages",
                   "RenderFailed", "NoPages", "UncalculatedFormulas"}
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


@dataclass(frozen=True)
class Splice:
    """One step from a seed to a mutant: ``remove`` bytes at ``at`` replaced by ``insert``."""

    at: int
    remove: int
    insert: bytes


def apply_splices(data: bytes, splices: Iterable[Splice]) -> bytes:
    """``data`` with each splice made in turn."""
    buffer = bytearray(data)
    for splice in splices:
        buffer[splice.at : splice.at + splice.remove] = splice.insert
    return bytes(buffer)


def seed_reference(path: Path, corpus: Path | None) -> str:
    """How a regression names its seed: ``seeds/<name>`` for a committed seed,
    ``corpus/<path>`` for a shared-corpus file (read in place, never copied here)."""
    if path.is_relative_to(SEEDS):
        return f"seeds/{path.relative_to(SEEDS).as_posix()}"
    assert corpus is not None and path.is_relative_to(corpus), path
    return f"corpus/{path.relative_to(corpus).as_posix()}"


def _seed_path(reference: str, corpus: Path | None) -> Path | None:
    root, _, relative = reference.partition("/")
    if root == "seeds":
        return SEEDS / relative
    return corpus / relative if corpus is not None else None


def mutant_name(family: str, seed: str, data: bytes) -> str:
    """The name a mutant is read and kept under: family, digest, the seed's suffixes."""
    suffix = "".join(Path(seed).suffixes[-2:]) or ".bin"
    return f"{family}-{hashlib.sha256(data).hexdigest()[:12]}{suffix}"


def save_regression(family: str, seed: str, seed_data: bytes, splices: Iterable[Splice],
                    found: Iterable[Finding], folder: Path = REGRESSIONS) -> Path:
    """Keep a mutant that found something as its seed's reference and the splices that
    make it, with what it found: the mutant of a corpus file is never a copy of it."""
    folder.mkdir(exist_ok=True)
    splices = list(splices)
    data = apply_splices(seed_data, splices)
    path = folder / (mutant_name(family, seed, data) + ".json")
    record = {
        "family": family,
        "seed": seed,
        "seed_sha256": hashlib.sha256(seed_data).hexdigest(),
        "splices": [{"at": s.at, "remove": s.remove, "insert": s.insert.hex()} for s in splices],
        "findings": [f.__dict__ for f in found],
    }
    path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    return path


def regression_files() -> list[Path]:
    """The kept regressions (one JSON record each)."""
    if not REGRESSIONS.is_dir():
        return []
    return sorted(p for p in REGRESSIONS.iterdir() if p.is_file() and p.suffix == ".json")


def regression_mutant(path: Path, corpus: Path | None) -> tuple[str, bytes]:
    """A kept regression's name and bytes, rebuilt from its seed; the seed must be the
    very file the mutant was made from."""
    record = json.loads(path.read_text())
    seed = _seed_path(record["seed"], corpus)
    if seed is None or not seed.is_file():
        raise FileNotFoundError(f"{path.name}: seed {record['seed']} not found")
    seed_data = seed.read_bytes()
    if hashlib.sha256(seed_data).hexdigest() != record["seed_sha256"]:
        raise ValueError(f"{path.name}: seed {record['seed']} is not the file it was made from")
    splices = [Splice(s["at"], s["remove"], bytes.fromhex(s["insert"]))
               for s in record["splices"]]
    data = apply_splices(seed_data, splices)
    return mutant_name(record["family"], record["seed"], data), data
