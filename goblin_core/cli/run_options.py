"""Options that set config for one run, shared by the commands that read documents.

``--password`` (or ``$GOBLIN_PASSWORD``) and ``-O NS.KEY=VALUE`` mean the same
in ``goblin extract`` and ``goblin unpack``; ``call_options`` turns them into
the keyword options of ``Registry.config``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from typing import Any

import click

password_option = click.option(
    "--password", default=None, metavar="SECRET", envvar="GOBLIN_PASSWORD",
    help="Password for encrypted documents and archives (or $GOBLIN_PASSWORD, which keeps it "
         "out of the process list and shell history).")

settings_option = click.option(
    "-O", "--option", "settings", multiple=True, metavar="NS.KEY=VALUE",
    help="Set any config option for this run, e.g. -O limits.timeout=30 -O pdf.password=s3cret "
         "-O engines.pdf.pypdf.enabled=false (values are read as TOML, else as text). "
         "Repeatable; the other flags win over it.")


def call_options(settings: Sequence[str], **flags: Any) -> dict[str, Any]:
    """``-O`` settings, then the flags that were given (a flag left unset keeps the setting).

    >>> call_options(["limits.timeout=30"], password="s3cret", ocr=None)
    {'limits': {'timeout': 30}, 'password': 's3cret'}
    """
    return {**parse_settings(settings), **{k: v for k, v in flags.items() if v is not None}}


def parse_settings(settings: Sequence[str]) -> dict[str, Any]:
    """``-O NS.KEY=VALUE`` items as call options: ``{"limits": {"timeout": 30}}``.

    >>> parse_settings(["limits.timeout=30", "engines.pdf.pypdf.enabled=false"])
    {'limits': {'timeout': 30}, 'engines': {'pdf.pypdf': {'enabled': False}}}

    An engine's name may be quoted as in the config file's ``[engines."NAME"]``:

    >>> parse_settings(['engines."office.calamine".enabled=false'])
    {'engines': {'office.calamine': {'enabled': False}}}
    """
    options: dict[str, Any] = {}
    for item in settings:
        key, sep, raw = item.partition("=")
        namespace, dot, name = key.strip().partition(".")
        if not sep or not dot or not name:
            raise click.BadParameter(f"{item!r} is not NS.KEY=VALUE (e.g. limits.timeout=30)",
                                     param_hint="-O/--option")
        value = _toml_value(raw.strip())
        if namespace == "engines":
            engine, _, setting = name.rpartition(".")
            options.setdefault("engines", {}).setdefault(_unquoted(engine), {})[setting] = value
        else:
            options.setdefault(namespace, {})[name] = value
    return options


def _unquoted(name: str) -> str:
    for quote in ('"', "'"):
        if len(name) > 1 and name[0] == name[-1] == quote:
            return name[1:-1]
    return name


def _toml_value(raw: str) -> Any:
    """``30`` -> 30, ``false`` -> False, ``["a", "b"]`` -> a list; anything else stays text."""
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw
