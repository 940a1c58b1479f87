"""Office, OpenDocument, text and mail formats for goblin."""

__version__ = "0.1.0"
