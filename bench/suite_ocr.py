"""OCR: seconds per scanned page, pages OCR'd against pages that need it, phrase recall."""

from __future__ import annotations

import sys
from pathlib import Path

import workloads
from runner import GOBLIN, Outcome, Peer, recall, run_peer, table

SCANNED = {"scanned", "image-only"}
GOBLIN_PEER = Peer("goblin", "ocr_goblin.py", GOBLIN)
GOBLINTOOLS_PEER = Peer("goblintools-ocr", "ocr_goblintools.py",
                        ["goblintools[local-ocr]==0.13.4", "pypdf<7"])


def run(repeat: int, quick: bool) -> str:
    del repeat  # OCR runs are long and steady: one timed batch each
    scanned = workloads.features_pdfs(SCANNED)
    every = workloads.all_pdfs()
    if quick:
        scanned, every = workloads.smallest(scanned, 4), workloads.smallest(every, 30)
    pages = _manifest_pages(scanned)
    expected, corpus = workloads.expected(), workloads.corpus()
    print(f"ocr: {len(scanned)} scanned PDFs, {pages} pages", file=sys.stderr)
    runs = [GOBLIN_PEER.with_env(BENCH_OCR=mode, BENCH_JOBS=str(jobs))
            for mode, jobs in (("always", 1), ("always", 2), ("auto", 2))]
    outcomes = [run_peer(p, scanned, keep_text=True) for p in runs]
    outcomes.append(run_peer(GOBLINTOOLS_PEER, scanned, keep_text=True))
    one_job = outcomes[0].seconds
    rows = []
    for o in outcomes:
        found, total = recall(o, expected, corpus)
        rows.append([o.peer, o.version, f"{o.seconds:.1f}", f"{o.seconds / pages:.2f}",
                     f"{one_job / o.seconds:.2f}x",
                     f"{found}/{total} ({found / max(total, 1):.2f})", str(o.errors)])
    lines = [f"### OCR of scanned PDFs ({len(scanned)} PDFs with MANIFEST feature scanned or "
             f"image-only, {pages} pages; Tesseract, one thread per job)", ""]
    lines += table(["run", "version", "seconds", "s/page", "speed vs always jobs=1",
                    "phrase recall", "errors"], rows, right_from=2)
    lines += ["", "goblintools OCRs with a process pool of its own (one process per CPU).", ""]
    lines += _needed(GOBLIN_PEER.with_env(BENCH_OCR="auto", BENCH_JOBS="2"), every)
    return "\n".join(lines)


def _manifest_pages(files: list[str]) -> int:
    counts = {f: workloads.page_count(feats) for f, feats in workloads.manifest()}
    corpus = workloads.corpus()
    return sum(counts[Path(f).relative_to(corpus).as_posix()] for f in files)


def _needed(peer: Peer, files: list[str]) -> list[str]:
    print(f"ocr: pages OCR'd on {len(files)} PDFs", file=sys.stderr)
    outcome: Outcome = run_peer(peer, files, keep_text=True)
    corpus = workloads.corpus()
    chosen = {Path(f).relative_to(corpus).as_posix() for f in files}
    need = {f: n for f, n in workloads.needs_ocr_pages().items() if f in chosen}
    ocr_files = {Path(r["file"]).relative_to(corpus).as_posix() for r in outcome.rows
                 if r["extra"].get("ocr_pages")}
    expected = workloads.expected()
    found, total = recall(outcome, expected, corpus)
    rows = [[str(len(files)), str(outcome.pages), str(int(outcome.extra("ocr_pages"))),
             str(sum(need.values())), str(len(ocr_files)), str(len(need)),
             str(len(ocr_files - set(need))), str(len(set(need) - ocr_files)),
             f"{found}/{total} ({found / max(total, 1):.3f})", f"{outcome.seconds:.1f}"]]
    return ["### Pages OCR'd with ocr=\"auto\" (jobs=2) over every corpus PDF", "",
            "Pages needing OCR: every page of the PDFs EXPECTED_BASIS marks \"needs OCR\" "
            "(an upper bound: mixed PDFs have text pages too).", "",
            *table(["PDFs", "pages", "pages OCR'd", "pages of needs-OCR PDFs", "PDFs OCR'd",
                    "needs-OCR PDFs", "OCR'd, not flagged", "flagged, not OCR'd", "phrase recall",
                    "seconds"], rows, right_from=0)]
