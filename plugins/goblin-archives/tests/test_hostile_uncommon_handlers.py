"""Hostile input for the handlers beyond zip, tar, gzip and 7z: WARC records and payloads,
and the members a system tool (patool's cpio) writes under names it cannot open or decode."""

from __future__ import annotations

import os
import shutil
import zlib
from collections.abc import Iterable
from pathlib import Path

import pytest
from archives_bounded import ChildRun, run_hostile

import goblin_core
from goblin_archives.http_payload import DECODERS
from goblin_archives.patool_handler import PATOOL_FORMATS, PatoolHandler
from goblin_core.unpack import unpack

#: Memory a hostile archive may take, well under what the bombs below took before.
MAX_RSS = 500 * 1024**2
MIB = 1 << 20


def _record(rec_type: str, uri: str, block_length: int, content_type: str) -> bytes:
    """A WARC record's header for a block of ``block_length`` bytes."""
    return (f"WARC/1.0\r\nWARC-Type: {rec_type}\r\nWARC-Target-URI: {uri}\r\n"
            "WARC-Record-ID: <urn:uuid:0>\r\nWARC-Date: 2025-01-01T00:00:00Z\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {block_length}\r\n\r\n").encode()


def _gzip(parts: Iterable[bytes]) -> bytes:
    """One gzip member of ``parts``, compressed as they come (never joined first)."""
    coder = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return b"".join([*(coder.compress(part) for part in parts), coder.flush()])


def _repeated(byte: bytes, size: int) -> Iterable[bytes]:
    block = byte * MIB
    for _ in range(size // MIB):
        yield block


def _fine() -> bytes:
    return _record("resource", "http://a.example/ok.txt", 4, "text/plain") + b"fine\r\n\r\n"


def _messages(run: ChildRun) -> str:
    """Every reason and error of both runs, and what either raised."""
    listed = [str(part) for key in ("members", "errors", "unpack_members", "unpack_errors")
              for entry in run.result.get(key, []) for part in entry]
    raised = [str(part) for key in ("raised", "unpack_raised") for part in run.result.get(key, [])]
    return " ".join(listed + raised)


def _filled_capture(tmp_path: Path, name: str, http: bytes, filler: bytes, size: int,
                    tail: bytes) -> ChildRun:
    """A gzipped WARC of one response: ``http``, ``size`` bytes of ``filler``, ``tail``
    (a few kilobytes on disk), run through the handler in a child process whose peak
    memory stays under MAX_RSS."""
    head = _record("response", f"http://a.example/{name}", len(http) + size + len(tail),
                   "application/http; msgtype=response")
    fixture = tmp_path / f"{name}.warc.gz"
    fixture.write_bytes(_gzip([head, http, *_repeated(filler, size), tail, b"\r\n\r\n"]))
    run = run_hostile(tmp_path, fixture)
    assert run.peak_rss < MAX_RSS, f"peaked at {run.peak_rss / MIB:.0f} MiB"
    return run


def test_a_chunk_declaring_half_a_gigabyte_is_read_a_piece_at_a_time(tmp_path: Path) -> None:
    size = 512 * MIB
    http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
            + b"%x\r\n" % size)
    run = _filled_capture(tmp_path, "big.txt", http, b"A", size, b"\r\n0\r\n\r\n")
    refused = [m for m in run.result["members"] if m[0] == "a.example/big.txt"]
    assert refused and refused[0][1] == "refused" and "limits.max_ratio" in refused[0][2]


def test_a_brotli_capture_is_decoded_a_block_at_a_time(tmp_path: Path) -> None:
    if "br" not in DECODERS:
        # py7zr brings brotli; under CI a release too old to stop at an output size fails
        if os.environ.get("CI"):
            pytest.fail("brotli >= 1.2 is not installed: br captures are not decoded")
        pytest.skip("no brotli that stops at an output size (brotli >= 1.2)")
    import brotli

    coder = brotli.Compressor(quality=4, lgwin=24)
    bomb = b"".join([*(coder.process(block) for block in _repeated(b"\0", 512 * MIB)),
                     coder.finish()])  # half a gigabyte in a few hundred bytes
    http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: br\r\n"
            b"Content-Length: %d\r\n\r\n" % len(bomb)) + bomb
    fixture = tmp_path / "br.warc"
    fixture.write_bytes(_record("response", "http://a.example/br.txt", len(http),
                                "application/http; msgtype=response") + http + b"\r\n\r\n")
    run = run_hostile(tmp_path, fixture)
    assert run.peak_rss < MAX_RSS, f"peaked at {run.peak_rss / MIB:.0f} MiB"
    refused = [m for m in run.result["members"] if m[0] == "a.example/br.txt"]
    assert refused and refused[0][1] == "refused" and "limits.max_ratio" in refused[0][2]


def test_an_endless_header_line_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    run = _filled_capture(tmp_path, "x.txt", b"HTTP/1.1 200 OK\r\nX-Filler: ", b"a", 600 * MIB,
                          b"\r\n\r\nbody")
    assert "a header runs past 1,048,576 bytes" in _messages(run)


