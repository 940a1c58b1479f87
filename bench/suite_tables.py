"""PDF table extraction: time per page on the MANIFEST ``tables`` PDFs."""

from __future__ import annotations

import sys

import workloads
from runner import GOBLIN, GOBLINTOOLS, Peer, run_peer, table

PEERS = [
    Peer("goblin", "tables_goblin.py", GOBLIN),
    Peer("pdfplumber", "tables_pdfplumber.py", ["pdfplumber"]),
    Peer("goblintools", "tables_goblintools.py", GOBLINTOOLS),
]


def run(repeat: int, quick: bool) -> str:
    files = workloads.features_pdfs({"tables"})
    if quick:
        files = workloads.smallest(files, 5)
    print(f"tables: {len(files)} PDFs", file=sys.stderr)
    outcomes = [run_peer(p, files, repeat=repeat) for p in PEERS]
    # Pages counted by pdfplumber, outside any peer's timing.
    pages = outcomes[1].pages
    goblin = outcomes[0]
    rows = [[o.peer, o.version, f"{o.seconds:.2f}", f"{1000 * o.seconds / pages:.0f}",
             str(int(o.extra("tables"))), str(o.words), str(o.errors),
             f"{o.seconds / goblin.seconds:.2f}x"] for o in outcomes]
    lines = [f"### PDF tables ({len(files)} PDFs with MANIFEST feature tables, {pages} pages, "
             f"best of {repeat}; OCR off)", ""]
    lines += table(["peer", "version", "seconds", "ms/page", "tables", "words in cells", "errors",
                    "goblin speed vs this"], rows, right_from=2)
    return "\n".join(lines)
