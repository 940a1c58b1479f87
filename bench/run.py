"""goblin's benchmark: every peer in its own environment, one run, ratios in the same run.

    python bench/run.py pdf            # or office, archives, all
    nox -s bench -- pdf

Results (a Markdown table and the raw JSON) go to bench/results/.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import workloads
from environments import ROOT, environment, peer_env

RESULTS = ROOT / "bench" / "results"
GOBLIN_PDF = [".", "./plugins/goblin-pdf", "./plugins/goblin-ocr-tesseract"]
GOBLINTOOLS = ["goblintools==0.13.4", "pypdf<7"]


@dataclass(frozen=True)
class Peer:
    name: str
    script: str
    requirements: list[str]
    env: dict[str, str] | None = None


@dataclass
class Outcome:
    peer: str
    version: str
    rows: list[dict]

    @property
    def seconds(self) -> float:
        return sum(r["seconds"] for r in self.rows)

    @property
    def words(self) -> int:
        return sum(r["words"] for r in self.rows)

    @property
    def errors(self) -> int:
        return sum(1 for r in self.rows if r["error"])


def run_peer(peer: Peer, files: list[str], *, repeat: int = 1, keep_text: bool = False) -> Outcome:
    python = environment(peer.name, peer.requirements)
    with tempfile.TemporaryDirectory(prefix="goblin-bench-") as tmp:
        job, out = Path(tmp) / "job.json", Path(tmp) / "out.json"
        job.write_text(json.dumps({"files": files, "repeat": repeat, "keep_text": keep_text}))
        env = {**peer_env(), **(peer.env or {})}
        started = time.perf_counter()
        subprocess.run([str(python), str(ROOT / "bench" / "peers" / peer.script), str(job), str(out)],
                       check=True, env=env, cwd=ROOT)
        print(f"  {peer.name}: {time.perf_counter() - started:.1f}s wall", file=sys.stderr)
        data = json.loads(out.read_text())
    return Outcome(data["peer"], data["version"], data["rows"])


def normalize(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def recall(outcome: Outcome, expected: dict[str, list[str]], corpus: Path) -> tuple[int, int]:
    found = total = 0
    for row in outcome.rows:
        name = Path(row["file"]).relative_to(corpus).as_posix()
        text = normalize(row["text"])
        for phrase in expected.get(name, []):
            total += 1
            found += normalize(phrase) in text
    return found, total


PDF_PEERS = [
    Peer("goblin", "pdf_goblin.py", GOBLIN_PDF),
    Peer("pypdfium2", "pdf_pypdfium2.py", ["pypdfium2"]),
    Peer("pypdf", "pdf_pypdf.py", ["pypdf"]),
    Peer("pdfminer.six", "pdf_pdfminer.py", ["pdfminer.six"]),
    Peer("pdfplumber", "pdf_pdfplumber.py", ["pdfplumber"]),
    Peer("poppler", "pdf_poppler.py", []),
    Peer("goblintools", "pdf_goblintools.py", GOBLINTOOLS),
]


def bench_pdf(repeat: int) -> str:
    files = workloads.text_pdfs()
    print(f"pdf speed: {len(files)} text PDFs", file=sys.stderr)
    speed = {p.name: run_peer(p, files, repeat=repeat) for p in PDF_PEERS}
    reference = {r["file"]: r["pages"] for r in speed["pypdfium2"].rows}
    pages = sum(reference.values())
    base = pages / speed["pypdfium2"].seconds
    gt = pages / speed["goblintools"].seconds
    lines = [
        f"### PDF text speed ({len(files)} text PDFs, {pages} pages, best of {repeat})",
        "",
        "| peer | version | seconds | pages/s | words | errors | vs pypdfium2 | vs goblintools |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for outcome in speed.values():
        rate = pages / outcome.seconds if outcome.seconds else 0.0
        lines.append(f"| {outcome.peer} | {outcome.version} | {outcome.seconds:.2f} | {rate:.1f} "
                     f"| {outcome.words} | {outcome.errors} | {rate / base:.2f}x | {rate / gt:.1f}x |")
    every = workloads.all_pdfs()
    print(f"pdf recall: {len(every)} PDFs, default options", file=sys.stderr)
    expected, corpus = workloads.expected(), workloads.corpus()
    lines += ["", f"### Phrase recall, default options ({len(every)} PDFs; goblin with OCR auto)",
              "", "| peer | found | phrases | recall |", "| --- | ---: | ---: | ---: |"]
    for peer in PDF_PEERS:
        chosen = Peer(peer.name, peer.script, peer.requirements, {"BENCH_OCR": "auto"})
        found, total = recall(run_peer(chosen, every, keep_text=True), expected, corpus)
        lines.append(f"| {peer.name} | {found} | {total} | {found / max(total, 1):.3f} |")
    return "\n".join(lines)


SUITES: dict[str, Callable[[int], str]] = {"pdf": bench_pdf}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("suites", nargs="*", default=["all"], help=f"{', '.join(SUITES)} or all")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per file; the best counts")
    args = parser.parse_args()
    chosen = list(SUITES) if "all" in args.suites else args.suites
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    sections = [f"## goblin benchmark {stamp}", "", f"command: python bench/run.py {' '.join(sys.argv[1:])}"]
    for name in chosen:
        sections += ["", SUITES[name](args.repeat)]
    report = "\n".join(sections) + "\n"
    (RESULTS / f"{stamp}.md").write_text(report)
    print(report)


if __name__ == "__main__":
    main()
