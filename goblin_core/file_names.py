"""File names as outputs can hold them: readable text, and no longer than a file system takes."""

from __future__ import annotations

import hashlib
import re

#: Bytes a file name (one path component) may take on common file systems (ext4, XFS, APFS).
NAME_MAX = 255


#: A byte of a file name that is not UTF-8, as Python decodes it (PEP 383).
_UNDECODED_BYTE = re.compile("[\udc80-\udcff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def readable_name(name: str) -> str:
    """``name`` as text any output can hold: the bytes of a file name that are not UTF-8
    (which Python keeps as lone surrogates, PEP 383) written as ``%NN``.

    A folder copied from an old Latin-1 share names its files that way; left as they
    are, the names could be written into no UTF-8 result, manifest or JSON. A
    backslash escape would read as a Windows folder separator in an output path.

    >>> readable_name("licita\\udce7\\udce3o.pdf")
    'licita%E7%E3o.pdf'
    >>> readable_name("licitação.pdf")
    'licitação.pdf'
    """
    if not _SURROGATE.search(name):
        return name
    name = _UNDECODED_BYTE.sub(lambda byte: f"%{ord(byte.group()) - 0xDC00:02X}", name)
    return _SURROGATE.sub("\ufffd", name)  # a surrogate that stands for no byte


def fitting_name(name: str) -> str:
    """``name`` (one path component) cut to ``NAME_MAX`` bytes when longer, keeping its
    extension; a cut name ends in ``~`` and eight hex digits of the whole name's hash,
    so two long names that begin alike stay two files.

    >>> fitting_name("ata.pdf")
    'ata.pdf'
    >>> cut = fitting_name("a" * 300 + ".pdf.txt")
    >>> len(cut.encode()), cut[-16:]
    (255, 'aaa~7230155a.txt')
    """
    if len(name.encode("utf-8")) <= NAME_MAX:
        return name
    stem, dot, ext = name.rpartition(".")
    if not dot or len(ext) > 16:
        stem, ext = name, ""
    suffix = f"~{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"
    suffix += f".{ext}" if ext else ""
    room = NAME_MAX - len(suffix.encode("utf-8"))
    return stem.encode("utf-8", "surrogatepass")[:room].decode("utf-8", "ignore") + suffix
