"""The goblin command line, run in process with click's CliRunner.

Registries come in through ``CliState`` (the click ``obj``): the built-in
plugin alone, or with engines registered by the test (conftest's scripted
parser of the ``TEST`` format), so these tests do not depend on which plugins
happen to be installed.
"""

from __future__ import annotations

import json
import logging
import os
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from goblin_core import GoblinError, hookimpl, load_registry
from goblin_core.cli import CliState, cli
from goblin_core.registry import Registry

from scripted_engines import (
    TEST_BYTES,
    TEST_MIME,
    FakeOCR,
    MarkerValidator,
    ScriptedDocument,
    ScriptedParser,
    ScriptSniffer,
    plugin_of,
    text_page,
)

HELLO = "Olá, goblin! Licitação nº 12: café e açúcar.\n"


pytestmark = pytest.mark.usefixtures("cli_environment")


def core_only() -> Registry:
    """goblin-core's built-in plugin alone, whatever else is installed here."""
    return load_registry(entry_points=lambda: [])


def registry_with(*engines: Any, plugins: Sequence[tuple[str, object]] = ()) -> Registry:
    """The built-in plugin, a ``tests`` plugin registering ``engines``, and ``plugins``."""
    extra = [("tests", plugin_of(ScriptSniffer(), *engines)), *plugins]
    return load_registry(entry_points=lambda: [], extra_plugins=extra)


def run(args: list[str], registry: Registry | None = None, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(cli, args, obj=CliState(registry or core_only()), input=stdin)


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return path


def three_pages() -> ScriptedParser:
    return ScriptedParser("tests.three", [text_page(n, f"page {n} text here") for n in (1, 2, 3)])


# -- extract: output formats -------------------------------------------------------


def test_extract_prints_one_tagged_block_and_exits_0(tmp_path: Path) -> None:
    source = write(tmp_path, "hello.txt", HELLO)
    result = run(["extract", str(source)])
    assert result.exit_code == 0, result.output
    assert result.stdout == f'file_path_pwd:"hello.txt"\n{HELLO}'
    assert result.stderr == ""


def test_markdown_output_heads_each_document(tmp_path: Path) -> None:
    source = write(tmp_path, "hello.txt", HELLO)
    result = run(["extract", "--format", "markdown", str(source)])
    assert result.exit_code == 0
    assert result.stdout.startswith('<!-- file_path_pwd:"hello.txt" -->')
    assert "Licitação nº 12" in result.stdout


@pytest.mark.parametrize(("name", "tag"), [
    ("x--><img src=x onerror=alert(1)><!--.txt",
     '<!-- file_path_pwd:"x-\\x2d><img src=x onerror=alert(1)><!-\\x2d.txt" -->'),
    ("bell\x07\x1b[31m.txt", '<!-- file_path_pwd:"bell\\x07\\x1b[31m.txt" -->'),
])
def test_markdown_header_holds_any_file_name(tmp_path: Path, name: str, tag: str) -> None:
    """A name cannot close the header's comment early nor send escape codes to a terminal."""
    source = write(tmp_path, name, HELLO)
    result = run(["extract", "--format", "markdown", str(source)])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == tag
    assert result.stdout.count("-->") == 1


def test_html_output_is_one_escaped_page(tmp_path: Path) -> None:
    source = write(tmp_path, "a&b.txt", "x < y & z\n")
    result = run(["extract", "-f", "html", str(source)])
    assert result.exit_code == 0
    assert result.stdout.startswith("<!DOCTYPE html>")
    assert "x &lt; y &amp; z" in result.stdout
    assert 'data-name="a&amp;b.txt"' in result.stdout


def test_json_output_carries_pages_statuses_and_schema_version(tmp_path: Path) -> None:
    source = write(tmp_path, "hello.txt", HELLO)
    result = run(["extract", "--format", "json", str(source)])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["schema_version"] == 1
    assert data["name"] == "hello.txt"
    assert data["status"] == "clean"
    assert data["pages"][0]["engine"] == "text.plain"
    assert data["pages"][0]["status"] == "clean"
    assert data["text"] == HELLO.rstrip("\n") or data["text"] == HELLO


@pytest.mark.slow
def test_jsonl_output_is_one_line_per_document_in_input_order(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    for name in ("b.txt", "a.txt", "sub/c.txt"):
        write(folder, name, f"text of {name}\n")
    result = run(["extract", "--format", "jsonl", "--jobs", "2", str(folder)])
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["name"] for r in rows] == ["a.txt", "b.txt", "sub/c.txt"]
    assert all(r["status"] == "clean" for r in rows)


def test_an_unknown_format_is_a_usage_error_naming_the_installed_ones(tmp_path: Path) -> None:
    source = write(tmp_path, "hello.txt", HELLO)
    result = run(["extract", "--format", "docbook", str(source)])
    assert result.exit_code == 2
    assert "docbook" in result.stderr
    assert "jsonl" in result.stderr and "markdown" in result.stderr
    assert result.stdout == ""


# -- extract: names in tags and error lines ----------------------------------------


@pytest.mark.parametrize(
    ("name", "tag"),
    [
        ('say "hi".txt', r'file_path_pwd:"say \"hi\".txt"'),
        ("back\\slash.txt", r'file_path_pwd:"back\\slash.txt"'),
        ("two\nlines.txt", r'file_path_pwd:"two\nlines.txt"'),
    ],
)
def test_names_are_escaped_in_tags(tmp_path: Path, name: str, tag: str) -> None:
    source = write(tmp_path, name, "body\n")
    result = run(["extract", str(source)])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == tag
    assert result.stdout.splitlines()[1] == "body"


def test_a_failed_name_with_a_newline_still_takes_one_stderr_line(tmp_path: Path) -> None:
    source = write(tmp_path, 'bad\n"name".txt', b"")
    result = run(["extract", str(source)])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert '"bad\\n\\"name\\".txt"' in lines[0]
    assert "empty" in lines[0]


# -- extract: exit codes and batches -----------------------------------------------


@pytest.mark.slow
def test_a_batch_with_one_bad_file_goes_on_and_exits_1(tmp_path: Path) -> None:
    good1 = write(tmp_path, "1-good.txt", "first good\n")
    bad = write(tmp_path, "2-empty.txt", b"")
    good2 = write(tmp_path, "3-good.txt", "second good\n")
    result = run(["extract", str(good1), str(bad), str(good2)])
    assert result.exit_code == 1
    assert "first good" in result.stdout and "second good" in result.stdout
    errors = result.stderr.splitlines()
    assert len(errors) == 1
    assert '"2-empty.txt"' in errors[0] and "CorruptDocument" in errors[0]


def test_a_document_a_parser_cut_at_a_limit_exits_1_with_one_line(tmp_path: Path) -> None:
    """A parser that left rows out at a limit of its own (``office.max_sheet_cells``) read
    the document only in part: exit status 1, one error line for all its cuts, the text
    read still written, and the report marked truncated."""
    source = write(tmp_path, "sheet.test", TEST_BYTES)

    class _Cutting(ScriptedParser):
        def open(self, source: Any, config: Any) -> Any:
            document = super().open(source, config)
            document.warnings = [("Truncated", "sheet 'A' cut at tests.max_cells (10 cells)"),
                                 ("Truncated", "sheet 'B' cut at tests.max_cells (10 cells)")]
            return document

    registry = registry_with(_Cutting("tests.cutting", [text_page(1, "rows read before the cut")]))
    result = run(["extract", str(source)], registry)
    assert result.exit_code == 1
    assert "rows read before the cut" in result.stdout
    errors = result.stderr.splitlines()
    assert len(errors) == 1, errors
    assert '"sheet.test"' in errors[0] and "Truncated: sheet 'A' cut" in errors[0]
    assert "(and 1 more cuts)" in errors[0]
    from goblin_core import extract
    assert extract(source, registry=registry).report.truncated


def test_a_missing_path_is_a_failed_document_not_a_crash(tmp_path: Path) -> None:
    good = write(tmp_path, "good.txt", "still read\n")
    result = run(["extract", str(good), str(tmp_path / "missing.pdf")])
    assert result.exit_code == 1
    assert "still read" in result.stdout
    assert "missing.pdf" in result.stderr and "no such file" in result.stderr


def test_a_format_no_plugin_reads_fails_naming_the_extra(tmp_path: Path) -> None:
    pdf = write(tmp_path, "report.pdf", b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n")
    result = run(["extract", str(pdf)])
    assert result.exit_code == 1
    assert 'pip install "goblin-core[pdf]"' in result.stderr
    assert "report.pdf" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["extract"],
        ["extract", "--ocr", "sometimes", "x.txt"],
        ["extract", "--jobs", "0", "x.txt"],
        ["extract", "-", "x.txt"],
        ["no-such-command"],
    ],
)
def test_usage_errors_exit_2(tmp_path: Path, args: list[str]) -> None:
    write(tmp_path, "x.txt", "x")
    result = CliRunner().invoke(cli, args, obj=CliState(core_only()), input=b"")
    assert result.exit_code == 2, result.output


