"""Reading order: pages per second on the MANIFEST ``two-column`` and ``tagged`` PDFs.

goblin rebuilds every page's order from PDFium's glyph boxes (``layout =
"reading_order"``, the costly path ``auto`` takes on multi-column pages); the
target is at most three times raw pypdfium2's time.
"""

from __future__ import annotations

import sys

import workloads
from runner import GOBLIN, Peer, run_peer, table

PEERS = [
    Peer("pypdfium2", "layout_pypdfium2.py", ["pypdfium2"]),
    Peer("goblin", "layout_goblin.py", GOBLIN),
    Peer("pdfminer", "layout_pdfminer.py", ["pdfminer.six"]),
    Peer("pymupdf", "layout_pymupdf.py", ["pymupdf"]),
]


def run(repeat: int, quick: bool) -> str:
    files = workloads.features_pdfs({"two-column", "tagged"})
    if quick:
        files = workloads.smallest(files, 5)
    print(f"layout: {len(files)} PDFs", file=sys.stderr)
    outcomes = [run_peer(p, files, repeat=repeat) for p in PEERS]
    raw = outcomes[0]
    pages = raw.pages
    rows = [[o.peer, o.version, f"{o.seconds:.3f}",
             f"{pages / o.seconds:.0f}" if o.seconds else "-", str(o.words), str(o.errors),
             f"{o.seconds / raw.seconds:.2f}x"] for o in outcomes]
    goblin = outcomes[1].seconds / raw.seconds if raw.seconds else 0.0
    lines = [f"### PDF reading order ({len(files)} PDFs with MANIFEST feature two-column or "
             f"tagged, {pages} pages, best of {repeat})", ""]
    lines += table(["peer", "version", "seconds", "pages/s", "words", "errors",
                    "time vs raw pypdfium2"], rows, right_from=2)
    verdict = "met" if goblin <= 3 else "missed"
    lines += ["", f"goblin reading order takes {goblin:.2f}x raw pypdfium2's time "
              f"(target at most 3x: {verdict})."]
    return "\n".join(lines)
