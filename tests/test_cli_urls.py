"""A URL given to ``goblin extract`` with an executor that does not fetch URLs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from goblin_core import load_registry
from goblin_core.cli import CliState, cli


def test_a_url_the_local_executor_cannot_fetch_is_named_as_given_and_says_who_can(
    tmp_path: Path,
) -> None:
    (tmp_path / "b.txt").write_text("a file\n", encoding="utf-8")
    url = "https://example.invalid/folder/a.pdf"
    result = CliRunner().invoke(cli, ["extract", url, str(tmp_path / "b.txt"), "--jobs", "1"],
                                obj=CliState(load_registry(entry_points=lambda: [])))
    assert result.exit_code == 1, result.output
    assert result.stderr == (f'goblin: error: "{url}": UnreadableFile: a URL, which this executor '
                             "does not fetch; --executor dask (goblin-dask) has its workers "
                             "read URLs\n")
    assert f'file_path_pwd:"{url}"' in result.stdout
    assert 'file_path_pwd:"b.txt"\na file\n' in result.stdout


def test_an_error_of_the_run_itself_names_no_made_up_path() -> None:
    """A goblin error that belongs to no file (an executor that cannot start, a scheduler
    out of reach) is one line with its kind, not one quoting "goblin" as if a path."""
    from goblin_core.errors import EngineUnavailable

    def unreachable() -> Any:
        raise EngineUnavailable("cannot reach the Dask scheduler at tcp://host:8786")

    result = CliRunner().invoke(cli, ["plugins"], obj=CliState(_loader=unreachable))
    assert result.exit_code == 1
    assert result.stderr == ("goblin: error: EngineUnavailable: cannot reach the Dask scheduler "
                             "at tcp://host:8786\n")
