"""Builders of hostile files, made at test time in a temporary folder.

Each builder writes one file and returns its path. Nothing here is ever
extracted outside a temporary folder.
"""

from __future__ import annotations

import base64
import gzip
import io
import os
import struct
import tarfile
import zipfile
import zlib
from pathlib import Path

ZEROS_CHUNK = b"\0" * (1 << 20)


def _zip_of_zeros(path: Path, member: str, megabytes: int) -> Path:
    with (
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive,
        archive.open(member, "w", force_zip64=True) as out,
    ):
        for _ in range(megabytes):
            out.write(ZEROS_CHUNK)
    return path


def deflate_bomb(folder: Path) -> Path:
    """One member of 300 MiB of zeros, about 300 KiB packed: a ratio near 1000:1."""
    return _zip_of_zeros(folder / "bomb.zip", "zeros.txt", 300)


def nested_bomb(folder: Path) -> Path:
    """A zip of 16 zips of 16 zips of 20 MiB of zeros: 5 GiB expanded, under 6 MiB packed."""
    inner = _zip_of_zeros(folder / "level0.zip", "zeros.txt", 20).read_bytes()
    middle = io.BytesIO()
    with zipfile.ZipFile(middle, "w", zipfile.ZIP_STORED) as archive:
        for i in range(16):
            archive.writestr(f"inner{i:02d}.zip", inner)
    path = folder / "nested-bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for i in range(16):
            archive.writestr(f"middle{i:02d}.zip", middle.getvalue())
    (folder / "level0.zip").unlink()
    return path


def gzip_bomb(folder: Path) -> Path:
    """A .gz of 500 MiB of zeros."""
    path = folder / "bomb.txt.gz"
    with gzip.open(path, "wb", compresslevel=9) as out:
        for _ in range(500):
            out.write(ZEROS_CHUNK)
    return path


def traversal_zip(folder: Path) -> Path:
    """Members that climb out (../), absolute, with a drive letter; one harmless member."""
    path = folder / "traversal.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("../../escaped.txt", "ESCAPED-BY-DOTDOT")
        archive.writestr("/tmp/absolute-escape.txt", "ESCAPED-ABSOLUTE")
        archive.writestr("C:\\windows\\drive-escape.txt", "ESCAPED-DRIVE")
        archive.writestr("docs/ok.txt", "harmless member text")
    return path


def _tar(path: Path, members: list[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    with tarfile.open(path, "w") as archive:
        for info, data in members:
            archive.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def _info(
    name: str, kind: bytes = tarfile.REGTYPE, size: int = 0, **extra: object
) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = size
    for key, value in extra.items():
        setattr(info, key, value)
    return info


def link_tar(folder: Path) -> Path:
    """Symlinks and a hard link pointing outside, then a file written through the link name."""
    body = b"harmless tar member"
    return _tar(
        folder / "links.tar",
        [
            (_info("etc-link", tarfile.SYMTYPE, linkname="/etc"), None),
            (_info("up-link", tarfile.SYMTYPE, linkname="../../.."), None),
            (_info("passwd-hard", tarfile.LNKTYPE, linkname="/etc/passwd"), None),
            (_info("up-link/written-through-link.txt", size=5), b"EVIL!"),
            (_info("ok.txt", size=len(body)), body),
        ],
    )


def device_tar(folder: Path) -> Path:
    """A character device, a block device and a FIFO beside one regular file."""
    body = b"regular file beside devices"
    return _tar(
        folder / "devices.tar",
        [
            (_info("dev/null-copy", tarfile.CHRTYPE, devmajor=1, devminor=3), None),
            (_info("dev/sda-copy", tarfile.BLKTYPE, devmajor=8, devminor=0), None),
            (_info("dev/pipe", tarfile.FIFOTYPE), None),
            (_info("readme.txt", size=len(body)), body),
        ],
    )


def setuid_tar(folder: Path) -> Path:
    body = b"#!/bin/sh\necho setuid text\n"
    return _tar(
        folder / "setuid.tar",
        [
            (_info("bin/tool.sh", size=len(body), mode=0o6755), body),
        ],
    )


def many_members_zip(folder: Path, count: int = 200_000) -> Path:
    path = folder / "many-members.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for i in range(count):
            archive.writestr(zipfile.ZipInfo(f"d/{i}"), b"")
    return path


def deep_nesting_zip(folder: Path, depth: int = 40) -> Path:
    data = b"bottom of the nest"
    name = "bottom.txt"
    for level in range(depth):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr(name, data)
        data, name = buffer.getvalue(), f"level{level:02d}.zip"
    path = folder / "deep-nesting.zip"
    path.write_bytes(data)
    return path


def encrypted_zip(folder: Path) -> Path:
    """A ZipCrypto-encrypted member, written by 7z (the standard library only reads them)."""
    import shutil
    import subprocess

    source = folder / "secret.txt"
    source.write_text("segredo do edital")
    path = folder / "encrypted.zip"
    seven = shutil.which("7z")
    assert seven, "7z is needed to write an encrypted zip: apt-get install p7zip-full"
    subprocess.run(
        [seven, "a", "-tzip", "-psenha123", str(path), str(source)], check=True, capture_output=True
    )
    source.unlink()
    return path


XXE_PAYLOAD = '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'
        for i in range(1, 10)
    )
    + "]>\n"
)


