"""Objects carried inside a document's own text (flat ODF base64, RTF objdata) or its
storages (Word and Excel 97-2003) as children."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest
from packages import compound_file, ppt_record
from PIL import Image

import samples
from goblin_core.testing.corpus import corpus_dir, require_binary
from goblin_office.rtfobjects import ole1_native, without_binary_groups

_SHEET_PHRASE = "Planilha interna do contrato"


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(buffer, "PNG")
    return buffer.getvalue()


def _b64(data: bytes) -> str:
    encoded = base64.b64encode(data).decode()
    return "\n".join(encoded[i : i + 76] for i in range(0, len(encoded), 76))


def _inline_sheet() -> str:
    return (
        "<draw:frame><draw:object><office:document office:mimetype="
        '"application/vnd.oasis.opendocument.spreadsheet"><office:body><office:spreadsheet>'
        '<table:table table:name="Interna"><table:table-row><table:table-cell '
        f'office:value-type="string"><text:p>{_SHEET_PHRASE}</text:p></table:table-cell>'
        "</table:table-row></table:table></office:spreadsheet></office:body></office:document>"
        "</draw:object></draw:frame>"
    )


def _ole_frame(payload: bytes) -> str:
    """An OLE object and its preview picture, as LibreOffice writes them in flat XML."""
    return (
        f"<draw:frame><draw:object-ole><office:binary-data>{_b64(payload)}</office:binary-data>"
        f"</draw:object-ole><draw:image><office:binary-data>{_b64(_png())}</office:binary-data>"
        "</draw:image></draw:frame>"
    )


def _picture() -> str:
    return (
        f"<draw:frame><draw:image><office:binary-data>{_b64(_png())}</office:binary-data>"
        "</draw:image></draw:frame>"
    )


def _fodt(*objects: str) -> bytes:
    body = f"<text:p>{samples.PHRASE}</text:p><text:p>{''.join(objects)}</text:p>"
    return samples.flat_odf("text", body)


def test_flat_odt_inline_document_is_a_child_not_page_text(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_fodt(_inline_sheet()), "contrato.fodt")
    (child,) = document.children
    assert child.name == "contrato.fodt/Object 1.fods"
    assert _SHEET_PHRASE in child.text
    assert _SHEET_PHRASE not in document.text
    assert samples.PHRASE in document.text


def test_flat_odt_ole_object_is_unwrapped_and_its_preview_left_out(read) -> None:  # type: ignore[no-untyped-def]
    workbook, _ = samples.sample_xlsx()
    document = read(_fodt(_ole_frame(workbook)), "com-ole.fodt", office={"images": True})
    (child,) = document.children
    assert child.mime.endswith("spreadsheetml.sheet")
    assert samples.PHRASE in child.text


def test_flat_odf_pictures_only_when_asked(read) -> None:  # type: ignore[no-untyped-def]
    data = _fodt(_picture())
    assert read(data, "foto.fodt").children == ()
    (child,) = read(data, "foto.fodt", office={"images": True}).children
    assert child.name == "foto.fodt/image1.png"


@pytest.mark.parametrize(
    ("kind", "name", "wrap"),
    [
        (
            "spreadsheet",
            "f.fods",
            '<table:table table:name="T"><table:table-row><table:table-cell>'
            "<text:p>{}</text:p></table:table-cell></table:table-row></table:table>",
        ),
        ("presentation", "s.fodp", '<draw:page draw:name="p1">{}</draw:page>'),
    ],
)
def test_flat_spreadsheet_and_presentation_objects_are_children(read, kind, name, wrap) -> None:  # type: ignore[no-untyped-def]
    document = read(samples.flat_odf(kind, wrap.format(_inline_sheet())), name)
    assert [c.name for c in document.children] == [f"{name}/Object 1.fods"]
    assert _SHEET_PHRASE in document.children[0].text


def test_flat_odf_objects_are_held_to_the_member_limit(read) -> None:  # type: ignore[no-untyped-def]
    document = read(_fodt(_inline_sheet(), _inline_sheet()), "dois.fodt", limits={"max_members": 1})
    assert len(document.children) == 1
    assert "max_members" in document.raw_metadata["embedded_skipped"][0]
    assert samples.PHRASE in document.text


def test_flat_odf_bad_base64_keeps_the_text(read) -> None:  # type: ignore[no-untyped-def]
    frame = "<draw:frame><draw:object-ole><office:binary-data>@@@not base64@@@"
    frame += "</office:binary-data></draw:object-ole></draw:frame>"
    document = read(_fodt(frame), "ruim.fodt")
    assert document.children == ()
    assert samples.PHRASE in document.text


# -- RTF -------------------------------------------------------------------------


def _ole1(class_name: str, native: bytes) -> bytes:
    name = class_name.encode("ascii") + b"\0"
    return (
        (0x0501).to_bytes(4, "little")
        + (2).to_bytes(4, "little")  # embedded
        + len(name).to_bytes(4, "little")
        + name
        + bytes(8)  # empty topic and item names
        + len(native).to_bytes(4, "little")
        + native
    )


def _packager(label: str, data: bytes) -> bytes:
    """OLE Packager native data: the file's label, paths and bytes."""
    path = f"C:\\Temp\\{label}\0".encode("latin-1")
    return (
        b"\x02\x00"
        + label.encode("latin-1")
        + b"\0"
        + path
        + (0x00030000).to_bytes(4, "little")
        + len(path).to_bytes(4, "little")
        + path
        + len(data).to_bytes(4, "little")
        + data
    )


