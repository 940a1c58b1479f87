"""Small OOXML packages written by hand, for structures python-docx and openpyxl cannot write.

Each builder returns the bytes of a valid package holding exactly the parts a
test needs (a footnote, a comment, a header, a formula with its cached value).
"""

from __future__ import annotations

import io
import struct
import subprocess
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
_DOC_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml"

_PART_TYPES = {
    "header1.xml": ("header", f"{_DOC_CT}.header+xml"),
    "footer1.xml": ("footer", f"{_DOC_CT}.footer+xml"),
    "footnotes.xml": ("footnotes", f"{_DOC_CT}.footnotes+xml"),
    "endnotes.xml": ("endnotes", f"{_DOC_CT}.endnotes+xml"),
    "comments.xml": ("comments", f"{_DOC_CT}.comments+xml"),
    "styles.xml": ("styles", f"{_DOC_CT}.styles+xml"),
}


def para(text: str, style: str = "") -> str:
    """A w:p with one run."""
    props = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f'<w:p>{props}<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


def zip_bytes(members: Mapping[str, bytes | str], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


SHEET_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_SHEET_CT = "application/vnd.openxmlformats-officedocument.spreadsheetml"


def xlsx_parts(sheets: Mapping[str, str], shared_strings: str | None = None,
               sheet_end: str = "") -> dict[str, str]:
    """The parts of a minimal xlsx, by member name, for a test to damage one: each sheet
    (its name, then the rows of its sheetData) as ``xl/worksheets/sheetN.xml`` in order,
    ``sheet_end`` after each sheetData, and a shared strings part of the given ``<si>``
    items when there are any."""
    members = [f"xl/worksheets/sheet{number}.xml" for number in range(1, len(sheets) + 1)]
    overrides = ['<Override PartName="/xl/workbook.xml" '
                 f'ContentType="{_SHEET_CT}.sheet.main+xml"/>']
    overrides += [f'<Override PartName="/{member}" ContentType="{_SHEET_CT}.worksheet+xml"/>'
                  for member in members]
    relationships = [f'<Relationship Id="rId{number}" Type="{R}/worksheet" '
                     f'Target="worksheets/sheet{number}.xml"/>'
                     for number in range(1, len(sheets) + 1)]
    if shared_strings is not None:
        overrides.append('<Override PartName="/xl/sharedStrings.xml" '
                         f'ContentType="{_SHEET_CT}.sharedStrings+xml"/>')
        relationships.append(f'<Relationship Id="rId{len(sheets) + 1}" Type="{R}/sharedStrings" '
                             'Target="sharedStrings.xml"/>')
    names = "".join(f'<sheet name="{name}" sheetId="{number}" r:id="rId{number}"/>'
                    for number, name in enumerate(sheets, start=1))
    parts = {
        "[Content_Types].xml": (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            f'{"".join(overrides)}</Types>'),
        "_rels/.rels": (
            f'<Relationships xmlns="{PKG_RELS}"><Relationship Id="rId1" '
            f'Type="{R}/officeDocument" Target="xl/workbook.xml"/></Relationships>'),
        "xl/workbook.xml": (f'<workbook xmlns="{SHEET_MAIN}" xmlns:r="{R}"><sheets>{names}'
                            "</sheets></workbook>"),
        "xl/_rels/workbook.xml.rels": (f'<Relationships xmlns="{PKG_RELS}">'
                                       f'{"".join(relationships)}</Relationships>'),
    }
    for member, rows in zip(members, sheets.values(), strict=True):
        parts[member] = (f'<worksheet xmlns="{SHEET_MAIN}"><sheetData>{rows}</sheetData>'
                         f"{sheet_end}</worksheet>")
    if shared_strings is not None:
        count = shared_strings.count("<si>")
        parts["xl/sharedStrings.xml"] = (f'<sst xmlns="{SHEET_MAIN}" count="{count}" '
                                         f'uniqueCount="{count}">{shared_strings}</sst>')
    return parts


def docx(body: str, parts: Mapping[str, str] | None = None) -> bytes:
    """A .docx whose body is ``body`` (w:p/w:tbl XML) plus the named extra parts.

    ``parts`` maps header1.xml, footer1.xml, footnotes.xml, endnotes.xml, comments.xml
    or styles.xml to their root element's XML (namespaces added here).
    """
    parts = dict(parts or {})
    overrides = "".join(
        f'<Override PartName="/word/{name}" ContentType="{_PART_TYPES[name][1]}"/>'
        for name in parts
    )
    rels = "".join(
        f'<Relationship Id="rId{i}" Type="{R}/{_PART_TYPES[name][0]}" Target="{name}"/>'
        for i, name in enumerate(parts, start=10)
    )
    members: dict[str, bytes | str] = {
        "[Content_Types].xml": (
            '<?xml version="1.0" encoding="UTF-8"?>'
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/word/document.xml" ContentType="{_DOC_CT}.document.main+xml"/>'
            f"{overrides}</Types>"
        ),
        "_rels/.rels": (
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG_RELS}">'
            f'<Relationship Id="rId1" Type="{R}/officeDocument" Target="word/document.xml"/>'
            "</Relationships>"
        ),
        "word/_rels/document.xml.rels": (
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG_RELS}">{rels}'
            "</Relationships>"
        ),
        "word/document.xml": (
            f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{W}" xmlns:r="{R}">'
            f"<w:body>{body}</w:body></w:document>"
        ),
    }
    for name, xml in parts.items():
        members[f"word/{name}"] = _with_namespaces(xml)
    return zip_bytes(members)