def xxe_xml(folder: Path) -> Path:
    path = folder / "xxe.xml"
    path.write_text(XXE_PAYLOAD + "<r>before &xxe; after</r>\n")
    return path


def laughs_xml(folder: Path) -> Path:
    path = folder / "laughs.xml"
    path.write_text(LAUGHS + "<lolz>&lol9;</lolz>\n")
    return path


def xxe_svg(folder: Path) -> Path:
    path = folder / "xxe.svg"
    path.write_text(
        XXE_PAYLOAD.replace("DOCTYPE r", "DOCTYPE svg")
        + '<svg xmlns="http://www.w3.org/2000/svg"><text>&xxe;</text></svg>\n'
    )
    return path


def laughs_svg(folder: Path) -> Path:
    path = folder / "laughs.svg"
    path.write_text(
        LAUGHS.replace("DOCTYPE lolz", "DOCTYPE svg")
        + '<svg xmlns="http://www.w3.org/2000/svg"><text>&lol9;</text></svg>\n'
    )
    return path


_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="{part}" ContentType="{ctype}"/></Types>'
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/officeDocument" Target="{part}"/></Relationships>'
)


def _docx(path: Path, prolog: str, entity: str) -> Path:
    body = (
        prolog.replace("DOCTYPE r", "DOCTYPE w:document").replace(
            "DOCTYPE lolz", "DOCTYPE w:document"
        )
        + '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        f"<w:body><w:p><w:r><w:t>visible {entity} text</w:t></w:r></w:p></w:body></w:document>"
    )
    ctype = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(
            "[Content_Types].xml", _CONTENT_TYPES.format(part="/word/document.xml", ctype=ctype)
        )
        archive.writestr("_rels/.rels", _RELS.format(part="word/document.xml"))
        archive.writestr("word/document.xml", body)
    return path


def xxe_docx(folder: Path) -> Path:
    return _docx(folder / "xxe.docx", XXE_PAYLOAD, "&xxe;")


def laughs_docx(folder: Path) -> Path:
    return _docx(folder / "laughs.docx", LAUGHS, "&lol9;")


def _xlsx(path: Path, prolog: str, entity: str) -> Path:
    ctype = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
    workbook = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        '<sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'
    )
    rels = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
    )
    sheet = (
        prolog.replace("DOCTYPE r", "DOCTYPE worksheet").replace(
            "DOCTYPE lolz", "DOCTYPE worksheet"
        )
        + '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>cell {entity}</t></is></c></row>'
        "</sheetData></worksheet>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(
            "[Content_Types].xml", _CONTENT_TYPES.format(part="/xl/workbook.xml", ctype=ctype)
        )
        archive.writestr("_rels/.rels", _RELS.format(part="xl/workbook.xml"))
        archive.writestr("xl/workbook.xml", workbook)
        archive.writestr("xl/_rels/workbook.xml.rels", rels)
        archive.writestr("xl/worksheets/sheet1.xml", sheet)
    return path


def xxe_xlsx(folder: Path) -> Path:
    return _xlsx(folder / "xxe.xlsx", XXE_PAYLOAD, "&xxe;")


def laughs_xlsx(folder: Path) -> Path:
    return _xlsx(folder / "laughs.xlsx", LAUGHS, "&lol9;")


def _odt(path: Path, prolog: str, entity: str) -> Path:
    content = (
        prolog.replace("DOCTYPE r", "DOCTYPE office:document-content").replace(
            "DOCTYPE lolz", "DOCTYPE office:document-content"
        )
        + '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>'
        f"<text:p>para {entity}</text:p></office:text></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
        '<manifest:file-entry manifest:full-path="/" '
        'manifest:media-type="application/vnd.oasis.opendocument.text"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")
        archive.writestr("META-INF/manifest.xml", manifest)
        archive.writestr("content.xml", content)
    return path


def xxe_odt(folder: Path) -> Path:
    return _odt(folder / "xxe.odt", XXE_PAYLOAD, "&xxe;")


def laughs_odt(folder: Path) -> Path:
    return _odt(folder / "laughs.odt", LAUGHS, "&lol9;")


def zip_bomb_docx(folder: Path) -> Path:
    """A .docx whose document.xml expands to 400 MiB of spaces."""
    path = folder / "bomb.docx"
    ctype = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr(
            "[Content_Types].xml", _CONTENT_TYPES.format(part="/word/document.xml", ctype=ctype)
        )
        archive.writestr("_rels/.rels", _RELS.format(part="word/document.xml"))
        with archive.open("word/document.xml", "w", force_zip64=True) as out:
            out.write(
                b'<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/'
                b'wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>'
            )
            for _ in range(400):
                out.write(b" " * (1 << 20))
            out.write(b"</w:t></w:r></w:p></w:body></w:document>")
    return path


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def gigapixel_png(folder: Path) -> Path:
    """A PNG declaring 50,000 x 50,000 pixels (2.5 gigapixels) with a small IDAT."""
    header = struct.pack(">IIBBBBB", 50_000, 50_000, 8, 0, 0, 0, 0)
    compressor = zlib.compressobj(9)
    row = b"\0" * 50_001
    data = b"".join(compressor.compress(row) for _ in range(64)) + compressor.flush()
    path = folder / "gigapixel.png"
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", data)
        + _png_chunk(b"IEND", b"")
    )
    return path


