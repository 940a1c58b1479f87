"""A plain ZIP reader for the facade's archive tests, so they need no plugin."""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

import pytest

from goblin_core import hookimpl, load_registry
from goblin_core.engines import BaseEngine, Member
from goblin_core.registry import Registry


class ZipMembers(BaseEngine):
    """A plain ZIP reader, so archive tests need no plugin."""

    name = "tests.zip"
    formats = ("application/zip",)
    priority = 0

    def members(self, source: Any, limits: Any, config: Any) -> Iterator[Member]:
        archive = zipfile.ZipFile(source.path())
        for info in archive.infolist():
            if not info.is_dir():
                yield Member(info.filename, _opener(archive, info.filename), info.file_size,
                             info.compress_size)


def _opener(archive: zipfile.ZipFile, name: str) -> Callable[[], BinaryIO]:
    return lambda: archive.open(name)  # type: ignore[return-value]


class ZipPlugin:
    @hookimpl
    def goblin_register_archive_handlers(self, register: Callable[[Any], None]) -> None:
        register(ZipMembers())


@pytest.fixture
def zip_registry(monkeypatch: pytest.MonkeyPatch) -> Registry:
    """goblin-core plus a ZIP reader, wherever the facade takes its registry."""
    registry = load_registry(extra_plugins=[("tests-zip", ZipPlugin())])
    for module in ("files", "extractor"):
        monkeypatch.setattr(f"goblin_core.compat.{module}.default_registry", lambda: registry)
    return registry