def test_an_invalid_config_file_is_a_usage_error_naming_the_key(tmp_path: Path) -> None:
    source = write(tmp_path, "hello.txt", HELLO)
    config = write(tmp_path, "goblin.toml", '[goblin]\nocr = "auto"\nocr_speed = 3\n')
    result = run(["extract", "--config", str(config), str(source)])
    assert result.exit_code == 2
    assert "goblin.ocr_speed" in result.stderr


def test_an_empty_folder_extracts_nothing_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = run(["extract", str(tmp_path / "empty")])
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "nothing to extract" in result.stderr


# -- extract: stdin, options -------------------------------------------------------


def test_stdin_is_read_when_the_path_is_a_dash() -> None:
    result = run(["extract", "-", "--name", "nota.txt"], stdin=HELLO.encode("utf-8"))
    assert result.exit_code == 0, result.output
    assert result.stdout == f'file_path_pwd:"nota.txt"\n{HELLO}'


def test_stdin_over_the_size_limit_is_not_read_whole() -> None:
    result = run(["extract", "-", "-O", "limits.max_file_size=1KB"], stdin=b"x" * 50_000)
    assert result.exit_code == 1
    assert '"stdin"' in result.output
    assert "more than limits.max_file_size (1,024 bytes); reading stopped there" in result.output
    assert '"stdin": FileTooLarge: the stream holds more' in result.stderr


def test_stdin_content_decides_the_format_not_the_name() -> None:
    registry = registry_with(three_pages())
    result = run(["extract", "-", "--name", "unnamed.bin", "-f", "json"], registry, TEST_BYTES)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["mime"] == TEST_MIME
    assert [p["number"] for p in data["pages"]] == [1, 2, 3]


def test_max_pages_limits_the_pages_read(tmp_path: Path) -> None:
    source = write(tmp_path, "doc.test", TEST_BYTES)
    result = run(["extract", "--max-pages", "2", "-f", "json", str(source)],
                 registry_with(three_pages()))
    assert result.exit_code == 0
    assert [p["text"] for p in json.loads(result.stdout)["pages"]] == [
        "page 1 text here", "page 2 text here"]


def test_asking_for_more_pages_never_lifts_the_hard_page_limit(tmp_path: Path) -> None:
    """``limits.max_pages`` guards against untrusted input: ``--max-pages`` above it reads
    only as far as it, and the stop is a loss (exit 1) naming the limit; below it, the
    pages asked for are read and the rest are no loss."""
    source = write(tmp_path, "doc.test", TEST_BYTES)
    registry = registry_with(three_pages())
    lifted = run(["extract", "-O", "limits.max_pages=1", "--max-pages", "2", "-f", "json",
                  str(source)], registry)
    assert len(json.loads(lifted.stdout)["pages"]) == 1
    assert lifted.exit_code == 1
    assert "MaxPages: stopped after 1 pages (limits.max_pages)" in lifted.stderr
    asked = run(["extract", "-O", "limits.max_pages=2", "--max-pages", "1", "-f", "json",
                 str(source)], registry)
    assert len(json.loads(asked.stdout)["pages"]) == 1
    assert asked.exit_code == 0, asked.stderr


