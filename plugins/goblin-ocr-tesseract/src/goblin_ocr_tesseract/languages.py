"""Which Tesseract languages are installed, and the Debian packages of the missing ones."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass

#: Debian package holding Tesseract's binary.
BINARY_PACKAGE = "tesseract-ocr"


def debian_package(code: str) -> str:
    """The Debian package that installs a Tesseract language.

    >>> debian_package("chi_sim")
    'tesseract-ocr-chi-sim'
    """
    return f"tesseract-ocr-{code.lower().replace('_', '-')}"


def split_languages(languages: str) -> tuple[str, ...]:
    """Tesseract-style ``por+eng`` into ``("por", "eng")``, order kept, duplicates dropped."""
    seen: list[str] = []
    for code in languages.replace(",", "+").split("+"):
        code = code.strip()
        if code and code not in seen:
            seen.append(code)
    return tuple(seen)


@dataclass(frozen=True)
class LanguageChoice:
    """The languages a page is read with, and those asked for but not installed."""

    use: tuple[str, ...]
    missing: tuple[str, ...]

    @property
    def lang(self) -> str:
        return "+".join(self.use)

    def install_hint(self) -> str:
        packages = " ".join(debian_package(c) for c in self.missing)
        return f"apt-get install {packages}"


def choose(requested: str, installed: frozenset[str]) -> LanguageChoice:
    """Split the requested languages into installed and missing ones.

    >>> choose("por+eng+kor", frozenset({"eng", "por"}))
    LanguageChoice(use=('por', 'eng'), missing=('kor',))
    """
    codes = split_languages(requested)
    return LanguageChoice(
        use=tuple(c for c in codes if c in installed),
        missing=tuple(c for c in codes if c not in installed),
    )


def find_binary(command: str) -> str | None:
    """The tesseract binary's path, or None."""
    if os.sep in command:
        return command if os.access(command, os.X_OK) else None
    return shutil.which(command)


@functools.lru_cache(maxsize=16)
def tessdata_folder(binary: str, tessdata_dir: str = "") -> str:
    """The folder the binary loads models from (``--list-langs`` names it); "" if unknown."""
    if tessdata_dir:
        return tessdata_dir
    lines = _list_langs(binary, tessdata_dir)
    first = lines[0] if lines else ""
    return first.split('"')[1] if first.count('"') >= 2 else ""


def installed_languages(binary: str, tessdata_dir: str = "") -> frozenset[str]:
    """Languages the binary can load (``tesseract --list-langs``); empty when it cannot run."""
    lines = _list_langs(binary, tessdata_dir)
    # The first line names the tessdata folder; the rest are language codes.
    return frozenset(line.strip() for line in lines[1:] if line.strip() and " " not in line.strip())


@functools.lru_cache(maxsize=16)
def _list_langs(binary: str, tessdata_dir: str) -> tuple[str, ...]:
    args = [binary, "--list-langs"]
    if tessdata_dir:
        args[1:1] = ["--tessdata-dir", tessdata_dir]
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return tuple((done.stdout or done.stderr).splitlines())

