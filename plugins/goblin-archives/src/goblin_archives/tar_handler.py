"""tar, read as a stream: members come out one at a time, in archive order.

The same reader serves plain tars and tars inside a compressor (the
compressed handlers hand it their decompressing stream), so a ``.tar.gz``
lists the tar's own members, as ``bsdtar -tf`` does.
"""

from __future__ import annotations

import re
import tarfile
from collections.abc import Generator, Iterator
from typing import BinaryIO

from goblin_archives.guarded import GuardedStream, translated
from goblin_archives.last_resort import noting_failures
from goblin_archives.names import decode_name, guess_encoding, raw_from_surrogates
from goblin_archives.scratch import ByteMeter
from goblin_archives.tar_header import BLOCK
from goblin_archives.volumes import (
    first_volume_beside,
    later_volume,
    volume_member,
    whole_file,
)
from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits, BaseEngine, Member, MemberKind
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source

#: Read size of a streamed (decompressed) tar; tarfile's default record is 10 KB.
_STREAM_BUFFER = 1 << 20

#: Most bytes of data a long-name or pax header may hold (Go's archive/tar takes the same
#: bound): a name is a few kilobytes at most, and an attribute as long is no text to read.
_LONGEST_EXTENDED_HEADER = 1 << 20

#: Most extents a sparse member's map may list (its 1.0 format keeps the map in the data):
#: each costs memory and time to read, and a file this fragmented is no document.
_MOST_SPARSE_EXTENTS = 1 << 18

#: Header types whose data tarfile reads whole into memory: GNU long names and link
#: names, pax per-member and global headers (and Solaris' older letter for the former).
_EXTENDED_HEADERS = frozenset({tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK,
                               tarfile.XHDTYPE, tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE})


class TarHandler(BaseEngine):
    """POSIX, GNU and V7 tar through the standard library, streamed."""

    name = "archive.tar"
    formats = ("application/x-tar",)
    priority = 50

    @noting_failures
    def members(self, source: Source, limits: ArchiveLimits, config: Config) -> Iterator[Member]:
        if first_volume_beside(source):
            # A piece of a split tar can start on a header: it is still read through part 1.
            yield volume_member(source, later_volume(source))
            return
        with whole_file(source) as (opener, size):
            stream = opener()
            # A plain tar expands to its own size, but a sparse member's holes read as
            # zeros: a few headers can claim terabytes.
            meter = ByteMeter(limits, max(size, 1), source.display_name)
            try:
                # A tar on disk or in memory can seek: members are read straight from
                # their offsets instead of through tarfile's 10 KB stream records.
                yield from tar_members(stream, source.display_name, config, seekable=True,
                                       meter=meter)
            finally:
                stream.close()


def tar_members(stream: BinaryIO, display: str, config: Config,
                seekable: bool = False, meter: ByteMeter | None = None) -> Iterator[Member]:
    """Members of the tar read from ``stream`` (already decompressed), lazily.

    Each member's ``open()`` is valid until the next member is listed: a
    streamed tar cannot go back. ``seekable`` says ``stream`` can seek, which
    lets tarfile read each member from its offset. ``meter``, when given,
    counts what the members read expand to.
    """
    names = _NameDecoder(str(config.get("archives", "name_encoding") or ""))
    try:
        with translated(display, "reading the tar"):
            archive = _TarReader.open(  # closed by the with block just below
                fileobj=stream, mode="r:" if seekable else "r|", encoding="utf-8",
                errors="surrogateescape", bufsize=_STREAM_BUFFER, tarinfo=_CheckedTarInfo)
    except _HeaderFault as fault:
        # The first header decides whether this is a tar at all: tarfile's own words.
        with translated(display, "reading the tar"):
            raise tarfile.ReadError(fault.problem) from None
    with archive:
        while True:
            info = yield from _next_header(archive, display, names)
            if info is None:
                return
            if meter is not None:
                meter.check_total()
            yield _member(archive, info, display, names, meter)


