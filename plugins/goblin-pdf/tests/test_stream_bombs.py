"""Flate streams that inflate past pdf.max_stream_size: the PDF is refused before any
reader opens it; images, embedded files and honest streams are left alone."""

from __future__ import annotations

import base64
import io
import time
import zlib

import pikepdf
import pytest
from corpus_runs import CORPUS, pdf_rows
from filter_encoders import lzw_encoded, lzw_run, run_length_encoded

from goblin_core import FileTooLarge, extract
from goblin_core.source import Source
from goblin_pdf.stream_bombs import refuse_stream_bombs

LIMIT = 1 << 20  # a small limit keeps the fixtures small; the hostile suite uses the default
TEXT = b"BT /F1 24 Tf 72 720 Td (Readable page) Tj ET\n"


def _pdf(content_dictionary: bytes, content: bytes, extra: bytes = b"") -> bytes:
    """A one-page PDF whose content stream is ``content`` under ``content_dictionary``;
    ``extra`` is one more object (6), referenced by nothing."""
    bodies = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        content_dictionary[:-2] + b" /Length %d >>\nstream\n" % len(content) + content
        + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ] + ([extra] if extra else [])
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(bodies, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(bodies) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(bodies) + 1, xref)
    return bytes(out)


def _flate(data: bytes) -> bytes:
    return zlib.compress(data, 9)


def _stream(dictionary: bytes, data: bytes) -> bytes:
    return dictionary[:-2] + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


BOMB = _flate(TEXT + b" " * (4 * LIMIT))


def _read(pdf: bytes, limit: int = LIMIT) -> str:
    return extract(pdf, name="bomb.pdf", ocr="never", pdf={"max_stream_size": limit}).text


def test_a_content_stream_inflating_past_the_limit_refuses_the_pdf() -> None:
    pdf = _pdf(b"<< /Filter /FlateDecode >>", BOMB)
    with pytest.raises(FileTooLarge, match=r"bomb\.pdf: object 4 inflates past "
                                           r"pdf\.max_stream_size \(1,048,576 bytes\)"):
        _read(pdf)
    # raised, the limit lets the same page through; 0 turns the check off
    assert "Readable page" in _read(pdf, limit=8 * LIMIT)
    assert "Readable page" in _read(pdf, limit=0)


def test_flate_inside_flate_is_counted_through_every_layer() -> None:
    """The outer layer inflates to under the limit; the inner one to four times it."""
    twice = _flate(BOMB)
    assert len(BOMB) < LIMIT
    with pytest.raises(FileTooLarge):
        _read(_pdf(b"<< /Filter [/FlateDecode /FlateDecode] >>", twice))


def test_a_fake_key_in_a_string_or_comment_does_not_hide_a_bomb() -> None:
    dictionary = b"<< /Filter /FlateDecode /Note (/Subtype /Image) %/Type /EmbeddedFile\n>>"
    with pytest.raises(FileTooLarge):
        _read(_pdf(dictionary, BOMB))


@pytest.mark.parametrize("revision", [4, 6])
def test_encryption_does_not_hide_a_bomb(revision: int) -> None:
    """RC4 or AES data does not look like Flate: the streams are decrypted to be counted,
    with no password (PDFium opens the file without one) or with the one given."""
    plain = pikepdf.open(io.BytesIO(_pdf(b"<< /Filter /FlateDecode >>", BOMB)))
    for user, options in (("", {}), ("s3cret", {"password": "s3cret"})):
        out = io.BytesIO()
        plain.save(out, encryption=pikepdf.Encryption(owner="owner", user=user, R=revision))
        with pytest.raises(FileTooLarge, match="object 4"):
            extract(out.getvalue(), name="locked.pdf", ocr="never",
                    pdf={"max_stream_size": LIMIT, **options})
    honest = io.BytesIO()
    pikepdf.open(io.BytesIO(_pdf(b"<< >>", TEXT))).save(
        honest, encryption=pikepdf.Encryption(owner="owner", user="", R=revision))
    assert "Readable page" in _read(honest.getvalue())


