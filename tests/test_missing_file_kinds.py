"""A path that names nothing is the same kind of error however it is read: ``extract``
raises UnreadableFile, and ``extract_many``, ``goblin extract`` (its error line and its
manifest) and ``goblin report`` report that kind too, so a file missing when the run
starts and one gone by the time its turn comes are counted alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from goblin_core import extract, extract_many, load_registry
from goblin_core.batch import MANIFEST_NAME
from goblin_core.cli import CliState, cli
from goblin_core.errors import GoblinError

pytestmark = pytest.mark.usefixtures("cli_environment")


def _run(arguments: list[str]) -> Result:
    return CliRunner().invoke(cli, arguments,
                              obj=CliState(load_registry(entry_points=lambda: [])))


def test_every_way_of_reading_a_missing_path_reports_the_kind_extract_raises(
        tmp_path: Path) -> None:
    missing = tmp_path / "gone.txt"
    with pytest.raises(GoblinError) as raised:
        extract(missing)
    kind = raised.value.kind
    assert kind == "UnreadableFile"
    [document] = extract_many([missing])
    assert document.report.error_kinds == (kind,)

    result = _run(["extract", str(missing), "-o", str(tmp_path / "out"), "--jobs", "1"])
    assert result.exit_code == 1
    assert f'"{missing}": {kind}: no such file or folder' in result.stderr
    [row] = [json.loads(line)
             for line in (tmp_path / "out" / MANIFEST_NAME).read_text().splitlines()]
    assert str(row["error"]).startswith(f"{kind}: ")

    report = _run(["report", str(missing), "--format", "json", "--no-thumbnails"])
    assert report.exit_code == 1
    assert f'"{missing}": {kind}: no such file or folder' in report.stderr
    [reported] = json.loads(report.stdout)["documents"]
    assert kind in json.dumps(reported)


def test_a_dangling_link_in_a_folder_is_the_same_kind_as_a_missing_file(tmp_path: Path) -> None:
    (tmp_path / "link.txt").symlink_to(tmp_path / "nowhere.txt")
    result = _run(["extract", str(tmp_path)])
    assert result.exit_code == 1
    assert '"link.txt": UnreadableFile: symbolic link to a missing target' in result.stderr
