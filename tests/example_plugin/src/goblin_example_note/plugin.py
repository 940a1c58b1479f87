"""Hook implementations of goblin-example-note: one sniffer, one parser."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goblin_core import hookimpl
from goblin_example_note.note import NoteParser, NoteSniffer


@hookimpl
def goblin_register_sniffers(register: Callable[[Any], None]) -> None:
    register(NoteSniffer())


@hookimpl
def goblin_register_parsers(register: Callable[[Any], None]) -> None:
    register(NoteParser())
