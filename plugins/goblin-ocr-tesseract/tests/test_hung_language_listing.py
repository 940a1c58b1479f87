"""A Tesseract command that hangs when asked for its languages is named as hanging, not
reported as one with no language data to install."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from goblin_core import default_registry
from goblin_ocr_tesseract import languages
from goblin_ocr_tesseract.backend import TesseractBackend


def _wrapper(folder: Path, tesseract: str, listing: str) -> Path:
    """A tesseract.command that answers --version through ``tesseract`` and runs
    ``listing`` when asked for its languages."""
    script = folder / "tesseract-wrapper"
    script.write_text(f'#!/bin/sh\ncase "$*" in *--list-langs*) {listing};; esac\n'
                      f'exec {tesseract} "$@"\n', encoding="utf-8")
    script.chmod(0o755)
    return script


def test_a_command_hanging_on_its_language_list_is_named_as_hanging(
        tesseract: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(languages, "LIST_LANGS_TIMEOUT", 1.0)
    command = _wrapper(tmp_path, tesseract, "sleep 20")
    config = default_registry().config(tesseract={"command": str(command)})
    started = time.monotonic()
    ready, reason = TesseractBackend().available_for(config)
    assert time.monotonic() - started < 10
    assert not ready
    assert "--list-langs did not answer within 1 s" in reason
    assert "apt-get install" not in reason


def test_a_command_that_lists_its_languages_is_available(tesseract: str,
                                                        tmp_path: Path) -> None:
    command = _wrapper(tmp_path, tesseract, ":")
    config = default_registry().config(ocr_languages="eng", tesseract={"command": str(command)})
    assert TesseractBackend().available_for(config) == (True, "")


@pytest.mark.parametrize("command", ["false", "true", "echo"])
def test_a_command_that_is_not_tesseract_is_named_as_such(tesseract: str, command: str) -> None:
    """A command that fails, or answers nothing Tesseract would, is no Tesseract: the
    reason names it, not language packages that are installed already."""
    binary = shutil.which(command)
    if binary is None:
        pytest.skip(f"no {command} on PATH")
    config = default_registry().config(ocr_languages="eng", tesseract={"command": binary})
    ready, reason = TesseractBackend().available_for(config)
    assert not ready
    assert f"tesseract.command: {binary} does not answer --version" in reason
    assert "apt-get install" not in reason


def test_a_command_failing_on_its_language_list_gives_its_own_words(
        tesseract: str, tmp_path: Path) -> None:
    command = _wrapper(tmp_path, tesseract, "echo 'cannot open tessdata' >&2; exit 3")
    config = default_registry().config(ocr_languages="eng", tesseract={"command": str(command)})
    ready, reason = TesseractBackend().available_for(config)
    assert not ready
    assert "--list-langs ended with status 3: cannot open tessdata" in reason
    assert "apt-get install" not in reason


def test_a_configured_command_that_does_not_exist_is_named_by_its_option(
        tesseract: str, tmp_path: Path) -> None:
    missing = tmp_path / "bin" / "tesseract"
    config = default_registry().config(tesseract={"command": str(missing)})
    ready, reason = TesseractBackend().available_for(config)
    assert not ready
    assert reason.startswith(f"tesseract.command ({missing}) not found")
