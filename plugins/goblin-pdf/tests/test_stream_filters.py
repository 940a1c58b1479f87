"""Stream filters decoded a piece at a time: the same bytes as pypdf's decoders, sizes
counted through every layer, damaged data ending quietly."""

from __future__ import annotations

import base64
import random
import zlib

import pytest
from filter_encoders import lzw_encoded, lzw_run, run_length_encoded
from pypdf.filters import LZWDecode

from goblin_pdf import stream_filters
from goblin_pdf.stream_filters import (
    ASCII85,
    ASCII_HEX,
    FLATE,
    LZW,
    RUN_LENGTH,
    decodes_past,
    filter_chain,
    layers,
    most_decoded,
)


def _decoded(data: bytes, chain: list[bytes], dictionary: bytes = b"") -> bytes:
    pieces = [data[at:at + 777] for at in range(0, len(data), 777)]
    return b"".join(layers(pieces, chain, dictionary)[-1])


def _samples() -> list[bytes]:
    rng = random.Random(7)
    prose = b"The quick brown fox jumps over the lazy dog, page %d. " * 2000
    runs = b"".join(bytes([rng.randrange(4)]) * rng.randrange(1, 400) for _ in range(3000))
    return [b"", b"A", rng.randbytes(300), rng.randbytes(200_000), prose, runs]


@pytest.mark.parametrize("index", range(6))
def test_lzw_decodes_as_pypdf_does(index: int) -> None:
    data = _samples()[index]
    packed = lzw_encoded(data)
    assert LZWDecode.decode(packed) == data
    assert _decoded(packed, [LZW]) == data


def test_lzw_with_early_change_0_switches_width_one_code_later() -> None:
    data = _samples()[4]
    late = lzw_encoded(data, early=0)
    assert late != lzw_encoded(data)
    assert _decoded(late, [LZW], b"/DecodeParms << /EarlyChange 0 >>") == data


@pytest.mark.parametrize("index", range(6))
def test_run_length_ascii85_and_ascii_hex_round_trip(index: int) -> None:
    data = _samples()[index]
    assert _decoded(run_length_encoded(data), [RUN_LENGTH]) == data
    wrapped = base64.a85encode(zlib.compress(data), wrapcol=64) + b"~>"
    assert _decoded(wrapped, [ASCII85, FLATE]) == data
    digits = zlib.compress(lzw_encoded(data)).hex().encode()
    spaced = b" ".join(digits[at:at + 40] for at in range(0, len(digits), 40)) + b">"
    assert _decoded(spaced, [ASCII_HEX, FLATE, LZW]) == data


def test_a_decoded_layer_is_held_a_piece_at_a_time() -> None:
    packed = lzw_run(40)  # about 295 MB from 216 kB
    found = layers([packed], [LZW])
    largest = max(map(len, found[0]))
    assert found[0].size > 290_000_000
    assert largest <= stream_filters.CHUNK + 4096


def test_every_layer_counts_toward_the_limit() -> None:
    # Flate inside Flate: the outer layer alone stays under the limit
    inner = zlib.compress(b"\0" * (8 << 20), 9)
    outer = zlib.compress(inner, 9)
    assert not decodes_past([outer], [FLATE], b"", 1 << 20)
    assert decodes_past([outer], [FLATE, FLATE], b"", 1 << 20)
    assert decodes_past([lzw_run(2)], [LZW], b"", 10 << 20)
    assert not decodes_past([lzw_run(1)], [LZW], b"", 10 << 20)


def test_filter_names_are_read_as_a_reader_reads_them() -> None:
    assert filter_chain(b"<< /Length 4 >>") == []
    assert filter_chain(b"<< /Filter /FlateDecode >>") == [FLATE]
    assert filter_chain(b"<< /Filter [/A85 /Fl] >>") == [ASCII85, FLATE]
    assert filter_chain(b"<< /Filter[/AHx/LZ#57Decode]/Length 3 >>") == [ASCII_HEX, LZW]
    assert filter_chain(b"<< /Filter /RL >>") == [RUN_LENGTH]
    assert filter_chain(b"<< /Filter 12 0 R >>") is None


def test_the_largest_growth_bounds_what_a_stream_can_decode_to() -> None:
    assert most_decoded(100, []) == 100
    assert most_decoded(100, [FLATE]) == 103_200
    assert most_decoded(100, [ASCII85, LZW]) == 100 * 4 * 2560
    # an image codec ends the count: its output is never parsed as text
    assert most_decoded(100, [FLATE, b"DCTDecode", FLATE]) == 103_200
    assert len(_decoded(lzw_run(1), [LZW])) <= len(lzw_run(1)) * stream_filters.GROWTH[LZW]


@pytest.mark.parametrize("chain", [[FLATE], [LZW], [RUN_LENGTH], [ASCII85], [ASCII_HEX]])
def test_damaged_data_ends_where_decoding_fails(chain: list[bytes]) -> None:
    rng = random.Random(3)
    for _ in range(20):
        junk = rng.randbytes(rng.randrange(1, 5000))
        assert len(_decoded(junk, chain)) <= most_decoded(len(junk), chain)
    cut = lzw_encoded(_samples()[4])[:3000]
    assert _samples()[4].startswith(_decoded(cut, [LZW]))