def test_a_bomb_in_a_record_that_carries_no_document_is_stopped(tmp_path: Path) -> None:
    size = 1024 * MIB
    head = _record("metadata", "urn:x:notes", size, "text/plain")
    fixture = tmp_path / "metadata.warc.gz"
    fixture.write_bytes(_gzip([_fine()]) + _gzip([head, *_repeated(b"\0", size), b"\r\n\r\n"])
                        + _gzip([_fine()]))
    run = run_hostile(tmp_path, fixture)
    assert "limits.max_ratio" in _messages(run)
    assert run.result["texts"][1] == "fine"  # what came before the bomb is kept


def test_records_that_carry_no_document_count_against_the_member_limit(tmp_path: Path) -> None:
    request = _record("metadata", "urn:x:m", 0, "text/plain") + b"\r\n\r\n"
    fixture = tmp_path / "records.warc"
    fixture.write_bytes(_fine() + request * 1000)
    run = run_hostile(tmp_path, fixture, config={"limits": {"max_members": 100}})
    assert "more than limits.max_members (100) records that carry no document" \
        in _messages(run)
    assert run.result["texts"][1] == "fine"


def test_a_chunked_capture_with_trailer_fields_is_read_whole() -> None:
    http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
            b"5\r\nLicit\r\n6;ext=1\r\na\xc3\xa7\xc3\xa3o\r\n0\r\nExpires: never\r\n\r\n")
    data = _record("response", "http://a.example/t.txt", len(http),
                   "application/http; msgtype=response") + http + b"\r\n\r\n"
    doc = goblin_core.extract(data, name="t.warc", ocr="never")
    assert not doc.report.errors
    assert [d.text for d in doc.walk() if d is not doc] == ["Licitação"]


# -- members a system tool writes -------------------------------------------------------

_REGULAR = 0o100644


def _cpio(entries: list[tuple[bytes, bytes]]) -> bytes:
    """A cpio archive (newc) of (name bytes, data) regular files."""
    out = bytearray()

    def entry(number: int, name: bytes, data: bytes, mode: int) -> None:
        named = name + b"\0"
        fields = (number, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(named), 0)
        out.extend(b"070701" + b"".join(b"%08X" % value for value in fields) + named)
        out.extend(b"\0" * (-len(out) % 4) + data)
        out.extend(b"\0" * (-len(out) % 4))

    for number, (name, data) in enumerate(entries, start=1):
        entry(number, name, data, _REGULAR)
    entry(0, b"TRAILER!!!", b"", 0)
    return bytes(out + b"\0" * (-len(out) % 512))


def _cpio_reader() -> None:
    ok, reason = PatoolHandler(next(f for f in PATOOL_FORMATS if f.name == "cpio")).available()
    if not ok or shutil.which("lsar") is None:
        why = f"patool cannot read cpio here ({reason or 'lsar is missing'}): apt-get install " \
              "libarchive-tools unar"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


def _texts(doc: goblin_core.Document) -> dict[str, str]:
    return {d.name: d.text for d in doc.walk() if d is not doc}


def test_a_member_nested_past_the_longest_path_leaves_the_others_readable(
        tmp_path: Path) -> None:
    _cpio_reader()
    deep = b"/".join([b"b" * 200] * 30) + b"/x.txt"  # 6,000 bytes: past PATH_MAX
    archive = tmp_path / "fundo.cpio"
    archive.write_bytes(_cpio([(b"ata.txt", b"ata\n"), (deep, b"fundo\n")]))
    doc = goblin_core.extract(archive, ocr="never")
    assert _texts(doc)["fundo.cpio/ata.txt"] == "ata\n"
    assert any("longest path" in error.message or "File name too long" in error.message
               for error in doc.report.errors)
    assert not any("OSError" in error.message for error in doc.report.errors)


def test_a_name_in_a_legacy_code_page_is_decoded_and_unpacked(tmp_path: Path) -> None:
    _cpio_reader()
    archive = tmp_path / "legado.cpio"
    archive.write_bytes(_cpio([(b"ata.txt", b"ata\n"),
                               ("Licitação pública.txt".encode("cp1252"), b"edital\n")]))
    doc = goblin_core.extract(archive, ocr="never")
    assert _texts(doc)["legado.cpio/Licitação pública.txt"] == "edital\n"
    destination = tmp_path / "out"
    result = unpack(archive, destination, flatten=False)
    assert not result.errors
    assert sorted(p.name for p in destination.iterdir()) == ["Licitação pública.txt", "ata.txt"]


def test_names_the_listing_spells_otherwise_are_kept_beside_a_hostile_one(
        tmp_path: Path) -> None:
    """A refused name makes every member be checked against lsar's listing: a name with
    a control character, or in a legacy code page lsar guesses differently, is still
    the member it lists."""
    _cpio_reader()
    archive = tmp_path / "misto.cpio"
    archive.write_bytes(_cpio([
        (b"../../fora.txt", b"fora\n"),
        (b"cor\x1b[31m.txt", b"cor\n"),
        ("cota\u00e7\u00e3o.txt".encode("latin-1"), b"cota\n"),
        (b"ata.txt", b"ata\n"),
    ]))
    doc = goblin_core.extract(archive, ocr="never")
    actions = {m.name: m.action for m in doc.report.members}
    assert actions["../../fora.txt"] == "refused"
    texts = _texts(doc)
    assert texts["misto.cpio/ata.txt"] == "ata\n"
    assert texts["misto.cpio/cor_[31m.txt"] == "cor\n"
    assert texts["misto.cpio/cotação.txt"] == "cota\n"
