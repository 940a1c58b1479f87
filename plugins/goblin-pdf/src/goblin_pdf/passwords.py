"""Which password to try on an encrypted PDF, and the errors when none works."""

from __future__ import annotations

from goblin_core.config import Config
from goblin_core.errors import PasswordRequired


def configured_password(config: Config) -> str | None:
    """``pdf.password``, else ``goblin.password``, else None (an empty password is tried anyway)."""
    for namespace in ("pdf", "goblin"):
        value = config.get(namespace, "password")
        if value:
            return str(value)
    return None


def password_error(name: str, password: str | None) -> PasswordRequired:
    """The PasswordRequired for a document that did not open with ``password``."""
    if password:
        return PasswordRequired(
            "the PDF is encrypted and the password given does not open it; "
            "check goblin.password (or [pdf] password)",
            file=name,
        )
    return PasswordRequired(
        "the PDF is encrypted with a user password; give it with password=... "
        "(goblin.password or [pdf] password)",
        file=name,
    )
