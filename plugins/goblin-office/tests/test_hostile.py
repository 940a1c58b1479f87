"""Hostile input: XXE, billion laughs, deep nesting, zip bombs dressed as Office files, truncation.

Each must end in seconds with a clear GoblinError naming the file, never an
expansion, a network fetch, a hang or a crash.
"""

from __future__ import annotations

import functools
import io
import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bounds import bounded
from packages import W, compound_file, docx, para, rewrite, xls, xlsb, zip_bytes

import goblin_core
import samples
from goblin_core.errors import CorruptDocument, GoblinError, UnsafeArchive
from goblin_core.testing.corpus import corpus_dir
from goblin_office.html_tree import flat_page

_LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n'
    + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n'
        for i in range(1, 10)
    )
    + "]>\n<lolz>&lol9;</lolz>\n"
)


pytestmark = pytest.mark.usefixtures("warm_plugins")


def _fails_clearly(
    read: Callable[..., object],
    data: bytes,
    name: str,
    kind: type[GoblinError] = GoblinError,
    match: str | None = None,
) -> GoblinError:
    with bounded(), pytest.raises(kind, match=match) as caught:
        read(data, name)
    assert name in str(caught.value)
    return caught.value


def _secret_files(folder: Path) -> tuple[Path, Path]:
    """A secret, and a DTD that declares an entity holding another secret."""
    secret = folder / "secret.txt"
    secret.write_text("TOP-SECRET-VALUE")
    dtd = folder / "leak.dtd"
    dtd.write_text('<!ENTITY leak "SECRET-FROM-DTD">')
    return secret, dtd


@pytest.mark.parametrize("doctype", [
    '<!DOCTYPE r [<!ENTITY x SYSTEM "file://{secret}">]>',
    '<!DOCTYPE r [<!ENTITY x PUBLIC "-//goblin//x//EN" "file://{secret}">]>',
    '<!DOCTYPE r [<!ENTITY % p SYSTEM "file://{dtd}"> %p;]>',
    '<!DOCTYPE r SYSTEM "file://{dtd}">',
], ids=["system", "public", "parameter", "external-subset"])
@pytest.mark.parametrize("name", ["xxe.xml", "xxe.svg"])
def test_an_xml_file_never_reads_an_external_entity(read, tmp_path, doctype, name) -> None:  # type: ignore[no-untyped-def]
    """The file's own text is kept; each reference to what lies outside it is left out
    and named in the report."""
    secret, dtd = _secret_files(tmp_path)
    prolog = doctype.format(secret=secret, dtd=dtd)
    body = ('<svg xmlns="http://www.w3.org/2000/svg"><text>before &x;&leak; after</text></svg>'
            if name.endswith(".svg") else "<r>before &x;&leak; after</r>")
    with bounded():
        document = read(f'<?xml version="1.0"?>{prolog}{body}'.encode(), name)
    assert document.text == "before after"
    reported = " ".join(entry.message for entry in document.report.warnings)
    assert "entity references left out" in reported
    assert "&leak;" in reported
    assert "SECRET" not in document.text + reported


def test_billion_laughs_xml_is_refused(read) -> None:  # type: ignore[no-untyped-def]
    _fails_clearly(read, _LAUGHS.encode(), "laughs.xml", CorruptDocument, "entities")


def test_quadratic_blowup_xml_is_refused(read) -> None:  # type: ignore[no-untyped-def]
    """One long entity referenced thousands of times: no nesting, the same growth."""
    xml = (f'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "{"x" * 50_000}">]><r>'
           + "&a;" * 5000 + "</r>")
    _fails_clearly(read, xml.encode(), "quadratic.xml", CorruptDocument, "entities")


def test_billion_laughs_svg_is_refused(read) -> None:  # type: ignore[no-untyped-def]
    svg = _LAUGHS.replace(
        "<lolz>&lol9;</lolz>", '<svg xmlns="http://www.w3.org/2000/svg"><text>&lol9;</text></svg>'
    )
    _fails_clearly(read, svg.encode(), "laughs.svg", CorruptDocument, "entities")


def test_billion_laughs_inside_docx_is_refused(read) -> None:  # type: ignore[no-untyped-def]
    plain = docx(para("x"))
    body = _LAUGHS.replace(
        "<lolz>&lol9;</lolz>",
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml'
        '/2006/main"><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body>'
        "</w:document>",
    )
    package = rewrite(plain, {"word/document.xml": body.encode()})
    _fails_clearly(read, package, "laughs.docx", GoblinError, "entities")


