"""What follows the last stream of an xz, lzma, bzip2, lz4 or zstd file: padding, garbage,
another stream, or nothing because the stream is cut."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import random
import tarfile
from collections.abc import Callable
from pathlib import Path

import lz4.block
import lz4.frame
import pytest
import zstandard

import goblin_core
from goblin_core.unpack import unpack

NOTE = "Relatório de obras da prefeitura, lote sete.\n"

COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "xz": lzma.compress,
    "lzma": lambda data: lzma.compress(data, format=lzma.FORMAT_ALONE),
    "bz2": bz2.compress,
    "lz4": lz4.frame.compress,
    "zst": zstandard.ZstdCompressor().compress,
}


def _texts(doc: goblin_core.Document) -> str:
    return "".join(child.text for child in doc.walk() if child is not doc)


def _errors(doc: goblin_core.Document) -> str:
    return " ".join(entry.message for entry in doc.report.errors)


@pytest.mark.parametrize("extension", sorted(COMPRESSORS))
def test_zero_padding_after_the_last_stream_reads_clean(extension: str) -> None:
    # xz's stream padding is four zero bytes (a multiple of four); a tape pads with zeros too
    data = COMPRESSORS[extension](NOTE.encode()) + bytes(4)
    doc = goblin_core.extract(data, name=f"nota.txt.{extension}", ocr="never")
    assert NOTE.strip() in _texts(doc)
    assert not doc.report.errors


@pytest.mark.parametrize("extension", sorted(COMPRESSORS))
def test_garbage_after_the_last_stream_keeps_the_text_and_says_so(extension: str) -> None:
    data = COMPRESSORS[extension](NOTE.encode()) + b"JUNKJUNK"
    doc = goblin_core.extract(data, name=f"nota.txt.{extension}", ocr="never")
    assert NOTE.strip() in _texts(doc)
    assert [m.action for m in doc.report.members] == ["extracted"]
    assert "8 bytes after the last" in _errors(doc)
    assert "trailing garbage, ignored" in _errors(doc)


@pytest.mark.parametrize("extension", sorted(COMPRESSORS))
def test_garbage_after_a_compressed_tar_keeps_its_members(extension: str) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        info = tarfile.TarInfo("nota.txt")
        info.size = len(NOTE.encode())
        archive.addfile(info, io.BytesIO(NOTE.encode()))
    data = COMPRESSORS[extension](buffer.getvalue()) + b"JUNK" * 30
    doc = goblin_core.extract(data, name=f"docs.tar.{extension}", ocr="never")
    assert [(m.name, m.action) for m in doc.report.members] == [("nota.txt", "extracted")]
    assert "120 bytes after the last" in _errors(doc)


@pytest.mark.parametrize("extension", ["xz", "bz2", "lz4", "zst"])
def test_streams_laid_end_to_end_are_all_read(extension: str) -> None:
    compress = COMPRESSORS[extension]
    data = compress(b"first stream text\n") + compress(b"second stream text\n")
    doc = goblin_core.extract(data, name=f"duas.txt.{extension}", ocr="never")
    assert "first stream text\nsecond stream text" in _texts(doc)
    assert not doc.report.errors


def _words(count: int, seed: int) -> bytes:
    # text that does not compress to nothing, so a cut falls where it is made
    generator = random.Random(seed)
    return "".join(f"linha {i} {generator.random():.12f}\n" for i in range(count)).encode()


def test_a_cut_zstd_file_is_damage_not_a_clean_end() -> None:
    text = _words(20000, 1)
    packed = zstandard.ZstdCompressor().compress(text)
    doc = goblin_core.extract(packed[: len(packed) * 2 // 3], name="cortado.txt.zst",
                              ocr="never")
    assert "ended before the end of its last zstd frame" in _errors(doc)
    assert doc.report.errors[0].kind == "CorruptDocument"
    assert text.decode()[:1000] in _texts(doc)


CUT_COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gz": lambda data: gzip.compress(data, mtime=0),
    "xz": lzma.compress,
    "lzma": lambda data: lzma.compress(data, format=lzma.FORMAT_ALONE),
    # small blocks: a cut falls after whole blocks, which bzip2 can decode
    "bz2": lambda data: bz2.compress(data, compresslevel=1),
    "lz4": lz4.frame.compress,
    "zst": zstandard.ZstdCompressor().compress,
}


@pytest.mark.parametrize("extension", sorted(CUT_COMPRESSORS))
def test_a_stream_cut_part_way_keeps_the_text_before_the_cut(extension: str) -> None:
    text = _words(40000, 2)
    packed = CUT_COMPRESSORS[extension](text)
    doc = goblin_core.extract(packed[: len(packed) * 2 // 3], name=f"cortado.txt.{extension}",
                              ocr="never")
    kept = _texts(doc)
    assert text.decode()[:5000] in kept
    assert len(kept) < len(text)
    assert [m.action for m in doc.report.members] == ["extracted"]
    [error] = doc.report.errors
    assert error.kind == "CorruptDocument"
    assert "truncated or damaged" in error.message
    assert "what decoded before the damage is kept" in error.message


def test_a_gzip_stream_damaged_in_the_middle_keeps_the_text_before_the_damage() -> None:
    text = _words(40000, 3)
    packed = bytearray(gzip.compress(text, mtime=0))
    middle = len(packed) // 2
    packed[middle:middle + 64] = bytes(64)
    doc = goblin_core.extract(bytes(packed), name="avariado.txt.gz", ocr="never")
    assert text.decode()[:5000] in _texts(doc)
    assert "gzip decompression failed after" in _errors(doc)


def test_a_cut_gzip_unpacks_to_the_part_before_the_cut(tmp_path: Path) -> None:
    text = _words(40000, 4)
    packed = gzip.compress(text, mtime=0)
    archive = tmp_path / "cortado.txt.gz"
    archive.write_bytes(packed[: len(packed) // 2])
    result = unpack(archive, tmp_path / "out")
    written = (tmp_path / "out" / "cortado.txt").read_bytes()
    assert text.startswith(written) and 1000 < len(written) < len(text)
    assert [e.kind for e in result.errors] == ["CorruptDocument"]


def test_a_cut_tar_zst_keeps_the_members_before_the_cut() -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for index in range(3):
            body = _words(4000, index)
            info = tarfile.TarInfo(f"m{index}.txt")
            info.size = len(body)
            archive.addfile(info, io.BytesIO(body))
    packed = zstandard.ZstdCompressor().compress(buffer.getvalue())
    doc = goblin_core.extract(packed[: len(packed) * 2 // 3], name="cortado.tar.zst",
                              ocr="never")
    actions = {m.name: m.action for m in doc.report.members}
    assert actions["m0.txt"] == "extracted"
    assert actions["m1.txt"] == "refused"
    assert "ended before the end of its last zstd frame" in _errors(doc)


def test_an_lz4_frame_that_records_its_content_size_is_read() -> None:
    data = lz4.frame.compress(NOTE.encode(), store_size=True, content_checksum=True,
                              block_checksum=True)
    doc = goblin_core.extract(data, name="nota.txt.lz4", ocr="never")
    assert NOTE.strip() in _texts(doc)
    assert not doc.report.errors


def _lz4_legacy(data: bytes) -> bytes:
    # lz4 -l: the signature, then each block of up to 8 MiB as its packed size and bytes
    packed = b"\x02\x21\x4c\x18"
    for start in range(0, len(data), 8 << 20):
        block = lz4.block.compress(data[start:start + (8 << 20)], store_size=False)
        packed += len(block).to_bytes(4, "little") + block
    return packed


def test_lz4_in_its_legacy_format_is_read() -> None:
    text = _words(400_000, 5)  # more than one 8 MiB block
    doc = goblin_core.extract(_lz4_legacy(text) + _lz4_legacy(b"second stream\n"),
                              name="kernel.lz4", ocr="never")
    assert not doc.report.errors
    read = _texts(doc)
    assert "linha 399999 " in read
    assert read.rstrip().endswith("second stream")


def test_lz4_in_its_legacy_format_is_known_without_its_extension() -> None:
    doc = goblin_core.extract(_lz4_legacy(NOTE.encode()), name="initrd", ocr="never")
    assert NOTE.strip() in _texts(doc)
    assert not doc.report.errors
