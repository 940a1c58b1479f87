"""Spanned zips (``x.z01``, ``x.z02``... ``x.zip``) read through the ``7z`` binary.

In a spanned zip every offset counts from the start of its own segment, so
the segments cannot simply be joined for zipfile; 7-Zip reads such sets from
their ``.zip``. It runs on private links to the segments, writing into a
private folder under the same meter as every external tool (limits enforced
while it writes, killed when it writes too much or too long).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

from goblin_archives.passwords import password_for
from goblin_archives.scratch import ByteMeter, Scratch, run_watched
from goblin_archives.tool_names import checked_members, list_names
from goblin_archives.tool_output import tool_failure
from goblin_archives.volumes import VolumeSet, spanned_segment_names
from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits, Member
from goblin_core.errors import EngineUnavailable


def spanned_members(volumes: VolumeSet, display: str, limits: ArchiveLimits,
                    config: Config) -> Iterator[Member]:
    """The members of the spanned set whose last part (the ``.zip``) is ``volumes.parts[-1]``."""
    if shutil.which("7z") is None:
        raise EngineUnavailable("a spanned zip (.z01, .z02... .zip) is read with 7z, which is "
                                "not installed: apt-get install p7zip-full", file=display)
    meter = ByteMeter(limits, max(volumes.size, 1), display)
    timeout = float(config.get("archives", "tool_timeout") or 300.0)
    password = password_for(config)
    with Scratch() as scratch:
        *segments, last = volumes.parts
        for number, segment in enumerate(segments, start=1):
            os.symlink(segment.resolve(), scratch.path / f"set.z{number:02d}")
        os.symlink(last.resolve(), scratch.path / "set.zip")
        out = scratch.path / "out"
        out.mkdir()
        # 7-Zip asks for the password of an encrypted set on its standard input, never
        # seen by other users as its command line is; with none to give, -p with an
        # empty one makes an encrypted set fail at once instead of asking.
        asked = [] if password else ["-p"]
        argv = ["7z", "x", "-y", "-bd", *asked, f"-o{out}", "--", "set.zip"]
        result = run_watched(argv, scratch.path, meter, timeout, password=password or None)
        failure = None
        if result.returncode != 0:
            stderr = result.stderr.decode("utf-8", "replace")
            stderr = stderr.replace(str(scratch.path), "<scratch>")
            # 7-Zip names the parts by the private links it was given: name the files.
            stderr = spanned_segment_names(stderr, last.name, "set")
            failure = tool_failure("7z", display, stderr, password)
        listing = list_names(scratch.path / "set.zip", scratch.path, meter, timeout)
        yield from checked_members(out, listing, display, failure)
