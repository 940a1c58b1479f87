"""A native archive tool (7z or bsdtar, from BENCH_TOOL) extracting into a fresh folder."""

import itertools
import os
import re
import subprocess

from peer_protocol import job, run_peer

TOOL = os.environ["BENCH_TOOL"]
scratch = job()["scratch"]
counter = itertools.count()


def command(path: str, dest: str) -> list[str]:
    if TOOL == "7z":
        return ["7z", "x", "-y", "-bd", f"-o{dest}", path]
    return ["bsdtar", "-x", "-f", path, "-C", dest]


def extract(path: str) -> tuple[int, str, dict[str, float]]:
    dest = os.path.join(scratch, f"{TOOL}-{next(counter)}")
    os.makedirs(dest)
    subprocess.run(command(path, dest), check=True, capture_output=True)
    sizes = [os.path.getsize(os.path.join(d, f)) for d, _, names in os.walk(dest) for f in names]
    return len(sizes), "", {"bytes": sum(sizes)}


banner = subprocess.run([TOOL, "--version"] if TOOL == "bsdtar" else [TOOL],
                        capture_output=True, text=True, check=False).stdout
found = re.search(r"\d+\.\d+(\.\d+)?", banner)
run_peer(TOOL, found.group(0) if found else "unknown", extract)
