"""Hook implementations of goblin-office."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goblin_core import hookimpl
