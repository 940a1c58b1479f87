"""Hook implementations of goblin-djvu."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goblin_core import hookimpl


@hookimpl
def goblin_register_parsers(register: Callable[[Any], None]) -> None:
    from goblin_djvu.parser import DjvuParser

    register(DjvuParser())
