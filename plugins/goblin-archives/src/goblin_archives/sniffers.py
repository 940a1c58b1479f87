"""What the built-in magic sniffer cannot see: tars without magic, more archive signatures,
zips and RARs with something glued in front, later volumes of split sets."""

from __future__ import annotations

import zlib

from goblin_archives.tar_header import is_tar_header
from goblin_archives.volumes import VOLUME_MIME, later_volume
from goblin_core.engines import BaseEngine
from goblin_core.model import FileType
from goblin_core.source import Source

# (offset, signature, mime, ext)
_SIGNATURES: tuple[tuple[int, bytes, str, str], ...] = (
    (0, b"!<arch>\n", "application/x-archive", "ar"),
    (0, b"LZIP", "application/x-lzip", "lz"),
    (0, b"\x02\x21\x4c\x18", "application/x-lz4", "lz4"),  # lz4 -l, the legacy format
    (0, b"\x89LZO\x00\r\n\x1a\n", "application/x-lzop", "lzo"),
    (7, b"**ACE**", "application/x-ace-compressed", "ace"),
    (20, b"\xdc\xa7\xc4\xfd", "application/x-zoo", "zoo"),
    (0, b"MSWIM\x00\x00\x00", "application/x-ms-wim", "wim"),
    (0, b"ITSF\x03\x00\x00\x00", "application/vnd.ms-htmlhelp", "chm"),
    (0, b"ALZ\x01", "application/x-alz-compressed", "alz"),
    (0, b"RZIP", "application/x-rzip", "rz"),
    (0, b"LRZI", "application/x-lrzip", "lrz"),
    (0, b"DMS!", "application/x-dms", "dms"),
    (0, b"conectix", "application/x-vhd", "vhd"),  # a dynamic VHD's copy of its footer
    (0, b"zPQ", "application/zpaq", "zpaq"),
    # zpaq's journaling archives (what zpaq 7 writes) open with its 13-byte locator tag
    (0, b"7kSt\xa01\x83\xd3\x8c\xb2(\xb0\xd3", "application/zpaq", "zpaq"),
    (0, b"\x71\xc7", "application/x-cpio", "cpio"),
    (0, b"\x5d\x00\x00", "application/x-lzma", "lzma"),
    (0, b"WARC/1.", "application/warc", "warc"),
    (0, b"xar!", "application/x-xar", "xar"),
)
_GZIP = b"\x1f\x8b"
_VHD = b"conectix"
_VHD_FOOTER = 512
_EXECUTABLES = (b"MZ", b"\x7fELF")
_RAR4 = b"Rar!\x1a\x07\x00"
_RAR5 = b"Rar!\x1a\x07\x01\x00"
_RAR_HEADER = 263  # the longest main header the sniffer checks (RAR 5: CRC, size, body)
_SFX_STUB = 2 * 1024 * 1024  # how far into a program rarfile looks for the archive
_WARC = b"WARC/1."
SEVEN_ZIP = b"7z\xbc\xaf\x27\x1c"
_SEVEN_ZIP_HEADER = 32  # signature, version, start header CRC, next header offset/size/CRC
_ZIP_END = b"PK\x05\x06"
_ZIP_TAIL = 65_557  # the end-of-central-directory record plus the longest comment
_ADF_SIZES = (80 * 2 * 11 * 512, 80 * 2 * 22 * 512)  # double and high density
_ARC_NAME = 13  # a DOS name of up to 12 bytes and its NUL


class ArchiveSniffer(BaseEngine):
    """Archive signatures beyond the built-in ones, tar by header checksum, zip by its tail."""

    name = "archive.sniffer"
    priority = 5

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        if head.startswith(_GZIP) and _gunzipped_start(head).startswith(_WARC):
            # A .warc.gz is gzipped record by record: read as a WARC, each capture is a
            # member, where gunzipped first it would be one member holding them all.
            return FileType("application/warc", "warc", 0.9)
        for offset, signature, mime, ext in _SIGNATURES:
            if head[offset:offset + len(signature)] == signature:
                if mime == "application/x-lzma" and not _plausible_lzma(head):
                    continue
                return FileType(mime, ext, 0.7)
        if _plausible_arc(head):
            return FileType("application/x-arc", "arc", 0.5)
        if head[:3] == b"DOS" and head[3] < 8 and source.size in _ADF_SIZES:
            # An Amiga floppy image: the boot block's "DOS" and a flag byte, on a disk of
            # one of the two sizes Amiga drives wrote.
            return FileType("application/x-adf", "adf", 0.5)
        if source.tail(_VHD_FOOTER).startswith(_VHD):
            # A fixed-size VHD is the raw disk with its 512-byte footer after it: nothing
            # at the front says what it is (a dynamic one repeats the footer there).
            return FileType("application/x-vhd", "vhd", 0.5)
        if is_tar_header(head[:512]):
            return FileType("application/x-tar", "tar", 0.6)
        if rar_behind_program(source) is not None:
            # A RAR self-extractor (setup.exe made by WinRAR): the archive follows the program.
            return FileType("application/vnd.rar", "rar", 0.4)
        if seven_zip_behind_program(source) is not None:
            # A 7-Zip self-extractor (7z a -sfx): the same, for a 7z.
            return FileType("application/x-7z-compressed", "7z", 0.4)
        if head[:4] != b"%PDF" and _ZIP_END in source.tail(_ZIP_TAIL):
            # Central directory at the end, something else in front: a self-extractor,
            # a spanned segment. Lower confidence than a real zip signature.
            return FileType("application/zip", "zip", 0.4)
        if later_volume(source):
            # x.7z.002, x.z02: bytes from the middle of an archive, named as a later part.
            return FileType(VOLUME_MIME, source.extension, 0.2)
        return None


