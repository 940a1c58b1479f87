"""An attached file that decodes to gigabytes is refused before any reader decodes it.

PDFium decodes an attached file whole to say how large it is (about twice its size in
memory), so the limits are checked by counting the stream through its filters first.
Peak memory is measured in a child process, as in test_memory.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import pikepdf
import pytest
from pdf_builders import reportlab_pdf
from pikepdf import Array, Dictionary, Name, Stream, String

LIMIT_MB = 500
GIB = 1 << 30

CHILD = textwrap.dedent(
    """
    import json, resource, sys
    from goblin_core import extract
    document = extract(sys.argv[1], ocr="never")
    try:
        with open("/proc/self/status") as status:
            line = next(l for l in status if l.startswith("VmHWM:"))
        peak = int(line.split()[1]) // 1024
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(json.dumps({
        "peak_mb": peak,
        "text": document.text,
        "children": {child.name: child.text for child in document.children},
        "errors": [[entry.kind, entry.message] for entry in document.report.errors],
    }))
    """
)


def _zeros_deflated(size: int) -> bytes:
    """zlib data for ``size`` zero bytes (a multiple of 16 MiB), built from one
    compressed block repeated: a full flush makes each block stand alone."""
    chunk = bytes(16 << 20)
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    count = size // len(chunk)
    checksum = 1
    for _ in range(count):
        checksum = zlib.adler32(chunk, checksum)
    return b"\x78\xda" + block * count + compressor.flush() + checksum.to_bytes(4, "big")


def _with_attachments(files: list[tuple[str, bytes, bool]]) -> bytes:
    """A one-page PDF attaching ``files`` (name, data, whether data is Flate already)
    in the order given (names sorted, as a name tree keeps them)."""
    pdf = pikepdf.open(io.BytesIO(reportlab_pdf(("The cover letter of the package.",))))
    names = []
    for name, data, deflated in files:
        stream = Stream(pdf, data)
        stream.Type = Name.EmbeddedFile
        if deflated:
            stream.Filter = Name.FlateDecode
        specification = pdf.make_indirect(Dictionary(
            Type=Name.Filespec, F=String(name), UF=String(name), EF=Dictionary(F=stream)))
        names += [String(name), specification]
    pdf.Root.Names = Dictionary(EmbeddedFiles=Dictionary(Names=Array(names)))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def _read_in_child(path: Path) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_zeros_deflated_is_what_it_says() -> None:
    data = _zeros_deflated(32 << 20)
    assert zlib.decompress(data) == bytes(32 << 20)


@pytest.mark.slow
def test_an_attached_gigabyte_of_zeros_is_refused_without_being_decoded(tmp_path: Path) -> None:
    path = tmp_path / "package.pdf"
    path.write_bytes(_with_attachments([
        ("a-notes.txt", b"Minutes of the meeting held on Tuesday", False),
        ("b-zeros.bin", _zeros_deflated(GIB), True),
        ("c-after.txt", b"never reached", False),
    ]))
    found = _read_in_child(path)
    assert "The cover letter of the package." in str(found["text"])
    children = found["children"]
    assert isinstance(children, dict)
    assert "Minutes of the meeting" in children["package.pdf/a-notes.txt"]
    errors = found["errors"]
    assert isinstance(errors, list)
    assert any(kind == "UnsafeArchive" and "b-zeros.bin" in message
               for kind, message in errors), errors
    assert int(str(found["peak_mb"])) < LIMIT_MB, f"peak RSS {found['peak_mb']} MB"


@pytest.mark.slow
@pytest.mark.parametrize("bomb_first", [False, True], ids=["small-first", "bomb-first"])
def test_a_small_file_sharing_a_bombs_name_does_not_let_it_through(
        tmp_path: Path, bomb_first: bool) -> None:
    """Two file specifications named alike: the bomb is counted whichever one a
    mapping by name would keep."""
    path = tmp_path / "twins.pdf"
    twins = [("report.bin", b"a small harmless file", False),
             ("report.bin", _zeros_deflated(GIB), True)]
    path.write_bytes(_with_attachments(twins[::-1] if bomb_first else twins))
    found = _read_in_child(path)
    assert "The cover letter of the package." in str(found["text"])
    errors = found["errors"]
    assert isinstance(errors, list)
    assert any(kind == "UnsafeArchive" for kind, _ in errors), errors
    assert int(str(found["peak_mb"])) < LIMIT_MB, f"peak RSS {found['peak_mb']} MB"


def test_a_large_attachment_within_the_limits_is_read(tmp_path: Path) -> None:
    """Counting a stream before PDFium decodes it refuses nothing the limits allow: 32 MiB
    of zeros from a PDF of about 40 kB is past limits.max_ratio, but not when the
    ratio is raised."""
    from goblin_core import extract

    data = _with_attachments([("zeros.bin", _zeros_deflated(32 << 20), True),
                              ("z-note.txt", b"the note after the large file", False)])
    document = extract(data, name="big.pdf", ocr="never", limits={"max_ratio": 100_000})
    assert not document.report.errors, document.report.errors
    names = {child.name for child in document.children}
    assert names == {"big.pdf/zeros.bin", "big.pdf/z-note.txt"}, names
    refused = extract(data, name="big.pdf", ocr="never")
    assert any(entry.kind == "UnsafeArchive" and "zeros.bin" in entry.message
               for entry in refused.report.errors), refused.report.errors
