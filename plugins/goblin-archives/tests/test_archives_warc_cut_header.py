"""A WARC cut inside a record's header block is truncation the report shows, never a record."""

from __future__ import annotations

import io

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

import goblin_core


def _records(gzipped: bool) -> bytes:
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=gzipped)
    for number in (1, 2):
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/plain")], protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record(
            f"http://example.org/{number}.txt", "response",
            payload=io.BytesIO(f"captura {number} ".encode() * 30), http_headers=http))
    notes = writer.create_warc_record("urn:x-goblin:notes", "resource",
                                      payload=io.BytesIO(b"notas " * 200),
                                      warc_content_type="text/plain")
    writer.write_record(notes)
    return buffer.getvalue()


def _cut_in_last_header(gzipped: bool) -> bytes:
    whole = _records(gzipped)
    if not gzipped:
        return whole[:whole.rindex(b"WARC-Type: resource") + 14]
    # the last record is a gzip member of its own: cut inside its compressed header
    last = whole.rindex(b"\x1f\x8b\x08")
    return whole[:last + (len(whole) - last) // 3]


@pytest.mark.parametrize("gzipped", [False, True], ids=["plain", "gzip-per-record"])
def test_a_warc_cut_inside_a_record_header_is_truncation_and_no_member(gzipped: bool) -> None:
    name = "cortado.warc.gz" if gzipped else "cortado.warc"
    doc = goblin_core.extract(_cut_in_last_header(gzipped), name=name, ocr="never")
    assert [m.name for m in doc.report.members] == ["example.org/1.txt", "example.org/2.txt"]
    assert all(m.action == "extracted" for m in doc.report.members)
    (error,) = doc.report.errors
    assert error.message.startswith(f"{name}: record 3 is unreadable (the data ends inside")
    assert error.message.endswith("the WARC is truncated or damaged after 2 records")
    if gzipped:
        assert "gzip decompression failed" in error.message


def test_a_warc_gz_cut_before_its_last_record_decodes_says_the_gzip_ended() -> None:
    whole = _records(gzipped=True)
    last = whole.rindex(b"\x1f\x8b\x08")
    doc = goblin_core.extract(whole[:last + 12], name="cortado.warc.gz", ocr="never")
    assert [m.name for m in doc.report.members] == ["example.org/1.txt", "example.org/2.txt"]
    (error,) = doc.report.errors
    assert "gzip decompression failed" in error.message and "truncated" in error.message