def _hex_lines(data: bytes) -> str:
    text = data.hex()
    return "\n".join(text[i : i + 128] for i in range(0, len(text), 128))


def _rtf(*groups: str) -> bytes:
    return (
        r"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Arial;}}\f0 Veja o anexo.\par "
        + "".join(groups)
        + r"\par Fim.}"
    ).encode("ascii")


def _object(class_name: str, native: bytes) -> str:
    return (
        r"{\object\objemb{\*\objclass "
        + class_name
        + r"}\objw2000\objh500{\*\objdata "
        + _hex_lines(_ole1(class_name, native))
        + r"}{\result{\pict\pngblip\picw8\pich8 "
        + _png().hex()
        + "}}}"
    )


def test_rtf_packaged_file_is_a_child_under_its_own_name(read) -> None:  # type: ignore[no-untyped-def]
    inner, _ = samples.sample_docx()
    document = read(_rtf(_object("Package", _packager("edital.docx", inner))), "nota.rtf")
    (child,) = document.children
    assert child.name == "nota.rtf/edital.docx"
    assert samples.PHRASE in child.text
    assert "Veja o anexo." in document.text and "Fim." in document.text
    assert "0105" not in document.text  # the object's hex is not page text


def _wide(*texts: str) -> bytes:
    return b"".join(len(t).to_bytes(4, "little") + t.encode("utf-16-le") for t in texts)


def test_packaged_file_keeps_the_unicode_label_written_after_its_data(read) -> None:  # type: ignore[no-untyped-def]
    # the ANSI label holds "?" for letters outside the writer's code page
    native = _packager("relat?rio-??.txt", b"conteudo") + _wide(
        "C:\\Temp\\relatório-東京.txt", "relatório-東京.txt", "C:\\Docs\\relatório-東京.txt"
    )
    document = read(_rtf(_object("Package", native)), "nota.rtf")
    assert [child.name for child in document.children] == ["nota.rtf/relatório-東京.txt"]
    cut = read(_rtf(_object("Package", native[:-6])), "nota.rtf")
    assert [child.name for child in cut.children] == ["nota.rtf/relat?rio-??.txt"]


def test_rtf_excel_object_holding_a_compound_file_is_read(read) -> None:  # type: ignore[no-untyped-def]
    workbook = (corpus_dir(__file__) / "office" / "tika-testEXCEL.xls").read_bytes()
    document = read(_rtf(_object("Excel.Sheet.8", workbook)), "planilha.rtf")
    (child,) = document.children
    assert child.name == "planilha.rtf/object1.xls"
    assert "Numbers and their Squares" in child.text


def test_rtf_acrobat_object_gives_the_pdf_it_wraps(read) -> None:  # type: ignore[no-untyped-def]
    import zipfile

    package = corpus_dir(__file__) / "office" / "testWORD_embedded_pdf.docx"
    with zipfile.ZipFile(package) as archive:  # a real OLE2 object, CONTENTS holding a PDF
        ole = archive.read("word/embeddings/oleObject1.bin")
    document = read(_rtf(_object("AcroExch.Document.DC", ole)), "com-pdf.rtf")
    (child,) = document.children
    assert child.name == "com-pdf.rtf/object1.pdf"
    assert child.mime == "application/pdf"


