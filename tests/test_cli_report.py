"""``goblin report``: the HTML page's embedded data, whatever the names and texts hold."""

from __future__ import annotations

import json
import logging
import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from goblin_core import extract, load_registry
from goblin_core.cli import CliState, cli
from goblin_core.cli.app import Terminated
from goblin_core.trust_report import report_html


@pytest.fixture(autouse=True)
def _cli_logging() -> Iterator[None]:
    """The CLI's logging setup is undone after each test."""
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    yield
    root.setLevel(level)
    root.handlers[:] = handlers


#: The element the page's script reads its data from, with JSON.parse.
_DATA_ELEMENT = re.compile(
    r'<script type="application/json" id="goblin-data">(.*?)</script>', re.DOTALL)


def _embedded_data(page: str) -> Any:
    """The report data as the page's script reads it: the element's text, parsed as JSON
    (a browser ends the element at the first ``</script``, as the pattern does)."""
    found = _DATA_ELEMENT.search(page)
    assert found is not None, "the page has no data element"
    return json.loads(found.group(1))


def _manifest(folder: Path, *rows: dict[str, Any]) -> Path:
    manifest = folder / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return manifest


@pytest.mark.parametrize("name", [
    "notes <!-- draft -->.html",
    "a</script><script>alert(1)</script>.txt",
    "<!--<script>x.txt",
    "plain.txt",
])
def test_the_html_page_data_parses_whatever_a_name_holds(tmp_path: Path, name: str) -> None:
    """A name (or text) holding ``<!--`` or ``</script>`` neither ends the data element nor
    leaves it unreadable as JSON: the page loads and shows the name as it is."""
    manifest = _manifest(tmp_path, {
        "path": name, "sha256": "", "status": "failed", "pages": 0, "page_statuses": {},
        "documents": 1, "engines": [], "seconds": 0.0, "error": f"CorruptDocument: {name}",
        "output": "",
    })
    page_file = tmp_path / "report.html"
    result = CliRunner().invoke(cli, ["report", str(manifest), "-o", str(page_file)],
                                obj=CliState(load_registry(entry_points=lambda: [])))
    assert result.exit_code == 0, result.output
    data = _embedded_data(page_file.read_text(encoding="utf-8"))
    assert [d["name"] for d in data["documents"]] == [name]
    assert data["documents"][0]["errors"] == [{"kind": "CorruptDocument", "message": name}]


def test_page_text_with_comment_and_script_tags_reaches_the_page_whole() -> None:
    text = "before <!-- a comment --> </script><script>alert(1)</script> after"
    data = {"title": "goblin trust report", "summary": {}, "documents": [
        {"name": "x.html", "pages": [{"number": 1, "text": text}]}]}
    page = report_html(data)
    assert _embedded_data(page)["documents"][0]["pages"][0]["text"] == text
    # nothing of the text is read by the browser as markup
    assert page.count("<script") == 2 and "<!--" not in page


def test_a_title_naming_a_template_slot_is_shown_as_it_is() -> None:
    page = report_html({"title": "audit __DATA__ __JS__", "summary": {}, "documents": []})
    assert "<title>audit __DATA__ __JS__</title>" in page
    assert _embedded_data(page)["title"] == "audit __DATA__ __JS__"


def test_a_report_written_into_the_folder_it_reports_on_is_not_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run twice, the report of ``dossier/`` written as ``dossier/report.html`` reports the
    dossier's one document both times, never the earlier report as a second."""
    monkeypatch.setenv("GOBLIN_LOAD_PLUGINS", "")  # the workers load the built-in plugin alone
    dossier = tmp_path / "dossier"
    dossier.mkdir()
    (dossier / "a.txt").write_text("the one document\n", encoding="utf-8")
    page_file = dossier / "report.html"
    for _ in range(2):
        result = CliRunner().invoke(
            cli, ["report", str(dossier), "-o", str(page_file), "--no-thumbnails", "-j", "1"],
            obj=CliState(load_registry(entry_points=lambda: [])))
        assert result.exit_code == 0, result.output
        data = _embedded_data(page_file.read_text(encoding="utf-8"))
        assert [d["name"] for d in data["documents"]] == ["a.txt"]


