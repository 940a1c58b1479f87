"""goblin-core's built-in plugin, registered through the same hooks as any other."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goblin_core.builtin.options import GOBLIN_OPTIONS, LIMIT_OPTIONS
from goblin_core.builtin.sniffer import MagicSniffer
from goblin_core.builtin.text import PlainTextParser
from goblin_core.builtin.validators import (
    EmptyPageValidator,
    SparseTextValidator,
    UnmappedCharactersValidator,
)
from goblin_core.hookspecs import hookimpl
from goblin_core.renderers import BUILTIN_RENDERERS


@hookimpl
def goblin_register_sniffers(register: Callable[[Any], None]) -> None:
    register(MagicSniffer())


@hookimpl
def goblin_register_parsers(register: Callable[[Any], None]) -> None:
    register(PlainTextParser())


@hookimpl
def goblin_register_validators(register: Callable[[Any], None]) -> None:
    register(EmptyPageValidator())
    register(UnmappedCharactersValidator())
    register(SparseTextValidator())


@hookimpl
def goblin_register_renderers(register: Callable[[Any], None]) -> None:
    from goblin_core.trust_report import HTMLReportRenderer, JSONReportRenderer

    for renderer in (*BUILTIN_RENDERERS, HTMLReportRenderer(), JSONReportRenderer()):
        register(renderer)


@hookimpl
def goblin_register_executors(register: Callable[[Any], None]) -> None:
    from goblin_core.executors.local import LocalExecutor

    register(LocalExecutor())


@hookimpl
def goblin_register_options(register: Callable[..., None]) -> None:
    register("goblin", GOBLIN_OPTIONS, help="How goblin extracts: OCR strategy, pages, tables.")
    register("limits", LIMIT_OPTIONS, help="Safety limits for untrusted input.")
