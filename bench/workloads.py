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
    return [str(corpus() / f) for f, feats in manifest()
            if f.lower().endswith(extensions) and not any(x.startswith("password=") for x in feats)
            and "encrypted" not in feats]
