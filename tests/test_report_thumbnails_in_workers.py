"""The trust report's thumbnails are drawn by the workers that read the documents: a batch
draws them on every core, and a renderer that crashes or hangs costs its document's
images only, never the report."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from goblin_core.testing.corpus import skip_or_fail

#: A plugin installed for the test alone: a format whose two pages read at once and whose
#: page images are drawn as the file says (``DRAWTEST draw LOG``: grey images, the drawing
#: process's id appended to LOG; ``DRAWTEST crash``: the process dies as a native crash
#: kills it; ``DRAWTEST hang``: drawing never ends).
PLUGIN = '''
import os
import signal
import time

from goblin_core import FileType, PageContent, hookimpl
from goblin_core.engines import BaseEngine, BaseParsedDocument

MIME = "application/x-goblin-drawtest"


class Sniffer(BaseEngine):
    name = "drawtest.sniffer"
    formats = (MIME,)

    def sniff(self, head, source):
        return FileType(MIME, "drawtest", 0.99) if head.startswith(b"DRAWTEST ") else None


class Drawn(BaseParsedDocument):
    page_count = 2

    def __init__(self, how, log):
        self.how, self.log = how, log

    def pages(self):
        for number in (1, 2):
            yield PageContent(number=number, text=f"page {number} of the drawing test")

    def render(self, page, dpi):
        if self.how == "crash":
            os.kill(os.getpid(), signal.SIGSEGV)
        if self.how == "hang":
            time.sleep(3600)
        with open(self.log, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\\n")
        from PIL import Image

        return Image.new("L", (60, 80), 60 * page)


class Parser(BaseEngine):
    name = "drawtest.parser"
    formats = (MIME,)

    def open(self, source, config):
        how, _, log = source.bytes().decode().split(" ", 1)[1].strip().partition(" ")
        return Drawn(how, log.split(" ")[0])


@hookimpl
def goblin_register_sniffers(register):
    register(Sniffer())


@hookimpl
def goblin_register_parsers(register):
    register(Parser())
'''


@pytest.fixture
def plugin_path(tmp_path: Path) -> Path:
    """A folder holding the plugin as an installed distribution."""
    if importlib.util.find_spec("PIL") is None:
        skip_or_fail("Pillow is not installed: the test plugin draws its pages with it")
    folder = tmp_path / "site"
    info = folder / "goblin_drawtest-0.1.dist-info"
    info.mkdir(parents=True)
    (folder / "goblin_drawtest.py").write_text(PLUGIN, encoding="utf-8")
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: goblin-drawtest\n"
                                   "Version: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[goblin]\ndrawtest = goblin_drawtest\n",
                                           encoding="utf-8")
    return folder


def _report(plugin_path: Path, inputs: Path, *options: str) -> tuple[int, dict[str, dict], int]:
    """``goblin report --format json`` in a process of its own with the plugin alone:
    its status, its documents by name, and its process id."""
    env = {**os.environ, "GOBLIN_LOAD_PLUGINS": "drawtest",
           "GOBLIN_CACHE": str(inputs.parent / "cache"),
           "PYTHONPATH": os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"),
                                                       str(plugin_path)]))}
    with subprocess.Popen(
        [sys.executable, "-m", "goblin_core.cli", "report", str(inputs), "--format", "json",
         "--ocr", "never", *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()  # a safety ceiling: a drawing that hangs must not hang the report
            process.communicate()
            pytest.fail("goblin report did not end within 120 s")
    assert stdout, f"status {process.returncode}, no report; stderr:\n{stderr}"
    report = json.loads(stdout)
    return process.returncode, {d["name"]: d for d in report["documents"]}, process.pid


def _thumbnails(document: dict) -> list[bool]:
    return [page["thumbnail"] is not None for page in document["pages"]]


def test_thumbnails_are_drawn_by_the_workers(plugin_path: Path, tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    log = tmp_path / "drawn-by.txt"
    for name in ("a.draw", "b.draw", "c.draw"):  # three contents: none drawn from the cache
        (inputs / name).write_text(f"DRAWTEST draw {log} {name}\n", encoding="utf-8")
    status, documents, report_process = _report(plugin_path, inputs, "--jobs", "2")
    assert status == 0
    for name in ("a.draw", "b.draw", "c.draw"):
        assert _thumbnails(documents[name]) == [True, True], name
        assert documents[name]["pages"][0]["thumbnail"].startswith("data:image/png;base64,")
    drawers = log.read_text(encoding="utf-8").split()
    assert len(drawers) == 6  # each page once
    assert str(report_process) not in drawers


@pytest.mark.parametrize("how", ["crash", "hang"])
def test_a_renderer_that_crashes_or_hangs_costs_only_its_document_s_images(
    plugin_path: Path, tmp_path: Path, how: str,
) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "a.draw").write_text(f"DRAWTEST {how}\n", encoding="utf-8")
    (inputs / "b.draw").write_text(f"DRAWTEST draw {tmp_path / 'drawn-by.txt'}\n",
                                   encoding="utf-8")
    # a drawing that hangs is stopped as a reading that hangs is: past limits.timeout
    config = tmp_path / "goblin.toml"
    config.write_text("[limits]\ntimeout = 1\n", encoding="utf-8")
    status, documents, _ = _report(plugin_path, inputs, "--jobs", "1", "-c", str(config))
    assert status == 0
    lost = documents["a.draw"]
    assert lost["status"] == "clean" and lost["errors"] == []
    assert [p["text"] for p in lost["pages"]] == ["page 1 of the drawing test",
                                                  "page 2 of the drawing test"]
    assert _thumbnails(lost) == [False, False]
    assert _thumbnails(documents["b.draw"]) == [True, True]