def _with_namespaces(xml: str) -> str:
    first_close = xml.index(">")
    opening = xml[:first_close]
    if opening.endswith("/"):
        opening = opening[:-1]
        rest = "/" + xml[first_close:]
    else:
        rest = xml[first_close:]
    return f'<?xml version="1.0" encoding="UTF-8"?>{opening} xmlns:w="{W}" xmlns:r="{R}"{rest}'


def rewrite(package: bytes, changes: Mapping[str, bytes]) -> bytes:
    """The package with some members' bytes replaced."""
    source = zipfile.ZipFile(io.BytesIO(package))
    members = {
        info.filename: changes.get(info.filename, source.read(info)) for info in source.infolist()
    }
    return zip_bytes(members)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _record(kind: int, payload: bytes = b"") -> bytes:
    """One BIFF12 record: type and size as 7-bit varints, then the payload."""
    return _varint(kind) + _varint(len(payload)) + payload


def _wide(text: str) -> bytes:
    return struct.pack("<I", len(text)) + text.encode("utf-16-le")


def xlsb(
    sheet_name: str,
    text: str,
    number: float,
    chart_sheet: str | None = None,
    errors: Sequence[tuple[int, int, int, bool]] = (),
    strings: Sequence[str] = (),
    shared_cells: Sequence[tuple[int, int, int]] = (),
) -> bytes:
    """A one-sheet .xlsb whose first row holds ``text`` and ``number`` (A1, B1), then,
    when ``chart_sheet`` names one, a chart sheet (a view record, no cells).

    ``errors`` are error cells after them, each (row, column, BErr code, whether it is a
    formula's result: a BrtFmlaError rather than a BrtCellError), in row order; then
    ``shared_cells`` (row, column, index), rows after the first, each showing one of
    ``strings``, which make the workbook's shared strings part.
    """
    bundles = _record(0x9C, struct.pack("<II", 0, 1) + _wide("rId1") + _wide(sheet_name))
    if chart_sheet is not None:
        bundles += _record(0x9C, struct.pack("<II", 0, 2) + _wide("rId2") + _wide(chart_sheet))
    book = (
        _record(0x83)  # BrtBeginBook
        + _record(0x8F)  # BrtBeginBundleShs
        + bundles  # BrtBundleSh
        + _record(0x90)
        + _record(0x84)
    )
    cell = struct.pack("<II", 0, 0)  # column 0, style 0
    last_row = max([0, *(row for row, _, _, _ in errors), *(row for row, _, _ in shared_cells)])
    last_column = max([1, *(column for _, column, _, _ in errors),
                       *(column for _, column, _ in shared_cells)])
    sheet = (
        _record(0x81)  # BrtBeginSheet
        + _record(0x94, struct.pack("<IIII", 0, last_row, 0, last_column))  # BrtWsDim
        + _record(0x91)  # BrtBeginSheetData
        + _row_header(0)
        + _record(0x06, cell + _wide(text))  # BrtCellSt
        + _record(0x05, struct.pack("<II", 1, 0) + struct.pack("<d", number))  # BrtCellReal
        + _error_cells(errors)
        + _shared_string_cells(shared_cells)
        + _record(0x92)
        + _record(0x82)
    )
    main = "application/vnd.ms-excel.sheet.binary.macroEnabled.main"
    overrides = (
        '<Override PartName="/xl/worksheets/sheet1.bin" '
        'ContentType="application/vnd.ms-excel.worksheet"/>'
    )
    targets = [("worksheet", "worksheets/sheet1.bin")]
    members: dict[str, str | bytes] = {"xl/worksheets/sheet1.bin": sheet}
    if chart_sheet is not None:
        overrides += (
            '<Override PartName="/xl/chartsheets/sheet1.bin" '
            'ContentType="application/vnd.ms-excel.chartsheet"/>'
        )
        targets.append(("chartsheet", "chartsheets/sheet1.bin"))
        members["xl/chartsheets/sheet1.bin"] = (
            _record(0x81) + _record(0x28B, bytes(12) + _wide(chart_sheet)) + _record(0x82)
        )
    if strings:
        overrides += (
            '<Override PartName="/xl/sharedStrings.bin" '
            'ContentType="application/vnd.ms-excel.sharedStrings"/>'
        )
        targets.append(("sharedStrings", "sharedStrings.bin"))
        members["xl/sharedStrings.bin"] = (
            _record(0x9F, struct.pack("<II", len(shared_cells), len(strings)))  # BrtBeginSst
            + b"".join(_record(0x13, b"\0" + _wide(text)) for text in strings)  # BrtSSTItem
            + _record(0xA0)
        )
    types = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        f'<Override PartName="/xl/workbook.bin" ContentType="{main}"/>{overrides}</Types>'
    )

    def rels(*links: tuple[str, str]) -> str:
        items = "".join(
            f'<Relationship Id="rId{n}" Type="{R}/{kind}" Target="{target}"/>'
            for n, (kind, target) in enumerate(links, start=1)
        )
        return f'<?xml version="1.0"?><Relationships xmlns="{PKG_RELS}">{items}</Relationships>'

    return zip_bytes(
        {
            "[Content_Types].xml": types,
            "_rels/.rels": rels(("officeDocument", "xl/workbook.bin")),
            "xl/_rels/workbook.bin.rels": rels(*targets),
            "xl/workbook.bin": book,
            **members,
        }
    )


