"""File names outputs can hold: bytes that are not UTF-8, names as long as a file system takes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import goblin_core
from goblin_core import default_registry
from goblin_core.batch import MANIFEST_NAME, output_name, run_batch
from goblin_core.cli import cli
from goblin_core.file_names import NAME_MAX, fitting_name, readable_name

#: "licitação" as an old Latin-1 share writes it: not UTF-8
LATIN1_NAME = "licitação.txt".encode("latin-1")
LONG_NAME = "ata-da-sessão-pública-" + "x" * 220 + ".txt"  # 250 bytes: room for no ".txt" more


def latin1_file(folder: Path) -> Path:
    path = Path(os.fsdecode(os.path.join(os.fsencode(folder), LATIN1_NAME)))
    try:
        path.write_text("Edital de licitação\n", encoding="utf-8")
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system takes only UTF-8 names")
    return path


def inputs(folder: Path) -> Path:
    folder.mkdir()
    latin1_file(folder)
    (folder / LONG_NAME).write_text("Ata longa\n", encoding="utf-8")
    (folder / "ata.txt").write_text("Ata curta\n", encoding="utf-8")
    return folder


def test_a_name_that_is_not_utf8_is_shown_with_its_bytes_escaped(tmp_path: Path) -> None:
    path = latin1_file(tmp_path)
    document = goblin_core.extract(path)
    assert document.name == "licita%E7%E3o.txt"
    assert document.text == "Edital de licitação\n"
    assert json.loads(json.dumps(document.to_dict()))["name"] == "licita%E7%E3o.txt"
    [batched] = goblin_core.extract_many([tmp_path], jobs=1)
    assert batched.name == "licita%E7%E3o.txt"


def test_a_batch_writes_every_result_whatever_its_name_and_resumes(tmp_path: Path) -> None:
    source = inputs(tmp_path / "in")
    registry = default_registry()
    summary = run_batch(registry, registry.config(), [source], tmp_path / "out", jobs=1)
    assert (summary.done, summary.failed) == (3, 0)
    rows = {r["path"]: r for r in map(json.loads,
                                      (tmp_path / "out" / MANIFEST_NAME).read_text().splitlines())}
    assert set(rows) == {"ata.txt", "licita%E7%E3o.txt", LONG_NAME}
    assert all(r["error"] == "" for r in rows.values())
    latin1 = tmp_path / "out" / rows["licita%E7%E3o.txt"]["output"]
    assert latin1.read_text(encoding="utf-8") == (
        'file_path_pwd:"licita%E7%E3o.txt"\nEdital de licitação\n')
    long_result = tmp_path / "out" / rows[LONG_NAME]["output"]
    assert len(long_result.name.encode()) <= NAME_MAX
    assert long_result.read_text(encoding="utf-8").endswith("Ata longa\n")
    again = run_batch(registry, registry.config(), [source], tmp_path / "out", resume=True)
    assert (again.done, again.skipped) == (0, 3)


def test_the_cli_writes_them_too(tmp_path: Path) -> None:
    source = inputs(tmp_path / "in")
    result = CliRunner().invoke(cli, ["extract", str(source), "-o", str(tmp_path / "out"),
                                      "--jobs", "1"])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert "licita%E7%E3o.txt.txt" in names
    assert len(names) == 4  # three results and the manifest


def test_fitting_names_keep_their_extension_and_stay_distinct() -> None:
    first, second = fitting_name("a" * 300 + "1.pdf"), fitting_name("a" * 300 + "2.pdf")
    assert first != second
    assert all(len(n.encode()) == NAME_MAX and n.endswith(".pdf") for n in (first, second))
    wide = fitting_name("ç" * 200 + ".txt")  # two bytes a letter: cut between letters
    assert len(wide.encode()) <= NAME_MAX and wide.startswith("ç" * 10)
    assert output_name("pasta/" + LONG_NAME, "json").startswith("pasta/ata-da-sessão")
    assert all(len(part.encode()) <= NAME_MAX
               for part in output_name("p" * 300 + "/" + LONG_NAME, "markdown").split("/"))


def test_readable_name_replaces_a_surrogate_that_stands_for_no_byte() -> None:
    assert readable_name("a\ud800b") == "a\ufffdb"
    assert readable_name("sem problema") == "sem problema"
