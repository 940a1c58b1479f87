"""The built-in magic-byte sniffer and detection: content beats extension."""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from goblin_core import Source, load_registry
from goblin_core.builtin.sniffer import MagicSniffer
from goblin_core.detect import detect

CORE_ONLY = load_registry(load=[])


def _tar() -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        info = tarfile.TarInfo("a.txt")
        info.size = 2
        archive.addfile(info, io.BytesIO(b"hi"))
    return buffer.getvalue()


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.txt", "hi")
    return buffer.getvalue()


SIGNATURES = [
    (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "application/pdf"),
    (b"\n\n  %PDF-1.7 after junk", "application/pdf"),
    (b"$PDF-1.5\r\n%\xe2\xe3\xcf\xd3\r\n3603 0 obj\r\n<<", "application/pdf"),  # a byte flipped
    (b"%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>", "application/pdf"),  # header gone
    (b"see 1 0 obj in the manual\n", "text/plain"),
    (_zip(), "application/zip"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504, "application/x-ole-storage"),
    (b"{\\rtf1\\ansi hello}", "application/rtf"),
    (b"7z\xbc\xaf\x27\x1c\x00\x04", "application/x-7z-compressed"),
    (b"Rar!\x1a\x07\x01\x00", "application/vnd.rar"),
    (gzip.compress(b"hello"), "application/gzip"),
    (b"BZh91AY&SY", "application/x-bzip2"),
    (b"\xfd7zXZ\x00\x00", "application/x-xz"),
    (b"\x28\xb5\x2f\xfd\x00", "application/zstd"),
    (_tar(), "application/x-tar"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image/png"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF", "image/jpeg"),
    (b"II*\x00\x08\x00\x00\x00", "image/tiff"),
    (b"MM\x00*\x00\x00\x00\x08", "image/tiff"),
    (b"GIF89a\x01\x00\x01\x00", "image/gif"),
    (b"BM\x3a\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00" + b"\x00" * 20, "image/bmp"),
    (b"RIFF\x24\x00\x00\x00WEBPVP8 ", "image/webp"),
    (b"P5\n600 120\n255\n\xff\xff\x00", "image/x-portable-anymap"),  # raw PGM
    (b"P4\n# scanimage\n2480 3508\n\x00\x00", "image/x-portable-anymap"),  # raw PBM
    (b"P3\n2 1\n255\n0 0 0 255 255 255\n", "image/x-portable-anymap"),  # plain PPM
    (b"P1 was the first option\nP2 was second, 3 4 5\n", "text/plain"),
    (b"\x00\x00\x00\x1cftypheic\x00\x00\x00\x00mif1heicmiaf\x00\x00\x01Wmeta", "image/heic"),
    (b"\x00\x00\x00\x18ftypmif1\x00\x00\x00\x00mif1heic\x00\x00\x01Wmeta", "image/heic"),
    (b"\x00\x00\x00\x20ftypavif\x00\x00\x00\x00avifmif1miafMA1B\x00\x00\x00\xebmeta",
     "image/avif"),
    (b"\x00\x00\x00\x18ftypmif1\x00\x00\x00\x00mif1miaf\x00\x00\x01Wmeta", "image/heif"),
    (b"\x00\x00\x00\x0cjP  \r\n\x87\n\x00\x00\x00\x14ftypjp2 ", "image/jp2"),
    (b"\xff\x4f\xff\x51\x00\x29\x00\x00", "image/x-jp2-codestream"),
    (b"AT&TFORM\x00\x00\x2b\x0cDJVMDIRM", "image/vnd.djvu"),
    (b"\xffWPC\x10\x00\x00\x00\x01\x0a\x00\x01\x00\x00\x00\x00Hi", "application/vnd.wordperfect"),
    (b"AT&TFORM\x00\x00\x02\x4cDJVUINFO", "image/vnd.djvu"),
    (b"<!DOCTYPE html><html><body>x</body></html>", "text/html"),
    (b"  <html lang='pt'><head></head></html>", "text/html"),
    (b"<?xml version='1.0'?><root/>", "application/xml"),
    (b"%!PS-Adobe-3.0\n%%Title: x\n", "application/postscript"),
    (b"\xc5\xd0\xd3\xc6\x1e\x00\x00\x00", "application/postscript"),  # EPS, DOS header
    (b"<rss version='2.0'><channel><title>t</title></channel></rss>\n", "application/xml"),
    (b"<!-- export --><!DOCTYPE book [<!ENTITY p 'x'>]>\n<db:book>&p;</db:book>\n<!-- end -->",
     "application/xml"),
    (b"<svg xmlns='http://www.w3.org/2000/svg'><text>t</text></svg>", "image/svg+xml"),
    (b"<b>bold</b> is how to write bold\n", "text/plain"),  # it never closes what it opened
    (b"just some words\nin a file\n", "text/plain"),
]


@pytest.mark.parametrize(("data", "mime"), SIGNATURES,
                         ids=[m + f"-{i}" for i, (_, m) in enumerate(SIGNATURES)])
def test_magic_sniffer_knows_the_signature(data: bytes, mime: str) -> None:
    found = MagicSniffer().sniff(data[:8192], Source.from_bytes(data, "noext"))
    assert found is not None and found.mime == mime


def test_content_beats_the_extension() -> None:
    pdf = Source.from_bytes(b"%PDF-1.5\n...", "looks-like.txt")
    assert detect(CORE_ONLY, CORE_ONLY.config(), pdf).mime == "application/pdf"
    text = Source.from_bytes(b"plain words here", "report.pdf")
    assert detect(CORE_ONLY, CORE_ONLY.config(), text).mime == "text/plain"


