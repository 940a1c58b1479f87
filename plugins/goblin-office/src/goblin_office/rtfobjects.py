r"""Objects and pictures embedded in RTF, as children.

An RTF object is a ``{\object ... {\*\objdata HEX}}`` group whose hex is an
OLE1 object (MS-OLEDS 2.2.4): version, format id, class name, topic and item
names, then the native data. A ``Package`` object's native data is the
packaged file (name and bytes); other classes (``Excel.Sheet.12``,
``Word.Document.8``, ``AcroExch.Document``) carry an OLE2 compound file,
unwrapped as the objects of zipped formats are (olefile). Pictures (``\pict``
with ``\pngblip`` or ``\jpegblip``: the formats OCR reads) come out only when
``office.images`` asks. Every object is held to the archive limits.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

from goblin_core.config import Config
from goblin_core.source import Source
from goblin_office.embedded import ObjectBudget, packaged_file, unique_name, unwrap

log = logging.getLogger(__name__)

_OBJDATA = b"{\\*\\objdata"
_PICT = b"{\\pict"
#: A brace, an escaped brace or backslash, or \binN: N raw bytes follow, braces among them.
_BRACE = re.compile(rb"\\bin(\d{1,10}) ?|\\[\\{}]|[{}]")
_GROUP = re.compile(rb"\{[^{}]*\}")
_CONTROL = re.compile(rb"\\[a-zA-Z]+-?[0-9]*")
_NON_HEX = re.compile(rb"[^0-9a-fA-F]")
_BLIPS = {b"\\pngblip": "png", b"\\jpegblip": "jpg"}
_EMBEDDED = 2  # OLE1 FormatID: 1 is a link (no data), 2 an embedded object
_CLASS_EXTENSIONS = (
    ("Excel.", "xls"),
    ("Word.", "doc"),
    ("PowerPoint.", "ppt"),
    ("AcroExch.", "pdf"),
)


def rtf_children(data: bytes, source: Source, config: Config) -> tuple[list[Source], list[str]]:
    """Children for the embedded objects (and, when asked, pictures) of an RTF document.

    Returns the children and what was skipped for being over the limits.
    """
    if not config.get("office", "embedded", True):
        return [], []
    budget = ObjectBudget.from_config(config)
    found = list(_objects(data, budget))
    if config.get("office", "images", False):
        found.extend(_pictures(data, budget))
    seen: set[str] = set()
    return [source.child(unique_name(name, seen), blob) for name, blob in found], budget.skipped


def _objects(data: bytes, budget: ObjectBudget) -> Iterator[tuple[str, bytes]]:
    for number, body in enumerate(_group_bodies(data, _OBJDATA), start=1):
        name = f"object{number}"
        blob = _hex_payload(body, name, budget)
        if blob is None:
            continue
        parsed = ole1_native(blob)
        if parsed is None:
            log.debug("%s: not an embedded OLE1 object (a link, or damaged)", name)
            continue
        class_name, native = parsed
        child = _object_file(name, class_name, native)
        if child is not None:
            yield child


def _object_file(name: str, class_name: str, native: bytes) -> tuple[str, bytes] | None:
    if class_name == "Package":
        return packaged_file(native)
    extension = next((e for p, e in _CLASS_EXTENSIONS if class_name.startswith(p)), "bin")
    return unwrap(f"{name}.{extension}", native) if native else None


def _pictures(data: bytes, budget: ObjectBudget) -> Iterator[tuple[str, bytes]]:
    for number, body in enumerate(_group_bodies(data, _PICT), start=1):
        extension = next((e for blip, e in _BLIPS.items() if blip in body), None)
        if extension is None or b"\\bin" in body:
            continue  # metafiles and bitmaps OCR cannot read, or raw binary we do not follow
        name = f"image{number}.{extension}"
        blob = _hex_payload(body, name, budget)
        if blob:
            yield name, blob


def without_binary_groups(data: bytes) -> bytes:
    """``data`` without its object and picture groups: hex that holds no text.

    The text reader walks every character; a document with a few pictures is mostly hex.
    """
    if _OBJDATA not in data and _PICT not in data:
        return data
    spans = sorted(_group_spans(data, _OBJDATA) + _group_spans(data, _PICT))
    kept, position = [], 0
    for start, end in spans:
        if start >= position:
            kept.append(data[position:start])
            position = end
    kept.append(data[position:])
    return b"".join(kept)


def _group_bodies(data: bytes, opener: bytes) -> Iterator[bytes]:
    for start, end in _group_spans(data, opener):
        yield data[start + len(opener) : end - 1]


def _group_spans(data: bytes, opener: bytes) -> list[tuple[int, int]]:
    """(start, end) of every group that opens with the control word ``opener``."""
    spans: list[tuple[int, int]] = []
    start = data.find(opener)
    while start >= 0:
        if data[start + len(opener) : start + len(opener) + 1].isalpha():
            start = data.find(opener, start + 1)  # a longer control word, not this group
            continue
        end = _group_end(data, start)
        if end is None:
            break  # unclosed: the file is truncated here
        spans.append((start, end))
        start = data.find(opener, end)
    return spans


def _group_end(data: bytes, start: int) -> int | None:
    depth = 0
    position = start
    while (match := _BRACE.search(data, position)) is not None:
        position = match.end()
        token = match.group(0)
        if match.group(1) is not None:
            position += int(match.group(1))
        elif token == b"{":
            depth += 1
        elif token == b"}":
            depth -= 1
            if depth == 0:
                return match.end()
    return None


def _hex_payload(body: bytes, name: str, budget: ObjectBudget) -> bytes | None:
    """The bytes a hex destination spells, its control words and subgroups left out."""
    digits = _NON_HEX.sub(b"", _CONTROL.sub(b"", _GROUP.sub(b"", body)))
    if not budget.allows(name, len(digits) // 2):
        return None
    try:
        return bytes.fromhex(digits[: len(digits) // 2 * 2].decode("ascii"))
    except ValueError as exc:
        log.debug("%s: hex data cannot be read: %s", name, exc)
        return None


def ole1_native(blob: bytes) -> tuple[str, bytes] | None:
    """(class name, native data) of an embedded OLE1 object; None for a link or damage.

    >>> ole1_native(bytes.fromhex("01050000 02000000 05000000") + b"Text\\0" + bytes(8)
    ...             + (3).to_bytes(4, "little") + b"abc")
    ('Text', b'abc')
    """
    if len(blob) < 12 or int.from_bytes(blob[4:8], "little") != _EMBEDDED:
        return None
    position = 8
    strings = []
    for _ in range(3):  # class name, topic name, item name
        text, position = _ansi_string(blob, position)
        if text is None:
            return None
        strings.append(text)
    size = int.from_bytes(blob[position : position + 4], "little")
    native = blob[position + 4 : position + 4 + size]
    if len(native) != size:
        return None
    return strings[0], native


def _ansi_string(blob: bytes, position: int) -> tuple[str | None, int]:
    length = int.from_bytes(blob[position : position + 4], "little")
    end = position + 4 + length
    if length > len(blob) or end > len(blob):
        return None, position
    return blob[position + 4 : end].rstrip(b"\x00").decode("latin-1"), end