def test_a_library_logging_at_its_own_level_stays_quiet_without_verbose(tmp_path: Path) -> None:
    """Dask sets its loggers to INFO: without ``-v`` only goblin's own one-line messages
    reach stderr; ``-v`` shows such records."""
    source = write(tmp_path, "doc.test", TEST_BYTES)
    chatty = logging.getLogger("tests.chatty_library")
    chatty.setLevel(logging.INFO)

    class _Chatty(ScriptedParser):
        def open(self, source: Any, config: Any) -> Any:
            chatty.info("worker pool started")
            return super().open(source, config)

    registry = registry_with(_Chatty("tests.chatty", [text_page(1, "read")]))
    try:
        quiet = run(["extract", str(source)], registry)
        assert quiet.exit_code == 0 and quiet.stderr == ""
        verbose = run(["-v", "extract", str(source)], registry)
        assert "worker pool started" in verbose.stderr
    finally:
        chatty.setLevel(logging.NOTSET)


@pytest.mark.parametrize("value", ["abc", "0-5", "9-3"])
def test_a_page_range_that_is_no_range_is_a_usage_error(tmp_path: Path, value: str) -> None:
    """A bad value is refused when it is given (exit 2), not once per document."""
    source = write(tmp_path, "doc.test", TEST_BYTES)
    parser = three_pages()
    result = run(["extract", "-O", f"goblin.page_range={value}", str(source)],
                 registry_with(parser))
    assert result.exit_code == 2
    assert "goblin.page_range" in result.stderr
    assert parser.opened == 0
    from goblin_core import ConfigError, extract
    with pytest.raises(ConfigError, match="page_range"):
        extract(source, registry=registry_with(three_pages()), goblin={"page_range": value})


def test_command_line_options_win_over_the_config_file(tmp_path: Path) -> None:
    source = write(tmp_path, "doc.test", TEST_BYTES)
    config = write(tmp_path, "goblin.toml", "[goblin]\nmax_pages = 1\n")
    registry = registry_with(three_pages())
    from_file = run(["extract", "-c", str(config), "-f", "json", str(source)], registry)
    assert len(json.loads(from_file.stdout)["pages"]) == 1
    overridden = run(["extract", "-c", str(config), "--max-pages", "0", "-f", "json",
                      str(source)], registry)
    assert len(json.loads(overridden.stdout)["pages"]) == 3


@pytest.mark.slow
def test_the_isolated_single_file_runs_in_a_worker_and_gives_the_same_text(tmp_path: Path) -> None:
    source = write(tmp_path, "hello.txt", HELLO)
    result = run(["extract", "--isolate", str(source)])
    assert result.exit_code == 0, result.output
    assert result.stdout == f'file_path_pwd:"hello.txt"\n{HELLO}'


# -- extract --output ----------------------------------------------------------------


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


