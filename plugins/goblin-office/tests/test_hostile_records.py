"""Hostile input to goblin's own record readers: PowerPoint 97-2003 records, the objects
of compound files, TNEF property blocks.

Each file is small and asks for a great deal: text atoms or containers by the tens of
thousands, one record or stream named again and again, counts and sizes the bytes
present cannot hold. Each must be read in seconds and bounded memory, its honest part
kept, or refused clearly.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator, Mapping

import pytest
from bounds import bounded
from packages import compound_file, ppt_record
from tnefdata import ATTACH_TITLE, ATTACHMENT, MAPI_PROPS, MESSAGE, SUBJECT, attribute, stream

from goblin_core import default_registry
from goblin_core.config import build_config
from goblin_core.engines import ArchiveLimits
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office.embedded import ole_children, storage_children, unwrap
from goblin_office.pptrecords import embedded_storages, slide_texts

pytestmark = pytest.mark.usefixtures("warm_plugins")


# -- PowerPoint 97-2003 records ----------------------------------------------------------

_TEXT_CHARS, _SLIDE_PERSIST, _SLIDE_LIST, _DOCUMENT, _SLIDE = 0x0FA0, 0x03F3, 0x0FF0, 0x03E8, 0x03EE
_EX_EMBED, _EX_OLE_OBJ_ATOM, _EX_OLE_OBJ_STG = 0x0FCC, 0x0FC3, 0x1011
_USER_EDIT, _PERSIST_DIRECTORY, _CURRENT_USER = 0x0FF5, 0x1772, 0x0FF6


def _chars(text: str) -> bytes:
    return ppt_record(_TEXT_CHARS, text.encode("utf-16-le"))


def _deck_stream(drawing: bytes) -> bytes:
    """A one-slide record stream: the slide list with its title, then a slide whose
    drawing is ``drawing``."""
    listed = ppt_record(_SLIDE_LIST, ppt_record(_SLIDE_PERSIST, bytes(20)) + _chars("Pauta"),
                        container=True)
    return ppt_record(_DOCUMENT, listed, container=True) + ppt_record(_SLIDE, drawing,
                                                                      container=True)


def test_a_slide_of_forty_thousand_text_atoms_is_read_in_seconds(read) -> None:  # type: ignore[no-untyped-def]
    drawing = b"".join(_chars(f"item {number}") for number in range(40_000))
    data = compound_file({"PowerPoint Document": _deck_stream(drawing)})
    with bounded(seconds=8):
        document = read(data, "itens.ppt")
    assert document.parsed_by == ("office.ppt_records",)
    lines = document.text.splitlines()
    assert lines[:2] == ["Pauta", "item 0"] and lines[-1] == "item 39999"
    assert len(lines) == 40_001


def test_containers_nested_twenty_five_thousand_deep_are_walked_in_seconds() -> None:
    depth = 25_000
    atoms = _chars("fundo") * depth
    # each container holds the ones after it and all the atoms
    opening = b"".join(
        struct.pack("<HHI", 0x000F, 0xF003, len(atoms) + 8 * (depth - 1 - level))
        for level in range(depth)
    )
    with bounded(seconds=5):
        slides = slide_texts(_deck_stream(opening + atoms))
    assert slides == [["Pauta", "fundo"]]


def _object_atom(persist_id: int) -> bytes:
    """An ExEmbed container whose ExOleObjAtom names persist id ``persist_id``."""
    atom = ppt_record(_EX_OLE_OBJ_ATOM, struct.pack("<6I", 1, 2, persist_id, 0, persist_id, 0))
    return ppt_record(_EX_EMBED, atom, container=True)


def _with_objects(
    persist_ids: range, records: bytes, directory: Mapping[int, int], directory_reads: int = 1
) -> tuple[bytes, bytes]:
    """(record stream, Current User stream): ExEmbed containers naming ``persist_ids``,
    then ``records``, then one persist directory mapping ids to offsets of ``records``
    named by ``directory_reads`` chained UserEditAtoms."""
    stream_bytes = _deck_stream(b"".join(_object_atom(i) for i in persist_ids))
    records_at = len(stream_bytes)
    stream_bytes += records
    body = b"".join(struct.pack("<II", (1 << 20) | key, records_at + offset)
                    for key, offset in directory.items())
    directory_at = len(stream_bytes)
    stream_bytes += ppt_record(_PERSIST_DIRECTORY, body)
    previous = 0
    for _ in range(directory_reads):
        edit_at = len(stream_bytes)
        stream_bytes += ppt_record(
            _USER_EDIT, struct.pack("<IHBBIIII", 0, 0, 0, 3, previous, directory_at, 0, 0)
        )
        previous = edit_at
    return stream_bytes, ppt_record(_CURRENT_USER, struct.pack("<III", 20, 0xE391C05F, previous))


def _edits_naming(directories: list[int], prefix: bytes) -> tuple[bytes, bytes]:
    """``prefix`` followed by one chained UserEditAtom per offset in ``directories``."""
    stream_bytes, previous = prefix, 0
    for directory_at in directories:
        edit_at = len(stream_bytes)
        stream_bytes += ppt_record(
            _USER_EDIT, struct.pack("<IHBBIIII", 0, 0, 0, 3, previous, directory_at, 0, 0)
        )
        previous = edit_at
    return stream_bytes, ppt_record(_CURRENT_USER, struct.pack("<III", 20, 0xE391C05F, previous))


@pytest.mark.parametrize("overlapping", [False, True])
def test_persist_directories_are_read_at_most_once_over(overlapping: bool) -> None:
    """Five thousand edits each naming a persist directory of 20,000 entries: one
    directory named again by each, or directories laid over each other 8 bytes apart,
    each running to the end of the stream."""
    storage = compound_file({"CONTENTS": b"%PDF-1.4 sem texto"})
    stored = ppt_record(_EX_OLE_OBJ_STG, storage)
    if overlapping:
        edits = 5_000
        head = _deck_stream(_object_atom(1))
        region_at = len(head) + len(stored)
        region = bytearray()
        for index in range(edits):
            # read as the directory before it, each header is an entry of 375 ids
            region += struct.pack("<HHI", 0, _PERSIST_DIRECTORY, 8 * (edits - index - 1) + 80_000)
        region += struct.pack("<II", (1 << 20) | 1, len(head)) * 10_000
        stream_bytes, user = _edits_naming(
            [region_at + 8 * index for index in range(edits)], head + stored + bytes(region)
        )
    else:
        stream_bytes, user = _with_objects(range(1, 2), stored, dict.fromkeys(range(1, 20_001), 0),
                                           directory_reads=5_000)
    with bounded(seconds=5):
        storages = embedded_storages(stream_bytes, user, ArchiveLimits())
    assert storages == [storage]


def test_an_object_record_named_by_many_persist_ids_is_one_object() -> None:
    storage = compound_file({"CONTENTS": b"%PDF-1.4 um so"})
    stream_bytes, user = _with_objects(
        range(1, 501), ppt_record(_EX_OLE_OBJ_STG, storage), dict.fromkeys(range(1, 501), 0)
    )
    assert embedded_storages(stream_bytes, user, ArchiveLimits()) == [storage]


def test_object_records_laid_over_each_other_hold_at_most_the_stream() -> None:
    """Two thousand ExOleObjStg headers 8 bytes apart, each running to the end of the
    stream: read as written, each would copy the rest of it again."""
    count, tail = 2_000, compound_file({"CONTENTS": b"%PDF-1.4 embaixo"})
    records = b"".join(
        struct.pack("<HHI", 0, _EX_OLE_OBJ_STG, 8 * (count - index - 1) + len(tail))
        for index in range(count)
    ) + tail
    directory = {index + 1: 8 * index for index in range(count)}
    stream_bytes, user = _with_objects(range(1, count + 1), records, directory)
    with bounded(seconds=5, megabytes=40):
        storages = embedded_storages(stream_bytes, user, ArchiveLimits())
    assert sum(len(storage) for storage in storages) <= len(stream_bytes)


def test_a_compressed_object_past_the_ratio_limit_is_left_out() -> None:
    """30 MB of zeros behind a compound file's header, stored compressed in 30 KB: as
    archives are, an object inflating past limits.max_ratio (and its grace) is refused."""
    bomb = compound_file({"CONTENTS": b"%PDF-1.4 bomba"}) + bytes(30 * 1024**2)
    packed = ppt_record(_EX_OLE_OBJ_STG, struct.pack("<I", len(bomb)) + zlib.compress(bomb, 9), 1)
    stream_bytes, user = _with_objects(range(1, 2), packed, {1: 0})
    with bounded(seconds=5, megabytes=20):
        assert embedded_storages(stream_bytes, user, ArchiveLimits()) == []
    honest = compound_file({"CONTENTS": b"%PDF-1.4 " + bytes(range(256)) * 200})
    packed = ppt_record(_EX_OLE_OBJ_STG, struct.pack("<I", len(honest)) + zlib.compress(honest), 1)
    stream_bytes, user = _with_objects(range(1, 2), packed, {1: 0})
    assert embedded_storages(stream_bytes, user, ArchiveLimits()) == [honest]


# -- objects of compound files ---------------------------------------------------------------


def _entry_offsets(data: bytes) -> Iterator[tuple[int, str]]:
    """(offset, name) of each directory entry of a file ``compound_file`` wrote."""
    first_directory = struct.unpack_from("<I", data, 48)[0]
    pos = 512 * (first_directory + 1)
    while pos + 128 <= len(data):
        length = struct.unpack_from("<H", data, pos + 64)[0]
        if length == 0:
            return
        yield pos, data[pos : pos + length - 2].decode("utf-16-le")
        pos += 128


def _rewired(data: bytes, name: str, size: int, loop: bool = False) -> bytes:
    """``data`` with every stream called ``name`` pointing at the first one's sectors and
    claiming ``size`` bytes; with ``loop``, that stream's first sector links to itself."""
    out = bytearray(data)
    starts = [struct.unpack_from("<I", data, pos + 116)[0]
              for pos, entry in _entry_offsets(data) if entry == name]
    for pos, entry in _entry_offsets(data):
        if entry == name:
            struct.pack_into("<IQ", out, pos + 116, starts[0], size)
    if loop:
        struct.pack_into("<I", out, 512 + 4 * starts[0], starts[0])  # the FAT's first sector
    return bytes(out)