@pytest.mark.parametrize(("stop", "status", "said"), [
    (KeyboardInterrupt(), 130, "interrupted"),
    (Terminated(signal.SIGTERM), 143, "stopped by SIGTERM"),
])
def test_a_report_stopped_while_it_reads_exits_as_the_signal_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: BaseException, status: int, said: str
) -> None:
    """Ctrl-C gave click's "Aborted!" and status 1, as if the report had failed."""
    def stopped(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise stop

    monkeypatch.setattr("goblin_core.trust_report.build_report", stopped)
    page_file = tmp_path / "report.html"
    result = CliRunner().invoke(cli, ["report", str(tmp_path), "-o", str(page_file)],
                                obj=CliState(load_registry(entry_points=lambda: [])))
    assert result.exit_code == status
    assert result.stderr == f"goblin: {said}; the report was not written\n"
    assert not page_file.exists()


def test_ctrl_c_in_any_command_exits_130_not_1() -> None:
    def interrupted() -> Any:
        raise KeyboardInterrupt

    result = CliRunner().invoke(cli, ["plugins"], obj=CliState(_loader=interrupted))
    assert (result.exit_code, result.stderr) == (130, "goblin: interrupted\n")


@pytest.mark.parametrize("where", ["outside", "absolute"])
def test_a_manifest_row_naming_a_result_outside_its_folder_reads_no_file_there(
    tmp_path: Path, where: str,
) -> None:
    """A manifest made or edited elsewhere: the report keeps the row's own totals and
    brings no file from outside the manifest's folder into the page."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "private.txt").write_text("private text\n", encoding="utf-8")
    private = elsewhere / "private.json"
    read = extract(elsewhere / "private.txt", registry=load_registry(entry_points=lambda: []))
    private.write_text(json.dumps(read.to_dict()), encoding="utf-8")
    results = tmp_path / "results"
    results.mkdir()
    output = "../elsewhere/private.json" if where == "outside" else str(private)
    manifest = _manifest(results, {"path": "a.pdf", "sha256": "", "status": "clean",
                                   "pages": 1, "page_statuses": {"clean": 1},
                                   "output": output})
    result = CliRunner().invoke(cli, ["report", str(manifest), "--format", "json"],
                                obj=CliState(load_registry(entry_points=lambda: [])))
    assert result.exit_code == 0, result.output
    assert "private" not in result.stdout
    [document] = json.loads(result.stdout)["documents"]
    assert (document["name"], document["page_count"], document["pages"]) == ("a.pdf", 1, [])


def test_the_report_replaces_the_last_one_whole_and_writes_into_a_special_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # written in place, a report cut off mid-write left a partial page over the last good
    # one, and a reader of that one saw it change under them
    monkeypatch.setenv("GOBLIN_LOAD_PLUGINS", "")
    dossier = tmp_path / "dossier"
    dossier.mkdir()
    (dossier / "a.txt").write_text("the one document\n", encoding="utf-8")
    page_file = tmp_path / "report.html"
    page_file.write_text("the last good report", encoding="utf-8")
    registry = load_registry(entry_points=lambda: [])

    def report(target: Path) -> None:
        result = CliRunner().invoke(
            cli, ["report", str(dossier), "-o", str(target), "--no-thumbnails", "-j", "1"],
            obj=CliState(registry))
        assert result.exit_code == 0, result.output

    with page_file.open(encoding="utf-8") as earlier:
        report(page_file)
        assert earlier.read() == "the last good report"
    assert _embedded_data(page_file.read_text(encoding="utf-8"))["documents"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dossier", "report.html"]
    report(Path("/dev/null"))  # never replaced by a file
    assert Path("/dev/null").is_char_device()
