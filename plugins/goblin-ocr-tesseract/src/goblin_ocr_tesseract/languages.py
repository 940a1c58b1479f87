"""Which Tesseract languages are installed, and the Debian packages of the missing ones."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field

#: Debian package holding Tesseract's binary.
BINARY_PACKAGE = "tesseract-ocr"


def debian_package(code: str) -> str:
    """The Debian package that installs a Tesseract language.

    >>> debian_package("chi_sim")
    'tesseract-ocr-chi-sim'
    """
    return f"tesseract-ocr-{code.lower().replace('_', '-')}"


def split_languages(languages: str) -> tuple[str, ...]:
    """Tesseract-style ``por+eng`` into ``("por", "eng")``, order kept, duplicates dropped.

    Commas and spaces separate languages too: no Tesseract language code holds one.

    >>> split_languages("por+eng, deu fra+por")
    ('por', 'eng', 'deu', 'fra')
    """
    seen: list[str] = []
    for code in re.split(r"[+,\s]+", languages):
        if code and code not in seen:
            seen.append(code)
    return tuple(seen)


@dataclass(frozen=True)
class LanguageChoice:
    """The languages a page is read with, and those asked for but not installed."""

    use: tuple[str, ...]
    missing: tuple[str, ...]
    #: the languages that are installed, named in the hint so that a misspelt code shows
    installed: tuple[str, ...] = field(default=(), repr=False)

    @property
    def lang(self) -> str:
        return "+".join(self.use)

    def install_hint(self) -> str:
        """What to install for the missing languages; a code of no Tesseract language's
        form is named as such, since no package would install it.

        >>> choose("por+kor", frozenset({"eng", "por"})).install_hint()
        'apt-get install tesseract-ocr-kor'
        >>> choose("english", frozenset({"eng"})).install_hint()
        "'english' is not a Tesseract language code such as eng or chi_sim"
        """
        codes = [c for c in self.missing if _LANGUAGE_CODE.fullmatch(c) and not _orientation(c)]
        others = [c for c in self.missing if c not in codes and not _orientation(c)]
        hints = [f"apt-get install {' '.join(debian_package(c) for c in codes)}"] if codes else []
        hints += [f"{c!r} is Tesseract's orientation model, not a language: goblin turns "
                  "pages upright with it by itself" for c in self.missing if _orientation(c)]
        if others:
            names = ", ".join(repr(c) for c in others)
            hints.append(f"{names} {'is' if len(others) == 1 else 'are'} not a Tesseract "
                         "language code such as eng or chi_sim")
        return "; ".join(hints)

    def missing_message(self) -> str:
        """Which languages are missing, what to install, and which are installed, so that
        a misspelt code shows.

        >>> message = choose("eng+ita", frozenset({"eng", "osd"})).missing_message()
        >>> message.split(": ", 1)[1]
        'apt-get install tesseract-ocr-ita (installed: eng)'
        """
        installed = ", ".join(self.installed) or "none"
        return (f"Tesseract language data missing for {'+'.join(self.missing)}: "
                f"{self.install_hint()} (installed: {installed})")


#: The form of the codes of Tesseract's languages (``eng``, ``chi_sim``, ``jpn_vert``),
#: whose Debian packages ``debian_package`` names
_LANGUAGE_CODE = re.compile(r"[a-z]{3}(_[a-z]+)*")


def choose(requested: str, installed: frozenset[str]) -> LanguageChoice:
    """Split the requested languages into installed and missing ones.

    A code matches an installed one whatever its case, and with ``-`` for ``_`` as in
    the Debian package names (``ENG``, ``chi-sim``): Tesseract itself finds a model only
    by the exact name of its file.

    >>> choose("por+eng+kor", frozenset({"eng", "por"}))
    LanguageChoice(use=('por', 'eng'), missing=('kor',))
    >>> choose("Por+CHI-SIM", frozenset({"chi_sim", "por"}))
    LanguageChoice(use=('por', 'chi_sim'), missing=())
    """
    use: list[str] = []
    missing: list[str] = []
    for code in split_languages(requested):
        # read "as" osd, a page comes out as Latin and Han nonsense
        found = None if _orientation(code) else _installed_spelling(code, installed)
        if found is None:
            missing.append(code)
        elif found not in use:
            use.append(found)
    return LanguageChoice(use=tuple(use), missing=tuple(missing),
                          installed=tuple(sorted(c for c in installed if c != "osd")))


def _orientation(code: str) -> bool:
    """Whether ``code`` names Tesseract's orientation and script model, which reads no text.

    >>> choose("eng+OSD", frozenset({"eng", "osd"}))
    LanguageChoice(use=('eng',), missing=('OSD',))
    """
    return code.lower() == "osd"


def _installed_spelling(code: str, installed: frozenset[str]) -> str | None:
    """The installed language ``code`` names, exactly or alone but for case and ``-``."""
    if code in installed:
        return code
    wanted = code.lower().replace("-", "_")
    matches = [name for name in installed if name.lower() == wanted]
    return matches[0] if len(matches) == 1 else None


def find_binary(command: str) -> str | None:
    """The tesseract binary's path, or None."""
    if os.sep in command:
        return command if os.access(command, os.X_OK) else None
    return shutil.which(command)


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


