"""WordPerfect documents (``office.wordperfect``), read by libwpd's wpd2text.

WordPerfect 4.2 to X9 files (``.wpd``, ``.wp``, ``.wp5``, ``.wp6``...) still fill
the archives of law firms and public offices; 5.x and later are known by their
``\xffWPC`` header, 4.2 (which has none) by its name. libwpd, the library LibreOffice
imports them with, maps WordPerfect's character sets to Unicode; wpd2text prints
the text, tables and notes, one paragraph a line, and decrypts a protected file
with ``goblin.password``.
"""

from __future__ import annotations

import re
import shutil
import struct

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
        data = source.bytes()
        kept, cut = cut_short(data)
        if kept < len(data):
            # libwpd reads a function code the cut broke as a stray character: it is handed
            # the file up to the last whole one
            source = Source.from_bytes(data[:kept], source.display_name, depth=source.depth,
                                       parent=source.parent)
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
        document = TextDocument([page.build()])
        if cut:
            # wpd2text prints what it read before the cut and exits 0, as for a whole file
            document.left_out = f"{cut}, as one cut short does: the text after the cut is lost"
        return document


def _encrypted(head: bytes) -> bool:
    """Whether the header's encryption key (bytes 12-13 of a 5.x or later file) is set."""
    return len(head) >= 14 and head[12:14] != b"\x00\x00"


#: WordPerfect 5.x function codes 0xC0 to 0xCF, each of a fixed size (code bytes included)
_WP5_FIXED_SIZES = (4, 9, 11, 3, 3, 5, 6, 7, 4, 5, 6, 6, 8, 10, 10, 12)
#: characters and single-byte functions, read past in one step
_WP5_SINGLE_BYTES = re.compile(rb"[\x00-\xbf]+")


def cut_short(data: bytes) -> tuple[int, str]:
    r"""How many bytes of the WordPerfect file ``data`` end with a whole function code, and
    why the file is known cut short ('' when it is not).

    A WordPerfect 6.1 or later header gives the file's size; a 5.x file's text runs to
    the file's end, and one cut short there may end inside a function code (an accented
    letter, a font or format change), whose size its first bytes give. A protected file's
    codes are not readable before it is decrypted, and are not checked.

    >>> head = b"\xffWPC" + (16).to_bytes(4, "little") + bytes([1, 10, 0, 1, 0, 0, 0, 0])
    >>> cut_short(head + b"Ol\xc0\x1c\x01\xc0")
    (22, '')
    >>> cut_short(head + b"Ol\xc0\x1c")
    (18, 'the file ends inside a function code at byte 18')
    """
    if len(data) < 16 or not data.startswith(b"\xffWPC") or data[12:14] != b"\x00\x00":
        return len(data), ""
    major, minor = data[10], data[11]
    if major == 2 and minor >= 1 and len(data) >= 24:
        declared = struct.unpack_from("<I", data, 20)[0]
        if declared > len(data):
            return len(data), (f"the header gives the file {declared:,} bytes, but it holds "
                               f"{len(data):,}")
        return len(data), ""
    if major != 0:
        return len(data), ""
    at = struct.unpack_from("<I", data, 4)[0]
    while at < len(data):
        single = _WP5_SINGLE_BYTES.match(data, at)
        if single:
            at = single.end()
            continue
        code = data[at]
        if code < 0xD0:
            size = _WP5_FIXED_SIZES[code - 0xC0]
        elif at + 4 <= len(data):
            size = struct.unpack_from("<H", data, at + 2)[0] + 4
        else:
            size = len(data) + 1  # its size is cut off too
        if at + size > len(data):
            return at, f"the file ends inside a function code at byte {at:,}"
        at += size
    return len(data), ""
