"""WordPerfect documents (``office.wordperfect``), read by libwpd's wpd2text.

WordPerfect 4.2 to X9 files (``.wpd``, ``.wp``, ``.wp5``, ``.wp6``...) still fill
the archives of law firms and public offices; 5.x and later are known by their
``\xffWPC`` header, 4.2 (which has none) by its name. libwpd, the library LibreOffice
imports them with, maps WordPerfect's character sets to Unicode; wpd2text prints
the text, tables and notes, one paragraph a line, and decrypts a protected file
with ``goblin.password``.
"""

from __future__ import annotations

import shutil

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument, PasswordRequired
from goblin_core.source import Source, spooled
from goblin_office import formats as fmt
from goblin_office.layout import PageBuilder
from goblin_office.legacy import converter_text, run_converter

BINARY = "wpd2text"
PACKAGE = "libwpd-tools"
_PROTECTED = "password protected"


class WordPerfectParser(BaseEngine):
    """wpd2text for WordPerfect documents."""

    name = "office.wordperfect"
    formats = (fmt.WORDPERFECT,)
    priority = 50

    def available(self) -> tuple[bool, str]:
        if shutil.which(BINARY) is None:
            return False, f"{BINARY} not found: apt-get install {PACKAGE}"
        return True, ""

    def open(self, source: Source, config: Config) -> TextDocument:
        password = str(config.get("goblin", "password") or "")
        arguments = ["--password", password] if password else []
        with spooled(source) as path:
            # absolute, so that a file named "--info" is never read as an option
            done = run_converter(BINARY, [*arguments, str(path.resolve())], source, config)
        said = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
        if _PROTECTED in said.lower() or (password and done.returncode != 0
                                          and _encrypted(source.head(16))):
            raise PasswordRequired(
                "the document is password-protected; pass password=... to extract() (or set "
                "[goblin] password)" if not password else
                "the password given does not open it", file=source.display_name)
        if done.returncode != 0:
            cause = said.strip().splitlines()[-1] if said.strip() else f"exit {done.returncode}"
            raise CorruptDocument(f"{BINARY} cannot read it ({cause.removeprefix('ERROR: ')})",
                                  file=source.display_name)
        page = PageBuilder(engine=self.name)
        for paragraph in converter_text(done.stdout).replace("\r\n", "\n").split("\n"):
            page.add(paragraph)
        return TextDocument([page.build()])


def _encrypted(head: bytes) -> bool:
    """Whether the header's encryption key (bytes 12-13 of a 5.x or later file) is set."""
    return len(head) >= 14 and head[12:14] != b"\x00\x00"
