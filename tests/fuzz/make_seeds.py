"""Writes the small seed files the fuzz session mutates (run it to regenerate tests/fuzz/corpus/).

The seeds are made here, from nothing, so the repository holds no third-party
documents; the fuzz session also mutates the shared corpus, read in place.
"""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import tarfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent / "corpus"


def _pdf(text: str) -> bytes:
    stream = f"BT /F1 18 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO(b"%PDF-1.4\n")
    out.seek(0, 2)
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    out.write(b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets))
    out.write(
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return out.getvalue()


def _warc(uri: str, html: bytes) -> bytes:
    """One WARC 1.1 response record: WARC headers, then the HTTP response they wrap."""
    http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
            b"Content-Length: %d\r\n\r\n" % len(html)) + html
    head = (f"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n"
            "WARC-Date: 2025-03-03T10:00:00Z\r\n"
            "WARC-Record-ID: <urn:uuid:6f1d0c52-7c1a-4c4e-9a53-0d5b2f3c9e11>\r\n"
            "Content-Type: application/http; msgtype=response\r\n"
            f"Content-Length: {len(http)}\r\n\r\n").encode()
    return head + http + b"\r\n\r\n"


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _tar(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _docx(text: str) -> bytes:
    from docx import Document

    document = Document()
    document.add_heading("Edital", level=1)
    document.add_paragraph(text)
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(1, 1).text = "ITEM", "1.234,56"
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _xlsx() -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["ITEM", "DESCRIÇÃO", "VALOR"])
    sheet.append([1, "Areia e pedra", 16511.45])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _image(fmt: str) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("L" if fmt == "PNG" else "RGB", (120, 40), "white")
    ImageDraw.Draw(image).text((5, 10), "goblin", fill="black")
    buffer = io.BytesIO()
    if fmt == "HEIF":
        import pillow_heif

        pillow_heif.from_pillow(image).save(buffer, quality=50)
    else:
        image.save(buffer, format=fmt)
    return buffer.getvalue()


def _djvu(text: str) -> bytes:
    """A one-page bitonal DjVu with a hidden text layer, made by DjVuLibre's encoders."""
    import subprocess
    import tempfile

    from PIL import Image, ImageDraw

    with tempfile.TemporaryDirectory() as folder:
        scan = Image.new("1", (300, 60), 1)
        ImageDraw.Draw(scan).text((5, 20), text, fill=0)
        scan.save(f"{folder}/page.pbm")
        subprocess.run(["cjb2", "-dpi", "100", f"{folder}/page.pbm", f"{folder}/page.djvu"],
                       check=True)
        layer = f'select 1\nset-txt\n(page 0 0 300 60 (line 5 20 295 40 "{text}"))\n.\nsave\n'
        with open(f"{folder}/layer.dsed", "w", encoding="utf-8") as script:
            script.write(layer)
        subprocess.run(["djvused", f"{folder}/page.djvu", "-f", f"{folder}/layer.dsed"],
                       check=True)
        with open(f"{folder}/page.djvu", "rb") as made:
            return made.read()


def _piped(tool: str, data: bytes) -> bytes:
    """``data`` compressed by ``tool`` (lzip, lzop), which has no Python writer."""
    return subprocess.run([tool, "-c"], input=data, check=True, capture_output=True).stdout