@pytest.mark.slow
def test_output_dir_gets_one_file_per_document_and_nothing_outside(tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    write(inputs, "a.txt", "alpha\n")
    write(inputs, "deep/b.txt", "beta\n")
    write(inputs, "deep/empty.txt", b"")
    before = _files(tmp_path)
    out = tmp_path / "out"
    result = run(["extract", str(inputs), "-o", str(out), "--jobs", "2"])
    assert result.exit_code == 1  # the empty file
    assert result.stdout == ""
    created = _files(tmp_path) - before
    assert all(name.startswith("out/") for name in created)
    assert {"out/a.txt.txt", "out/deep/b.txt.txt", "out/manifest.jsonl"} <= created
    assert (out / "a.txt.txt").read_text(encoding="utf-8") == 'file_path_pwd:"a.txt"\nalpha\n'
    rows = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert {r["path"]: r["status"] for r in rows} == {
        "a.txt": "clean", "deep/b.txt": "clean", "deep/empty.txt": "failed"}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_file_and_a_folder_whose_results_would_share_a_name_both_get_one(
        tmp_path: Path, jobs: str) -> None:
    """``foo`` gives ``foo.txt``, where the results of the folder ``foo.txt/`` go too."""
    inputs = tmp_path / "in"
    write(inputs, "foo", "the file\n")
    write(inputs, "foo.txt/bar", "in the folder\n")
    out = tmp_path / "out"
    result = run(["extract", str(inputs), "-o", str(out), "--jobs", jobs])
    assert result.exit_code == 0, result.stderr
    rows = {r["path"]: r["output"] for r in map(json.loads, (out / "manifest.jsonl").read_text()
                                                 .splitlines())}
    assert set(rows) == {"foo", "foo.txt/bar"}
    assert "the file" in (out / rows["foo"]).read_text(encoding="utf-8")
    assert "in the folder" in (out / rows["foo.txt/bar"]).read_text(encoding="utf-8")
    assert _files(out) == {rows["foo"], rows["foo.txt/bar"], "manifest.jsonl"}


def test_output_names_cannot_climb_out_of_the_folder(tmp_path: Path) -> None:
    out = tmp_path / "box" / "out"
    result = run(["extract", "-", "--name", "../../escape.txt", "-o", str(out), "-f", "json"],
                 stdin=b"contained\n")
    assert result.exit_code == 0, result.output
    assert _files(tmp_path) == {"box/out/escape.txt.json", "box/out/manifest.jsonl"}
    assert json.loads((out / "escape.txt.json").read_text())["text"].startswith("contained")


def test_two_inputs_whose_result_names_meet_each_keep_their_result(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``../x.txt`` and ``x.txt`` both come out as ``x.txt.txt`` once ``..`` is dropped, and
    so do a file named ``a\\b.txt`` and ``a/b.txt`` of one folder: the later one of the run
    is numbered, where a result of an earlier run is replaced."""
    work = tmp_path / "work"
    write(tmp_path, "x.txt", "parent text\n")
    write(work, "x.txt", "child text\n")
    write(work, "in/a\\b.txt", "backslash text\n")
    write(work, "in/a/b.txt", "folder text\n")
    monkeypatch.chdir(work)
    for _ in range(2):  # the second run replaces the first run's results
        result = run(["extract", "../x.txt", "x.txt", "in", "-o", "out"])
        assert result.exit_code == 0, result.output
        texts = sorted(path.read_text() for path in (work / "out").rglob("*.txt"))
        assert len(texts) == 4
        assert all(any(word in text for text in texts)
                   for word in ("parent", "child", "backslash", "folder"))
        rows = [json.loads(line) for line in (work / "out/manifest.jsonl").read_text().splitlines()]
        assert len({row["output"] for row in rows}) == 4


def test_a_document_named_like_the_manifest_leaves_the_manifest_whole(tmp_path: Path) -> None:
    write(tmp_path, "in/manifest", "a document named manifest\n")
    write(tmp_path, "in/other.txt", "another document\n")
    result = run(["extract", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "-f", "jsonl"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line)
            for line in (tmp_path / "out/manifest.jsonl").read_text().splitlines()]
    assert sorted(row["path"] for row in rows) == ["manifest", "other.txt"]
    named = next(row["output"] for row in rows if row["path"] == "manifest")
    assert named != "manifest.jsonl"
    assert "a document named manifest" in (tmp_path / "out" / named).read_text()


def test_a_manifest_that_is_a_symbolic_link_is_refused_and_nothing_goes_through_it(
        tmp_path: Path) -> None:
    source = write(tmp_path, "a.txt", "alpha\n")
    victim = write(tmp_path, "victim.txt", "untouched\n")
    (tmp_path / "out").mkdir()
    link = tmp_path / "out" / "manifest.jsonl"
    link.symlink_to(victim)
    result = run(["extract", str(source), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "a symbolic link, not a manifest" in _one_error_line(result, link)
    assert victim.read_text() == "untouched\n"
    from goblin_core.batch import BatchWriter
    with pytest.raises(GoblinError, match="symbolic link"):
        BatchWriter(core_only(), core_only().config(), tmp_path / "out", "text")
    assert victim.read_text() == "untouched\n"


# -- plugins ---------------------------------------------------------------------------


class _BrokenPlugin:
    @hookimpl
    def goblin_register_parsers(self, register: object) -> None:
        raise RuntimeError("cannot find its model files")


def test_plugins_json_lists_plugins_with_their_engines() -> None:
    unavailable = ScriptedParser("tests.needs_binary", unavailable="frobnicate not found")
    registry = registry_with(three_pages(), unavailable, plugins=[("broken", _BrokenPlugin())])
    result = run(["plugins", "--json"], registry)
    assert result.exit_code == 0
    data = {p["name"]: p for p in json.loads(result.stdout)}
    assert set(data) == {"tests", "broken", "goblin-core"}
    core = data["goblin-core"]
    assert core["status"] == "loaded" and core["distribution"] == "goblin-core"
    assert "goblin_register_parsers" in core["hooks"]
    engines = {e["name"]: e for e in core["engines"]}
    assert engines["text.plain"] == {
        "name": "text.plain", "kind": "parser", "priority": engines["text.plain"]["priority"],
        "formats": ["text/plain"], "available": True, "reason": "", "enabled": True,
    }
    assert engines["render.jsonl"]["format"] == "jsonl"
    tests = {e["name"]: e for e in data["tests"]["engines"]}
    assert tests["tests.needs_binary"]["available"] is False
    assert tests["tests.needs_binary"]["reason"] == "frobnicate not found"
    assert tests["tests.three"]["formats"] == [TEST_MIME]
    assert data["broken"]["status"] == "broken"
    assert "cannot find its model files" in data["broken"]["error"]
    assert data["broken"]["engines"] == []


def test_plugins_table_shows_status_and_errors() -> None:
    needs = ScriptedParser("tests.needs", unavailable='pip install "goblin-core[pdf]" first')
    registry = registry_with(three_pages(), needs, plugins=[("broken", _BrokenPlugin())])
    result = run(["plugins"], registry)
    assert result.exit_code == 0
    assert 'goblin-core[pdf]" first' in " ".join(result.stdout.split())
    assert "broken" in result.stdout and "cannot find its model files" in result.stdout
    assert "tests.three" in result.stdout and "text.plain" in result.stdout


def test_plugins_show_config_overrides(tmp_path: Path) -> None:
    config = write(tmp_path, "goblin.toml",
                   '[engines."tests.three"]\npriority = 77\nenabled = false\n')
    result = run(["plugins", "--json", "-c", str(config)], registry_with(three_pages()))
    engine = next(e for p in json.loads(result.stdout) for e in p["engines"]
                  if e["name"] == "tests.three")
    assert engine["priority"] == 77
    assert engine["enabled"] is False


# -- formats ---------------------------------------------------------------------------


def test_formats_markdown_lists_engines_availability_and_extras() -> None:
    result = run(["formats", "--markdown"], registry_with(three_pages()))
    assert result.exit_code == 0
    rows = {line.split("|")[1].strip(): line for line in result.stdout.splitlines()[2:]}
    assert "text.plain" in rows["`text/plain`"] and "(core)" in rows["`text/plain`"]
    assert "| yes |" in rows["`text/plain`"]
    assert 'pip install "goblin-core[pdf]"' in rows["`application/pdf`"]
    assert ".pdf" in rows["`application/pdf`"]
    assert "tests.three" in rows[f"`{TEST_MIME}`"]


def test_formats_shows_why_an_installed_engine_cannot_run() -> None:
    parser = ScriptedParser("tests.needs_binary", unavailable="frobnicate not found")
    result = run(["formats", "--markdown"], registry_with(parser))
    row = next(line for line in result.stdout.splitlines() if TEST_MIME in line)
    assert "tests.needs_binary (unavailable)" in row
    assert "frobnicate not found" in row


def test_formats_engine_order_follows_priority_and_config(tmp_path: Path) -> None:
    low = ScriptedParser("tests.low", priority=1)
    high = ScriptedParser("tests.high", priority=9)
    registry = registry_with(low, high)
    row = next(line for line in run(["formats", "--markdown"], registry).stdout.splitlines()
               if TEST_MIME in line)
    assert row.index("tests.high") < row.index("tests.low")
    config = write(tmp_path, "goblin.toml", '[engines."tests.low"]\npriority = 50\n')
    row = next(line for line in run(["formats", "--markdown", "-c", str(config)], registry)
               .stdout.splitlines() if TEST_MIME in line)
    assert row.index("tests.low") < row.index("tests.high")


def test_formats_terminal_table_names_missing_extras() -> None:
    result = run(["formats"])
    assert result.exit_code == 0
    assert "text/plain" in result.stdout
    assert 'pip install "goblin-core[' in result.stdout


# -- config ----------------------------------------------------------------------------


def test_config_lists_every_core_option_with_help() -> None:
    result = run(["config"])
    assert result.exit_code == 0
    for text in ("[goblin]", "[limits]", "ocr", "max_output_chars", "extract_and_ocr",
                 "choice", "300.0", "[engines]"):
        assert text in result.stdout


def test_config_json_reports_type_default_value_and_help(tmp_path: Path) -> None:
    config = write(tmp_path, "goblin.toml", '[goblin]\nocr = "never"\n[limits]\ntimeout = 30\n')
    result = run(["config", "--json", "--config", str(config)])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    ocr = data["namespaces"]["goblin"]["options"]["ocr"]
    assert ocr["type"] == "choice" and ocr["default"] == "auto" and ocr["value"] == "never"
    assert ocr["choices"] == ["auto", "never", "always", "extract_and_ocr"]
    assert ocr["help"]
    assert data["namespaces"]["limits"]["options"]["timeout"]["value"] == 30.0
    assert list(data["namespaces"])[:2] == ["goblin", "limits"]


def test_config_warns_about_a_namespace_of_a_missing_plugin(tmp_path: Path) -> None:
    config = write(tmp_path, "goblin.toml", '[pdf]\npassword = "x"\n')
    result = run(["config", "--json", "-c", str(config)])
    assert result.exit_code == 0
    assert 'pip install "goblin-core[pdf]"' in result.stderr
    assert json.loads(result.stdout)["warnings"]


def test_config_toml_is_a_valid_config_file_that_reproduces_the_values(tmp_path: Path) -> None:
    config = write(tmp_path, "goblin.toml", '[goblin]\nocr = "always"\ntables = true\n'
                   '[engines."text.plain"]\npriority = 3\n')
    registry = core_only()
    result = run(["config", "--toml", "-c", str(config)], registry)
    assert result.exit_code == 0
    template = write(tmp_path, "template.toml", result.stdout)
    assert tomllib.loads(result.stdout)["goblin"]["ocr"] == "always"
    assert registry.config(template) == registry.config(config)


# -- doctor ----------------------------------------------------------------------------


def test_doctor_exits_0_when_everything_installed_works() -> None:
    result = run(["doctor", "--json"])
    assert result.exit_code == 0, result.stdout
    data = json.loads(result.stdout)
    assert data["problems"] == []
    assert set(data["binaries"]) >= {"tesseract", "pdftotext", "7z"}
    assert "text.plain" in next(
        [e["name"] for e in p["engines"]] for p in data["plugins"] if p["name"] == "goblin-core")


def test_doctor_exits_1_when_an_installed_plugin_cannot_run() -> None:
    parser = ScriptedParser("tests.needs_binary", unavailable="frobnicate not found")
    result = run(["doctor"], registry_with(parser))
    assert result.exit_code == 1
    assert "frobnicate not found" in result.stdout
    assert "problem" in result.stdout


def test_doctor_exits_1_on_a_broken_plugin_or_a_bad_config(tmp_path: Path) -> None:
    broken = run(["doctor", "--json"], registry_with(plugins=[("broken", _BrokenPlugin())]))
    assert broken.exit_code == 1
    assert any("broken" in p for p in json.loads(broken.stdout)["problems"])
    config = write(tmp_path, "goblin.toml", "[limits]\ntimeout = -5\n")
    bad = run(["doctor", "--json", "-c", str(config)])
    assert bad.exit_code == 1
    assert any("limits.timeout" in p for p in json.loads(bad.stdout)["problems"])


# -- help, unpack ---------------------------------------------------------------------


@pytest.mark.parametrize("command", ["extract", "plugins", "formats", "doctor", "config", "unpack"])
def test_every_command_has_help_with_its_options(command: str) -> None:
    result = run([command, "--help"])
    assert result.exit_code == 0
    assert "Usage: goblin " + command in result.stdout


def test_extract_help_teaches_the_formats_and_exit_codes() -> None:
    text = run(["extract", "--help"]).stdout
    for word in ("jsonl", "extract_and_ocr", "--output", "--jobs", "Exit status"):
        assert word in text


def test_unpack_needs_an_archive_and_a_destination() -> None:
    result = run(["unpack", "only-one-argument"])
    assert result.exit_code == 2
    assert "DEST" in result.stderr


# -- unpack ------------------------------------------------------------------------------


class _ZipHandler:
    """A small zip archive handler on the standard library, registered by the test."""

    name = "tests.zip"
    formats = ("application/zip",)
    priority = 0

    def available(self) -> tuple[bool, str]:
        return True, ""

    def members(self, source: Any, limits: Any, config: Any) -> Any:
        import io
        import zipfile

        from goblin_core.engines import Member

        with zipfile.ZipFile(source.open()) as archive:
            for info in archive.infolist():
                data = archive.read(info)
                yield Member(info.filename, lambda data=data: io.BytesIO(data),
                             size=info.file_size, compressed_size=info.compress_size)


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    import zipfile

    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def test_unpack_writes_members_and_refuses_traversal(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "edital.zip", {"docs/ata.txt": b"ata", "../../evil.txt": b"x"})
    registry = load_registry(entry_points=lambda: [],
                             extra_plugins=[("tests", plugin_of(_ZipHandler()))])
    result = run(["unpack", str(archive), str(tmp_path / "out")], registry)
    assert (tmp_path / "out" / "docs_ata.txt").read_bytes() == b"ata"
    assert not (tmp_path / "evil.txt").exists()
    assert _files(tmp_path) == {"edital.zip", "out/docs_ata.txt"}
    assert result.exit_code == 1
    refused = [line for line in result.stderr.splitlines() if "evil.txt" in line]
    assert len(refused) == 1 and "refused" in refused[0] and "error" in refused[0]
    assert "1 file(s)" in result.stderr


def test_unpack_without_an_archive_handler_names_the_extra(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "edital.zip", {"a.txt": b"a"})
    good = _zip(tmp_path / "other.zip", {"b.txt": b"b"})
    result = run(["unpack", str(archive), str(good), str(tmp_path / "out")])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 2
    assert all('pip install "goblin-core[archives]"' in line for line in lines)


class _LockedZipHandler(_ZipHandler):
    """A zip handler that reads only with the password ``s3cret`` in the config."""

    def members(self, source: Any, limits: Any, config: Any) -> Any:
        if config.get("goblin", "password") != "s3cret":
            from goblin_core import PasswordRequired

            raise PasswordRequired("the archive is encrypted; set goblin.password",
                                   file=source.display_name)
        return super().members(source, limits, config)


def _with_handler(handler: Any) -> Registry:
    return load_registry(entry_points=lambda: [], extra_plugins=[("tests", plugin_of(handler))])


@pytest.mark.parametrize(("args", "env"), [
    (["--password", "s3cret"], {}),
    (["-O", "goblin.password=s3cret"], {}),
    ([], {"GOBLIN_PASSWORD": "s3cret"}),
])
def test_unpack_takes_the_password_like_extract(
    tmp_path: Path, args: list[str], env: dict[str, str],
) -> None:
    archive = _zip(tmp_path / "locked.zip", {"ata.txt": b"ata"})
    result = CliRunner().invoke(cli, ["unpack", str(archive), str(tmp_path / "out"), *args],
                                obj=CliState(_with_handler(_LockedZipHandler())), env=env)
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "out" / "ata.txt").read_bytes() == b"ata"


def test_unpack_without_the_password_says_how_to_give_it(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "locked.zip", {"ata.txt": b"ata"})
    result = run(["unpack", str(archive), str(tmp_path / "out")],
                 _with_handler(_LockedZipHandler()))
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith(f'goblin: error: "{archive}": the archive is encrypted')
    assert "--password" in line and "$GOBLIN_PASSWORD" in line


@pytest.mark.parametrize("dest", ["taken.txt", "taken.txt/sub"])
def test_unpack_into_a_file_is_a_usage_error_naming_dest(tmp_path: Path, dest: str) -> None:
    archive = _zip(tmp_path / "edital.zip", {"ata.txt": b"ata"})
    write(tmp_path, "taken.txt", "kept as it is\n")
    result = run(["unpack", str(archive), str(tmp_path / dest)], _with_handler(_ZipHandler()))
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith(f'goblin: error: "{tmp_path / dest}": DEST must be a folder')
    assert _files(tmp_path) == {"edital.zip", "taken.txt"}


def test_unpack_of_a_file_that_is_no_archive_names_its_type_and_makes_no_folder(
    tmp_path: Path,
) -> None:
    text = write(tmp_path, "ata.txt", "Ata da sessão pública\n")
    result = run(["unpack", str(text), str(tmp_path / "out")], _with_handler(_ZipHandler()))
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith(f'goblin: error: "{text}": not an archive: it is text/plain')
    assert "pip install" not in line
    assert not (tmp_path / "out").exists()


def test_unpack_of_an_archive_nothing_of_which_unpacks_leaves_no_folder_it_made(
    tmp_path: Path,
) -> None:
    archive = _zip(tmp_path / "locked.zip", {"ata.txt": b"ata"})
    result = run(["unpack", str(archive), str(tmp_path / "out" / "deeper")],
                 _with_handler(_LockedZipHandler()))
    assert result.exit_code == 1
    assert not (tmp_path / "out").exists()
    (tmp_path / "mine").mkdir()
    result = run(["unpack", str(archive), str(tmp_path / "mine" / "new")],
                 _with_handler(_LockedZipHandler()))
    assert result.exit_code == 1
    assert (tmp_path / "mine").is_dir() and not (tmp_path / "mine" / "new").exists()


@pytest.mark.slow
def test_an_output_folder_inside_the_inputs_is_never_read_back(tmp_path: Path) -> None:
    write(tmp_path, "a.txt", "alpha\n")
    write(tmp_path, "b.txt", "beta\n")
    for _ in range(2):
        result = run(["extract", str(tmp_path), "-o", str(tmp_path / "results")])
        assert result.exit_code == 0, result.stderr
    rows = (tmp_path / "results" / "manifest.jsonl").read_text().splitlines()
    assert sorted(json.loads(r)["path"] for r in rows) == ["a.txt", "b.txt"]
    assert _files(tmp_path / "results") == {"a.txt.txt", "b.txt.txt", "manifest.jsonl"}


# -- extract -O and --resume ---------------------------------------------------------------


def test_any_option_can_be_set_on_the_command_line(tmp_path: Path) -> None:
    source = write(tmp_path, "doc.test", TEST_BYTES)
    registry = registry_with(three_pages())
    result = run(["extract", "-O", "goblin.max_pages=2", "-f", "json", str(source)], registry)
    assert result.exit_code == 0, result.stderr
    assert len(json.loads(result.stdout)["pages"]) == 2
    for name in ("tests.three", '"tests.three"'):  # quoted as in [engines."NAME"], or not
        disabled = run(["extract", "-O", f"engines.{name}.enabled=false", str(source)], registry)
        assert disabled.exit_code == 1, name
        assert "doc.test" in disabled.stderr


@pytest.mark.parametrize(
    ("setting", "named"),
    [("limits.timeout=soon", "limits.timeout"), ("goblin.speed=3", "goblin.speed"),
     ("timeout", "NS.KEY=VALUE")],
)
def test_a_bad_option_setting_is_a_usage_error(tmp_path: Path, setting: str, named: str) -> None:
    source = write(tmp_path, "hello.txt", HELLO)
    result = run(["extract", "-O", setting, str(source)])
    assert result.exit_code == 2
    assert named in result.stderr


@pytest.mark.slow
def test_resume_skips_unchanged_documents_and_redoes_changed_ones(tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    write(inputs, "a.txt", "alpha\n")
    write(inputs, "b.txt", "beta\n")
    out = tmp_path / "out"
    assert run(["extract", str(inputs), "-o", str(out)]).exit_code == 0
    write(inputs, "b.txt", "beta, revised\n")
    again = run(["extract", str(inputs), "-o", str(out), "--resume"])
    assert again.exit_code == 0, again.stderr
    assert "1 unchanged skipped" in again.stderr
    assert (out / "b.txt.txt").read_text(encoding="utf-8").endswith("beta, revised\n")
    rows = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert sorted(r["path"] for r in rows) == ["a.txt", "b.txt"]
    done = run(["extract", str(inputs), "-o", str(out), "--resume"])
    assert done.exit_code == 0
    assert "all 2 document(s) are unchanged" in done.stderr


def test_resume_needs_an_output_folder(tmp_path: Path) -> None:
    result = run(["extract", "--resume", str(write(tmp_path, "a.txt", "a"))])
    assert result.exit_code == 2
    assert "--output" in result.stderr


@pytest.mark.slow
def test_a_watched_batch_ends_with_a_summary_line(tmp_path: Path) -> None:
    write(tmp_path, "a.txt", "alpha\n")
    write(tmp_path, "b.txt", b"")
    result = run(["extract", str(tmp_path), "--progress"])
    assert result.exit_code == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("goblin: 2 document(s) (")
    assert "1 clean" in last and "1 failed" in last and "1 page(s) (1 clean)" in last
    quiet = run(["extract", str(tmp_path)])  # stderr is no terminal here: no bar, no summary
    assert "document(s)" not in quiet.stderr


@pytest.mark.slow
def test_files_with_the_same_name_keep_separate_results(tmp_path: Path) -> None:
    first = write(tmp_path, "a/ata.txt", "first\n")
    second = write(tmp_path, "b/ata.txt", "second\n")
    out = tmp_path / "out"
    result = run(["extract", str(first), str(second), "-o", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.stderr
    texts = sorted(p.read_text(encoding="utf-8").splitlines()[1]
                   for p in out.rglob("*.txt"))
    assert texts == ["first", "second"]
    rows = (out / "manifest.jsonl").read_text().splitlines()
    assert len(rows) == 2


class _OCR:
    """An OCR backend whose binary is missing (or a cloud one without credentials)."""

    formats = ("*",)
    priority = 0

    def __init__(self, name: str, *, cloud: bool) -> None:
        self.name, self.cloud = name, cloud

    def available(self) -> tuple[bool, str]:
        return False, "no credentials" if self.cloud else "tesseract not found"

    def recognize(self, image: Any, languages: str, config: Any) -> Any:
        raise AssertionError("never called")


def test_doctor_flags_local_ocr_that_cannot_run_but_not_cloud_ocr_left_off(tmp_path: Path) -> None:
    cloud = registry_with(_OCR("tests.cloud", cloud=True))
    quiet = run(["doctor", "--json"], cloud)
    assert quiet.exit_code == 0
    assert any("tests.cloud" in note for note in json.loads(quiet.stdout)["notes"])
    local = run(["doctor", "--json"], registry_with(_OCR("tests.local", cloud=False)))
    assert local.exit_code == 1
    assert any("tesseract not found" in p for p in json.loads(local.stdout)["problems"])
    config = write(tmp_path, "goblin.toml", '[engines."tests.cloud"]\nenabled = true\n')
    asked = run(["doctor", "--json", "-c", str(config)], cloud)
    assert asked.exit_code == 1
    assert any("enabled in config" in p for p in json.loads(asked.stdout)["problems"])


def test_the_password_can_come_from_the_environment(tmp_path: Path) -> None:
    source = write(tmp_path, "doc.test", TEST_BYTES)

    class _Locked(ScriptedParser):
        def open(self, source: Any, config: Any) -> Any:
            if config.get("goblin", "password") != "s3cret":
                from goblin_core import PasswordRequired

                raise PasswordRequired("wrong password", file=source.display_name)
            return super().open(source, config)

    registry = registry_with(_Locked("tests.locked", [text_page(1, "the secret text")]))
    assert run(["extract", str(source)], registry).exit_code == 1
    result = CliRunner().invoke(cli, ["extract", str(source)], obj=CliState(registry),
                                env={"GOBLIN_PASSWORD": "s3cret"})
    assert result.exit_code == 0, result.stderr
    assert "the secret text" in result.stdout


def test_control_characters_in_names_never_reach_the_terminal_raw(tmp_path: Path) -> None:
    source = write(tmp_path, "evil\x1b]0;owned\x07.txt", b"")
    result = run(["extract", str(source)])
    assert result.exit_code == 1
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    assert r'"evil\x1b]0;owned\x07.txt"' in result.stderr


# -- problems with paths: one line naming the path, never a traceback -----------------------


def _one_error_line(result: Result, path: Path) -> str:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f'goblin: error: "{path}": ')
    return lines[0]


@pytest.mark.parametrize(("command", "target", "cause"), [
    ("extract", "", "--output DIR is a file, not a folder"),
    ("extract", "sub", "--output DIR cannot be created: Not a directory"),
    ("report", "x.html", "is not a folder"),  # found before any extraction
    ("report", "sub/x.html", "cannot be created: Not a directory"),
])
def test_an_output_under_a_file_is_one_usage_error_line(
    tmp_path: Path, command: str, target: str, cause: str,
) -> None:
    source = write(tmp_path, "a.txt", "alpha\n")
    blocker = write(tmp_path, "x.bin", b"not a folder")
    output = blocker / target if target else blocker
    result = run([command, str(source), "-o", str(output)])
    assert result.exit_code == 2
    assert cause in _one_error_line(result, output)


def test_a_result_that_cannot_be_written_fails_that_document_and_names_it(
    tmp_path: Path,
) -> None:
    write(tmp_path, "in/sub/a.txt", "alpha\n")
    # a link where the result goes, to a place outside the output folder (a file where a
    # result's folder would go is stepped around: see the test of numbered results)
    (tmp_path / "out" / "sub").mkdir(parents=True)
    (tmp_path / "out" / "sub" / "a.txt.txt").symlink_to(tmp_path / "elsewhere.txt")
    result = run(["extract", str(tmp_path / "in"), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    errors = [line for line in result.stderr.splitlines() if "error" in line]
    assert len(errors) == 1
    assert errors[0].startswith('goblin: error: "sub/a.txt": its result could not be written')
    assert not (tmp_path / "elsewhere.txt").exists()


@pytest.mark.parametrize(("content", "line"), [
    ("x\n", 1),
    ('{"path": "a.txt", "status": "clean"}\n\n[1, 2]\n', 3),
    ('{"status": "clean"}\n', 1),
])
def test_a_bad_manifest_is_named_with_its_line(tmp_path: Path, content: str, line: int) -> None:
    manifest = write(tmp_path, "manifest.jsonl", content)
    result = run(["report", str(manifest), "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 1
    assert f"line {line} is not a manifest row" in _one_error_line(result, manifest)
    assert not (tmp_path / "r.html").exists()


# -- exit status: 1 for every document not read in full ---------------------------------------


def _stopping_parser() -> ScriptedParser:
    return ScriptedParser("tests.stops", [text_page(1, "page 1 text here"),
                                          RuntimeError("the page table is broken")])


def _slow_pages() -> ScriptedParser:
    return ScriptedParser("tests.slow", [text_page(n, f"page {n} text here") for n in (1, 2, 3)],
                          delay=0.3)


@pytest.mark.parametrize(("parser", "args", "cause"), [
    (_slow_pages, ["-O", "limits.timeout=0.4"], "ExtractionTimeout: "),
    (three_pages, ["-O", "limits.max_output_chars=20"], "OutputLimitReached: text cut at"),
    (three_pages, ["-O", "limits.max_pages=2"], "MaxPages: stopped after 2 pages"),
    (_stopping_parser, [], "RuntimeError: tests.stops stopped after page 1"),
])
def test_a_document_cut_short_exits_1_with_one_line_naming_it_and_the_cause(
    tmp_path: Path, parser: Any, args: list[str], cause: str,
) -> None:
    source = write(tmp_path, "doc.test", TEST_BYTES)
    result = run(["extract", str(source), *args], registry_with(parser()))
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith('goblin: error: "doc.test": ')
    assert cause in line
    assert "page 1 text here" in result.stdout  # what was read is still written


def test_pages_asked_for_with_max_pages_are_not_a_loss(tmp_path: Path) -> None:
    source = write(tmp_path, "doc.test", TEST_BYTES)
    result = run(["extract", str(source), "--max-pages", "2", "-O", "limits.max_pages=5"],
                 registry_with(three_pages()))
    assert result.exit_code == 0
    assert result.stderr == ""


def test_a_document_with_no_usable_page_exits_1_saying_why(tmp_path: Path) -> None:
    source = write(tmp_path, "doc.test", TEST_BYTES)
    garbled = ScriptedParser("tests.garbled", [text_page(1, "GARBAGE GARBAGE GARBAGE")])
    result = run(["extract", str(source), "--ocr", "never", "-f", "json"],
                 registry_with(garbled, MarkerValidator()))
    assert json.loads(result.stdout)["status"] == "corrupt_unrecoverable"
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith('goblin: error: "doc.test": corrupt_unrecoverable: no page has usable')
    assert "1 page corrupt" in line


class _UnrenderableDocument(ScriptedDocument):
    def render(self, page: int, dpi: int) -> Any:
        raise OSError("broken data stream when reading image file")


class _UnrenderableParser(ScriptedParser):
    """A scan whose header reads but whose pixels do not (a cut JPEG 2000)."""

    def open(self, source: Any, config: Any) -> ScriptedDocument:
        return _UnrenderableDocument(self.pages, False, 0.0, None)


def test_a_page_that_cannot_be_rendered_for_ocr_is_named_with_the_cause(tmp_path: Path) -> None:
    source = write(tmp_path, "doc.test", TEST_BYTES)
    scan = _UnrenderableParser("tests.scan", [text_page(1, "", images=1)])
    result = run(["extract", str(source)], registry_with(scan, FakeOCR("tests.ocr")))
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.endswith("1 page corrupt (needs_ocr); page 1 cannot be rendered for OCR "
                         "(OSError: broken data stream when reading image file)")


def test_the_json_report_goes_to_standard_output_unless_a_file_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    manifest = write(tmp_path, "lote/manifest.jsonl",
                     '{"path": "a.txt", "status": "clean", "pages": 1, '
                     '"page_statuses": {"clean": 1}}\n')
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    result = run(["report", str(manifest), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert list(here.iterdir()) == []  # no report.json left behind
    data = json.loads(result.stdout)
    assert data["summary"]["documents"] == 1 and data["summary"]["pages"] == 1
    to_file = run(["report", str(manifest), "--format", "json", "-o", str(tmp_path / "r.json")])
    assert to_file.exit_code == 0 and to_file.stdout == ""
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["summary"] == \
        data["summary"]
    # a folder that is not there yet is made, as extract --output makes its own
    nested = tmp_path / "reports" / "2026" / "r.json"
    made = run(["report", str(manifest), "--format", "json", "-o", str(nested)])
    assert made.exit_code == 0, made.stderr
    assert json.loads(nested.read_text(encoding="utf-8"))["summary"] == data["summary"]


@pytest.mark.parametrize("resume", [[], ["--resume"]])
def test_an_earlier_manifest_that_is_not_text_is_named_before_any_extraction(
    tmp_path: Path, resume: list[str],
) -> None:
    source = write(tmp_path, "a.txt", "alpha\n")
    manifest = write(tmp_path, "out/manifest.jsonl", b"\xff\xfe\x00 not text")
    result = run(["extract", str(source), "-o", str(tmp_path / "out"), *resume])
    assert result.exit_code == 2
    assert "not a manifest (not UTF-8 text)" in _one_error_line(result, manifest)
    assert _files(tmp_path / "out") == {"manifest.jsonl"}


def _folder_with_unreadable_entries(tmp_path: Path) -> Path:
    """A folder of two readable files, a dangling link and a pipe, named to interleave."""
    folder = tmp_path / "s"
    write(folder, "b_ok.txt", "bee\n")
    write(folder, "z.txt", "zed\n")
    (folder / "a_dangling.txt").symlink_to("nowhere")
    os.mkfifo(folder / "c_pipe.txt")
    return folder


def test_entries_of_a_folder_that_cannot_be_read_come_in_name_order_named_alike(
        tmp_path: Path) -> None:
    """Each document is headed by its name relative to the folder given, in name order:
    a dangling link or a pipe inside the folder too."""
    folder = _folder_with_unreadable_entries(tmp_path)
    result = run(["extract", str(folder)])
    assert result.exit_code == 1
    heads = [line for line in result.stdout.splitlines() if line.startswith("file_path_pwd:")]
    assert heads == [f'file_path_pwd:"{name}"'
                     for name in ("a_dangling.txt", "b_ok.txt", "c_pipe.txt", "z.txt")]
    assert '"a_dangling.txt": UnreadableFile: symbolic link to a missing target' in result.stderr
    assert '"c_pipe.txt": UnsupportedFormat' in result.stderr


def test_the_report_counts_paths_it_cannot_read_as_failed_and_names_them(
        tmp_path: Path) -> None:
    folder = _folder_with_unreadable_entries(tmp_path)
    result = run(["report", str(folder), str(tmp_path / "missing.pdf"), "--format", "json",
                  "--no-thumbnails"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    names = sorted(document["name"] for document in data["documents"])
    assert names == sorted(["a_dangling.txt", "b_ok.txt", "c_pipe.txt", "z.txt",
                            str(tmp_path / "missing.pdf")])
    errors = result.stderr.splitlines()
    assert len(errors) == 3, errors
    assert any(f'"{tmp_path / "missing.pdf"}": UnreadableFile: no such file' in line
               for line in errors)