def models_named_elsewhere(binary: str, tessdata_dir: str = "") -> str:
    """Where Tesseract looked for its models, when a setting sent it away from where its
    packages put them (``tesseract.tessdata_dir``, or TESSDATA_PREFIX in the environment),
    as " (...)"; "" otherwise. Models missing there may be installed all the same: the
    packages to install are not all the message has to say.

    >>> models_named_elsewhere("tesseract", "/srv/models")
    ' (tesseract.tessdata_dir is /srv/models)'
    """
    if tessdata_dir:
        return f" (tesseract.tessdata_dir is {tessdata_dir})"
    prefix = _models_prefix()
    if not prefix:
        return ""
    folder = tessdata_folder(binary) or prefix
    return (f" (Tesseract looked in {folder}, as TESSDATA_PREFIX={prefix} in the environment "
            "says, not where the packages put their models unless it names that folder)")


#: Seconds ``tesseract --list-langs`` may take: it answers in milliseconds, so one that
#: has not answered by then is hung (a wrapper waiting on something), not slow
LIST_LANGS_TIMEOUT = 10.0


def listing_problem(binary: str, tessdata_dir: str = "") -> str:
    """Why ``tesseract --list-langs`` gave no answer ("" when it did): a binary that
    hangs or cannot start is told apart from one that has no language data."""
    return _list_langs_run(binary, tessdata_dir, _models_prefix())[1]


def _list_langs(binary: str, tessdata_dir: str) -> tuple[str, ...]:
    return _list_langs_run(binary, tessdata_dir, _models_prefix())[0]


def _models_prefix() -> str:
    """TESSDATA_PREFIX as Tesseract will see it: where it looks for models when no
    ``--tessdata-dir`` is given, so a listing is kept for each value it takes."""
    return os.environ.get("TESSDATA_PREFIX", "")


@functools.lru_cache(maxsize=16)
def _list_langs_run(binary: str, tessdata_dir: str,
                    _prefix: str) -> tuple[tuple[str, ...], str]:
    args = [binary, "--list-langs"]
    if tessdata_dir:
        args[1:1] = ["--tessdata-dir", tessdata_dir]
    try:
        done = subprocess.run(args, capture_output=True, text=True,
                              timeout=LIST_LANGS_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        return (), (f"{binary} --list-langs did not answer within {LIST_LANGS_TIMEOUT:g} s: "
                    "the binary (or the wrapper tesseract.command names) hangs")
    except OSError as exc:
        return (), f"{binary} --list-langs could not run: {exc}"
    if done.returncode:
        # a command that fails here is not Tesseract, or is broken: "no language data,
        # install eng and por" would send the user after packages that are installed
        said = " ".join((done.stderr or done.stdout).split())[-300:]
        return (), (f"{binary} --list-langs ended with status {done.returncode}"
                    f"{': ' + said if said else ''}: tesseract.command must name Tesseract")
    return tuple((done.stdout or done.stderr).splitlines()), ""