def test_xxe_inside_xlsx_is_refused(read, tmp_path) -> None:  # type: ignore[no-untyped-def]
    data, _ = samples.sample_xlsx()
    sheet = zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml")
    body = sheet.split(b"?>", 1)[-1]
    hostile = b'<!DOCTYPE w [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + body
    _fails_clearly(
        read,
        rewrite(data, {"xl/worksheets/sheet1.xml": hostile}),
        "xxe.xlsx",
        GoblinError,
        "entities",
    )


def test_deeply_nested_xml_is_refused(read) -> None:  # type: ignore[no-untyped-def]
    xml = ("<a>" * 2000 + "x" + "</a>" * 2000).encode()
    _fails_clearly(read, xml, "deep.xml", CorruptDocument, "max_xml_depth")


def test_zip_bomb_dressed_as_docx_is_refused_from_its_directory(read) -> None:  # type: ignore[no-untyped-def]
    plain = docx(para("x"))
    bomb = b"<w:t>" + b" " * (50 * 1024**2) + b"</w:t>"
    package = rewrite(plain, {"word/document.xml": bomb})
    assert len(package) < 2 * 1024**2
    # the parser's UnsafeArchive is reported inside the pipeline's "no parser could read it"
    _fails_clearly(read, package, "bomb.docx", GoblinError, "zip bomb")


def test_member_over_size_limit_is_refused(read) -> None:  # type: ignore[no-untyped-def]
    data, name = samples.sample_docx()
    with pytest.raises(GoblinError, match="max_member_size"):
        read(data, name, limits={"max_member_size": 1024})


