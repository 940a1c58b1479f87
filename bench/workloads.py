"""Which corpus files each benchmark runs on, chosen by MANIFEST features."""

from __future__ import annotations

import csv
import os
from pathlib import Path

from environments import ROOT

NOT_TEXT_PDF = {"scanned", "image-only", "garbage-text-layer", "no-extractable-text",
                "encrypted-pw"}


def corpus() -> Path:
    env = os.environ.get("GOBLIN_CORPUS")
    found = Path(env) if env else ROOT.parent / "shared" / "corpus"
    if not (found / "MANIFEST.tsv").is_file():
        raise SystemExit(f"corpus not found at {found}; set GOBLIN_CORPUS")
    return found


def manifest() -> list[tuple[str, set[str]]]:
    with open(corpus() / "MANIFEST.tsv", encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [(r["file"], set(r["features"].split(";"))) for r in rows]


def expected() -> dict[str, list[str]]:
    phrases: dict[str, list[str]] = {}
    with open(corpus() / "EXPECTED.tsv", encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
            phrases.setdefault(row["file"], []).append(row["phrase"])
    return phrases


def text_pdfs() -> list[str]:
    """PDFs with a real text layer: no scans, image-only pages, garbage or passwords."""
    return [str(corpus() / f) for f, feats in manifest()
            if f.startswith("pdf/") and not feats & NOT_TEXT_PDF]


def all_pdfs() -> list[str]:
    return [str(corpus() / f) for f, _ in manifest() if f.startswith("pdf/")]


def office_files(extensions: tuple[str, ...]) -> list[str]:
    """Office files with these extensions; hostile (tricky/) and password-protected ones out."""
    return [str(corpus() / f) for f, feats in manifest()
            if f.lower().endswith(extensions) and not f.startswith("tricky/")
            and not any(x.startswith("password=") for x in feats) and "encrypted" not in feats]


def features_pdfs(wanted: set[str]) -> list[str]:
    """PDFs whose MANIFEST features include any of ``wanted``."""
    return [str(corpus() / f) for f, feats in manifest() if f.startswith("pdf/") and feats & wanted]


def needs_ocr_pages() -> dict[str, int]:
    """Corpus PDFs EXPECTED_BASIS says need OCR, with their MANIFEST page counts."""
    with open(corpus() / "EXPECTED_BASIS.tsv", encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        flagged = {r["file"] for r in rows if "needs OCR" in r["checked_by_reference_extractor"]}
    return {f: page_count(feats) for f, feats in manifest()
            if f in flagged and f.startswith("pdf/")}


def page_count(features: set[str]) -> int:
    for feature in features:
        if feature.startswith("pages="):
            return int(feature.removeprefix("pages="))
    return 1


def documents() -> list[str]:
    """Every corpus file that is a document to extract (the hostile tricky/ folder aside)."""
    return [str(corpus() / f) for f, _ in manifest() if not f.startswith("tricky/")]


def sized(files: list[str], count: int) -> list[str]:
    """``files`` repeated in order until there are ``count`` of them."""
    if not files:
        return []
    return [files[i % len(files)] for i in range(count)]


def smallest(files: list[str], count: int) -> list[str]:
    """The ``count`` smallest of ``files``, in their order: the subset ``--quick`` runs."""
    keep = set(sorted(files, key=os.path.getsize)[:count])
    return [f for f in files if f in keep]
