"""The environment a plugin starts a system tool with: goblin's own, less its secrets."""

from __future__ import annotations

import os

#: The environment variable the command line reads a password from.
PASSWORD_VARIABLE = "GOBLIN_PASSWORD"


def child_environment() -> dict[str, str]:
    """This process's environment, less ``$GOBLIN_PASSWORD``, for a tool goblin runs.

    No tool has a use for goblin's password there, and some hand their environment
    on to their own children or print it in a report.

    >>> os.environ[PASSWORD_VARIABLE] = "s3cret"
    >>> PASSWORD_VARIABLE in child_environment()
    False
    >>> del os.environ[PASSWORD_VARIABLE]
    """
    return {name: value for name, value in os.environ.items() if name != PASSWORD_VARIABLE}
