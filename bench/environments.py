"""One virtual environment per benchmark peer, made with uv, reused between runs."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV_ROOT = ROOT / "bench" / ".envs"


def _uv() -> str:
    found = shutil.which("uv")
    if found is None:
        sys.exit("the benchmark needs uv on PATH: pip install uv")
    return found


def environment(name: str, requirements: list[str]) -> Path:
    """The python of an environment holding exactly ``requirements`` (made once)."""
    folder = ENV_ROOT / name
    python = folder / "bin" / "python"
    stamp = folder / ".requirements"
    wanted = json.dumps(requirements)
    local = [r for r in requirements if r.startswith(".")]
    if local:
        # Rebuild goblin's own environment when its sources change.
        wanted += _tree_digest(local)
    if python.exists() and stamp.is_file() and stamp.read_text() == wanted:
        return python
    if folder.exists():
        shutil.rmtree(folder)
    subprocess.run([_uv(), "venv", "--quiet", "--python", sys.executable, str(folder)], check=True)
    if requirements:
        subprocess.run([_uv(), "pip", "install", "--quiet", "--python", str(python),
                        *requirements], check=True, cwd=ROOT)
    stamp.write_text(wanted)
    return python


def _tree_digest(paths: list[str]) -> str:
    digest = hashlib.sha256()
    for base in paths:
        for file in sorted((ROOT / base).rglob("*.py")):
            if ".envs" in file.parts or ".venv" in file.parts:
                continue
            digest.update(file.read_bytes())
    return digest.hexdigest()


def peer_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "bench")
    env["OMP_THREAD_LIMIT"] = "1"
    return env
