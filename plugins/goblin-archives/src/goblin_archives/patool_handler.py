"""Everything else patool reaches through system tools: cab, cpio, iso, arj, lha, deb, rpm, ace...

patool drives whichever extractor is installed (7z, bsdtar, cabextract,
unar, dpkg-deb...). It runs as a child process that writes into a private
folder, under a meter that kills it as soon as it writes too much, too
many files or for too long; members are then read from that folder and
the folder is removed. A format whose tools are all missing is unavailable
with the Debian packages that would provide one.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from goblin_archives.last_resort import failure_of, with_note
from goblin_archives.passwords import password_for
from goblin_archives.scratch import ByteMeter, Scratch, run_watched
from goblin_archives.tool_names import (
    WRITES_NOTHING_THROUGH_LINKS,
    Listing,
    checked_members,
    list_names,
    refuse_writes_through_links,
)
from goblin_archives.tool_output import tool_failure, unar_report
from goblin_archives.volumes import spanned_zip_set
from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits, BaseEngine, Member
from goblin_core.errors import EngineUnavailable, UnsafeArchive, UnsupportedFormat
from goblin_core.source import Source

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PatoolFormat:
    """A patool format name, the MIME types goblin gives it and where its tools come from."""

    name: str
    mimes: tuple[str, ...]
    debian_packages: str


# Not here: lzip and lzop, streamed by goblin's own compressed-file reader (a tar inside
# is read as a tar); shell archives (shar), which unshar extracts by running the archive
# through sh, so a hostile one would run any command it holds: a .shar is read as the
# text it is.
PATOOL_FORMATS: tuple[PatoolFormat, ...] = (
    PatoolFormat("cab", ("application/vnd.ms-cab-compressed", "application/x-cab"),
                 "cabextract or p7zip-full"),
    PatoolFormat("cpio", ("application/x-cpio",), "cpio or libarchive-tools"),
    PatoolFormat("iso", ("application/x-iso9660-image",), "p7zip-full or libarchive-tools"),
    PatoolFormat("udf", ("application/x-iso13346-image",), "p7zip-full"),
    PatoolFormat("arj", ("application/x-arj",), "arj or p7zip-full"),
    PatoolFormat("lzh", ("application/x-lzh-compressed", "application/x-lha", "application/x-lzh"),
                 "lhasa or unar"),
    PatoolFormat("deb", ("application/vnd.debian.binary-package", "application/x-debian-package"),
                 "dpkg"),
    PatoolFormat("rpm", ("application/x-rpm",), "rpm2cpio and cpio, or p7zip-full"),
    PatoolFormat("ace", ("application/x-ace-compressed", "application/x-ace"), "unace"),
    PatoolFormat("ar", ("application/x-archive",), "binutils"),
    PatoolFormat("chm", ("application/vnd.ms-htmlhelp", "application/x-chm"), "p7zip-full"),
    PatoolFormat("wim", ("application/x-ms-wim",), "p7zip-full"),
    PatoolFormat("vhd", ("application/x-vhd",), "p7zip-full"),
    PatoolFormat("zoo", ("application/x-zoo",), "unar"),
    PatoolFormat("dms", ("application/x-dms",), "unar"),
    PatoolFormat("rzip", ("application/x-rzip",), "rzip"),
    PatoolFormat("lrzip", ("application/x-lrzip",), "lrzip"),
    PatoolFormat("alzip", ("application/x-alz-compressed", "application/x-alzip"), "unalz"),
    PatoolFormat("arc", ("application/x-arc",), "nomarch"),
    PatoolFormat("zpaq", ("application/zpaq",), "zpaq"),
    PatoolFormat("adf", ("application/x-adf",), "unadf"),
)

#: Formats goblin reads natively; patool is their last resort (7z reads some damaged ones).
FALLBACK_FORMATS: tuple[PatoolFormat, ...] = (
    PatoolFormat("zip", ("application/zip",), "p7zip-full or unzip"),
    PatoolFormat("7z", ("application/x-7z-compressed",), "p7zip-full"),
    PatoolFormat("tar", ("application/x-tar",), "tar"),
)

_RUN_PATOOL = "import sys; from patoolib.cli import main; sys.exit(main())"

#: 7-Zip's programs: with no ``-p`` they ask for a password on their standard input.
SEVEN_ZIP_PROGRAMS = frozenset({"7z", "7za", "7zr", "7zz", "7zzs"})


@dataclass(frozen=True)
class ToolRun:
    """The command that extracts an archive, and how the password reaches its tool."""

    argv: list[str]
    #: The tool named in an error.
    tool: str
    #: Written to the tool's standard input (see run_watched), never on a command line.
    password: str | None = None
    #: The program that would take the password only on its command line, so runs without.
    withheld_from: str = ""


class PatoolHandler(BaseEngine):
    """One archive format read by patool through whichever system tool is installed."""

    def __init__(self, fmt: PatoolFormat, *, name: str = "", priority: int = 20) -> None:
        self.fmt = fmt
        self.name = name or f"archive.patool.{fmt.name}"
        self.formats = fmt.mimes
        self.priority = priority

    tool = "patool"

    def command(self, archive: Path, out: Path) -> list[str]:
        """The command that extracts ``archive`` into the folder ``out``, with no password."""
        # patool hides its tool's standard output unless verbose, and unar says there,
        # and only there, why it failed (a cut archive is exit status 1 like any other).
        talk = "--verbose" if _patool_program(self.fmt.name) == "unar" else "--quiet"
        return [sys.executable, "-c", _RUN_PATOOL, "--non-interactive", talk, "extract",
                "--outdir", str(out), "--format", self.fmt.name, str(archive)]

    def tool_run(self, archive: Path, out: Path, password: str | None) -> ToolRun:
        """How ``archive`` is extracted into ``out``, and how the password reaches the tool.

        patool puts a password on its own command line and on its tool's, which every
        user of the machine can read (``ps``), so it is never given one. When the
        program patool would give it to is 7-Zip, goblin runs 7-Zip itself, as patool
        would, and writes the password to its standard input. The others (unar, arj,
        unace, unalz) take one only on their command line: patool runs them without
        it, so an archive that is not encrypted is read all the same and an encrypted
        one fails saying why.
        """
        program = self.password_program(password)
        if program is None:
            return ToolRun(self.command(archive, out), self.tool)
        name = Path(program).name
        if name in SEVEN_ZIP_PROGRAMS:
            return ToolRun([name, "x", "-y", "-aou", f"-o{out}", "--", str(archive)], name,
                           password=password)
        return ToolRun(self.command(archive, out), self.tool, withheld_from=name)

    def password_program(self, password: str | None) -> str | None:
        """The program patool would give ``password`` to for this format, or None.

        None when no password is set, or when patool's program for the format has no
        password option (ar, cpio, cabextract...): a password set for a whole batch, or
        for an encrypted archive and everything nested in it, changes nothing for an
        archive such a program reads.
        """
        if not password:
            return None
        import inspect

        import patoolib

        try:
            program = patoolib.find_archive_program(self.fmt.name, "extract", password=password)
            extract = getattr(patoolib.get_patool_program_module(program),
                              f"extract_{self.fmt.name}")
        except Exception:  # patool signals "no program takes a password" with its own errors
            return None
        return str(program) if "password" in inspect.signature(extract).parameters else None

    def program(self) -> str:
        """The name of the program that writes the members ('' when none is found)."""
        return _patool_program(self.fmt.name) or ""

    def available(self) -> tuple[bool, str]:
        try:
            import patoolib
        except ImportError as exc:
            return False, f"patool is not importable: {exc}"
        try:
            program = patoolib.find_archive_program(self.fmt.name, "extract")
        except Exception as exc:  # patool signals "no program" with its own error types
            return False, f"{exc}; apt-get install {self.fmt.debian_packages}"
        try:
            # patool lists programs it has no command for (unar for ace): it would pick
            # one and fail on every file as if each were damaged.
            patoolib.get_archive_cmdlist_func(program, "extract", self.fmt.name)
        except Exception:
            return False, (f"patool finds {Path(program).name} but cannot run it for "
                           f"{self.fmt.name}; apt-get install {self.fmt.debian_packages}")
        return True, ""

    def members(self, source: Source, limits: ArchiveLimits, config: Config) -> Iterator[Member]:
        if config.get("archives", "patool") is False:
            off = "patool is turned off (archives.patool = false)"
            found = failure_of(source)
            if found is not None:
                # Python's reader went first and failed: its reason is the archive's.
                raise with_note(found, f"{off}, so no second tool was tried")
            raise EngineUnavailable(f"{off}; turn it on to read {self.fmt.name} files",
                                    file=source.display_name)
        display = source.display_name
        if self.fmt.name == "zip" and spanned_zip_set(source) is not None:
            # 7-Zip already read the set through the zip handler, every segment linked;
            # run on the .zip alone it would only blame a segment that is there.
            found = failure_of(source)
            raise found if found is not None else UnsupportedFormat(
                "a spanned zip is read as a set by the zip handler", file=display)
        meter = ByteMeter(limits, max(source.size, 1), display)
        timeout = float(config.get("archives", "tool_timeout") or 300.0)
        with Scratch() as scratch:
            out = scratch.path / "out"
            out.mkdir()
            # The tools guess volume sets from sibling file names; a private link to the
            # archive shows them this one file alone.
            (scratch.path / "in").mkdir()
            archive = scratch.path / "in" / _link_name(source, self.fmt.name)
            os.symlink(os.path.abspath(source.path()), archive)
            password = password_for(config)
            run = self.tool_run(archive, out, password)
            listing: Listing | None = None
            writer = Path(run.argv[0]).name if run.tool != "patool" else self.program()
            if writer not in WRITES_NOTHING_THROUGH_LINKS:
                # Listed first: such a tool is not run on an archive it would write outside
                # its private folder through a link the archive makes; bsdtar, which
                # refuses those members alone, reads it instead when it can (and when
                # there is no listing to tell).
                listing = list_names(archive, scratch.path, meter, timeout)
                # A listing lsar gave up on may stop short of such a member.
                unknown = listing is None or not listing.complete
                linked = listing is not None and bool(listing.through_links)
                links_possible = self.fmt.name in _BSDTAR_READS
                if (unknown or linked) and links_possible and shutil.which("bsdtar"):
                    run = ToolRun(_bsdtar_command(archive, out), "bsdtar", password=password)
                elif unknown and links_possible:
                    raise UnsafeArchive(
                        f"lsar could not list every member, so one under a symbolic link of "
                        f"the same archive cannot be ruled out, and {writer}, the tool that "
                        "extracts it, would write it wherever the link points: not extracted "
                        "(bsdtar, package libarchive-tools, reads it without following links)",
                        file=display)
                else:
                    refuse_writes_through_links(listing, writer, display)
            result = run_watched(run.argv, scratch.path, meter, timeout, password=run.password)
            failure = None
            if result.returncode != 0:
                # Say which file failed by its goblin name, never by the private scratch path.
                stderr, stdout = (stream.decode("utf-8", "replace").replace(str(archive), display)
                                  .replace(str(scratch.path), "<scratch>")
                                  for stream in (result.stderr, result.stdout))
                failure = tool_failure(run.tool, display, stderr, password, unar_report(stdout),
                                       withheld_from=run.withheld_from)
            if listing is None:
                listing = list_names(archive, scratch.path, meter, timeout)
            yield from checked_members(_unwrapped(out, archive, listing), listing, display,
                                       failure)


#: patool formats bsdtar reads too, whose patool tools may follow links (GNU cpio, lhasa).
_BSDTAR_READS = frozenset({"cpio", "rpm", "lzh", "iso", "ar"})


def _bsdtar_command(archive: Path, out: Path) -> list[str]:
    # No -P: bsdtar refuses names with .., absolute paths and writing through links.
    return ["bsdtar", "-x", "--no-same-owner", "--no-same-permissions",
            "-f", str(archive), "-C", str(out)]


def _patool_program(fmt: str) -> str | None:
    """The name of the program patool runs to extract ``fmt``, or None when it has none."""
    import patoolib

    try:
        return Path(patoolib.find_archive_program(fmt, "extract")).name
    except Exception:  # patool signals "no program" with its own error types
        return None


def _link_name(source: Source, fmt: str) -> str:
    """The name the tool reads the archive under: its own, since tools name what they
    write after it (a dms's or a VHD's disk image, the one file of a .lz)."""
    name = source.name.replace("\\", "/").rsplit("/", 1)[-1]
    if not name.isprintable() or name.startswith((".", "-")) or not 0 < len(name.encode()) <= 200:
        name = "archive"
    return name if source.extension else f"{name}.{fmt}"


def _unwrapped(out: Path, archive: Path, listing: Listing | None) -> Path:
    """The folder the members are in: ``out``, or the one folder unar wrapped them in.

    unar (patool's tool for zoo, dms, lha without lhasa) puts an archive of several
    top-level entries into a folder named after the archive; its members would
    be named ``archive/x``, which the listing does not hold, so every one of them
    was refused as soon as one name was hostile or the archive damaged.
    """
    wrapper = out / archive.stem
    if listing is None or [*out.iterdir()] != [wrapper] or wrapper.is_symlink() \
            or not wrapper.is_dir():
        return out
    listed = [*listing.clean, *listing.hostile]
    if any(name.split("/", 1)[0] == wrapper.name for name in listed):
        return out  # the archive's own top folder
    return wrapper


#: Formats libarchive reads that patool has no tool for.
BSDTAR_FORMATS: tuple[PatoolFormat, ...] = (
    # macOS installer packages (.pkg) and Xcode archives (.xip) are xar inside
    PatoolFormat("xar", ("application/x-xar",), "libarchive-tools"),
)

#: Formats unar reads that patool does not hand to it: patool knows other tools for
#: them (nomarch, unalz, unadf), often missing, and unar reads them all.
UNAR_FORMATS: tuple[PatoolFormat, ...] = (
    PatoolFormat("arc", ("application/x-arc",), "unar"),
    PatoolFormat("alzip", ("application/x-alz-compressed", "application/x-alzip"), "unar"),
    PatoolFormat("adf", ("application/x-adf",), "unar"),
)


class DirectToolHandler(PatoolHandler):
    """A format extracted by one program run directly, under the same watch as patool's.

    The names it writes are checked against ``lsar``'s listing as patool's are.
    """

    def __init__(self, fmt: PatoolFormat, priority: int = 20) -> None:
        super().__init__(fmt, name=f"archive.{self.tool}.{fmt.name}", priority=priority)

    def program(self) -> str:
        return self.tool

    def available(self) -> tuple[bool, str]:
        if shutil.which(self.tool) is None:
            return False, f"{self.tool} not found: apt-get install {self.fmt.debian_packages}"
        return True, ""


class BsdtarHandler(DirectToolHandler):
    """A format patool cannot reach, extracted by ``bsdtar``.

    bsdtar refuses names with ``..`` and absolute paths on its own (no ``-P``).
    """

    tool = "bsdtar"

    def command(self, archive: Path, out: Path) -> list[str]:
        return _bsdtar_command(archive, out)

    def tool_run(self, archive: Path, out: Path, password: str | None) -> ToolRun:
        # Without --passphrase bsdtar asks for it on its standard input (no terminal).
        return ToolRun(self.command(archive, out), self.tool, password=password)


class UnarHandler(DirectToolHandler):
    """A format only ``unar`` reads here, patool having no command to run it with.

    Ranked below patool's handler of the same format: when patool's own tool is
    installed it goes first, and unar is what reads the archive otherwise.
    """

    tool = "unar"

    def __init__(self, fmt: PatoolFormat) -> None:
        super().__init__(fmt, priority=15)

    def command(self, archive: Path, out: Path) -> list[str]:
        # -nr: an archive inside is the core's to open, under its own limits; -s: a
        # second member of the same name never replaces the first; -k skip: a Mac
        # resource fork would come out as an extra ".rsrc" file the archive does not list.
        return ["unar", "-o", str(out), "-D", "-nr", "-s", "-k", "skip", "--", str(archive)]

    def tool_run(self, archive: Path, out: Path, password: str | None) -> ToolRun:
        # unar takes a password only as -p on its command line, and asks for none.
        return ToolRun(self.command(archive, out), self.tool,
                       withheld_from=self.tool if password else "")
