"""Which password opens an archive: ``archives.password``, else ``goblin.password``."""

from __future__ import annotations

from goblin_core.config import Config


def password_for(config: Config) -> str | None:
    """The configured password, or None when no password is set."""
    value = config.get("archives", "password") or config.get("goblin", "password")
    return str(value) if value else None