def test_rtf_pictures_only_when_asked(read) -> None:  # type: ignore[no-untyped-def]
    picture = r"{\pict\pngblip\picw8\pich8\picwgoal120\pichgoal120 " + _png().hex() + "}"
    assert read(_rtf(picture), "foto.rtf").children == ()
    (child,) = read(_rtf(picture), "foto.rtf", office={"images": True}).children
    assert child.name == "foto.rtf/image1.png"


def test_rtf_objects_off_and_over_the_size_limit(read) -> None:  # type: ignore[no-untyped-def]
    inner, _ = samples.sample_docx()
    data = _rtf(_object("Package", _packager("edital.docx", inner)))
    assert read(data, "nota.rtf", office={"embedded": False}).children == ()
    document = read(data, "nota.rtf", limits={"max_member_size": 1024})
    assert document.children == ()
    assert "max_member_size" in document.raw_metadata["embedded_skipped"][0]


@pytest.mark.parametrize(
    "objdata",
    ["0105000001000000", "01050000020000000500", "zz" * 40, "", "0105000002000000ffffffff"],
)
def test_rtf_links_and_damaged_objects_keep_the_text(read, objdata: str) -> None:  # type: ignore[no-untyped-def]
    group = r"{\object\objemb{\*\objdata " + objdata + "}}"
    document = read(_rtf(group), "dano.rtf")
    assert document.children == ()
    assert "Veja o anexo." in document.text


def test_ole1_header_gives_class_and_native_data() -> None:
    assert ole1_native(_ole1("Word.Document.8", b"\xd0\xcf")) == ("Word.Document.8", b"\xd0\xcf")
    assert ole1_native(_ole1("X", b"abc")[:-1]) is None


def test_picture_and_object_hex_never_reach_the_text_reader() -> None:
    data = rb"{\rtf1 a{\pict\pngblip 0011}b{\*\objdata 0105}c{\pictprop x}\{d\}}"
    assert without_binary_groups(data) == rb"{\rtf1 abc{\pictprop x}\{d\}}"
    truncated = rb"{\rtf1 a{\pict\pngblip 0011"
    assert without_binary_groups(truncated) == truncated


def _ole10_native(label: str, data: bytes) -> bytes:
    native = _packager(label, data)
    return len(native).to_bytes(4, "little") + native


def _with_objects(path: Path, objects: dict[str, bytes]) -> bytes:
    """The streams of the 97-2003 file at ``path`` with ``objects`` added beside them."""
    import olefile

    with olefile.OleFileIO(str(path)) as ole:
        streams = {
            "/".join(entry): ole.openstream(entry).read()
            for entry in ole.listdir()
            if not entry[-1].startswith("\x05")  # property sets: not needed, and large
        }
    return compound_file({**streams, **objects})


def test_legacy_excel_embedded_files_are_children(read) -> None:  # type: ignore[no-untyped-def]
    path = Path(corpus_dir(__file__)) / "office/tika-testEXCEL.xls"
    csv = b"item;valor\ncimento;10\n"
    objects = {
        "MBD0001/\x01Ole10Native": _ole10_native("orcamento.csv", csv),
        "MBD0002/CONTENTS": b"%PDF-1.4 not a real one",
    }
    document = read(_with_objects(path, objects), "planilha.xls")
    assert document.parsed_by == ("office.calamine",)
    assert "Numbers and their Squares" in document.text
    children = {child.name: child for child in document.children}
    assert sorted(children) == ["planilha.xls/MBD0002.pdf", "planilha.xls/orcamento.csv"]
    assert "cimento" in children["planilha.xls/orcamento.csv"].text
    left_out = read(_with_objects(path, objects), "planilha.xls", office={"embedded": False})
    assert not left_out.children


def test_legacy_word_embedded_files_are_children(read) -> None:  # type: ignore[no-untyped-def]
    require_binary("antiword", "antiword")
    path = Path(corpus_dir(__file__)) / "office/testWORD_various.doc"
    objects = {"ObjectPool/_1234/\x01Ole10Native": _ole10_native("notas.txt", b"prazo final")}
    document = read(_with_objects(path, objects), "memorando.doc")
    assert document.parsed_by == ("office.antiword",)
    assert [child.name for child in document.children] == ["memorando.doc/notas.txt"]
    assert document.children[0].text == "prazo final"