def _pdf(objects: list[bytes], root: int = 1) -> bytes:
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(
        f"trailer\n<< /Size {len(objects) + 1} /Root {root} 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return out.getvalue()


_FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def _content(text: str) -> bytes:
    stream = f"BT /F1 24 Tf 72 720 Td ({text}) Tj ET".encode()
    return b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream"


# Page trees PDFium must not follow for ever: (the /Pages nodes from object 2 on, page text)
_PAGE_TREES: dict[str, tuple[list[bytes], str]] = {
    # a /Pages node whose kids include itself and its parent
    "looping-pages.pdf": (
        [
            b"<< /Type /Pages /Kids [3 0 R 2 0 R 4 0 R] /Count 3 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
            b"/Resources << /Font << /F1 6 0 R >> >> >>",
            b"<< /Type /Pages /Parent 2 0 R /Kids [4 0 R 2 0 R] /Count 2 >>",
        ],
        "Loop page text",
    ),
    # the only node lists itself as its kid, claiming a billion pages
    "self-kids.pdf": (
        [
            b"<< /Type /Pages /Kids [3 0 R 3 0 R 3 0 R] /Count 1000000000 >>",
            b"<< /Type /Pages /Parent 3 0 R /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] "
            b"/Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        ],
        "Self kids text",
    ),
}


def _page_tree_pdf(folder: Path, name: str) -> Path:
    """The catalog (object 1), the tree's nodes, then a content stream and a font."""
    nodes, text = _PAGE_TREES[name]
    path = folder / name
    path.write_bytes(
        _pdf([b"<< /Type /Catalog /Pages 2 0 R >>", *nodes, _content(text), _FONT])
    )
    return path


def looping_page_tree_pdf(folder: Path) -> Path:
    return _page_tree_pdf(folder, "looping-pages.pdf")


def cyclic_reference_pdf(folder: Path) -> Path:
    """Resources and an outline that reference themselves in a cycle."""
    path = folder / "cyclic.pdf"
    path.write_bytes(
        _pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R /Outlines 7 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources 5 0 R >>",
                _content("Cyclic page text"),
                b"<< /Font << /F1 6 0 R >> /XObject << /Self 5 0 R >> /Parent 5 0 R >>",
                _FONT,
                b"<< /Type /Outlines /First 8 0 R /Last 8 0 R /Count 1 >>",
                b"<< /Title (loop) /Parent 7 0 R /Next 8 0 R /Prev 8 0 R /First 8 0 R /Last 8 0 R >>",
            ]
        )
    )
    return path


def huge_declared_sizes_pdf(folder: Path) -> Path:
    """A stream claiming 10^12 bytes, an image claiming 10^5 x 10^5 pixels, a giant MediaBox."""
    path = folder / "huge-sizes.pdf"
    image = (
        b"<< /Type /XObject /Subtype /Image /Width 100000 /Height 100000 "
        b"/ColorSpace /DeviceGray /BitsPerComponent 8 /Length 999999999999 >>\nstream\nxx\nendstream"
    )
    draw = b"q 100 0 0 100 0 0 cm /Im1 Do Q BT /F1 24 Tf 72 720 Td (Huge sizes text) Tj ET"
    path.write_bytes(
        _pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] /Contents 4 0 R "
                b"/Resources << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >> >> >>",
                b"<< /Length %d >>\nstream\n" % len(draw) + draw + b"\nendstream",
                _FONT,
                image,
            ]
        )
    )
    return path