def _row_header(row: int) -> bytes:
    """BrtRowHdr: row, style, height, flags and no column spans."""
    return _record(0x00, struct.pack("<IIH", row, 0, 0) + b"\x00\x00\x00" + struct.pack("<I", 0))


def _shared_string_cells(cells: Sequence[tuple[int, int, int]]) -> bytes:
    """BrtCellIsst records, a row header before each new row."""
    out = bytearray()
    row = 0
    for cell_row, column, index in cells:
        if cell_row != row:
            out += _row_header(cell_row)
            row = cell_row
        out += _record(0x07, struct.pack("<III", column, 0, index))
    return bytes(out)


def _error_cells(errors: Sequence[tuple[int, int, int, bool]]) -> bytes:
    out = b""
    row = 0
    for cell_row, column, code, formula in errors:
        if cell_row != row:
            out += _row_header(cell_row)
            row = cell_row
        cell = struct.pack("<II", column, 0) + bytes([code])
        if formula:
            # BrtFmlaError: flags, then the CellParsedFormula of =1/0 (PtgInt 1, PtgInt 0,
            # PtgDiv) with no extra data
            tokens = b"\x1e\x01\x00\x1e\x00\x00\x06"
            out += _record(0x0B, cell + struct.pack("<HI", 0, len(tokens)) + tokens + bytes(4))
        else:
            out += _record(0x03, cell)  # BrtCellError
    return out


def _biff(kind: int, body: bytes = b"") -> bytes:
    """One BIFF8 record: type and size, then the body."""
    return struct.pack("<HH", kind, len(body)) + body


_BIFF_MAX_BODY = 8224


def _shared_strings(strings: Sequence[str]) -> bytes:
    """SST, then CONTINUE records: each string 8-bit (Latin-1), a string cut at a record's
    end going on after a repeated flags byte, as Excel writes it."""
    records: list[bytearray] = [bytearray(struct.pack("<II", len(strings), len(strings)))]
    for text in strings:
        data = text.encode("latin-1")
        if len(records[-1]) + 3 > _BIFF_MAX_BODY:
            records.append(bytearray())
        records[-1] += struct.pack("<HB", len(data), 0)
        while data:
            room = _BIFF_MAX_BODY - len(records[-1])
            records[-1] += data[:room]
            data = data[room:]
            if data:
                records.append(bytearray(b"\0"))  # the flags byte again: still 8-bit
    return b"".join(_biff(0xFC if n == 0 else 0x3C, bytes(r)) for n, r in enumerate(records))