def seeds() -> dict[str, bytes]:
    text = "Licitação pública número 12: aquisição de materiais."
    mail = (b"From: a@b.c\nTo: d@e.f\nSubject: Edital\nContent-Type: text/plain; "
            b"charset=utf-8\n\n" + text.encode() + b"\n")
    return {
        "seed.pdf": _pdf("Licitacao publica numero 12"),
        "seed.txt": text.encode("utf-8"),
        "seed-cp1252.csv": "ITEM;DESCRIÇÃO;VALOR\n1;Areia e pedra;1.234,56\n".encode("cp1252"),
        "seed.html": f"<html><head><title>t</title><script>x()</script></head><body><h1>Edital</h1>"
        f"<p>{text}</p><table><tr><td>1</td></tr></table></body></html>".encode(),
        "seed.xml": f'<?xml version="1.0"?><edital><item n="1">{text}</item></edital>'.encode(),
        # WordPerfect 5.1: its prefix (text at byte 16, a WordPerfect document), hard returns
        "seed.wpd": b"\xffWPC\x10\x00\x00\x00\x01\x0a\x00\x01\x00\x00\x00\x00"
        b"Licita\xc0\x27\x01\xc0\xc0\x4d\x01\xc0o p\xc0\x43\x01\xc0blica\x0aEdital 12\x0a",
        "seed.fb2": ('<?xml version="1.0" encoding="utf-8"?><FictionBook xmlns="http://www.'
                     'gribuser.ru/xml/fictionbook/2.0"><description><title-info><book-title>'
                     "Edital</book-title><lang>pt</lang></title-info></description><body>"
                     f"<section><title><p>Edital</p></title><p>{text} <emphasis>12</emphasis>."
                     '</p></section></body><body name="notes"><section><p>Nota.</p>'
                     "</section></body></FictionBook>").encode(),
        "seed.rtf": rb"{\rtf1\ansi{\fonttbl\f0 Helvetica;}\f0 Licita\'e7\'e3o p\'fablica\par}",
        "seed.ipynb": json.dumps({"cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# Edital\n", text]},
            {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": "print(12)",
             "outputs": [{"output_type": "stream", "name": "stdout", "text": ["12\n"]}]}],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, sort_keys=True).encode(),
        "seed.srt": f"1\n00:00:01,000 --> 00:00:02,500\n<i>{text}</i>\n\n2\n00:00:03,000 --> "
        "00:00:04,000\n{\\an8}- Edital 12\n- Sim.\n".encode(),
        "seed.vtt": f"WEBVTT - Edital\nLanguage: pt\n\nNOTE nota\n\n1\n00:00:01.000 --> "
        f"00:00:02.000 align:start\n<v Ana>{text}</v>\n\n00:00:02.000 --> 00:00:03.000\n"
        "<c.x>Edital</c> &amp; <ruby>12<rt>doze</rt></ruby>\n".encode(),
        "seed.ass": "[Script Info]\nTitle: Edital\nScriptType: v4.00+\n\n[Events]\nFormat: "
        "Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,"
        f"0:00:01.00,0:00:02.00,Default,Ana,0,0,0,,{{\\i1}}{text}{{\\i0}}\\Nlinha\n"
        "Comment: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,nota\n".encode(),
        "seed.emlx": b"%d\n" % len(mail) + mail + b"<?xml version=\"1.0\"?><plist/>\n",
        "seed.json": b'{"edital": 12, "itens": [{"descricao": "Areia"}]}',
        "seed.eml": b"From: a@b.c\r\nTo: d@e.f\r\nSubject: Edital\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + text.encode() + b"\r\n",
        "seed.docx": _docx(text),
        "seed.xlsx": _xlsx(),
        "seed.png": _image("PNG"),
        "seed.heic": _image("HEIF"),
        "seed.avif": _image("AVIF"),
        "seed.djvu": _djvu("Licitação pública número 12"),
        # OpenOffice.org 1.x: ODF's forerunner, its blocks straight in office:body
        "seed.sxw": _zip({"mimetype": b"application/vnd.sun.xml.writer",
                          "content.xml": '<office:document-content xmlns:office="http://openoffice'
                          '.org/2000/office" xmlns:text="http://openoffice.org/2000/text">'
                          f"<office:body><text:h text:level=\"1\">Edital</text:h><text:p>{text}"
                          "</text:p></office:body></office:document-content>".encode()}),
        "seed.zip": _zip({"a/edital.txt": text.encode(), "b.pdf": _pdf("zip member")}),
        "seed.tar": _tar({"edital.txt": text.encode()}),
        "seed.txt.gz": gzip.compress(text.encode()),
        "seed.tar.lz": _piped("lzip", _tar({"edital.txt": text.encode()})),
        "seed.txt.lzo": _piped("lzop", text.encode()),
        "seed.ps": b"%!PS-Adobe-3.0\n%%Title: Edital\n%%Pages: 1\n%%EndComments\n%%Page: 1 1\n"
        b"/Helvetica findfont 12 scalefont setfont 72 720 moveto (Licitacao publica) show\n"
        b"72 700 moveto (numero 12) show showpage\n%%EOF\n",
        "seed.warc": _warc("https://example.org/edital/", f"<p>{text}</p>".encode())
        + _warc("https://example.org/aviso.txt", text.encode()),
    }


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for name, data in seeds().items():
        (HERE / name).write_bytes(data)


if __name__ == "__main__":
    main()