def _annotated_page_pdf(text: str, annotations: list[bytes], catalog: bytes = b"") -> bytes:
    """One page of ``text`` whose /Annots are ``annotations`` (objects 6 on); ``catalog``
    goes into the catalog (a form's /Fields naming them, through ``_references``)."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R " + catalog + b">>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> /Annots [" + _references(len(annotations))
        + b"] >>",
        _content(text),
        _FONT,
        *annotations,
    ]
    return _pdf(objects)


def _references(count: int) -> bytes:
    """References to objects 6 to 5 + ``count``: the annotations of ``_annotated_page_pdf``."""
    return b" ".join(b"%d 0 R" % (6 + i) for i in range(count))


def many_annotations_pdf(folder: Path, count: int = 5000) -> Path:
    notes = [b"<< /Type /Annot /Subtype /Text /Rect [%d 10 %d 20] /Contents (note %d) >>"
             % (i % 600, i % 600 + 10, i) for i in range(count)]
    path = folder / "many-annotations.pdf"
    path.write_bytes(_annotated_page_pdf("Annotated page text", notes))
    return path


def many_widgets_pdf(folder: Path, count: int = 60_000) -> Path:
    """One page of ``count`` text fields, all in the form: PDFium lists a form's fields in
    time growing with the square of their number (minutes for this one) when it loads it."""
    widgets = [b"<< /Type /Annot /Subtype /Widget /FT /Tx /P 3 0 R "
               b"/Rect [72 600 300 620] /T (field%d) /V (value %d) >>" % (i, i)
               for i in range(count)]
    path = folder / "many-widgets.pdf"
    path.write_bytes(_annotated_page_pdf(
        "Widget page text", widgets, b"/AcroForm << /Fields [" + _references(count) + b"] >> "))
    return path


def random_bytes(folder: Path, extension: str, size: int = 4096, seed: int = 7) -> Path:
    import random

    generator = random.Random(f"{seed}-{extension}")
    path = folder / f"random.{extension}"
    path.write_bytes(bytes(generator.getrandbits(8) for _ in range(size)))
    return path


def truncated_copy(source: Path, folder: Path, fraction: float) -> Path:
    data = source.read_bytes()
    path = folder / f"truncated-{int(fraction * 100)}-{source.name}"
    path.write_bytes(data[: int(len(data) * fraction)])
    return path


def zero_bytes(folder: Path, extension: str) -> Path:
    path = folder / f"empty.{extension}"
    path.write_bytes(b"")
    os.utime(path)
    return path


def image_only_pdf(folder: Path) -> Path:
    """One page that draws only an (inline) image: it needs OCR to yield text."""
    pixels = bytes((x * 16) % 256 for x in range(64))
    draw = b"q 200 0 0 200 100 400 cm BI /W 8 /H 8 /CS /G /BPC 8 ID " + pixels + b" EI Q"
    path = folder / "image-only.pdf"
    path.write_bytes(_pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(draw) + draw + b"\nendstream",
    ]))
    return path


def _ole_entry(name: str, kind: int, start: int = 0xFFFFFFFE, size: int = 0, child: int = -1) -> bytes:
    encoded = (name + "\0").encode("utf-16-le")
    entry = bytearray(128)
    entry[: len(encoded)] = encoded
    struct.pack_into("<HB", entry, 64, len(encoded), kind)
    struct.pack_into("<iii", entry, 68, -1, -1, child)
    struct.pack_into("<II", entry, 116, start, size)
    return bytes(entry)


def _ole_loop(path: Path, stream: str) -> Path:
    """A compound file whose directory chain loops (1 -> 2 -> 1): readers that follow it
    to its end mark never get there (calamine aborts the process, catdoc eats memory)."""
    free, end, fat_mark = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD
    header = bytearray(512)
    header[:8] = bytes.fromhex("D0CF11E0A1B11AE1")
    struct.pack_into("<HHHHH", header, 24, 0x3E, 3, 0xFFFE, 9, 6)
    struct.pack_into("<IIIIIIII", header, 44, 1, 1, 0, 4096, end, 0, end, 0)
    struct.pack_into("<109I", header, 76, 0, *[free] * 108)
    fat = [fat_mark, 2, 1, end] + [free] * 124
    entries = _ole_entry("Root Entry", 5, child=1) + _ole_entry(stream, 2, 3, 100_000)
    sector = entries.ljust(512, b"\0")
    path.write_bytes(bytes(header) + struct.pack("<128I", *fat) + sector * 3)
    return path


def looping_ole_xls(folder: Path) -> Path:
    return _ole_loop(folder / "looping-ole.xls", "Workbook")


def looping_ole_doc(folder: Path) -> Path:
    return _ole_loop(folder / "looping-ole.doc", "WordDocument")


def sparse_corner_xlsx(folder: Path) -> Path:
    """Two cells, A1 and XFD1048576: a dense grid of them would be 17 billion cells."""
    far = '<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>far corner</t></is></c></row>'
    path = _xlsx(folder / "sparse-corner.xlsx", "", "text")
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    parts[sheet] = parts[sheet].replace(b"</row>", b"</row>" + far.encode(), 1)
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return path


def _text_pdf_with(text: str, extra: list[bytes], names: bytes) -> bytes:
    """A one-page PDF whose catalog has ``/Names << names >>``; ``extra`` are objects 6 on."""
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R /Names << " + names + b" >> >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> >> >>",
            _content(text),
            _FONT,
            *extra,
        ]
    )


def attachment_bomb_pdf(folder: Path, megabytes: int = 200, name: str = "attachment-bomb") -> Path:
    """A PDF embedding a file whose FlateDecode stream inflates to ``megabytes`` of zeros."""
    compressor = zlib.compressobj(9)
    data = b"".join(compressor.compress(ZEROS_CHUNK) for _ in range(megabytes))
    data += compressor.flush()
    path = folder / f"{name}.pdf"
    path.write_bytes(
        _text_pdf_with(
            "Page beside the bomb",
            [
                b"<< /Names [(zeros.txt) 7 0 R] >>",
                b"<< /Type /Filespec /F (zeros.txt) /UF (zeros.txt) /EF << /F 8 0 R >> >>",
                b"<< /Type /EmbeddedFile /Filter /FlateDecode /Length %d >>\nstream\n"
                % len(data) + data + b"\nendstream",
            ],
            b"/EmbeddedFiles 6 0 R",
        )
    )
    return path


def _flate_bomb(megabytes: int, chunk: bytes, head: bytes = b"") -> bytes:
    """``head`` then ``megabytes`` MiB of ``chunk`` repeated, Flate-compressed."""
    compressor = zlib.compressobj(9)
    block = chunk * (len(ZEROS_CHUNK) // len(chunk))
    data = compressor.compress(head)
    data += b"".join(compressor.compress(block) for _ in range(megabytes))
    return data + compressor.flush()


def content_bomb_pdf(folder: Path) -> Path:
    """A page whose content stream says one line, then 512 MiB of path operators: about
    half a megabyte on disk, and gigabytes in any reader that parses the page."""
    return _flate_page_pdf(folder / "content-bomb.pdf", _flate_bomb(
        512, b"0 0 m 1 1 l S\n", b"BT /F1 24 Tf 72 720 Td (Bomb page) Tj ET\n"))


def _flate_page_pdf(path: Path, packed: bytes) -> Path:
    """A one-page PDF whose content stream is the Flate data ``packed``."""
    path.write_bytes(_one_page_pdf(
        b"<< /Filter /FlateDecode /Length %d >>\nstream\n" % len(packed) + packed
        + b"\nendstream"))
    return path


def object_stream_bomb_pdf(folder: Path) -> Path:
    """The page object inside an object stream padded to 1 GiB with spaces: a reader
    inflates it whole to find the page, before any page is read."""
    head = b"3 0 "
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> >> >>")
    packed = _flate_bomb(1024, b" ", head + page)
    content = b"BT /F1 24 Tf 72 720 Td (Object stream page) Tj ET"
    bodies = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        4: b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        5: _FONT,
        6: b"<< /Type /ObjStm /N 1 /First %d /Filter /FlateDecode /Length %d >>\nstream\n"
           % (len(head), len(packed)) + packed + b"\nendstream",
    }
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n")
    offsets = {}
    for number, body in bodies.items():
        offsets[number] = out.tell()
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref_at = out.tell()
    # a cross-reference stream: object 3 is the first object of object stream 6
    rows = [b"\x00\x00\x00\x00\x00\xff\xff"]
    for number in range(1, 7):
        rows.append(b"\x02" + (6).to_bytes(4, "big") + b"\x00\x00" if number == 3
                    else b"\x01" + offsets[number].to_bytes(4, "big") + b"\x00\x00")
    rows.append(b"\x01" + xref_at.to_bytes(4, "big") + b"\x00\x00")
    table = b"".join(rows)
    out.write(b"7 0 obj\n<< /Type /XRef /Size 8 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n"
              % len(table) + table + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % xref_at)
    path = folder / "object-stream-bomb.pdf"
    path.write_bytes(out.getvalue())
    return path


def repeated_cells_ods(folder: Path) -> Path:
    """A sheet of one header cell, then a row repeated a million times holding a cell
    repeated 16,000 times: 17 billion cells from a few hundred bytes of XML."""
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        '<office:body><office:spreadsheet><table:table table:name="Sheet1"><table:table-row>'
        '<table:table-cell office:value-type="string"><text:p>Repeated header</text:p>'
        '</table:table-cell></table:table-row><table:table-row table:number-rows-repeated='
        '"1048000"><table:table-cell table:number-columns-repeated="16000" '
        'office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>'
        "</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    path = folder / "repeated-cells.ods"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet",
                         compress_type=zipfile.ZIP_STORED)
        archive.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
    return path


def attachment_ratio_pdf(folder: Path) -> Path:
    """150 MiB of zeros embedded in a PDF of about 150 KiB: under every size limit, but a
    ratio no honest attachment has."""
    return attachment_bomb_pdf(folder, 150, "attachment-ratio")


def many_parts_eml(folder: Path, count: int = 500) -> Path:
    """A multipart e-mail of ``count`` small text parts, each an attachment."""
    parts = "".join(
        f"--B\nContent-Type: text/plain\nContent-Disposition: attachment; filename=p{i}.txt\n\n"
        f"part {i}\n"
        for i in range(count)
    )
    path = folder / "many-parts.eml"
    path.write_text(
        "From: a@example.com\nSubject: many parts\nMIME-Version: 1.0\n"
        f"Content-Type: multipart/mixed; boundary=B\n\n--B\nContent-Type: text/plain\n\n"
        f"Body of the many-part mail\n{parts}--B--\n"
    )
    return path


CONTROL_NAMES = ("new\nline.txt", "ansi\x1b[31mred.txt", "bell\x07\x9b2J.txt")


def control_names_zip(folder: Path) -> Path:
    """Members named with a newline, a terminal escape sequence, a bell and an 8-bit CSI."""
    path = folder / "control-names.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for name in CONTROL_NAMES:
            archive.writestr(name, "member with a control character in its name")
    return path


def self_kids_pdf(folder: Path) -> Path:
    return _page_tree_pdf(folder, "self-kids.pdf")


def gigapixel_scan_pdf(folder: Path) -> Path:
    """An image-only page 200 inches wide whose image claims 100,000 x 100,000 gray pixels
    (200 rows present): OCR renders it at the pixel limit, one flat colour."""
    compressor = zlib.compressobj(9)
    row = b"\0" * 100_000
    pixels = b"".join(compressor.compress(row) for _ in range(200)) + compressor.flush()
    draw = b"q 14400 0 0 14400 0 0 cm /Im1 Do Q"
    path = folder / "gigapixel-scan.pdf"
    path.write_bytes(
        _pdf(
            [
                b"<< /Type /Catalog /Pages 2 0 R >>",
                b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] /Contents 4 0 R "
                b"/Resources << /XObject << /Im1 5 0 R >> >> >>",
                b"<< /Length %d >>\nstream\n" % len(draw) + draw + b"\nendstream",
                b"<< /Type /XObject /Subtype /Image /Width 100000 /Height 100000 "
                b"/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>"
                b"\nstream\n" % len(pixels) + pixels + b"\nendstream",
            ]
        )
    )
    return path


def _form_xobject(resources: bytes, body: bytes) -> bytes:
    return (b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] " + resources
            + b" /Length %d >>\nstream\n" % len(body) + body + b"\nendstream")


def _forms_page_pdf(path: Path, forms: list[bytes], text: str) -> Path:
    """One page saying ``text`` that draws object 6 (the first of ``forms``) as /Y."""
    draw = f"BT /F1 24 Tf 72 720 Td ({text}) Tj ET /Y Do".encode()
    content = b"<< /Length %d >>\nstream\n" % len(draw) + draw + b"\nendstream"
    path.write_bytes(_one_page_pdf(content, b"/XObject << /Y 6 0 R >>", *forms))
    return path


def _one_page_pdf(content: bytes, resources: bytes = b"", *more: bytes) -> bytes:
    """Catalog, page tree and one page whose content is object 4 and font /F1 object 5;
    ``resources`` go beside the font, ``more`` are objects 6 on."""
    return _pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> " + resources + b" >> >>",
        content,
        _FONT,
        *more,
    ])


def form_bomb_pdf(folder: Path, levels: int = 40) -> Path:
    """Forty form XObjects, each drawing the next twice: 2^40 forms for a reader that
    parses a form again each time it is drawn (PDFium and pdftotext both do)."""
    forms = [_form_xobject(b"/Resources << /XObject << /Z %d 0 R >> >>" % (7 + level),
                           b"/Z Do /Z Do") for level in range(levels - 1)]
    forms.append(_form_xobject(b"/Resources << /Font << /F1 5 0 R >> >>",
                               b"BT /F1 12 Tf 10 10 Td (y) Tj ET"))
    return _forms_page_pdf(folder / "form-bomb.pdf", forms, "Form bomb page")


def stamp_form_bomb_pdf(folder: Path, levels: int = 40) -> Path:
    """Page 1 says a line; page 2 is a scan (an image) under a stamp whose appearance is
    forty forms each drawing the next twice. Loading the page never parses the stamp,
    but rendering it for OCR draws it: 2^40 forms."""
    first = 11  # the stamp's appearance, then the forms it nests
    forms = [_form_xobject(b"/Resources << /XObject << /Z %d 0 R >> >>" % (first + 1 + level),
                           b"/Z Do /Z Do") for level in range(levels - 1)]
    forms.append(_form_xobject(b"/Resources << /Font << /F1 6 0 R >> >>",
                               b"BT /F1 48 Tf 100 400 Td (STAMP) Tj ET"))
    scan = b"q 500 0 0 700 50 50 cm /Im Do Q"
    pixels = bytes(range(64))
    path = folder / "stamp-form-bomb.pdf"
    path.write_bytes(_pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
        b"/Resources << /Font << /F1 6 0 R >> >> >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 7 0 R "
        b"/Resources << /XObject << /Im 8 0 R >> >> /Annots [9 0 R] >>",
        _content("Stamp bomb page"),
        _FONT,
        b"<< /Length %d >>\nstream\n" % len(scan) + scan + b"\nendstream",
        b"<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray "
        b"/BitsPerComponent 8 /Length 64 >>\nstream\n" + pixels + b"\nendstream",
        b"<< /Type /Annot /Subtype /Stamp /Rect [0 0 612 792] /AP << /N %d 0 R >> >>" % first,
        b"<< >>",
        *forms,
    ]))
    return path


def self_drawing_form_pdf(folder: Path) -> Path:
    """One form XObject without resources of its own, drawing /Y twice: through the
    page's resources, itself, until the reader's nesting limit doubles it out."""
    forms = [_form_xobject(b"", b"/Y Do /Y Do")]
    return _forms_page_pdf(folder / "self-drawing-form.pdf", forms, "Self drawing page")


def _lzw_spaces(tables: int) -> bytes:
    """LZW data for spaces in ever longer strings, its table filled and cleared ``tables``
    times: about 7.4 MB decoded per 5.4 kB. Each code is as wide as a decoder expects
    (PDF's early change: one code before the table needs the next bit)."""
    bits = []
    width = 9
    for _ in range(tables):
        for index, code in enumerate((256, 32, *range(258, 4095))):
            bits.append(format(code, f"0{width}b"))
            entries = 258 + max(index - 1, 0) + 1
            width = 9 if entries < 512 else 10 if entries < 1024 else 11 if entries < 2048 else 12
    bits.append(format(257, f"0{width}b"))
    stream = "".join(bits)
    stream += "0" * (-len(stream) % 8)
    return int(stream, 2).to_bytes(len(stream) // 8, "big")


def font_program_bomb_pdf(folder: Path, name: str, program: bytes, filters: bytes) -> Path:
    """A page whose TrueType font program is ``program`` under ``filters``: readers decode
    a font program whole when the page's text uses it."""
    path = folder / f"{name}.pdf"
    path.write_bytes(_pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        _content("Font bomb page"),
        b"<< /Type /Font /Subtype /TrueType /BaseFont /Bomb /FirstChar 32 /LastChar 126 "
        b"/Widths [" + b"500 " * 95 + b"] /FontDescriptor 6 0 R >>",
        b"<< /Type /FontDescriptor /FontName /Bomb /Flags 32 /FontBBox [0 0 1000 1000] "
        b"/ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 "
        b"/FontFile2 7 0 R >>",
        b"<< /Filter %s /Length %d >>\nstream\n" % (filters, len(program)) + program
        + b"\nendstream",
    ]))
    return path


