"""Regenerate the sample documents in this folder.

    uv run --extra all python samples/make_samples.py

Every file is written byte-for-byte reproducibly (fixed dates inside the PDF
and the zip containers), so running this again leaves git with no changes.
The samples are tiny on purpose: they show what goblin does in a second and
are what the README's first command reads.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXED_ZIP_TIME = (2024, 1, 1, 0, 0, 0)

HELLO_TEXT = (
    "Olá, goblin!\n"
    "\n"
    "Edital de licitação nº 12/2024 da Prefeitura de São João: aquisição de café,\n"
    "açúcar e pão para a reunião de março. Propostas até 15/04, às 10h.\n"
)

PDF_LINES = (
    "Olá, goblin! Este PDF tem uma camada de texto.",
    "Edital nº 12/2024 — aquisição de café e açúcar.",
    "Valor estimado: R$ 1.234,56 (mil duzentos e trinta e quatro reais).",
)

DOCX_PARAGRAPHS = (
    "Olá, goblin! Este é um documento Word.",
    "Ata da reunião de licitação: a comissão aprovou a proposta da empresa Açaí & Cia.",
)

CSV_ROWS = (
    ("item", "descrição", "quantidade", "preço unitário"),
    ("1", "café torrado 500 g", "40", "18,90"),
    ("2", "açúcar cristal 1 kg", "25", "4,75"),
    ("3", "pão francês (kg)", "12", "14,00"),
)


def make_text() -> bytes:
    return HELLO_TEXT.encode("utf-8")


def make_pdf() -> bytes:
    """A one-page PDF with a real text layer (Helvetica, WinAnsi: accents map)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    # invariant: no creation date or random ID, so the bytes never change
    pdf = canvas.Canvas(buffer, pagesize=A4, invariant=1)
    pdf.setTitle("goblin sample")
    pdf.setAuthor("goblin")
    pdf.setFont("Helvetica", 12)
    y = 780
    for line in PDF_LINES:
        pdf.drawString(72, y, line)
        y -= 20
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def make_docx() -> bytes:
    import docx

    document = docx.Document()
    document.core_properties.title = "goblin sample"
    document.core_properties.author = "goblin"
    document.add_heading("Ata de reunião", level=1)
    for paragraph in DOCX_PARAGRAPHS:
        document.add_paragraph(paragraph)
    buffer = io.BytesIO()
    document.save(buffer)
    return _fixed_zip(_zip_members(buffer.getvalue()))


def make_csv() -> bytes:
    """A Brazilian-style spreadsheet export: cp1252 and ';' between fields."""
    lines = [";".join(row) for row in CSV_ROWS]
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")


def make_zip(members: dict[str, bytes]) -> bytes:
    return _fixed_zip(list(members.items()))


def _zip_members(data: bytes) -> list[tuple[str, bytes]]:
    # docx core properties carry the save time: pin them too
    members = []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            content = archive.read(info)
            if info.filename == "docProps/core.xml":
                content = _pin_core_dates(content)
            members.append((info.filename, content))
    return members


def _pin_core_dates(xml: bytes) -> bytes:
    import re

    return re.sub(rb"(<dcterms:(created|modified)[^>]*>)[^<]*", rb"\g<1>2024-01-01T00:00:00Z", xml)


def _fixed_zip(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members:
            info = zipfile.ZipInfo(name, date_time=FIXED_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, content)
    return buffer.getvalue()


def build() -> dict[str, bytes]:
    """Every sample's name and bytes."""
    text, pdf = make_text(), make_pdf()
    return {
        "hello.txt": text,
        "hello.pdf": pdf,
        "hello.docx": make_docx(),
        "orcamento.csv": make_csv(),
        "samples.zip": make_zip({"docs/hello.txt": text, "docs/hello.pdf": pdf}),
    }


def main() -> None:
    for name, content in build().items():
        (HERE / name).write_bytes(content)
        print(f"wrote samples/{name} ({len(content):,} bytes)")


if __name__ == "__main__":
    main()
