"""WARC web archives: each 2xx capture or stored resource is a member named after its URL."""

from __future__ import annotations

import gzip
import io
import re
import zlib
from pathlib import Path

import pytest
from archives_bounded import run_hostile
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

import goblin_core
from goblin_core.unpack import unpack

PAGE = "<html><head><title>Aviso</title></head><body><p>Licitação nº 7/2025</p></body></html>"


def _warc(records: list[tuple[str, str, str, bytes, list[tuple[str, str]] | None]],
          gzipped: bool = False) -> bytes:
    """A WARC of (record type, URI, HTTP status line or "", payload, HTTP headers)."""
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=gzipped)
    for rec_type, uri, status, payload, headers in records:
        http = StatusAndHeaders(status, headers or [], protocol="HTTP/1.1") if status else None
        content_type = None if http else "text/plain"
        record = writer.create_warc_record(uri, rec_type, payload=io.BytesIO(payload),
                                           http_headers=http, warc_content_type=content_type)
        writer.write_record(record)
    return buffer.getvalue()


def _page(status: str = "200 OK") -> tuple[str, str, str, bytes, list[tuple[str, str]]]:
    """A capture of a folder's URL served as plain text (read by the core alone)."""
    return ("response", "https://compras.example.gov/avisos/", status,
            "Licitação nº 7/2025".encode(), [("Content-Type", "text/plain; charset=utf-8")])


def _texts(doc: goblin_core.Document) -> dict[str, str]:
    """Text of every member a parser read (HTML needs goblin-office, so plain text only)."""
    return {d.name: d.text for d in doc.walk()
            if d is not doc and d.pages and d.mime == "text/plain"}


def _extracted(doc: goblin_core.Document) -> list[str]:
    return [m.name for m in doc.report.members if m.action == "extracted"]


@pytest.mark.parametrize("gzipped", [False, True], ids=["plain", "gzip-per-record"])
def test_captures_become_members_named_after_their_urls(gzipped: bool) -> None:
    coded = gzip.compress("Edital publicado em 3 de março".encode("cp1252"))
    data = _warc([
        ("request", "https://compras.example.gov/avisos/", "", b"GET / HTTP/1.1\r\n\r\n", None),
        _page(),
        ("response", "https://compras.example.gov/", "200 OK", PAGE.encode(),
         [("Content-Type", "text/html; charset=utf-8")]),
        ("response", "https://compras.example.gov/edital?id=7", "200 OK", coded,
         [("Content-Type", "text/plain; charset=windows-1252"), ("Content-Encoding", "gzip")]),
        ("resource", "urn:x-goblin:nota", "", b"nota interna", None),
    ], gzipped=gzipped)
    name = "coleta.warc.gz" if gzipped else "coleta.warc"
    doc = goblin_core.extract(data, name=name, ocr="never")
    assert _extracted(doc) == ["compras.example.gov/avisos/index.txt",
                               "compras.example.gov/index.html",
                               "compras.example.gov/edital_id=7.txt", "urn_x-goblin_nota.txt"]
    assert _texts(doc) == {
        f"{name}/compras.example.gov/avisos/index.txt": "Licitação nº 7/2025",
        f"{name}/compras.example.gov/edital_id=7.txt": "Edital publicado em 3 de março",
        f"{name}/urn_x-goblin_nota.txt": "nota interna",
    }
    assert not doc.report.errors


def test_redirects_errors_and_metadata_carry_no_member() -> None:
    data = _warc([
        ("response", "http://example.org/old", "301 Moved Permanently", b"",
         [("Location", "http://example.org/new")]),
        ("response", "http://example.org/missing", "404 Not Found", b"<p>nada</p>",
         [("Content-Type", "text/html")]),
        ("metadata", "http://example.org/new", "", b"via: crawler", None),
        _page(),
    ])
    doc = goblin_core.extract(data, name="c.warc", ocr="never")
    assert [m.name for m in doc.report.members] == ["compras.example.gov/avisos/index.txt"]


def test_a_cut_warc_keeps_the_captures_before_the_cut() -> None:
    first = _warc([_page()])
    second = _warc([("response", "http://example.org/b.txt", "200 OK", b"segunda " * 400,
                     [("Content-Type", "text/plain")])])
    doc = goblin_core.extract(first + second[: len(second) // 2], name="cortado.warc",
                              ocr="never")
    assert _texts(doc)["cortado.warc/compras.example.gov/avisos/index.txt"] == (
        "Licitação nº 7/2025")
    assert _texts(doc)["cortado.warc/example.org/b.txt"].startswith("segunda segunda")
    (error,) = doc.report.errors
    assert re.fullmatch(r"cortado\.warc: the capture of example\.org/b\.txt is cut short: "
                        r"[\d,]+ bytes of its record are missing; the WARC is truncated",
                        error.message)


@pytest.mark.parametrize("cut", [5, 100])
def test_a_warc_cut_inside_a_record_header_says_so(cut: int) -> None:
    second = _warc([_page()])
    doc = goblin_core.extract(_warc([_page()]) + second[:cut], name="c.warc", ocr="never")
    assert len(_texts(doc)) == 1
    (error,) = doc.report.errors
    assert error.message.startswith("c.warc: record 2 is unreadable")
    assert error.message.endswith("the WARC is truncated or damaged after 1 record")


def test_hostile_hosts_and_paths_stay_inside_the_destination(tmp_path: Path) -> None:
    data = _warc([
        ("response", "http://../../etc/cron.d/x", "200 OK", b"um",
         [("Content-Type", "text/plain")]),
        ("response", "http://a.example/%2e%2e/%2e%2e/%2e%2e/tmp/y", "200 OK", b"dois",
         [("Content-Type", "text/plain")]),
    ])
    archive = tmp_path / "hostil.warc"
    archive.write_bytes(data)
    destination = tmp_path / "out"
    unpack(archive, destination, flatten=False)
    written = sorted(p.relative_to(destination).as_posix() for p in destination.rglob("*")
                     if p.is_file())
    assert written == ["__/etc/cron.d/x.txt", "a.example/tmp/y.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hostil.warc", "out"]


def test_warc_is_sniffed_by_content_whatever_its_name() -> None:
    doc = goblin_core.extract(_warc([_page()]), name="captura.dat", ocr="never")
    assert doc.mime == "application/warc"
    assert _texts(doc) == {"captura.dat/compras.example.gov/avisos/index.txt":
                           "Licitação nº 7/2025"}


def test_a_gzip_coded_capture_that_inflates_past_the_ratio_is_stopped(tmp_path: Path) -> None:
    coder = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    megabyte = b"\0" * (1 << 20)
    bomb = b"".join(coder.compress(megabyte) for _ in range(512)) + coder.flush()
    fixture = tmp_path / "bomba.warc"
    fixture.write_bytes(_warc([("response", "http://e.example/a.txt", "200 OK", bomb,
                                [("Content-Type", "text/plain"), ("Content-Encoding", "gzip")])]))
    run = run_hostile(tmp_path, fixture)
    refused = [m for m in run.result["members"] if m[0] == "e.example/a.txt"]
    assert refused and refused[0][1] == "refused" and "limits.max_ratio" in refused[0][2]
    assert not any(run.result["texts"])