def rar_behind_program(source: Source) -> int | None:
    """Where a RAR archive starts within the first bytes of a program, or None.

    The signature must be followed by the archive's main header (a RAR 4 one by its
    type, a RAR 5 one by its checksum): a program may hold the signature as a constant.

    >>> sig = b"Rar!\\x1a\\x07\\x01\\x00"
    >>> main = bytes([3, 1, 0, 0])  # size, type 1 (main), no header or archive flags
    >>> header = zlib.crc32(main).to_bytes(4, "little") + main
    >>> rar_behind_program(Source.from_bytes(b"MZ" + bytes(100) + sig + header))
    102
    >>> rar_behind_program(Source.from_bytes(b"MZ" + bytes(100) + sig + bytes(7))) is None
    True
    """
    if not source.head(4).startswith(_EXECUTABLES):
        return None
    stub = source.read(_SFX_STUB)
    for signature, valid in ((_RAR4, _rar4_main), (_RAR5, _rar5_main)):
        at = stub.find(signature, 1)
        while at > 0:
            if valid(stub[at + len(signature):at + len(signature) + _RAR_HEADER]):
                return at
            at = stub.find(signature, at + 1)
    return None


def seven_zip_behind_program(source: Source) -> int | None:
    """Where a 7z archive starts within the first bytes of a program, or None.

    The signature must be followed by the archive's start header, whose CRC it carries,
    pointing inside the file: a program may hold the signature as a constant (7-Zip's
    own self-extractor module does).

    >>> start = (0).to_bytes(8, "little") + (0).to_bytes(8, "little") + bytes(4)
    >>> header = SEVEN_ZIP + b"\\x00\\x04" + zlib.crc32(start).to_bytes(4, "little") + start
    >>> seven_zip_behind_program(Source.from_bytes(b"MZ" + bytes(100) + header))
    102
    >>> seven_zip_behind_program(Source.from_bytes(b"MZ" + bytes(100) + SEVEN_ZIP + bytes(26)))
    """
    if not source.head(4).startswith(_EXECUTABLES):
        return None
    stub = source.read(_SFX_STUB + _SEVEN_ZIP_HEADER)
    at = stub.find(SEVEN_ZIP, 1)
    while 0 < at <= _SFX_STUB:
        header = stub[at + len(SEVEN_ZIP):at + _SEVEN_ZIP_HEADER]
        start = header[6:]
        if len(header) == _SEVEN_ZIP_HEADER - len(SEVEN_ZIP) and \
                zlib.crc32(start).to_bytes(4, "little") == header[2:6]:
            next_offset = int.from_bytes(start[:8], "little")
            next_size = int.from_bytes(start[8:16], "little")
            if at + _SEVEN_ZIP_HEADER + next_offset + next_size <= source.size:
                return at
        at = stub.find(SEVEN_ZIP, at + 1)
    return None


def _rar4_main(header: bytes) -> bool:
    return len(header) >= 7 and header[2] == 0x73


def _rar5_main(header: bytes) -> bool:
    size, used = 0, 0
    for shift, byte in zip(range(0, 21, 7), header[4:7], strict=False):
        size |= (byte & 0x7F) << shift
        used += 1
        if not byte & 0x80:
            break
    body = header[4:4 + used + size]
    return 0 < size <= _RAR_HEADER - 7 and len(body) == used + size and \
        zlib.crc32(body).to_bytes(4, "little") == header[:4]


def _gunzipped_start(head: bytes) -> bytes:
    """The first bytes ``head`` inflates to, or b"" when it does not."""
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, len(_WARC))
    except zlib.error:
        return b""


def _plausible_arc(head: bytes) -> bool:
    """An ARC header: its 0x1A mark, a method of ARC's own (1 to 9), then a DOS name
    ended by a NUL within its 13 bytes.

    >>> _plausible_arc(b"\\x1a\\x02ATA.TXT\\x00" + bytes(20))
    True
    >>> _plausible_arc(b"\\x1a\\x45\\xdf\\xa3" + bytes(20))  # Matroska's mark
    False
    """
    if len(head) < 2 + _ARC_NAME or head[0] != 0x1A or not 1 <= head[1] <= 9:
        return False
    name = head[2:2 + _ARC_NAME].split(b"\x00", 1)
    return len(name) == 2 and len(name[0]) > 0 and all(0x20 < b < 0x7F for b in name[0])


def _plausible_lzma(head: bytes) -> bool:
    """An lzma-alone header: properties 0x5d, a dictionary of 2^n or 3 * 2^n bytes."""
    if len(head) < 13:
        return False
    dictionary = int.from_bytes(head[1:5], "little")
    if dictionary < 4096:
        return False
    base = dictionary // 3 if dictionary % 3 == 0 else dictionary
    return base & (base - 1) == 0
