"""One virtual environment per benchmark peer, made with uv, reused between runs."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV_ROOT = ROOT / "bench" / ".envs"


def _uv() -> str:
    found = shutil.which("uv")
    if found is None:
        sys.exit("the benchmark needs uv on PATH: pip install uv")
    return found


def environment(name: str, requirements: list[str]) -> Path:
    """The python of an environment holding exactly ``requirements`` (made once).

    Each set of requirements (for goblin: each state of its sources) gets a
    folder of its own, named by its digest, so a run building a new one never
    pulls an environment from under a peer still running in the old one.
    Folders of the same peer unused for a day are removed.
    """
    wanted = json.dumps(requirements) + " (bytecode compiled)"
    local = [r for r in requirements if r.startswith(".")]
    if local:
        # Rebuild goblin's own environment when its sources change.
        wanted += _tree_digest(local)
    digest = hashlib.sha256(wanted.encode()).hexdigest()[:12]
    folder = ENV_ROOT / f"{name}-{digest}"
    python = folder / "bin" / "python"
    stamp = folder / ".requirements"
    if python.exists() and stamp.is_file() and stamp.read_text() == wanted:
        os.utime(stamp)
        return python
    _remove_stale(name)
    if folder.exists():
        shutil.rmtree(folder)
    subprocess.run([_uv(), "venv", "--quiet", "--python", sys.executable, str(folder)], check=True)
    if requirements:
        # Bytecode compiled at install, as pip does: uv leaves it out by default, and a
        # worker process would otherwise compile every module it imports, on every start.
        subprocess.run([_uv(), "pip", "install", "--quiet", "--compile-bytecode", "--python",
                        str(python), *requirements], check=True, cwd=ROOT)
    stamp.write_text(wanted)
    return python


def _remove_stale(name: str, max_age: float = 86400.0) -> None:
    for folder in ENV_ROOT.glob(f"{name}-*"):
        stamp = folder / ".requirements"
        age = time.time() - (stamp.stat().st_mtime if stamp.is_file() else 0.0)
        if age > max_age:
            shutil.rmtree(folder, ignore_errors=True)


#: Folders of tools and environments, never goblin's sources (and changing under a run).
_NOT_SOURCES = frozenset({".envs", ".venv", ".nox", ".git", ".data", "__pycache__"})


def _tree_digest(paths: list[str]) -> str:
    digest = hashlib.sha256()
    for base in paths:
        for folder, subfolders, files in os.walk(ROOT / base):
            subfolders[:] = sorted(d for d in subfolders if d not in _NOT_SOURCES)
            for name in sorted(f for f in files if f.endswith(".py")):
                try:
                    digest.update((Path(folder) / name).read_bytes())
                except FileNotFoundError:
                    continue  # removed while walking: a test's scratch file
    return digest.hexdigest()


def peer_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "bench")
    env["OMP_THREAD_LIMIT"] = "1"
    return env
