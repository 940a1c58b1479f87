"""``extract`` reads one document: given a folder, its error says what reads folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from goblin_core import extract
from goblin_core.errors import NotAFile


def test_extract_of_a_folder_points_to_extract_many(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("inside\n", encoding="utf-8")
    with pytest.raises(NotAFile) as raised:
        extract(tmp_path)
    assert isinstance(raised.value, IsADirectoryError)
    assert raised.value.kind == "UnreadableFile"
    assert "extract_many" in str(raised.value)
    assert tmp_path.name in str(raised.value)
