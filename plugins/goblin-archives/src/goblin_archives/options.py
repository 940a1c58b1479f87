"""The ``archives`` config namespace."""

from __future__ import annotations

from goblin_core.options import LONGEST_WAIT_SECONDS, Option

ARCHIVE_OPTIONS = (
    Option("password", "str", "",
           "Password for encrypted archives; when empty, goblin.password is used.", secret=True),
    Option("name_encoding", "str", "",
           "Encoding of member names stored without a Unicode flag (gbk, shift_jis, cp437...). "
           "Empty: detected from the names themselves."),
    Option("tool_timeout", "float", 300.0,
           "Seconds an external tool (unar, bsdtar, patool's back ends) may run on one archive.",
           minimum=1.0, maximum=LONGEST_WAIT_SECONDS),
    Option("patool", "bool", True,
           "Read formats goblin has no Python reader for (cab, cpio, iso, arj, lha, deb, rpm, "
           "ace...) through patool and the system tools it drives."),
)