def _next_header(archive: tarfile.TarFile, display: str,
                 names: _NameDecoder) -> Generator[Member, None, tarfile.TarInfo | None]:
    """The next member's header, or None at the archive's end.

    tarfile ends the archive at any header it cannot read, so a damaged header
    would quietly cost every member after it. Only a zero block (the end-of-archive
    marker) or the end of the data ends a tar here; a header cut short is damage, and
    past a damaged one the following blocks are searched for the next valid header,
    as GNU tar and bsdtar do, the member lost in between yielded as unreadable.
    """
    lost: _HeaderFault | None = None
    while True:
        try:
            with translated(display, "reading the tar"):
                info = _next_info(archive)
        except _HeaderFault as fault:
            at = _fault_offset(archive, fault)
            if fault.kind == "eof" or (lost is None and fault.kind == "zeros"):
                if lost is not None:
                    yield _lost_member(lost, display, names, at)
                return None
            if fault.kind == "cut":
                if lost is not None:
                    yield _lost_member(lost, display, names, at)
                raise CorruptDocument(
                    f"the tar ends inside a header (at byte {at:,}): the archive is truncated",
                    file=display) from None
            lost = lost or fault
            # Search on past the failed block (and past what an extended header too large
            # to read declared), or right after extended data that would not parse.
            archive.offset = at + len(fault.block) + fault.data_skipped
            continue
        if lost is not None:
            yield _lost_member(lost, display, names, archive.offset if info is None
                               else info.offset)
        return info


def _fault_offset(archive: tarfile.TarFile, fault: _HeaderFault) -> int:
    """Where the failed block starts; a failed extended header costs its whole member."""
    at = archive.fileobj.tell() - len(fault.block) if archive.fileobj is not None else 0
    if fault.offset < 0:
        fault.offset = archive.offset
        if at != archive.offset and not fault.in_extended_data:
            fault.problem = f"is followed by an extended header that {fault.problem}"
            fault.block = b""
    return at


def _lost_member(fault: _HeaderFault, display: str, names: _NameDecoder,
                 resumed_at: int) -> Member:
    """The member a damaged header cost, named as its header stores the name if it can."""
    # An extended header's own name is a placeholder its tool wrote (././@LongLink).
    stored = b"" if fault.data_skipped else fault.block[:100].split(b"\0", 1)[0]
    readable = bool(stored) and all(byte >= 32 for byte in stored)
    name = (names.decode(stored.decode("utf-8", "surrogateescape")) if readable
            else f"(member at byte {fault.offset:,})")
    reason = (f"its tar header (at byte {fault.offset:,}) {fault.problem}: the archive is "
              f"damaged; {resumed_at - fault.offset:,} bytes skipped to the next valid header")

    def opener() -> BinaryIO:
        raise CorruptDocument(reason, file=f"{display}/{name}")

    return Member(name=name, open=opener, size=None, compressed_size=None)


class _HeaderFault(Exception):
    """A tar header block that tarfile could not read, and why.

    ``kind`` is ``eof`` for no data at all, ``zeros`` for a zero block (the
    end-of-archive marker), ``cut`` for a block cut short and ``invalid`` for one
    that fails its checksum, or whose extended data (``in_extended_data``: the data
    was read, the reader stands past it) does not parse. ``data_skipped`` is how many
    bytes after the block belong to it and are passed over unread. ``offset`` is that
    of the member's header, once known.
    """

    def __init__(self, block: bytes, problem: str, *, in_extended_data: bool = False,
                 data_skipped: int = 0) -> None:
        super().__init__(problem)
        self.block = block
        self.problem = problem
        self.offset = -1
        self.in_extended_data = in_extended_data
        self.data_skipped = data_skipped
        if in_extended_data:
            self.kind = "invalid"
        elif not block:
            self.kind = "eof"
        elif len(block) < BLOCK:
            self.kind = "cut"
        elif block.count(0) == BLOCK:
            self.kind = "zeros"
        else:
            self.kind = "invalid"


class _Refused(ValueError):
    """Extended data goblin will not read, the reason its text."""


class _TarReader(tarfile.TarFile):
    """A TarFile whose first header may be a valid one whose extended data fails.

    tarfile reads the first header while it opens the archive, and a failure there
    would say the file is no tar at all; a header block that is a tar's (its checksum
    right) is a tar's, so such a failure is kept and met as the first member's instead.
    """

    first_fault: _HeaderFault | None = None

    def next(self) -> tarfile.TarInfo | None:
        try:
            return super().next()
        except _HeaderFault as fault:
            # offsets start at 0 and only grow: a member at 0 is the archive's first
            start = fault.offset if fault.offset >= 0 else self.offset
            if start != 0 or not (fault.in_extended_data or fault.data_skipped):
                raise
            self.first_fault = fault
            return None


def _next_info(archive: tarfile.TarFile) -> tarfile.TarInfo | None:
    """``archive.next()``, raising first the fault kept while the archive opened."""
    if isinstance(archive, _TarReader) and archive.first_fault is not None:
        fault, archive.first_fault = archive.first_fault, None
        raise fault
    return archive.next()