def lzw_font_bomb_pdf(folder: Path) -> Path:
    """A font program of 790 kB of LZW data decoding to 1 GiB of spaces."""
    return font_program_bomb_pdf(folder, "lzw-font-bomb", _lzw_spaces(146), b"/LZWDecode")


def ascii85_font_bomb_pdf(folder: Path) -> Path:
    """A font program of 1 GiB of zeros, Flate inside ASCII85: 1.3 MB on disk, and no zlib
    header to be seen until the ASCII85 is decoded."""
    packed = base64.a85encode(_flate_bomb(1024, b"\0"), wrapcol=80) + b"~>"
    return font_program_bomb_pdf(folder, "ascii85-font-bomb", packed,
                                 b"[/ASCII85Decode /FlateDecode]")


def dense_content_pdf(folder: Path) -> Path:
    """A page of 60 MiB of two-character strings, under any stream limit: 90 kB on disk,
    eight million text objects (7.6 GB) to a reader that loads the page."""
    return _flate_page_pdf(folder / "dense-content.pdf", _flate_bomb(
        60, b"(AB) Tj ", b"BT /F1 24 Tf 72 720 Td (Dense page) Tj ET BT "))


def million_strings_pdf(folder: Path) -> Path:
    """A page of a million and a half one-character strings: 10 MiB of content, under the
    byte limit, and 1.5 GB to a reader that loads the page."""
    return _flate_page_pdf(folder / "million-strings.pdf", _flate_bomb(
        10, b"(x) Tj ", b"BT /F1 24 Tf 72 720 Td (Million strings page) Tj ET BT "))