def _config():  # type: ignore[no-untyped-def]
    return build_config(default_registry().namespaces)


def test_an_embedded_stream_claiming_more_than_its_file_is_not_followed() -> None:
    """A 6 KB compound file whose CONTENTS chain loops on its first sector and claims
    300 MB: olefile would repeat that sector for every one of them."""
    storage = _rewired(compound_file({"CONTENTS": b"%PDF-1.4 " + bytes(5000)}), "CONTENTS",
                       300 * 1024**2, loop=True)
    source = Source.from_bytes(b"", "apresentacao.ppt")
    with bounded(seconds=5, megabytes=20):
        children = storage_children(source, [storage], _config())
        name, data = unwrap("oleObject1.bin", storage)
    assert [child.display_name for child in children] == ["apresentacao.ppt/object1.bin"]
    assert children[0].bytes() == storage
    assert (name, data) == ("oleObject1.bin", storage)


def test_objects_sharing_one_stream_hold_at_most_the_file() -> None:
    """Three hundred object storages of a .doc whose packaged-file streams all point at
    one 1 MB stream: read as written, 300 MB of children from a 2 MB file."""
    payload = b"prazo final " * 90_000
    label = b"notas.txt\x00"
    body = b"\x02\x00" + label * 2 + bytes(8) + label + struct.pack("<I", len(payload)) + payload
    native = struct.pack("<I", len(body)) + body
    streams = {"WordDocument": b"memorando", "ObjectPool/_1/\x01Ole10Native": native}
    streams.update({f"ObjectPool/_{number}/\x01Ole10Native": b"-" for number in range(2, 301)})
    data = _rewired(compound_file(streams), "\x01Ole10Native", len(native))
    source = Source.from_bytes(data, "memorando.doc")
    with bounded(seconds=5, megabytes=60):
        children = ole_children(source, source, _config())
    assert children and children[0].bytes() == payload
    assert sum(len(child.bytes()) for child in children) <= len(data)


# -- TNEF ----------------------------------------------------------------------------------


def test_a_tnef_multi_valued_count_past_its_block_keeps_the_message(read) -> None:  # type: ignore[no-untyped-def]
    """A multi-valued PT_SHORT property claiming three million values in an 84-byte
    stream: each was an attribute with no bytes."""
    props = struct.pack("<IHHI", 1, 0x1002, 0x0E17, 3_000_000) + b"\x01\x00"
    data = stream(attribute(MESSAGE, SUBJECT, b"Assunto\x00"),
                  attribute(MESSAGE, MAPI_PROPS, props))
    with bounded(seconds=5, megabytes=60):
        document = read(data, "winmail.dat")
    assert document.text == "Subject: Assunto"


def test_a_tnef_attachment_attribute_before_its_attachment_fails_clearly(read) -> None:  # type: ignore[no-untyped-def]
    data = stream(attribute(MESSAGE, SUBJECT, b"Assunto\x00"),
                  attribute(ATTACHMENT, ATTACH_TITLE, b"notas.txt\x00"))
    with pytest.raises(CorruptDocument, match="truncated or damaged") as caught:
        read(data, "winmail.dat")
    assert "winmail.dat" in str(caught.value)