@pytest.mark.parametrize(
    "builder",
    [
        samples.sample_docx,
        samples.sample_xlsx,
        samples.sample_pptx,
        samples.sample_odt,
        samples.sample_epub,
    ],
)
def test_truncated_container_ends_clearly(read, builder) -> None:  # type: ignore[no-untyped-def]
    """A clear error, or the text that survived with the damage named in the report."""
    data, name = builder()
    cut = f"cut-{name}"
    with bounded():
        try:
            document = read(data[: len(data) * 2 // 3], cut)
        except GoblinError as exc:
            assert cut in str(exc)
            return
    warnings = " ".join(w.message for w in document.report.warnings)
    assert "truncated or damaged" in warnings
    # docx has a salvage engine of its own; the other packages share office.package_salvage
    assert document.parsed_by in (("office.docx_salvage",), ("office.package_salvage",))


def test_truncated_docx_keeps_the_text_that_survived(read) -> None:  # type: ignore[no-untyped-def]
    body = docx(para(samples.PHRASE) + para("x" * 20_000))
    document = read(body[: len(body) - 200], "cortado.docx")
    assert samples.PHRASE in document.text
    # docx has a salvage engine of its own; the other packages share office.package_salvage
    assert document.parsed_by in (("office.docx_salvage",), ("office.package_salvage",))


def test_garbage_named_docx_fails_clearly(read) -> None:  # type: ignore[no-untyped-def]
    _fails_clearly(read, b"PK\x03\x04" + b"\x00" * 200, "lixo.docx")


def test_zip_that_is_not_office_is_left_to_archives(read) -> None:  # type: ignore[no-untyped-def]
    data = zip_bytes({"notes.txt": b"just a zip"})
    from goblin_core import Source
    from goblin_office.sniffing import ContainerSniffer

    assert ContainerSniffer().sniff(data[:8192], Source.from_bytes(data, "a.docx")) is None


@pytest.mark.parametrize(
    ("members", "name", "expected"),
    [
        # openpyxl writes docProps/ before any xl/ part
        ({"docProps/app.xml": b"<a/>", "xl/workbook.xml": b"<w/>"}, "cut.xlsx", "xlsx"),
        ({"_rels/.rels": b"<r/>", "word/document.xml": b"<d/>"}, "cut.bin", "docx"),
        # some EPUB writers deflate the mimetype member, against the specification
        ({"mimetype": b"application/epub+zip", "OEBPS/c1.xhtml": b"<p/>"}, "cut.zip", "epub"),
    ],
)
def test_a_cut_container_is_known_by_any_member_at_its_front(members, name, expected) -> None:  # type: ignore[no-untyped-def]
    from goblin_core import Source
    from goblin_office.sniffing import ContainerSniffer

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, content in members.items():
            archive.writestr(member, content + b" " * 5000)
    cut = buffer.getvalue()[: len(buffer.getvalue()) - 120]  # the directory is gone
    found = ContainerSniffer().sniff(cut[:8192], Source.from_bytes(cut, name))
    assert found is not None and found.ext == expected


class _Unseekable(io.RawIOBase):
    """A write-only stream: zipfile then writes sizes in data descriptors, after the data."""

    def __init__(self) -> None:
        self.buffer = io.BytesIO()

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:  # type: ignore[no-untyped-def, override]
        return self.buffer.write(data)


def test_truncated_docx_with_data_descriptors_is_salvaged(read) -> None:  # type: ignore[no-untyped-def]
    complete = zipfile.ZipFile(io.BytesIO(docx(para(samples.PHRASE))))
    stream = _Unseekable()
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in complete.infolist():
            archive.writestr(info.filename, complete.read(info))
    data = stream.buffer.getvalue()
    assert zipfile.ZipFile(io.BytesIO(data)).infolist()[0].flag_bits & 0x08
    document = read(data[: len(data) - 120], "descritor.docx")
    assert samples.PHRASE in document.text


def test_deeply_nested_html_keeps_its_text(read) -> None:  # type: ignore[no-untyped-def]
    html = (
        "<div>" * 5000 + "texto profundo<script>escondido()</script>" + "</div>" * 5000
    ).encode()
    with bounded():
        document = read(html, "profundo.html")
    assert "texto profundo" in document.text
    assert "escondido" not in document.text


def test_half_a_million_nested_tags_are_read_flat_in_seconds(read) -> None:  # type: ignore[no-untyped-def]
    depth = 300_000  # 600,000 tags: as a BeautifulSoup tree, 6 s and 150 MB more
    html = ("<html><body><h1>Cabeçalho</h1>" + "<div>" * depth
            + "texto profundo<script>escondido()</script>" + "</div>" * depth
            + "<p>depois &amp; fim</p></body></html>").encode()
    with bounded(seconds=10, megabytes=300):
        document = read(html, "profundo.html")
    assert document.text.split("\n") == ["Cabeçalho", "texto profundo", "depois & fim"]
    assert "read flat" in document.raw_metadata["structure"]


def test_flat_reading_skips_what_is_invisible_even_unclosed() -> None:
    page = flat_page("<p>one &lt;two&gt;</p><style>p {}</style><!-- note -->"
                     "<br/>three<template>not this</template><script>never")
    assert page.text == "one <two>\nthree"


def test_refused_bomb_is_not_salvaged(read) -> None:  # type: ignore[no-untyped-def]
    plain = docx(para("x"))
    package = rewrite(plain, {"word/document.xml": b"<w:t>" + b" " * (20 * 1024**2) + b"</w:t>"})
    # The core stops the parser chain at an unsafe archive: the salvage engine never
    # gets the bomb, and the error is the refusal itself.
    with pytest.raises(UnsafeArchive) as caught:
        read(package, "bomba.docx")
    assert "zip bomb" in str(caught.value)
    assert "bomba.docx" in str(caught.value)


def test_docx_deeper_than_a_lowered_limit_is_refused(read) -> None:  # type: ignore[no-untyped-def]
    # under libxml2's own bound (256) the depth is checked after the parse
    nested = "<w:sdt><w:sdtContent>" * 20 + para("fundo") + "</w:sdtContent></w:sdt>" * 20
    data = docx(nested)
    assert "fundo" in read(data, "fundo.docx").text
    lowered = functools.partial(read, limits={"max_xml_depth": 32})
    _fails_clearly(lowered, data, "fundo.docx", GoblinError, "max_xml_depth")


def test_xxe_in_a_docx_header_is_refused(read, tmp_path) -> None:  # type: ignore[no-untyped-def]
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-VALUE")
    header = (
        f'<?xml version="1.0"?><!DOCTYPE w:hdr [<!ENTITY x SYSTEM "file://{secret}">]>'
        f'<w:hdr xmlns:w="{W}"><w:p><w:r><w:t>&x;</w:t></w:r></w:p></w:hdr>'
    )
    plain = docx(para("x"), {"header1.xml": f"<w:hdr>{para('h')}</w:hdr>"})
    package = rewrite(plain, {"word/header1.xml": header.encode()})
    # refused as the whole package, so no later engine (salvage, LibreOffice) is handed it
    error = _fails_clearly(read, package, "xxe-header.docx", UnsafeArchive, "entities")
    assert "TOP-SECRET-VALUE" not in str(error)


def test_many_unclosed_doctypes_fail_in_linear_time(read) -> None:  # type: ignore[no-untyped-def]
    # a pattern for the internal subset retried at each DOCTYPE took minutes on this
    xml = b"<!DOCTYPE a [" * 80_000
    _fails_clearly(read, xml, "doctypes.xml", CorruptDocument)


def test_mail_forwarded_two_thousand_deep_fails_clearly(read) -> None:  # type: ignore[no-untyped-def]
    mail = "Subject: bottom\n\nbottom of the chain\n"
    for level in range(2000):
        mail = f"Subject: fwd {level}\nContent-Type: message/rfc822\n\n{mail}"
    data = ("From: a@example.com\n" + mail).encode()
    error = _fails_clearly(read, data, "encaminhada.eml", CorruptDocument, "nest deeper")
    assert "RecursionError" not in str(error)


def _damage_member(data: bytes, member: str) -> bytes:
    """The container with ``member``'s local header overwritten, as a bad copy leaves it."""
    offset = zipfile.ZipFile(io.BytesIO(data)).getinfo(member).header_offset
    return data[:offset] + b"\x00" * 4 + data[offset + 4:]


def test_odt_with_a_damaged_meta_part_keeps_its_text(read) -> None:  # type: ignore[no-untyped-def]
    data, _ = samples.sample_odt()
    with pytest.raises(zipfile.BadZipFile):
        zipfile.ZipFile(io.BytesIO(_damage_member(data, "meta.xml"))).read("meta.xml")
    document = read(_damage_member(data, "meta.xml"), "sem-meta.odt")
    assert samples.PHRASE in document.text
    assert document.status == "clean"


def test_damaged_part_the_text_needs_still_fails_clearly(read) -> None:  # type: ignore[no-untyped-def]
    data, _ = samples.sample_odt()
    _fails_clearly(read, _damage_member(data, "content.xml"), "sem-conteudo.odt",
                   CorruptDocument, "content.xml")


# -- hostile CSV -------------------------------------------------------------------------

_MEASURED = """
import json, resource, sys, time
from goblin_core import extract
extract(b"a,b\\n1,2\\n", name="warm.csv", ocr="never")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.monotonic()
document = extract(sys.argv[1], ocr="never", **json.loads(sys.argv[2]))
seconds = time.monotonic() - started
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
table = document.tables[0].rows if document.tables else ()
print(json.dumps({"seconds": seconds, "kib": grown, "rows": len(table),
                  "width": len(table[0]) if table else 0,
                  "chars": sum(len(cell) for row in table for cell in row),
                  "engine": document.pages[0].engine if document.pages else "",
                  "truncated": document.raw_metadata.get("truncated", ""),
                  "truncated_sheets": document.raw_metadata.get("truncated_sheets", [])}))
"""


def _measured(path: Path, **config: Any) -> dict[str, Any]:
    """Extract ``path`` in a fresh interpreter: its time and peak RSS growth, plugins loaded.

    A child also keeps a reader's failed allocation, which aborts the process, from
    ending the test run."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, str(path), json.dumps(config)],
        capture_output=True, text=True, timeout=120, check=True,
        env={**os.environ, "RUST_BACKTRACE": "0"},
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _write(path: Path, *parts: tuple[bytes, int]) -> Path:
    """A file of ``piece * times`` for each part, written a MiB at a time."""
    with path.open("wb") as out:
        for piece, times in parts:
            per_block = max(1, (1 << 20) // len(piece))
            for done in range(0, times, per_block):
                out.write(piece * min(per_block, times - done))
    return path


@pytest.mark.parametrize(
    ("parts", "width", "cut"),
    [
        # one line of 50 million commas: 32 s and 900 MiB when the csv module split it whole
        pytest.param(((b",", 50_000_000), (b"\n", 1)), 0, "max_sheet_cells", id="commas"),
        # the same line with a value in every field: the row is cut, not dropped
        pytest.param(((b"a,", 25_000_000), (b"\n", 1)), 5_000_000, "max_sheet_cells",
                     id="values"),
        pytest.param(((b"x", 50_000_000), (b"\n", 1)), 1, "", id="no-delimiter"),
        pytest.param(((b"a,b\n", 1), (b"\n", 20_000_000)), 2, "", id="empty-lines"),
        pytest.param(((b"a,b\n", 1), (b"\r\n", 10_000_000), (b"c,d\n", 1)), 2,
                     "max_sheet_cells", id="empty-lines-then-a-row"),
    ],
)
def test_hostile_csv_ends_in_seconds_in_bounded_memory(tmp_path, parts, width, cut) -> None:  # type: ignore[no-untyped-def]
    found = _measured(_write(tmp_path / "hostil.csv", *parts))
    assert found["seconds"] < 8
    assert found["kib"] < 350 * 1024
    assert found["width"] == width
    assert cut in found["truncated"]


_REPEATED_ROWS = (
    '<table:table table:name="Folha"><table:table-row><table:table-cell '
    'office:value-type="string"><text:p>Cabeçalho</text:p></table:table-cell></table:table-row>'
    '<table:table-row table:number-rows-repeated="1048000">'
    '<table:table-cell table:number-columns-repeated="{columns}" office:value-type="string">'
    "<text:p>x</text:p></table:table-cell></table:table-row></table:table>"
)


@pytest.mark.parametrize("columns", [16_000, 1_048_576])
@pytest.mark.parametrize("packed", [False, True], ids=["fods", "ods"])
def test_repeated_odf_cells_are_cut_at_max_sheet_cells_not_spelled_out(
        read, columns, packed) -> None:  # type: ignore[no-untyped-def]
    """A few hundred bytes of XML asking for a million rows of 16,000 (or a million)
    copies of a cell: 20 GB and minutes when every copy was spelled out first."""
    data = samples.flat_odf("spreadsheet", _REPEATED_ROWS.format(columns=columns))
    name = "repetida.fods"
    if packed:
        data, name = _packed_ods(data.decode()), "repetida.ods"
    with bounded(seconds=20, megabytes=400):
        document = read(data, name, office={"max_sheet_cells": 1_000_000})
    (table,) = document.tables
    assert table.rows[0][0] == "Cabeçalho"
    assert len(table.rows) * max(len(row) for row in table.rows) <= 1_000_000
    assert all(set(row) == {"x"} for row in table.rows[1:])
    # the table's area is bounded: a row as wide as the limit leaves room for no other
    assert len(table.rows) == (1 if columns >= 1_000_000 else 1_000_000 // columns)
    said = [w.message for w in document.report.warnings if w.kind == "Truncated"]
    assert len(said) == 1 and said[0].startswith(
        "sheet 'Folha' cut at office.max_sheet_cells (1,000,000 cells)")


def test_a_long_cell_repeated_is_cut_at_max_output_chars(read) -> None:  # type: ignore[no-untyped-def]
    """665 bytes of packed XML: a 100,000-character cell repeated 50 times in 100,000
    rows is 500 GB of text, well under max_sheet_cells; it stops at the output limit."""
    body = ('<table:table table:name="Folha"><table:table-row table:number-rows-repeated="100000">'
            '<table:table-cell table:number-columns-repeated="50" office:value-type="string">'
            f'<text:p>{"y" * 100_000}</text:p></table:table-cell></table:table-row></table:table>')
    with bounded(seconds=20, megabytes=400):
        document = read(samples.flat_odf("spreadsheet", body), "longa.fods",
                        limits={"max_output_chars": 20_000_000})
    (table,) = document.tables
    assert 0 < sum(len(cell) for row in table.rows for cell in row) <= 20_000_000
    assert any("max_output_chars" in w.message for w in document.report.warnings)


def _packed_ods(flat: str) -> bytes:
    """The flat document's body as the content.xml of a packaged .ods."""
    content = flat.replace("office:document ", "office:document-content ", 1).replace(
        "</office:document>", "</office:document-content>")
    return zip_bytes({
        "mimetype": b"application/vnd.oasis.opendocument.spreadsheet",
        "content.xml": content.encode(),
        "META-INF/manifest.xml": (
            b'<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:'
            b'opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" '
            b'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
            b"</manifest:manifest>"),
    })


def _shared_string_xlsx(text: str, rows: int, columns: int) -> bytes:
    """A workbook whose one sheet shows shared string 0 (``text``) in every cell."""
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    relationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    package = "http://schemas.openxmlformats.org/package/2006/relationships"
    letters = [chr(65 + c) for c in range(columns)]
    cells = "".join(
        f'<row r="{r}">' + "".join(f'<c r="{c}{r}" t="s"><v>0</v></c>' for c in letters)
        + "</row>" for r in range(1, rows + 1))
    return zip_bytes({
        "[Content_Types].xml": (
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
            'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-'
            'package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
            'officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/'
            'sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
            'worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/'
            'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>'),
        "_rels/.rels": (
            f'<?xml version="1.0"?><Relationships xmlns="{package}"><Relationship Id="rId1" '
            f'Type="{relationships}/officeDocument" Target="xl/workbook.xml"/></Relationships>'),
        "xl/workbook.xml": (
            f'<?xml version="1.0"?><workbook xmlns="{main}" xmlns:r="{relationships}"><sheets>'
            '<sheet name="Folha" sheetId="1" r:id="rId1"/></sheets></workbook>'),
        "xl/_rels/workbook.xml.rels": (
            f'<?xml version="1.0"?><Relationships xmlns="{package}"><Relationship Id="rId1" '
            f'Type="{relationships}/worksheet" Target="worksheets/sheet1.xml"/><Relationship '
            f'Id="rId2" Type="{relationships}/sharedStrings" Target="sharedStrings.xml"/>'
            "</Relationships>"),
        "xl/worksheets/sheet1.xml": (
            f'<?xml version="1.0"?><worksheet xmlns="{main}"><sheetData>{cells}</sheetData>'
            "</worksheet>"),
        "xl/sharedStrings.xml": (
            f'<?xml version="1.0"?><sst xmlns="{main}" count="1" uniqueCount="1"><si><t>{text}'
            "</t></si></sst>"),
    })


def test_a_shared_string_shown_in_every_cell_is_read_by_the_streaming_reader(read) -> None:  # type: ignore[no-untyped-def]
    """calamine copies a shared string into each cell that shows it: 10,000 cells of a
    10,000-character string is 100 MB before a row can be cut (200 KB of xlsx made 10 GB
    of it). Past limits.max_output_chars such a workbook goes to openpyxl, which shares
    the string, and is cut at the limit."""
    data = _shared_string_xlsx("z" * 10_000, rows=1000, columns=10)
    with bounded(seconds=20, megabytes=300):
        document = read(data, "repetida.xlsx", limits={"max_output_chars": 2_000_000})
    assert document.pages[0].engine == "office.openpyxl"
    assert any("shared strings" in w.message and w.engine == "office.calamine"
               for w in document.report.warnings)
    (table,) = document.tables
    assert 0 < sum(len(cell) for row in table.rows for cell in row) <= 2_000_000
    assert document.raw_metadata["truncated_sheets"] == ["Folha"]
    assert any(w.kind == "Truncated" and "sheet 'Folha' cut" in w.message
               for w in document.report.warnings)
    # under the limit, calamine reads the same workbook whole
    whole = read(data, "repetida.xlsx")
    assert whole.pages[0].engine == "office.calamine" and len(whole.tables[0].rows) == 1000


def test_an_xls_showing_a_shared_string_in_every_cell_is_read_by_xlrd_in_bounded_memory(
    tmp_path: Path,
) -> None:
    """A 1.5 MB .xls showing one 32,767-character shared string in 100,000 cells: calamine
    copies the string into every cell, 3.3 GB, and a failed allocation aborted the whole
    process. Past limits.max_output_chars such a workbook goes to xlrd, which keeps one
    copy of the string, and is cut at the limit."""
    cells = [(row, column, 0) for row in range(10_000) for column in range(10)]
    path = tmp_path / "repetida.xls"
    path.write_bytes(xls("Folha", ["z" * 32_767], cells))
    found = _measured(path, limits={"max_output_chars": 10_000_000})
    assert found["engine"] == "office.xlrd"
    assert 0 < found["chars"] <= 10_000_000
    assert found["truncated_sheets"] == ["Folha"]
    assert found["seconds"] < 20
    assert found["kib"] < 300 * 1024


def test_an_xls_under_the_output_limit_is_read_by_calamine_whole(read) -> None:  # type: ignore[no-untyped-def]
    strings = ["Orçamento estimado", "y" * 20_000]  # the long one runs on in CONTINUE records
    cells = [(row, column, row % 2) for row in range(50) for column in range(4)]
    data = xls("Folha", strings, cells)
    document = read(data, "orcamento.xls")
    assert document.pages[0].engine == "office.calamine"
    (table,) = document.tables
    assert [len(row) for row in table.rows] == [4] * 50
    assert table.rows[0][0] == "Orçamento estimado" and table.rows[1][3] == "y" * 20_000
    # the same cells past a lowered limit: the count takes each string's own length
    cut = read(data, "orcamento.xls", limits={"max_output_chars": 25 * 4 * 20_000})
    assert cut.pages[0].engine == "office.xlrd"
    assert any("shared strings 200 times over, 2,001,800 characters" in w.message
               for w in cut.report.warnings)
    assert cut.tables[0].rows[:2] == table.rows[:2]


def test_an_xlsb_showing_a_shared_string_in_every_cell_is_read_by_its_records(
    tmp_path: Path,
) -> None:
    """10 KB of .xlsb showing one 200,000-character shared string in 30,000 cells:
    calamine copied it into every cell, 6 GB, and failed after 23 s. Past
    limits.max_output_chars the record reader, which keeps one copy, reads it, cut."""
    cells = [(row, column, 0) for row in range(1, 3001) for column in range(10)]
    path = tmp_path / "repetida.xlsb"
    path.write_bytes(xlsb("Folha", "Lote", 7, strings=["z" * 200_000], shared_cells=cells))
    found = _measured(path, limits={"max_output_chars": 10_000_000})
    assert found["engine"] == "office.xlsb_records"
    assert 0 < found["chars"] <= 10_000_000
    assert found["truncated_sheets"] == ["Folha"]
    assert found["seconds"] < 20
    assert found["kib"] < 300 * 1024


def _word97_pieces(stream_bytes: int, positions: list[int], story_end: int) -> bytes:
    """A Word 97 file's streams around a piece table of ``positions`` (every piece reads
    8-bit text from the same place of a WordDocument stream of ``stream_bytes`` letters)
    and one header story running from 0 to ``story_end``."""
    import struct

    word = bytearray(b"a" * stream_bytes)
    struct.pack_into("<HH", word, 0, 0xA5EC, 0xC1)  # wIdent, nFib of Word 97
    struct.pack_into("<H", word, 0x0A, 0x0200)  # the table stream is 1Table
    struct.pack_into("<8i", word, 0x4C, 0, 0, story_end, 0, 0, 0, 0, 0)  # ccpText... ccpHdd
    pieces = len(positions) - 1
    text_at = 4096  # past the FIB; an 8-bit piece's fc is twice its offset, flagged
    piece = struct.pack("<HIH", 0, 0x40000000 | 2 * text_at, 0)
    plc = struct.pack(f"<{pieces + 1}i", *positions) + piece * pieces
    clx = b"\x02" + struct.pack("<I", len(plc)) + plc
    stories = struct.pack("<8i", 0, 0, 0, 0, 0, 0, 0, story_end)  # six separators, one header
    struct.pack_into("<II", word, 0x1A2, 0, len(clx))  # fcClx, lcbClx
    struct.pack_into("<II", word, 0xF2, len(clx), len(stories))  # fcPlcfHdd, lcbPlcfHdd
    return compound_file({"WordDocument": bytes(word), "1Table": clx + stories})


@pytest.mark.parametrize("overlapping", [True, False], ids=["overlapping", "repeated"])
def test_a_word97_piece_table_cannot_spell_out_more_than_its_stream(overlapping: bool) -> None:
    """The header story goblin reads from a .doc's piece table: 40,000 pieces each
    covering the story again (or following each other, all reading the same 1 MB) made
    20 GB of text out of a 1.5 MB file. A story is now at most the stream's size."""
    from goblin_office.wordbinary import header_footer_lines, holds_no_text

    big = 1 << 30
    if overlapping:
        positions = [0 if i % 2 == 0 else big for i in range(40_001)]
    else:
        positions = [i * 1_000_000 for i in range(1_001)]
    data = _word97_pieces(1_000_000, positions, big - 1)
    with bounded(seconds=10, megabytes=60):
        headers, footers = header_footer_lines(data)
        blank = holds_no_text(data)
    (header,) = headers
    assert set(header) == {"a"} and len(header) <= 1_000_000
    assert footers == [] and not blank


def test_an_encrypted_workbook_calamine_refuses_goes_to_the_next_reader(read) -> None:  # type: ignore[no-untyped-def]
    """Without an extension an encrypted package is read by the parsers of the family it
    decrypts to, in the chain's order: calamine refusing the workbook is not the end."""
    import msoffcrypto.format.ooxml as ooxml

    # at least 4 KB of package: msoffcrypto cannot decrypt what it encrypts smaller
    data = _shared_string_xlsx("z" * 10_000, rows=200, columns=10)
    out = io.BytesIO()
    ooxml.OOXMLFile(io.BytesIO(data)).encrypt("segredo", out)  # type: ignore[arg-type]
    document = read(out.getvalue(), "protegida", password="segredo",
                    limits={"max_output_chars": 2_000_000})
    # openpyxl read it, cut at the limit (calamine would have copied 20 MB of cells)
    assert document.pages[0].engine == "office.ooxml_protected"
    assert document.raw_metadata["truncated_sheets"] == ["Folha"]
    assert any(w.kind == "Truncated" and "sheet 'Folha' cut" in w.message
               for w in document.report.warnings)
    (table,) = document.tables
    assert 0 < sum(len(cell) for row in table.rows for cell in row) <= 2_000_000


def test_a_row_past_max_sheet_cells_is_cut_and_said(read) -> None:  # type: ignore[no-untyped-def]
    wide = ",".join(f"c{i}" for i in range(400_000))  # longer than one read slice
    data = f"{wide}\r\n1,2\r\n".encode()
    document = read(data, "larga.csv", office={"max_sheet_cells": 1000})
    (table,) = document.tables
    assert table.rows == (tuple(f"c{i}" for i in range(1000)),)
    cut = document.raw_metadata["truncated"]
    assert "fields after field 1,000 of row 1" in cut
    assert "rows after row 1" in cut
    said = [(w.kind, w.engine) for w in document.report.warnings if "max_sheet_cells" in w.message]
    assert said and all(s == ("Truncated", "office.csv") for s in said)


def test_blank_lines_between_rows_stay_and_trailing_ones_go(read) -> None:  # type: ignore[no-untyped-def]
    document = read(b"a;b\n\n\n1;2\n\n\n\n", "vazias.csv")
    assert document.tables[0].rows == (("a", "b"), ("", ""), ("", ""), ("1", "2"))
    assert "truncated" not in document.raw_metadata


def test_csv_text_past_max_output_chars_is_not_read(read) -> None:  # type: ignore[no-untyped-def]
    document = read(b"a,b\n" + b"1,2\n" * 1000, "longa.csv", limits={"max_output_chars": 40})
    assert len(document.tables[0].rows) == 10
    assert "max_output_chars" in document.raw_metadata["truncated"]


def test_quote_soup_is_sniffed_in_linear_time(read) -> None:  # type: ignore[no-untyped-def]
    # csv.Sniffer's quote patterns took over 30 s on 64 KiB of this
    with bounded(seconds=3):
        document = read(b'",' * 40_000, "aspas.csv")
    assert document.raw_metadata["delimiter"] == ","


def test_a_damaged_xls_that_makes_calamine_panic_fails_as_damaged(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One byte changed in a formula record sends calamine's .xls reader past the
    record's end; the Rust panic comes up as a BaseException, which no ``except
    Exception`` stops. It must fail calamine like any damage, so the next readers
    (xlrd, then catdoc's xls2csv) get the workbook, and xlrd's complaints about the
    damage must not land on standard output beside the extracted text."""
    data = bytearray((corpus_dir(__file__) / "office" / "tika-testEXCEL.xls").read_bytes())
    data[12193] = 24
    document = goblin_core.extract(bytes(data), name="panic.xls")
    assert document.pages[0].engine in ("office.xlrd", "office.xls2csv")
    assert "Sample Excel Worksheet" in document.text
    assert capsys.readouterr().out == ""


def test_an_xls_whose_sheet_range_wraps_is_read_without_calamine(tmp_path: Path) -> None:
    """A first row past the last in a sheet's DIMENSIONS record (one damaged byte) made
    calamine size its grid in the billions of rows and abort the process; run in a
    child, as it used to end whatever ran it. xlrd reads such a workbook instead."""
    data = bytearray((corpus_dir(__file__) / "office" / "markitdown-test.xls").read_bytes())
    record = data.find(b"\x00\x02\x0e\x00\x00\x00\x00\x00")  # DIMENSIONS from row 0, BIFF8
    assert record > 0
    data[record + 4:record + 8] = (1 << 24).to_bytes(4, "little")
    damaged = tmp_path / "wrapped.xls"
    damaged.write_bytes(bytes(data))
    script = ("import sys, goblin_core\n"
              "d = goblin_core.extract(sys.argv[1], ocr='never')\n"
              "print(d.status, d.pages[0].engine)")
    done = subprocess.run([sys.executable, "-c", script, str(damaged)], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "RUST_BACKTRACE": "0"})
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.split() == ["clean", "office.xlrd"]


def test_an_xls_whose_first_bof_record_is_cut_is_refused_before_calamine_reads_it() -> None:
    """calamine reads a BOF record's version from its first two bytes without checking
    that it has them: a BOF of no length (a fuzzed member of a damaged archive) made it
    panic, an EnginePanic in the report where a damaged file is a CorruptDocument."""
    data = bytearray((corpus_dir(__file__) / "office" / "tika-testEXCEL.xls").read_bytes())
    bof = data.find(b"\x09\x08\x10\x00")  # BIFF8 BOF, 16 bytes: the workbook stream's start
    assert bof > 0
    data[bof + 2:bof + 4] = b"\x00\x00"
    with pytest.raises(goblin_core.CorruptDocument) as failed:
        goblin_core.extract(bytes(data), name="sem-bof.xls")
    message = str(failed.value)
    assert "office.calamine: CorruptDocument" in message and "whole BOF record" in message
    assert "Panic" not in message


def test_an_xls_formula_declaring_more_tokens_than_its_record_holds_skips_calamine() -> None:
    """calamine slices a FORMULA record's tokens by the byte count the record declares,
    unchecked: a count past the record's end (a fuzzed member of a damaged archive) made
    it panic. Such a workbook is refused before calamine reads it, and the next engine
    reads its cells."""
    data = bytearray((corpus_dir(__file__) / "office" / "tika-testEXCEL.xls").read_bytes())
    # the FORMULA record of 32 bytes for row 17, column 1 (its format, 15, follows)
    formula = data.find(b"\x06\x00\x20\x00\x11\x00\x01\x00\x0f\x00")
    assert formula > 0
    data[formula + 4 + 20:formula + 4 + 22] = (1536).to_bytes(2, "little")
    document = goblin_core.extract(bytes(data), name="formula.xls", ocr="never")
    assert document.parsed_by[0] != "office.calamine"
    assert "Numbers and their Squares" in document.text
    warnings = [w.kind for w in document.report.warnings]
    assert "EnginePanic" not in warnings
    assert any("declares more formula bytes than it holds" in w.message
               for w in document.report.warnings)