def xls(sheet_name: str, strings: Sequence[str], cells: Sequence[tuple[int, int, int]]) -> bytes:
    """A one-sheet BIFF8 .xls whose ``cells`` (row, column, shared string index) show
    ``strings``: a workbook stream of globals (the sheet's name and the shared strings)
    and one sheet, in a compound file."""

    def bof(kind: int) -> bytes:
        return _biff(0x0809, struct.pack("<HHHHII", 0x0600, kind, 0x0DBB, 0x07CC, 0, 0x06))

    name = sheet_name.encode("latin-1")
    globals_without_sheet = bof(0x0005) + _shared_strings(strings) + _biff(0x000A)

    def sheet_entry(position: int) -> bytes:  # BOUNDSHEET: where the sheet's BOF is
        return _biff(0x0085, struct.pack("<IBBBB", position, 0, 0, len(name), 0) + name)

    sheet_start = len(globals_without_sheet) + len(sheet_entry(0))
    last_row = max((row for row, _, _ in cells), default=0) + 1
    last_column = max((column for _, column, _ in cells), default=0) + 1
    sheet = (
        bof(0x0010)
        + _biff(0x0200, struct.pack("<IIHHH", 0, last_row, 0, last_column, 0))
        + b"".join(_biff(0xFD, struct.pack("<HHHI", row, column, 0, index))
                   for row, column, index in cells)
        + _biff(0x000A)
    )
    head, tail = globals_without_sheet[:20], globals_without_sheet[20:]  # BOF, then the rest
    stream = head + sheet_entry(sheet_start) + tail + sheet
    return compound_file({"Workbook": stream})


_FREE, _END, _FAT_SECTOR = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD
_SECTOR = 512
_MINI_CUTOFF = 4096


def _directory_entry(name: str, kind: int, start: int, size: int, child: int, right: int) -> bytes:
    raw = name.encode("utf-16-le") + b"\0\0"
    return (
        raw.ljust(64, b"\0")
        + struct.pack("<HBB3I", len(raw), kind, 1, _FREE, right, child)
        + b"\0" * 36  # class id, state bits, times
        + struct.pack("<IQ", start, size)
    )