def test_images_and_embedded_files_are_not_inflated_here() -> None:
    """A reader extracting text never decodes an image, and embedded files are children
    under the archive limits: neither refuses the pages around them."""
    image = _stream(b"<< /Type /XObject /Subtype /Image /Width 2048 /Height 2048 "
                    b"/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode >>",
                    _flate(b"\0" * (4 * LIMIT)))
    embedded = _stream(b"<< /Type /EmbeddedFile /Filter /FlateDecode >>",
                       _flate(b"\0" * (4 * LIMIT)))
    for extra in (image, embedded):
        assert "Readable page" in _read(_pdf(b"<< >>", TEXT, extra))


def test_honest_streams_under_the_limit_and_damaged_data_pass() -> None:
    assert "Readable page" in _read(_pdf(b"<< /Filter /FlateDecode >>", _flate(TEXT * 20_000)))
    damaged = BOMB[: len(BOMB) // 2] + b"\xff" * 64 + BOMB[len(BOMB) // 2:]
    refuse_stream_bombs(Source.from_bytes(_pdf(b"<< /Filter /FlateDecode >>", damaged[:900]),
                                          "cut.pdf"), LIMIT)


@pytest.mark.skipif(CORPUS is None, reason="the shared corpus is not present")
def test_no_corpus_pdf_is_refused_at_the_default_limit() -> None:
    assert CORPUS is not None
    rows = pdf_rows()
    assert len(rows) > 100
    for row in rows:
        refuse_stream_bombs(Source.from_path(CORPUS / row.file), 64 * 1024**2)


def test_lzw_runlength_and_ascii_wrapped_flate_are_counted_too() -> None:
    """Each filter a reader decodes through: LZW packs 7.4 MB into 5.4 kB, and ASCII85
    around Flate data hides its zlib header."""
    spaces = TEXT + b" " * (4 * LIMIT)
    bombs = {
        b"<< /Filter /LZWDecode >>": lzw_run(1),
        b"<< /Filter [/ASCII85Decode /FlateDecode] >>": base64.a85encode(BOMB) + b"~>",
        b"<< /Filter /RunLengthDecode >>": run_length_encoded(spaces),
        b"<< /Filter [/FlateDecode /LZWDecode] >>": _flate(lzw_run(1)),
        b"<< /Filter [/A#48x /LZW] >>": lzw_run(1).hex().encode() + b">",
    }
    for dictionary, data in bombs.items():
        with pytest.raises(FileTooLarge, match="object 4"):
            _read(_pdf(dictionary, data))


def test_honest_lzw_and_runlength_content_is_read() -> None:
    for dictionary, data in ((b"<< /Filter /LZWDecode >>", lzw_encoded(TEXT * 2000)),
                             (b"<< /Filter /RunLengthDecode >>", run_length_encoded(TEXT))):
        assert "Readable page" in _read(_pdf(dictionary, data))


def test_a_filter_given_by_reference_is_read_from_the_object_it_names() -> None:
    for named in (b"/LZWDecode", b"[/LZWDecode]"):
        with pytest.raises(FileTooLarge, match="object 4"):
            _read(_pdf(b"<< /Filter 6 0 R >>", lzw_run(1), named))
    # named by reference and honest: read
    assert "Readable page" in _read(_pdf(b"<< /Filter 6 0 R >>", lzw_encoded(TEXT),
                                         b"/LZWDecode"))


def test_the_word_stream_a_hundred_thousand_times_is_checked_in_linear_time() -> None:
    # each keyword's dictionary used to be read from up to 64 kB back, and its end
    # searched to the end of the file: an hour for 700 kB, at 100% of a core
    data = b"%PDF-1.7\n1 0 obj\n<< /Length 5 >>\n" + b"stream\n" * 100_000
    started = time.process_time()
    refuse_stream_bombs(Source.from_bytes(data, "streams.pdf"), 64 << 20)
    assert time.process_time() - started < 10.0