def repeated_content_pdf(folder: Path) -> Path:
    """A page naming one 64 kB content stream a thousand times: 7 kB on disk, 64 MB of
    text objects to parse."""
    body = zlib.compress(b"BT /F1 1 Tf 10 10 Td " + b"(AB) Tj " * 8000 + b"ET\n")
    path = folder / "repeated-content.pdf"
    path.write_bytes(_pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ["
        + b"4 0 R " * 1000 + b"] /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Filter /FlateDecode /Length %d >>\nstream\n" % len(body) + body + b"\nendstream",
        _FONT,
    ]))
    return path


def form_text_bomb_pdf(folder: Path) -> Path:
    """One form of a thousand characters, drawn 100,000 times by a Flate-compressed
    page: two kilobytes on disk, a page of a hundred million characters to a reader."""
    forms = [_form_xobject(b"/Resources << /Font << /F1 5 0 R >> >>",
                           b"BT /F1 1 Tf 10 10 Td (" + b"x" * 1000 + b") Tj ET")]
    draw = zlib.compress(b"BT /F1 24 Tf 72 720 Td (Form text page) Tj ET\n" + b"/Y Do\n" * 100_000)
    content = (b"<< /Filter /FlateDecode /Length %d >>\nstream\n" % len(draw) + draw
               + b"\nendstream")
    path = folder / "form-text-bomb.pdf"
    path.write_bytes(_one_page_pdf(content, b"/XObject << /Y 6 0 R >>", *forms))
    return path


