"""Poppler's pdftotext binary, whole document to stdout."""

import subprocess

from peer_protocol import run_peer


def extract(path: str) -> tuple[int, str]:
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", path, "-"], capture_output=True,
                         timeout=120, check=False)
    text = out.stdout.decode("utf-8", "replace")
    return max(text.count("\f"), 1), text


version = subprocess.run(["pdftotext", "-v"], capture_output=True, text=True,
                         check=False).stderr.split("\n")[0]
run_peer("poppler", version, extract)
