"""Members of a folder an external tool extracted into, and what the tool's failure means."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from goblin_archives.modes import kind_of_mode
from goblin_archives.names import decode_name, guess_encoding, raw_from_surrogates
from goblin_core.engines import Member
from goblin_core.errors import CorruptDocument, GoblinError, PasswordRequired, UnsupportedFormat

# patool's own report of the command it ran: the full argument list, scratch paths and
# all, which says nothing the tool's message before it did not.
_COMMAND_ECHO = re.compile(
    r"(?:ERROR )?patool: error extracting .*?: Command `\[\s*[\"']*([^'\"]+)['\"].*?\]' "
    r"returned non-zero exit status (\d+)\.?", re.S)

#: What verbose patool says of its own progress (verbose lets its tool's output through).
_PATOOL_INFO = re.compile(r"^INFO patool: .*$\n?", re.M)

#: bsdtar's question, asked again on standard error after each wrong answer.
_PASSWORD_PROMPT = re.compile(r"Enter passphrase:")

#: What 7-Zip says of damage, which outweighs an "Unsupported Method" printed beside it.
_DAMAGE_WORDS = ("unexpected end", "data error", "crc failed", "headers error")


#: unar's verdicts, printed on its standard output: a member it could not write
#: (``  x.txt  (850 B)... Failed! (Wrong checksum)``), an archive it could not read to
#: the end or at all, one it cannot open without a password.
_UNAR_MEMBER_FAILED = re.compile(
    r"^\s*(.+?)\s+(?:\([^()]*\)\s*)?\.\.\. Failed! \((.+?)\.?\)\s*$", re.M)
_UNAR_PARSING_FAILED = re.compile(r"^Archive parsing failed! \((.+?)\.?\)\s*$", re.M)
_UNAR_UNREADABLE = re.compile(
    r"(Couldn't (?:recognize the archive format|open the archive)"
    r"|This archive requires a password to unpack)", re.M)


def unar_report(stdout: str) -> str:
    """What unar's report says went wrong, one clause a failure; "" when it says nothing.

    unar prints its verdicts on standard output and ends with exit status 1 whatever
    the failure, so its own words are the only way to tell a cut archive:

    >>> print(unar_report("cut.lzh: LZH\\n  ata.txt  (750 B)... OK.\\n  parecer.txt  (850 B)"
    ...     "... Failed! (Wrong checksum)\\nArchive parsing failed! (Attempted to read more data "
    ...     "than was available.)\\nExtraction to directory \\"o\\" failed (1 file failed.)\\n"
    ...     ).replace("; ", ";\\n"))
    parecer.txt: Wrong checksum;
    archive parsing failed: Attempted to read more data than was available
    """
    clauses = [f"{name}: {reason}" for name, reason in _UNAR_MEMBER_FAILED.findall(stdout)]
    clauses += [f"archive parsing failed: {reason}"
                for reason in _UNAR_PARSING_FAILED.findall(stdout)]
    clauses += [reason.lower() for reason in _UNAR_UNREADABLE.findall(stdout)]
    return "; ".join(clauses)


# A run of text without spaces longer than this (a member's path, nested past the longest
# path the system takes) is cut in the middle, so the tool's cause after it stays in the
# message.
_LONG_RUN = re.compile(r"\S{121,}")
_KEPT = 50


def _elided(message: str) -> str:
    """``message`` with each run of over 120 characters without a space cut in the middle.

    >>> _elided("cannot make directory `" + "b" * 500 + "': File name too long")[-40:]
    "bbbbbbbbbbbbbbbbbbb': File name too long"
    """
    return _LONG_RUN.sub(lambda m: f"{m[0][:_KEPT]}\u2026{m[0][-_KEPT:]}", message)


def tool_failure(tool: str, display: str, stderr: str, password: str | None,
                 unar_said: str = "", withheld_from: str = "") -> GoblinError:
    """The goblin error for a tool that failed: PasswordRequired when it speaks of one.

    ``unar_said`` is :func:`unar_report` of unar's output, when unar ran: a cut or
    damaged archive is said to be one, not left at unar's bare exit status.
    ``withheld_from`` names the program that was not given the password, as it
    takes one only on its command line: an archive it cannot open without one is
    beyond goblin, whatever the password.

    >>> str(tool_failure("unar", "a.alz", "", "s3cret", "this archive requires a password "
    ...     "to unpack", withheld_from="unar"))  # doctest: +ELLIPSIS
    'a.alz: unar: this archive requires a password to unpack; unar takes a password only on...'

    >>> str(tool_failure("patool", "a.zip", "ERROR: Data Error : b.txt\\nERROR patool: error "
    ...     "extracting a.zip: Command `['/usr/bin/7z', 'x', '-o/tmp/s/out', '--', 'a.zip']' "
    ...     "returned non-zero exit status 2", None))
    'a.zip: patool could not extract it: ERROR: Data Error : b.txt (7z exit status 2)'

    Commands patool runs through a shell (``cpio < archive``) are echoed quoted twice:

    >>> str(tool_failure("patool", "a.cpio", "bsdcpio: (null) ERROR patool: error extracting "
    ...     "a.cpio: Command `[\\"'/usr/bin/bsdcpio'\\", '--extract', '<', \\"'a.cpio'\\"]' "
    ...     "returned "
    ...     "non-zero exit status 1", None))
    'a.cpio: patool could not extract it: bsdcpio: (null) (bsdcpio exit status 1)'
    """
    stderr = _PASSWORD_PROMPT.sub("", _PATOOL_INFO.sub("", stderr))
    stderr = _COMMAND_ECHO.sub(lambda m: f"({Path(m[1]).name} exit status {m[2]})", stderr)
    message = _elided(" ".join(f"{unar_said} {stderr}".split()))[:600] or "no message"
    lowered = message.lower()
    asks = any(word in lowered for word in ("password", "passphrase", "encrypted"))
    if asks and withheld_from:
        return UnsupportedFormat(
            f"{tool}: {message}; {withheld_from} takes a password only on its command line, "
            "where every user of this machine can read it, so goblin does not give it one: "
            "extract the archive with a tool that asks for the password and pass the folder",
            file=display)
    if asks:
        hint = "check goblin.password" if password else "set goblin.password (or archives.password)"
        return PasswordRequired(f"{tool}: {message}; {hint}", file=display)
    if "unsupported method" in lowered and not any(word in lowered for word in _DAMAGE_WORDS):
        # 7-Zip's word for a method (or an encryption) it cannot decode: nothing is damaged,
        # unless 7-Zip also met damage (a cut archive reads as garbage methods too).
        return UnsupportedFormat(f"{tool} could not extract it: {message}; the installed tool "
                                 "does not decode the method it is stored with", file=display)
    if unar_said:
        return CorruptDocument(f"{tool} could not extract it: {message}; the archive is "
                               "truncated or damaged", file=display)
    return CorruptDocument(f"{tool} could not extract it: {message}", file=display)


@dataclass(frozen=True)
class Written:
    """A member a tool wrote, and the bytes of its name when they are no UTF-8."""

    member: Member
    raw_name: bytes | None = None


def folder_members(root: Path) -> Iterator[Member]:
    """Every entry a tool wrote under ``root``, as members named relative to it, sorted."""
    for written in written_members(root):
        yield written.member


def written_members(root: Path) -> Iterator[Written]:
    """Every entry a tool wrote under ``root``, sorted, its name decoded.

    Tools write a name stored in a legacy code page (cp437, cp850, Shift_JIS...) as
    its bytes; the names of one archive are decoded together, as the Python readers
    decode theirs. An entry nested past the longest path the system opens (a
    name of thousands of bytes) is refused, and a folder that could not be
    listed raises CorruptDocument once every other member is given.
    """
    unlisted: list[OSError] = []
    entries: list[tuple[Path, str]] = []
    for folder, dirs, files in os.walk(root, onerror=unlisted.append):
        dirs.sort()
        for name in [*sorted(dirs), *sorted(files)]:
            path = Path(folder) / name
            entries.append((path, path.relative_to(root).as_posix()))
    raws = {rel: raw for _path, rel in entries if (raw := raw_from_surrogates(rel)) is not None}
    encoding = guess_encoding(list(raws.values())) if raws else "utf_8"
    for path, rel in entries:
        raw = raws.get(rel)
        name = decode_name(raw, encoding) if raw is not None else rel
        try:
            yield Written(_member(path, name), raw)
        except OSError as exc:
            yield Written(_unopenable(name, exc), raw)
    if unlisted:
        raise CorruptDocument(f"a folder could not be listed ({unlisted[0].strerror}): nested "
                              "past the longest path this system opens; the members in it "
                              "were not read")


def _unopenable(name: str, exc: OSError) -> Member:
    """A member the system cannot reach (a path past its longest), refused when opened."""
    def refuse() -> BinaryIO:
        raise CorruptDocument(f"cannot be opened: {exc.strerror} (a path of "
                              f"{len(name.encode('utf-8', 'surrogateescape')):,} bytes)")

    return Member(name=name, open=refuse, size=0, kind="file")


def _member(path: Path, name: str) -> Member:
    info = path.lstat()
    kind = kind_of_mode(info.st_mode, "other")

    def opener() -> BinaryIO:
        # O_NOFOLLOW: what is opened is the regular file that was listed, never a link.
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        return os.fdopen(fd, "rb")

    return Member(
        name=name,
        open=opener,
        size=info.st_size if kind == "file" else 0,
        compressed_size=None,
        kind=kind,
        mode=stat.S_IMODE(info.st_mode),
        link_target=os.readlink(path) if kind == "symlink" else None,
    )