def _local_header(name: bytes, packed: bytes, size: int, crc: int) -> bytes:
    return struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, 8, 0, 0, crc, len(packed), size,
                       len(name), 0) + name + packed


def _central_entry(name: bytes, packed: int, size: int, crc: int, offset: int) -> bytes:
    return struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 20, 0, 8, 0, 0, crc, packed,
                       size, len(name), 0, 0, 0, 0, 0, offset) + name


def overlapping_zip(folder: Path, entries: int = 5000) -> Path:
    """One honest member, then ``entries`` central-directory entries that all point to one
    local header holding 1 MiB of zeros (under the ratio grace each, 5 GiB together)."""
    kernel = b"\0" * (1 << 20)
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = compressor.compress(kernel) + compressor.flush()
    honest = b"text of the honest member"
    local = _local_header(b"ok.txt", honest, len(honest), zlib.crc32(honest))
    local = local[:8] + b"\0\0" + local[10:]  # stored, not deflated
    shared = len(local)
    local += _local_header(b"zeros.bin", packed, len(kernel), zlib.crc32(kernel))
    directory = _central_entry(b"ok.txt", len(honest), len(honest), zlib.crc32(honest), 0)
    directory = directory[:10] + b"\0\0" + directory[12:]
    for _ in range(entries):
        directory += _central_entry(b"zeros.bin", len(packed), len(kernel), zlib.crc32(kernel),
                                    shared)
    count = entries + 1
    end = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, count, count, len(directory),
                      len(local), 0)
    path = folder / "overlapping.zip"
    path.write_bytes(local + directory + end)
    return path


