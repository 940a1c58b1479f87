"""The ``goblin`` command line: extract, plugins, formats, doctor, config, unpack.

Every command takes its registry from the click context object (a
``CliState``), so tests can hand in a registry built with extra plugins
instead of patching globals::

    CliRunner().invoke(cli, ["plugins", "--json"], obj=CliState(registry))

Exit codes of ``goblin extract``: 0 every document was read in full, 1 at
least one document failed, has no usable page or was cut short (the others
are still written), 2 a usage or config error.
"""

from __future__ import annotations

from goblin_core.cli import doctor, extract, formats, plugins, report, settings, unpack
from goblin_core.cli.app import EXIT_FAILED, EXIT_OK, EXIT_USAGE, CliState, cli, main
from goblin_core.cli.doctor import doctor_data
from goblin_core.cli.formats import (
    FIRST_PARTY_DISTRIBUTIONS,
    first_party_registry,
    format_rows,
    formats_markdown,
)
from goblin_core.cli.plugins import plugins_data
from goblin_core.cli.settings import config_data, config_toml

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "FIRST_PARTY_DISTRIBUTIONS",
    "CliState",
    "cli",
    "config_data",
    "config_toml",
    "doctor",
    "doctor_data",
    "extract",
    "first_party_registry",
    "format_rows",
    "formats",
    "formats_markdown",
    "main",
    "plugins",
    "plugins_data",
    "report",
    "settings",
    "unpack",
]
