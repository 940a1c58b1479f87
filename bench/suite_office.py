"""Office throughput: spreadsheets and Word documents, files/s and MB/s."""

from __future__ import annotations

import os
import sys

import workloads
from runner import GOBLIN, GOBLINTOOLS, Peer, ratio, run_peer, table

PEERS = [
    Peer("goblin", "office_goblin.py", GOBLIN),
    Peer("goblintools", "office_goblintools.py", GOBLINTOOLS),
    Peer("markitdown", "office_markitdown.py", ["markitdown[docx,xlsx,xls]"]),
]
KINDS = {"spreadsheets (xlsx/xlsm/xls/ods)": (".xlsx", ".xlsm", ".xls", ".ods"), "docx": (".docx",)}


def run(repeat: int, quick: bool) -> str:
    lines = [f"### Office throughput (best of {repeat} per file)"]
    for label, extensions in KINDS.items():
        files = workloads.office_files(extensions)
        if quick:
            files = workloads.smallest(files, 4)
        megabytes = sum(os.path.getsize(f) for f in files) / 1e6
        print(f"office {label}: {len(files)} files, {megabytes:.1f} MB", file=sys.stderr)
        outcomes = [run_peer(p, files, repeat=repeat) for p in PEERS]
        goblin = outcomes[0]
        rows = []
        for o in outcomes:
            rows.append([o.peer, o.version, f"{o.seconds:.2f}", f"{len(files) / o.seconds:.1f}",
                         f"{megabytes / o.seconds:.2f}", str(o.words), str(o.errors),
                         ratio(o.seconds, goblin.seconds)])
        lines += ["", f"{label}: {len(files)} files, {megabytes:.2f} MB", ""]
        lines += table(["peer", "version", "seconds", "files/s", "MB/s", "words", "errors",
                        "goblin speed vs this"], rows, right_from=2)
    return "\n".join(lines)