class _CheckedTarInfo(tarfile.TarInfo):
    """A TarInfo whose header failures reach the reader instead of ending the archive.

    tarfile takes a header it cannot read after the first for the end of the
    archive; an exception not its own passes through ``TarFile.next`` instead.
    """

    @classmethod
    def fromtarfile(cls, archive: tarfile.TarFile) -> _CheckedTarInfo:
        start = archive.offset
        try:
            return super().fromtarfile(archive)
        except _Refused as exc:
            problem = str(exc)
        except (tarfile.HeaderError, ValueError) as exc:
            # A header block that fails is raised by frombuf below; what fails here is
            # the extended data after one (a pax record of length 0, a sparse map that
            # is no numbers), which tarfile takes for the end of the archive.
            problem = f"holds extended data that does not parse ({exc})"
        fault = _HeaderFault(b"", problem, in_extended_data=True)
        fault.offset = start
        if archive.fileobj is not None:
            # Once the member's own header was read, tarfile knows where the member ends:
            # its data goes with it, unread.
            fault.data_skipped = max(0, archive.offset - archive.fileobj.tell())
        raise fault

    def _proc_gnusparse_10(self, member: tarfile.TarInfo, pax_headers: dict[str, str],
                           archive: tarfile.TarFile) -> None:
        """GNU's sparse format 1.0, whose map opens the member's data: decimal numbers one
        a line, the count of extents, then each one's offset and size.

        tarfile reads any count, a line at a time (a megabyte or two a second), so a map
        of 'O' lines ran for minutes; here the count is bounded and the lines read whole.
        """
        stream = archive.fileobj
        assert stream is not None
        count_line, _, rest = stream.read(BLOCK).partition(b"\n")
        count = int(count_line)
        if count > _MOST_SPARSE_EXTENTS:
            raise _Refused(f"declares a sparse map of {count:,} extents, more than the "
                           f"{_MOST_SPARSE_EXTENTS:,} goblin reads")
        blocks = [rest]
        lines = rest.count(b"\n")
        while lines < 2 * count:
            block = stream.read(BLOCK)
            if not block:
                raise ValueError("the sparse map is cut short")
            blocks.append(block)
            lines += block.count(b"\n")
        numbers = [int(line) for line in b"".join(blocks).split(b"\n", 2 * count)[:2 * count]]
        member.offset_data = stream.tell()
        # typeshed says bytes; tarfile keeps (offset, size) pairs there
        member.sparse = list(zip(numbers[::2], numbers[1::2], strict=True))  # type: ignore[assignment]

    def _proc_pax(self, archive: tarfile.TarFile) -> tarfile.TarInfo:
        """tarfile reads a pax header's data with its block padding and takes a record for
        as long as its length field says: a record running past the data read the padding
        (a name ending in NULs, refusing the member it named). Here the records must fit
        the data, each ending in a newline, as GNU tar and bsdtar require."""
        stream = archive.fileobj
        assert stream is not None
        padded = stream.read(self.size + -self.size % BLOCK)
        problem = _pax_records_problem(padded[: self.size])
        if problem:
            raise tarfile.HeaderError(problem)
        archive.fileobj = _Replayed(padded, stream)  # type: ignore[assignment,arg-type]
        try:
            return super()._proc_pax(archive)  # type: ignore[misc]
        finally:
            archive.fileobj = stream

    @classmethod
    def frombuf(cls, buf: bytes | bytearray, encoding: str, errors: str) -> _CheckedTarInfo:
        try:
            info = super().frombuf(buf, encoding, errors)
        except tarfile.HeaderError as exc:
            raise _HeaderFault(bytes(buf), _checksum_said(exc)) from None
        if info.type in _EXTENDED_HEADERS and info.size > _LONGEST_EXTENDED_HEADER:
            # tarfile reads an extended header's data whole into memory, and a
            # compressed one of gigabytes costs a few kilobytes.
            raise _HeaderFault(
                bytes(buf), f"declares {info.size:,} bytes of extended data (a long name or "
                f"attributes), more than the {_LONGEST_EXTENDED_HEADER:,} any needs",
                data_skipped=info.size + -info.size % BLOCK)
        if bytes(buf[257:265]) == tarfile.GNU_MAGIC and buf[345] and \
                info.type not in tarfile.GNU_TYPES:
            # A GNU header keeps the access and change times where a POSIX one keeps a
            # name prefix (GNU tar's incremental dumps fill them): tarfile put them in
            # front of the name (15305106104/data/a.txt for data/a.txt).
            name = bytes(buf[:100]).split(b"\0", 1)[0].decode(encoding, errors)
            info.name = name.rstrip("/") if info.isdir() else name
        return info