def test_random_bytes_are_not_guessed() -> None:
    data = bytes(range(256)) * 4
    assert MagicSniffer().sniff(data, Source.from_bytes(data, "x")) is None
    assert detect(CORE_ONLY, CORE_ONLY.config(),
                  Source.from_bytes(data, "x")).mime == "application/octet-stream"


@pytest.mark.parametrize("brand", [b"isom", b"mp42", b"qt  ", b"M4A "])
def test_a_video_or_sound_file_in_the_same_box_format_is_no_image(brand: bytes) -> None:
    data = b"\x00\x00\x00\x18ftyp" + brand + b"\x00\x00\x02\x00" + brand + b"mp41" + bytes(64)
    found = MagicSniffer().sniff(data, Source.from_bytes(data, "clip"))
    assert found is None or not found.mime.startswith("image/")


def test_unrecognised_content_falls_back_to_the_extension_with_low_confidence() -> None:
    data = b"\x00\x01\x02\x03 binary"
    found = detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(data, "sheet.xlsx"))
    assert found.mime.endswith("spreadsheetml.sheet") and found.confidence <= 0.3


def test_a_more_confident_sniffer_refines_a_generic_answer() -> None:
    from goblin_example_note import render_note

    registry = load_registry(load=["example-note"])
    found = detect(registry, registry.config(), Source.from_bytes(render_note(["x"]), "n.txt"))
    assert found.mime == "application/x-goblin-note"


def _package(members: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return buffer.getvalue()


_TYPES = '<?xml version="1.0"?><Types/>'
ZIP_DOCUMENTS = [
    ({"[Content_Types].xml": _TYPES, "word/document.xml": "<w/>"}, "wordprocessingml.document"),
    ({"[Content_Types].xml": _TYPES, "xl/workbook.xml": "<x/>"}, "spreadsheetml.sheet"),
    ({"[Content_Types].xml": _TYPES, "xl/workbook.bin": "b"}, "sheet.binary.macroenabled.12"),
    ({"[Content_Types].xml": _TYPES, "ppt/presentation.xml": "<p/>"},
     "presentationml.presentation"),
    ({"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": "<o/>"},
     "opendocument.text"),
    ({"mimetype": "application/vnd.oasis.opendocument.spreadsheet-template"},
     "opendocument.spreadsheet"),
    ({"mimetype": "application/epub+zip", "META-INF/container.xml": "<c/>"}, "epub+zip"),
    ({"mimetype": "application/vnd.sun.xml.writer", "content.xml": "<o/>"}, "sun.xml.writer"),
    ({"mimetype": "application/vnd.sun.xml.calc.template"}, "sun.xml.calc"),
    ({"mimetype": "application/vnd.sun.xml.writer.global"}, "sun.xml.writer"),
]


@pytest.mark.parametrize(("members", "mime_end"), ZIP_DOCUMENTS)
def test_goblin_core_alone_tells_office_documents_from_plain_zips(
    members: dict[str, str], mime_end: str
) -> None:
    source = Source.from_bytes(_package(members), "renamed.zip")
    found = detect(CORE_ONLY, CORE_ONLY.config(), source)
    assert found.mime.endswith(mime_end)


@pytest.mark.parametrize(
    "members",
    [
        {"word/document.xml": "<w/>", "notes.txt": "a folder named word"},
        {"[Content_Types].xml": _TYPES, "FixedDocSeq.fdseq": "<x/>"},  # an XPS package
        {"mimetype": "application/x-unknown-container"},
    ],
)
def test_a_zip_that_is_no_known_document_stays_a_zip(members: dict[str, str]) -> None:
    found = detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(_package(members), "a.docx"))
    assert found.mime == "application/zip"


def test_an_office_document_without_the_office_plugin_names_the_office_extra() -> None:
    from goblin_core import UnsupportedFormat, extract

    docx = _package({"[Content_Types].xml": _TYPES, "word/document.xml": "<w/>"})
    registry = load_registry(disable=["office"])  # with goblin-archives, when installed
    with pytest.raises(UnsupportedFormat, match=r"goblin-core\[office\]") as caught:
        extract(docx, name="report.docx", registry=registry)
    assert caught.value.extra == "office"


def test_xml_without_a_declaration_under_a_text_name_keeps_that_name_s_format() -> None:
    feed = b"<rss><channel><title>t</title></channel></rss>"
    assert MagicSniffer().sniff(feed, Source.from_bytes(feed, "feed.rss")).mime == \
        "application/xml"
    for name, mime in (("notes.md", "text/markdown"), ("feed.txt", "text/plain")):
        found = MagicSniffer().sniff(feed, Source.from_bytes(feed, name))
        assert found is not None and found.mime == mime, name



def test_detect_refuses_a_fifo_instead_of_waiting_for_a_writer(tmp_path: Path) -> None:
    import os
    import threading

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    registry = load_registry(load=[])
    outcome: list[BaseException | object] = []

    def run() -> None:
        try:
            outcome.append(detect(registry, registry.config(), Source.from_path(fifo)))
        except OSError as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():
        # a writer lets the blocked read go, so the test run does not hang
        with open(fifo, "wb"):
            pass
        pytest.fail("detect waited for a writer on a FIFO")
    [error] = outcome
    assert isinstance(error, OSError) and "not a regular file" in str(error)
