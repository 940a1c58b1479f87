"""Archive extraction: a large zip, tar and 7z, goblin unpack against native tools.

goblin runs twice: flattening every path into one file name (its default, the
GoblinTools layout) and keeping the archive's folders as the native tools do.
The two differ by the file system's cost of creating every file in one folder.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import archive_data
from runner import GOBLIN, GOBLINTOOLS, Outcome, Peer, profile_section, run_peer, table

GOBLIN_PEER = Peer("goblin", "archive_goblin.py", GOBLIN)
#: The same unpack keeping the archive's folders, as the native tools do: the like-for-like run.
GOBLIN_FOLDERS_PEER = GOBLIN_PEER.with_env(BENCH_FLATTEN="0")
NATIVE = {"7z": Peer("native", "archive_native.py", [], {"BENCH_TOOL": "7z"}),
          "bsdtar": Peer("native", "archive_native.py", [], {"BENCH_TOOL": "bsdtar"})}
GOBLINTOOLS_PEER = Peer("goblintools", "archive_goblintools.py", GOBLINTOOLS)
#: goblin's target: at most this many times the fastest native tool, for zip and tar.
TARGET = 1.5
TARGETED = ("zip", "tar")


def run(repeat: int, quick: bool) -> str:
    megabytes = 50 if quick else 200
    archives = archive_data.build(megabytes)
    lines = [f"### Archive extraction ({megabytes} MB of corpus documents per archive, "
             f"best of {repeat}; extraction to local disk)"]
    verdicts: list[str] = []
    missed: list[str] = []
    for kind, path in archives.items():
        print(f"archives {kind}: {path.name}", file=sys.stderr)
        peers = [GOBLIN_PEER, GOBLIN_FOLDERS_PEER, *NATIVE.values(), GOBLINTOOLS_PEER]
        outcomes = [_quiet_run(peer, path, repeat) for peer in peers]
        goblins, natives = outcomes[:2], outcomes[2:4]
        fastest_native = min(o.seconds for o in natives if not o.errors)
        lines += ["", f"{kind}: {path.stat().st_size / 1e6:.0f} MB archive", ""]
        lines += table(["tool", "version", "seconds", "MB/s out", "files", "errors",
                        "time vs fastest native"], [_row(o, fastest_native) for o in outcomes],
                       right_from=2)
        if kind not in TARGETED:
            continue
        for goblin in goblins:
            if goblin.errors:
                continue
            factor = goblin.seconds / fastest_native
            met = "met" if factor <= TARGET else "MISSED"
            verdicts.append(f"- {kind}: {goblin.peer} takes {factor:.2f}x the fastest native "
                            f"tool (target <= {TARGET}x): {met}")
            if factor > TARGET and goblin is goblins[0]:
                missed.append(kind)
    for kind in missed:
        lines_profile = profile_section(GOBLIN_PEER, [str(archives[kind])], f"unpack of the {kind}")
        verdicts += lines_profile
    return "\n".join([*lines, "", *verdicts])


def _quiet_run(peer: Peer, path: Path, repeat: int) -> Outcome:
    """Run ``peer`` once the disk has settled from the peer before it.

    Each peer deletes the hundreds of megabytes it wrote when it ends; on a file
    system mounted with ``discard`` the next file creations wait for that
    cleanup, so without a sync the next peer in line pays for the previous one.
    """
    os.sync()
    return run_peer(peer, [str(path)], repeat=repeat)


def _row(outcome: Outcome, fastest_native: float) -> list[str]:
    written = outcome.extra("bytes") / 1e6
    rate = written / outcome.seconds if outcome.seconds and not outcome.errors else 0.0
    errors = outcome.rows[0]["error"][:60] if outcome.errors else "0"
    return [outcome.peer, outcome.version, f"{outcome.seconds:.2f}", f"{rate:.0f}",
            f"{outcome.pages}", errors, f"{outcome.seconds / fastest_native:.2f}x"]
