"""The samples with every plugin: the README's first command, and regeneration."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from goblin_core import extract

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def _make_samples() -> object:
    spec = importlib.util.spec_from_file_location("make_samples", SAMPLES / "make_samples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_samples_is_deterministic_and_matches_the_committed_samples() -> None:
    make = _make_samples()
    built = make.build()  # type: ignore[attr-defined]
    assert built == make.build(), "two runs of make_samples.py differ"  # type: ignore[attr-defined]
    # files the standard library writes must match byte for byte
    for name in ("hello.txt", "orcamento.csv"):
        assert (SAMPLES / name).read_bytes() == built[name], f"samples/{name} is stale"
    # reportlab and python-docx may lay bytes out differently across versions: compare text
    for name in ("hello.pdf", "hello.docx"):
        committed = extract(SAMPLES / name).text
        assert extract(built[name], name=name).text == committed, f"samples/{name} is stale"


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        ("hello.pdf", "Este PDF tem uma camada de texto."),
        ("hello.docx", "aprovou a proposta da empresa Açaí & Cia."),
        ("orcamento.csv", "açúcar cristal 1 kg"),
    ],
)
def test_each_sample_yields_its_text(name: str, phrase: str) -> None:
    document = extract(SAMPLES / name)
    assert document.status == "clean", document.report
    assert phrase in " ".join(d.text for d in document.walk())


def test_the_zip_sample_unfolds_into_its_two_members() -> None:
    document = extract(SAMPLES / "samples.zip")
    names = [d.name for d in document.walk() if d.pages]
    assert names == ["samples.zip/docs/hello.pdf", "samples.zip/docs/hello.txt"]


def test_the_readme_first_command_works() -> None:
    script = shutil.which("goblin", path=str(Path(sys.executable).parent)) or "goblin"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOBLIN_")}
    result = subprocess.run([script, "extract", "samples/hello.pdf"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith('file_path_pwd:"hello.pdf"\nOlá, goblin!')