_PAX_RECORD_START = re.compile(rb"(\d+) [^=\n]+=")


def _pax_records_problem(data: bytes) -> str:
    """Why a pax header's records do not fit its data ('' when they do); NUL padding
    after the last record is allowed."""
    position = 0
    while position < len(data) and data[position:].strip(b"\0"):
        match = _PAX_RECORD_START.match(data, position)
        if match is None:
            return f"a pax record at byte {position} has no length and keyword"
        end = position + int(match.group(1))
        if end > len(data):
            return (f"a pax record at byte {position} runs to byte {end}, past the "
                    f"{len(data)} bytes of its header's data")
        if end <= match.end() or data[end - 1:end] != b"\n":
            return f"a pax record at byte {position} does not end in a newline"
        position = end
    return ""


class _Replayed:
    """A stream whose first bytes are given again: tarfile reads a pax header's data
    itself, after it was checked."""

    def __init__(self, first: bytes, rest: BinaryIO) -> None:
        self._first = first
        self._rest = rest

    def read(self, size: int = -1) -> bytes:
        if not self._first:
            return self._rest.read(size)
        if 0 <= size <= len(self._first):
            given, self._first = self._first[:size], self._first[size:]
            return given
        given, self._first = self._first, b""
        return given + self._rest.read(-1 if size < 0 else size - len(given))

    def __getattr__(self, name: str) -> object:
        return getattr(self._rest, name)


def _checksum_said(exc: tarfile.HeaderError) -> str:
    text = str(exc)
    return "fails its checksum" if "checksum" in text else text


def _member(archive: tarfile.TarFile, info: tarfile.TarInfo, display: str,
            names: _NameDecoder, meter: ByteMeter | None) -> Member:
    name = names.decode(info.name)
    kind = _kind(info)
    note = _VOLUME_NOTES.get(info.type, "") if kind == "volume" else ""

    def opener() -> BinaryIO:
        with translated(f"{display}/{name}", "reading the member"):
            inner = archive.extractfile(info)
        if inner is None:
            raise tarfile.ReadError(f"{name} has no data")
        return GuardedStream(inner, f"{display}/{name}", meter=meter)  # type: ignore[return-value]

    return Member(
        name=name,
        open=opener,
        size=info.size if kind == "file" else 0,
        compressed_size=None,
        kind=kind,
        mode=info.mode,
        link_target=names.decode(info.linkname) if info.linkname else None,
        note=note,
    )


#: GNU tar's headers that hold no file of their own: a volume label (``tar -V``) and the
#: rest of a file begun on the previous volume of a multi-volume tar (``tar -M``).
_VOLUME_NOTES = {
    b"V": "the tar's volume label (GNU tar -V); it holds no file",
    b"M": "the rest of a file begun on the previous volume of a multi-volume tar "
          "(GNU tar -M); read it with that volume",
}


#: GNU tar's incremental dumps store each folder as this type, its data the list of the
#: names it held at the time of the dump.
_DUMPED_FOLDER = b"D"


def _kind(info: tarfile.TarInfo) -> MemberKind:
    if info.type in _VOLUME_NOTES:
        return "volume"
    if info.type == _DUMPED_FOLDER:
        return "dir"
    if info.isreg() or info.type not in tarfile.SUPPORTED_TYPES:
        # A type tar does not know (a vendor's letter) holds data like a file's: GNU tar
        # extracts it "as normal file" and tarfile reads it as one, so it is no device.
        return "file"
    if info.isdir():
        return "dir"
    if info.issym():
        return "symlink"
    if info.islnk():
        return "hardlink"
    if info.ischr() or info.isblk():
        return "device"
    if info.isfifo():
        return "fifo"
    return "other"


class _NameDecoder:
    """Decodes legacy-encoded tar names, guessing from every such name seen so far.

    A streamed tar cannot be listed ahead, so the guess grows with the names:
    more text, a surer guess.
    """

    def __init__(self, forced: str) -> None:
        self.forced = forced
        self.seen: list[bytes] = []

    def decode(self, name: str) -> str:
        raw = raw_from_surrogates(name)
        if raw is None and not self.forced:
            return name
        if raw is None:
            raw = name.encode("utf-8")
        self.seen.append(raw)
        return decode_name(raw, guess_encoding(self.seen[-64:], self.forced))