def small_members_tgz(folder: Path, members: int = 4000) -> Path:
    """A .tar.gz of ``members`` files of 1 MiB of zeros: each is under the ratio grace
    and a thousandth of the packed file, 4 GiB together from 4 MB. Written as one gzip
    member per tar header and per run of zeros (gzip readers join them), so the zeros
    are compressed once."""
    zeros = gzip.compress(ZEROS_CHUNK, 9)
    path = folder / "small-members.tar.gz"
    with path.open("wb") as out:
        for i in range(members):
            header = _info(f"zeros/{i:05d}.bin", size=len(ZEROS_CHUNK)).tobuf(tarfile.GNU_FORMAT)
            out.write(gzip.compress(header, 9) + zeros)
        out.write(gzip.compress(b"\0" * 1024))
    return path


def huge_member_txz(folder: Path, gigabytes: int = 8) -> Path:
    """A .tar.xz of one file of ``gigabytes`` GiB of zeros, then a small text file: the
    big one is refused by its declared size, but a streamed tar still decompresses it all
    to reach the next header. Written as concatenated xz streams (readers join them)."""
    import lzma

    block = lzma.compress(b"\0" * (64 << 20), preset=9)
    header = _info("zeros.bin", size=gigabytes << 30).tobuf(tarfile.GNU_FORMAT)
    body = b"harmless text after the huge member\n"
    tail = _info("after.txt", size=len(body)).tobuf(tarfile.GNU_FORMAT)
    path = folder / "huge-member.tar.xz"
    with path.open("wb") as out:
        out.write(lzma.compress(header))
        for _ in range((gigabytes << 30) // (64 << 20)):
            out.write(block)
        out.write(lzma.compress(tail + body.ljust(512, b"\0") + b"\0" * 1024))
    return path


def _gnu_sparse_header(name: str, real_size: int, data: bytes) -> bytes:
    """An old-GNU sparse member: ``data`` stored at the very end of ``real_size`` bytes of
    holes (tarfile reads the holes as zeros)."""
    header = bytearray(_info(name, tarfile.GNUTYPE_SPARSE, size=len(data)).tobuf(
        tarfile.GNU_FORMAT))
    header[386:398] = b"%011o\0" % (real_size - len(data))
    header[398:410] = b"%011o\0" % len(data)
    header[483:495] = b"%011o\0" % real_size
    header[148:156] = b" " * 8
    header[148:156] = b"%06o\0 " % sum(header)
    return bytes(header) + data.ljust(-(-len(data) // 512) * 512, b"\0")


def sparse_tar(folder: Path, members: int = 64) -> Path:
    """A tar of ``members`` sparse files of 1000 MiB each, under 100 KB on disk: under the
    member size limit each, 64 GB of zeros together."""
    path = folder / "sparse.tar"
    body = b"harmless tar member beside the sparse ones"
    with path.open("wb") as out:
        out.write(_info("readme.txt", size=len(body)).tobuf(tarfile.GNU_FORMAT))
        out.write(body.ljust(512, b"\0"))
        for i in range(members):
            out.write(_gnu_sparse_header(f"holes{i:02d}.bin", 1000 << 20, b"end\n"))
        out.write(b"\0" * 1024)
    return path


def many_text_members_zip(folder: Path, members: int = 300) -> Path:
    """``members`` text files of 1 MiB each: every one far under max_output_chars."""
    path = folder / "many-text-members.zip"
    body = ("Edital item %05d: fornecimento de material de escritório.\n" * 18_000).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for i in range(members):
            archive.writestr(f"item{i:04d}.txt", body.replace(b"%05d", b"%05d" % i))
    return path


#: Member names that climb out, start at a root or a drive, and one harmless member.
ESCAPING_NAMES = ("../../escaped.txt", "/tmp/absolute-escape.txt", "C:\\windows\\drive.txt",
                  "..\\..\\win-escape.txt")


def escaping_names_7z(folder: Path) -> Path:
    """A 7z of ESCAPING_NAMES and docs/ok.txt: members added under plain names by the
    ``7z`` binary, then renamed inside the archive (no writer takes such names from disk)."""
    import subprocess

    work = folder / "escaping-7z"
    (work / "docs").mkdir(parents=True)
    (work / "docs" / "ok.txt").write_text("harmless 7z member text")
    plain = []
    for number, name in enumerate(ESCAPING_NAMES):
        (work / f"m{number}").write_text(f"ESCAPED-BY-NAME {number}")
        plain += [f"m{number}", name]
    path = folder / "escaping.7z"
    for argv in (["7z", "a", "-bd", str(path), "docs", *plain[::2]],
                 ["7z", "rn", "-bd", str(path), *plain]):
        subprocess.run(argv, cwd=work, check=True, capture_output=True)
    return path