def compound_file(streams: Mapping[str, bytes]) -> bytes:
    """An OLE2 compound file holding ``streams`` (at most about 7 MB in all).

    A name with slashes puts its stream in storages (``ObjectPool/_1/\x01Ole10Native``).
    The FAT sectors come first (as many as the file needs, up to the 109 the header
    lists), then the directory, then each stream in regular sectors: streams are
    padded to the mini-stream cutoff so that no mini stream is needed. Siblings are
    chained by their right pointers.
    """
    tree: dict[str, Any] = {}
    for name, data in streams.items():
        *folders, leaf = name.split("/")
        node = tree
        for folder in folders:
            node = node.setdefault(folder, {})
        node[leaf] = data

    def count(node: dict[str, Any]) -> int:
        return sum(1 + (count(v) if isinstance(v, dict) else 0) for v in node.values())

    entries = [b""] * (1 + count(tree))
    directory_sectors = -(-len(entries) // (_SECTOR // 128))
    stream_sectors = sum(-(-max(len(data), _MINI_CUTOFF) // _SECTOR)
                         for data in _stream_data(tree))
    per_fat = _SECTOR // 4
    fat_sectors = 1
    while fat_sectors * per_fat < fat_sectors + directory_sectors + stream_sectors:
        fat_sectors += 1
    if fat_sectors > 109:
        raise ValueError("too much for the FAT sectors the header lists")
    first_directory = fat_sectors
    fat = [_FAT_SECTOR] * fat_sectors
    fat += [first_directory + i + 1 for i in range(directory_sectors - 1)] + [_END]
    body = bytearray()
    taken = 1

    def place(node: dict[str, Any]) -> int:
        nonlocal taken
        indices = list(range(taken, taken + len(node)))
        taken += len(node)
        for position, (name, value) in enumerate(node.items()):
            right = indices[position + 1] if position + 1 < len(indices) else _FREE
            if isinstance(value, dict):
                entries[indices[position]] = _directory_entry(name, 1, 0, 0, place(value), right)
                continue
            data = value.ljust(_MINI_CUTOFF, b"\0")
            data = data.ljust(-(-len(data) // _SECTOR) * _SECTOR, b"\0")
            start, sectors = len(fat), len(data) // _SECTOR
            fat.extend([start + i + 1 for i in range(sectors - 1)] + [_END])
            body.extend(data)
            entries[indices[position]] = _directory_entry(name, 2, start, len(data), _FREE, right)
        return indices[0] if indices else _FREE

    entries[0] = _directory_entry("Root Entry", 5, _END, 0, child=place(tree), right=_FREE)
    difat = list(range(fat_sectors)) + [_FREE] * (109 - fat_sectors)
    header = (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
        + b"\0" * 16
        + struct.pack("<5H", 0x3E, 3, 0xFFFE, 9, 6)
        + b"\0" * 6
        # directory sectors, FAT sectors, first directory sector, transaction number
        + struct.pack("<4I", 0, fat_sectors, first_directory, 0)
        + struct.pack("<5I", _MINI_CUTOFF, _END, 0, _END, 0)
        + struct.pack("<109I", *difat)
    )
    table = fat + [_FREE] * (fat_sectors * per_fat - len(fat))
    fat_bytes = struct.pack(f"<{len(table)}I", *table)
    directory = b"".join(entries).ljust(directory_sectors * _SECTOR, b"\0")
    return header + fat_bytes + directory + bytes(body)


def _stream_data(node: Mapping[str, Any]) -> Iterator[bytes]:
    for value in node.values():
        if isinstance(value, dict):
            yield from _stream_data(value)
        else:
            yield value


def ppt_record(kind: int, body: bytes = b"", instance: int = 0, container: bool = False) -> bytes:
    """One PowerPoint 97-2003 record: version/instance, type and length, then the body."""
    version = 0xF if container else 0
    return struct.pack("<HHI", (instance << 4) | version, kind, len(body)) + body


_PKG = "http://schemas.microsoft.com/office/2006/xmlPackage"


def flat_opc(package: bytes, progid: str) -> bytes:
    """A package as Word and PowerPoint save it in one XML file (Flat OPC).

    XML parts go inline (their declaration dropped), the others in base64;
    ``[Content_Types].xml`` becomes each part's ``pkg:contentType``.
    """
    import base64
    import re

    source = zipfile.ZipFile(io.BytesIO(package))
    types = source.read("[Content_Types].xml").decode()
    defaults = dict(re.findall(r'<Default Extension="([^"]+)" ContentType="([^"]+)"', types))
    overrides = dict(re.findall(r'<Override PartName="([^"]+)" ContentType="([^"]+)"', types))
    parts = []
    for name in source.namelist():
        if name == "[Content_Types].xml" or name.endswith("/"):
            continue
        path = "/" + name
        kind = overrides.get(path) or defaults.get(name.rsplit(".", 1)[-1].lower(), "")
        data = source.read(name)
        if kind.endswith("xml"):
            body = re.sub(rb"^\s*<\?xml[^>]*\?>", b"", data).decode("utf-8")
            content = f"<pkg:xmlData>{body}</pkg:xmlData>"
        else:
            content = f"<pkg:binaryData>{base64.b64encode(data).decode()}</pkg:binaryData>"
        parts.append(f'<pkg:part pkg:name="{path}" pkg:contentType="{kind}">{content}</pkg:part>')
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<?mso-application progid="{progid}"?>'
        f'<pkg:package xmlns:pkg="{_PKG}">{"".join(parts)}</pkg:package>'
    ).encode()


_VISIO = "http://schemas.microsoft.com/office/visio/2012/main"
_VISIO_RELS = "http://schemas.microsoft.com/visio/2010/relationships"


def vsdx(pages: list[tuple[str, str]]) -> bytes:
    """A Visio drawing: each (name, shapes XML) is one page, in order."""

    def rels(*entries: tuple[str, str]) -> str:
        found = "".join(
            f'<Relationship Id="rId{i}" Type="{kind}" Target="{target}"/>'
            for i, (kind, target) in enumerate(entries, start=1)
        )
        return f'<?xml version="1.0"?><Relationships xmlns="{PKG_RELS}">{found}</Relationships>'

    members: dict[str, bytes | str] = {
        "[Content_Types].xml": (
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
            'content-types"><Default Extension="rels" ContentType="application/vnd.'
            'openxmlformats-package.relationships+xml"/><Override PartName="/visio/document.xml" '
            'ContentType="application/vnd.ms-visio.drawing.main+xml"/></Types>'
        ),
        "_rels/.rels": rels((f"{_VISIO_RELS}/document", "visio/document.xml")),
        "visio/document.xml": f'<VisioDocument xmlns="{_VISIO}"/>',
        "visio/_rels/document.xml.rels": rels((f"{_VISIO_RELS}/pages", "pages/pages.xml")),
        "visio/pages/_rels/pages.xml.rels": rels(
            *((f"{_VISIO_RELS}/page", f"page{n}.xml") for n in range(1, len(pages) + 1))
        ),
        "visio/pages/pages.xml": (
            f'<Pages xmlns="{_VISIO}" xmlns:r="{R}">'
            + "".join(
                f'<Page ID="{n}" Name="{name}"><Rel r:id="rId{n}"/></Page>'
                for n, (name, _) in enumerate(pages, start=1)
            )
            + "</Pages>"
        ),
    }
    for number, (_, shapes) in enumerate(pages, start=1):
        members[f"visio/pages/page{number}.xml"] = (
            f'<PageContents xmlns="{_VISIO}"><Shapes>{shapes}</Shapes></PageContents>'
        )
    return zip_bytes(members)


_XPS = "http://schemas.microsoft.com/xps/2005/06"


def xps(pages: list[str]) -> bytes:
    """An XPS document: each item is one fixed page's content (Glyphs elements)."""
    members: dict[str, bytes | str] = {
        "[Content_Types].xml": (
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
            'content-types"><Default Extension="rels" ContentType="application/vnd.'
            'openxmlformats-package.relationships+xml"/><Default Extension="fdseq" '
            'ContentType="application/vnd.ms-package.xps-fixeddocumentsequence+xml"/></Types>'
        ),
        "_rels/.rels": (
            f'<?xml version="1.0"?><Relationships xmlns="{PKG_RELS}"><Relationship Id="rId1" '
            f'Type="{_XPS}/fixedrepresentation" Target="FixedDocSeq.fdseq"/></Relationships>'
        ),
        # Windows writes the sequence and documents in UTF-16
        "FixedDocSeq.fdseq": (
            f'<FixedDocumentSequence xmlns="{_XPS}">'
            '<DocumentReference Source="/Documents/1/FixedDoc.fdoc"/></FixedDocumentSequence>'
        ).encode("utf-16"),
        "Documents/1/FixedDoc.fdoc": (
            f'<FixedDocument xmlns="{_XPS}">'
            + "".join(f'<PageContent Source="Pages/{n}.fpage"/>' for n in range(1, len(pages) + 1))
            + "</FixedDocument>"
        ).encode("utf-16"),
    }
    for number, content in enumerate(pages, start=1):
        members[f"Documents/1/Pages/{number}.fpage"] = (
            f'<FixedPage xmlns="{_XPS}" Width="816" Height="1056">{content}</FixedPage>'
        ).encode("utf-16")
    return zip_bytes(members)


def damaged(package: bytes, member: str, at: float = 0.0) -> bytes:
    """The package with ``member``'s deflate stream broken ``at`` that share of its length
    (bytes no deflate block starts with), its sizes and checksum left as they were:
    ``zipfile`` lists it and fails with zlib.error only when it inflates it, as on a disk
    error in the middle of a file."""
    info = zipfile.ZipFile(io.BytesIO(package)).getinfo(member)
    assert info.compress_type == zipfile.ZIP_DEFLATED and info.compress_size > 2, member
    buffer = bytearray(package)
    name_length, extra_length = struct.unpack_from("<HH", buffer, info.header_offset + 26)
    start = info.header_offset + 30 + name_length + extra_length
    start += min(int(info.compress_size * at), info.compress_size - 2)
    buffer[start : start + 2] = b"\xff\xff"
    return bytes(buffer)


def libreoffice_saved(soffice: str, source: Path, extension: str) -> bytes:
    """``source`` as LibreOffice saves it in format ``extension`` (beside it, with a
    profile of its own in the same folder, so runs in parallel do not share one)."""
    folder = source.parent
    subprocess.run(
        [soffice, f"-env:UserInstallation=file://{folder}/profile", "--headless",
         "--convert-to", extension, "--outdir", str(folder), str(source)],
        check=True, capture_output=True, timeout=180,
    )
    return (folder / f"{source.stem}.{extension}").read_bytes()