def _ppt_with_objects(objects: list[tuple[int, int, bytes, bool]], stale: bytes = b"") -> bytes:
    """A one-slide .ppt whose objects are each (container type, persist id, compound
    file, compressed): an ExEmbed (0x0FCC) or ExControl (0x0FEE) whose ExOleObjAtom
    names the ExOleObjStg record holding the file. ``stale`` is an older copy of the
    first object that an earlier save's persist directory still lists."""
    import struct
    import zlib

    def atom(persist_id: int) -> bytes:
        return ppt_record(0x0FC3, struct.pack("<6I", 1, 2, persist_id, 0, persist_id, 0))

    containers = b"".join(
        ppt_record(kind, atom(persist_id), container=True) for kind, persist_id, _, _ in objects
    )
    text = ppt_record(0x0FA0, "Cronograma de obras".encode("utf-16-le"))
    slides = ppt_record(0x0FF0, ppt_record(0x03F3, bytes(20)) + text, container=True)
    stream = ppt_record(
        0x03E8, ppt_record(0x0409, containers, container=True) + slides, container=True
    )

    def storage(data: bytes, compressed: bool) -> bytes:
        if compressed:
            return ppt_record(0x1011, struct.pack("<I", len(data)) + zlib.compress(data), 1)
        return ppt_record(0x1011, data)

    def save(entries: dict[int, int], previous: int) -> tuple[bytes, int]:
        """A persist directory and the UserEditAtom after it, placed at the stream's end."""
        body = b"".join(struct.pack("<II", (1 << 20) | key, at) for key, at in entries.items())
        directory = ppt_record(0x1772, body)
        edit = ppt_record(0x0FF5, struct.pack("<IHBBIIII", 0, 0, 0, 3, previous,
                                              len(stream), 0, 0))
        return directory + edit, len(stream) + len(directory)

    first_edit = 0
    if stale:
        old = len(stream)
        stream += storage(stale, False)
        records, first_edit = save({objects[0][1]: old}, 0)
        stream += records
    live = {}
    for _, persist_id, data, compressed in objects:
        live[persist_id] = len(stream)
        stream += storage(data, compressed)
    records, last_edit = save(live, first_edit)
    stream += records
    user = ppt_record(0x0FF6, struct.pack("<III", 20, 0xE391C05F, last_edit))
    return compound_file({"Current User": user, "PowerPoint Document": stream})


def test_legacy_powerpoint_embedded_objects_are_children(read) -> None:  # type: ignore[no-untyped-def]
    packaged = compound_file({"\x01Ole10Native": _ole10_native("notas.txt", b"prazo final")})
    pdf = compound_file({"CONTENTS": b"%PDF-1.4 not a real one"})
    control = compound_file({"Contents": b"ActiveX"})  # a control, not an embedded object
    data = _ppt_with_objects(
        [(0x0FCC, 5, packaged, True), (0x0FCC, 6, pdf, False), (0x0FEE, 7, control, False)],
        stale=compound_file({"\x01Ole10Native": _ole10_native("velho.txt", b"antes")}),
    )
    document = read(data, "apresentacao.ppt")
    assert document.parsed_by == ("office.ppt_records",)
    assert document.text == "Cronograma de obras"
    children = {child.name: child for child in document.children}
    assert sorted(children) == ["apresentacao.ppt/notas.txt", "apresentacao.ppt/object2.pdf"]
    assert children["apresentacao.ppt/notas.txt"].text == "prazo final"
    left_out = read(data, "apresentacao.ppt", office={"embedded": False})
    assert not left_out.children


def test_legacy_powerpoint_object_that_is_a_97_2003_document_is_kept_whole() -> None:
    from goblin_core import default_registry
    from goblin_core.config import build_config
    from goblin_core.source import Source
    from goblin_office.embedded import storage_children

    workbook = compound_file({"Workbook": b"\x09\x08"})
    unknown = compound_file({"Contents": b"?"})
    source = Source.from_bytes(b"", "apresentacao.ppt")
    children = storage_children(
        source, [workbook, unknown], build_config(default_registry().namespaces)
    )
    assert [child.display_name for child in children] == [
        "apresentacao.ppt/object1.xls",
        "apresentacao.ppt/object2.bin",
    ]
    assert children[0].bytes() == workbook
