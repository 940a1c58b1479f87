"""goblin as a library: an application that has not set up logging gets no lines on
standard error (each document's report holds its problems), and one that has gets them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# a validator that fails on the page: goblin logs a warning, records the failed attempt
# on the page and reads the page as if the validator were not there
_EXTRACT = """
import sys
sys.path.insert(0, sys.argv[1])
from typing import Any
from goblin_core import Verdict, extract
from goblin_core.engines import BaseEngine
from scripted_engines import TEST_BYTES, ScriptedParser, registry_with, text_page

class Raising(BaseEngine):
    name = "tests.raising_validator"

    def check(self, text: str, context: Any) -> Verdict:
        raise ZeroDivisionError("bad arithmetic")

parser = ScriptedParser("tests.parser", [text_page(1, "perfectly good text here")])
document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser, Raising()))
print([(a.engine, a.error_kind) for a in document.pages[0].attempts if a.error_kind])
"""


def _run(setup: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", setup + _EXTRACT, str(Path(__file__).parent)],
                          capture_output=True, text=True, timeout=120, env=dict(os.environ),
                          check=True)


def test_an_application_without_logging_gets_the_problem_in_the_report_only() -> None:
    done = _run("")
    assert "('tests.raising_validator', 'ZeroDivisionError')" in done.stdout
    assert done.stderr == ""


def test_an_application_that_sets_up_logging_gets_goblin_s_warnings() -> None:
    done = _run("import logging\nlogging.basicConfig()\n")
    assert "WARNING:goblin_core.pipeline:validator tests.raising_validator failed on page 1" \
        in done.stderr
