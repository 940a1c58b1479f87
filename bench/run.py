"""goblin's benchmark: every peer in its own environment, one run, ratios in the same run.

    python bench/run.py pdf              # or office, archives, ocr, tables, scale, all
    python bench/run.py all --quick      # a subset of every workload, for a smoke run
    nox -s bench -- pdf

Results (one Markdown report per run) go to bench/results/.
"""

from __future__ import annotations

import argparse
import inspect
import subprocess
import sys
import time
from collections.abc import Callable

import suite_archives
import suite_layout
import suite_ocr
import suite_office
import suite_scale
import suite_tables
import workloads
from runner import (  # noqa: F401  (Outcome, normalize: for suites written in this file)
    GOBLIN,
    GOBLINTOOLS,
    RESULTS_DIR,
    Outcome,
    Peer,
    load_average,
    normalize,
    recall,
    run_peer,
    table,
)

GOBLIN_PDF = GOBLIN

PDF_PEERS = [
    Peer("goblin", "pdf_goblin.py", GOBLIN),
    Peer("goblin (layout raw)", "pdf_goblin.py", GOBLIN, {"BENCH_PDF_FAST": "1"}),
    Peer("pypdfium2", "pdf_pypdfium2.py", ["pypdfium2"]),
    Peer("pypdf", "pdf_pypdf.py", ["pypdf"]),
    Peer("pdfminer.six", "pdf_pdfminer.py", ["pdfminer.six"]),
    Peer("pdfplumber", "pdf_pdfplumber.py", ["pdfplumber"]),
    Peer("poppler", "pdf_poppler.py", []),
    Peer("goblintools", "pdf_goblintools.py", GOBLINTOOLS),
]


def bench_pdf(repeat: int, quick: bool) -> str:
    files = workloads.text_pdfs()
    every = workloads.all_pdfs()
    if quick:
        files, every = workloads.smallest(files, 15), workloads.smallest(every, 20)
    print(f"pdf speed: {len(files)} text PDFs", file=sys.stderr)
    speed = {p.name: run_peer(p, files, repeat=repeat) for p in PDF_PEERS}
    pages = speed["pypdfium2"].pages
    base = pages / speed["pypdfium2"].seconds
    gt = pages / speed["goblintools"].seconds
    rows = []
    for outcome in speed.values():
        rate = pages / outcome.seconds if outcome.seconds else 0.0
        rows.append([outcome.peer, outcome.version, f"{outcome.seconds:.2f}", f"{rate:.1f}",
                     str(outcome.words), str(outcome.errors), f"{rate / base:.2f}x",
                     f"{rate / gt:.1f}x"])
    lines = [f"### PDF text speed ({len(files)} text PDFs, {pages} pages as pypdfium2 counts them, "
             f"best of {repeat}; goblin with OCR off)", ""]
    lines += table(["peer", "version", "seconds", "pages/s", "words", "errors", "vs pypdfium2",
                    "vs goblintools"], rows, right_from=2)
    print(f"pdf recall: {len(every)} PDFs, default options", file=sys.stderr)
    expected, corpus = workloads.expected(), workloads.corpus()
    rows = []
    for peer in PDF_PEERS:
        found, total = recall(run_peer(peer.with_env(BENCH_OCR="auto"), every, keep_text=True),
                              expected, corpus)
        rows.append([peer.name, str(found), str(total), f"{found / max(total, 1):.3f}"])
    lines += ["", f"### Phrase recall, default options ({len(every)} PDFs; goblin with OCR auto)",
              ""]
    lines += table(["peer", "found", "phrases", "recall"], rows)
    return "\n".join(lines)


#: Every suite: ``suite(repeat, quick) -> Markdown`` (or ``suite(repeat)``, no quick subset).
SUITES: dict[str, Callable[..., str]] = {
    "pdf": bench_pdf,
    "office": suite_office.run,
    "archives": suite_archives.run,
    "ocr": suite_ocr.run,
    "tables": suite_tables.run,
    "scale": suite_scale.run,
    "layout": suite_layout.run,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("suites", nargs="*", default=["all"],
                        help=f"{', '.join(SUITES)} or all")
    parser.add_argument("--repeat", type=int, default=3,
                        help="timed runs per file; the best counts")
    parser.add_argument("--quick", action="store_true", help="a subset of every workload")
    args = parser.parse_args()
    chosen = list(SUITES) if "all" in args.suites else args.suites
    unknown = [s for s in chosen if s not in SUITES]
    if unknown:
        parser.error(f"unknown suite {', '.join(unknown)}; "
                     f"choose from {', '.join(SUITES)} or all")
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    sections = [f"## goblin benchmark {stamp}", "",
                f"command: `python bench/run.py {' '.join(sys.argv[1:])}`"]
    for name in chosen:
        started = load_average()
        suite = SUITES[name]
        takes_quick = len(inspect.signature(suite).parameters) > 1
        try:
            body = suite(args.repeat, args.quick) if takes_quick else suite(args.repeat)
        except subprocess.CalledProcessError as exc:
            # One peer crashing ends its suite, not the run: the report says so.
            body = f"### {name}: not measured, a peer failed: {exc}"
            print(body, file=sys.stderr)
        sections += ["", body, "", f"({name}: {started} at the start, {load_average()} at the end)"]
    report = "\n".join(sections) + "\n"
    (RESULTS_DIR / f"{stamp}-{'-'.join(chosen)}.md").write_text(report)
    print(report)


if __name__ == "__main__":
    main()
