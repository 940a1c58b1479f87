"""Alternative-format chunks (w:altChunk): HTML, MHT, RTF or text a docx merges in place."""

from __future__ import annotations

import io
import zipfile

from packages import PKG_RELS, R, docx, para, zip_bytes

_CHUNK = f"{R}/aFChunk"

HTML = ("<html><body><h1>Edital 12/2024</h1><p>Objeto: aquisição de café.</p>"
        "<table><tr><th>Item</th><th>Qtd</th></tr><tr><td>Café</td><td>10</td></tr></table>"
        "</body></html>")
# as html-docx-js writes it: the page wrapped in a web archive
MHT = ("MIME-Version: 1.0\r\nContent-Type: multipart/related; type=\"text/html\"; "
       "boundary=\"----=mhtDocumentPart\"\r\n\r\n------=mhtDocumentPart\r\n"
       "Content-Type: text/html; charset=\"utf-8\"\r\nContent-Transfer-Encoding: "
       "quoted-printable\r\nContent-Location: file:///C:/fake/document.html\r\n\r\n"
       "<html><body><p>Prazo de entrega: 30 dias.</p></body></html>\r\n"
       "------=mhtDocumentPart--\r\n")
RTF = r"{\rtf1\ansi Garantia de {\b doze} meses.\par}"


def with_chunks(body: str, chunks: dict[str, str]) -> bytes:
    """``docx(body)`` holding ``chunks`` (part name under word/ -> content), linked as
    rIdA, rIdB... in order."""
    with zipfile.ZipFile(io.BytesIO(docx(body))) as package:
        members: dict[str, bytes | str] = {i.filename: package.read(i) for i in package.infolist()}
    rels = "".join(f'<Relationship Id="rId{chr(65 + n)}" Type="{_CHUNK}" Target="{name}"/>'
                   for n, name in enumerate(chunks))
    members["word/_rels/document.xml.rels"] = (
        f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG_RELS}">{rels}'
        "</Relationships>")
    members.update({f"word/{name}": data for name, data in chunks.items()})
    return zip_bytes(members)


def chunk(letter: str) -> str:
    return f'<w:altChunk r:id="rId{letter}"/>'


def test_each_chunk_is_read_where_it_stands(read) -> None:  # type: ignore[no-untyped-def]
    body = (para("Antes.") + chunk("A") + para("Entre.") + chunk("B") + chunk("C")
            + chunk("D") + para("Depois."))
    data = with_chunks(body, {"afchunk.html": HTML, "afchunk.mht": MHT, "afchunk.rtf": RTF,
                              "afchunk.txt": "Observação em texto simples."})
    document = read(data, "convertido.docx")
    assert document.text.splitlines() == [
        "Antes.", "Edital 12/2024", "Objeto: aquisição de café.", "Item\tQtd", "Café\t10",
        "Entre.", "Prazo de entrega: 30 dias.", "Garantia de doze meses.",
        "Observação em texto simples.", "Depois."]
    assert document.tables[0].rows == (("Item", "Qtd"), ("Café", "10"))
    headings = [b.text for b in document.pages[0].blocks if b.kind == "heading"]
    assert headings == ["Edital 12/2024"]


def test_a_chunk_that_cannot_be_read_costs_only_itself(read) -> None:  # type: ignore[no-untyped-def]
    body = para("Antes.") + chunk("A") + chunk("B") + chunk("C") + para("Depois.")
    data = with_chunks(body, {"vazio.html": "\x00\x01binário", "outro.docx": "PK\x03\x04",
                              "ok.html": "<p>Ainda lido.</p>"})
    document = read(data, "misto.docx")
    assert document.text.splitlines() == ["Antes.", "Ainda lido.", "Depois."]
    [warning] = document.report.warnings
    assert warning.kind == "CorruptDocument"
    assert warning.message.startswith("merged chunk word/vazio.html left out: binary content")


def test_a_header_and_a_footer_merge_their_own_chunks(read) -> None:  # type: ignore[no-untyped-def]
    # a letterhead converted from HTML: the header part is one altChunk, linked from the
    # header's own relationships, which number their ids anew (rIdA here is not the body's)
    data = docx(para("Corpo do ofício."), {
        "header1.xml": f"<w:hdr>{chunk('A')}</w:hdr>",
        "footer1.xml": f"<w:ftr>{para('Rodapé:')}{chunk('A')}</w:ftr>",
    })
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        members: dict[str, bytes | str] = {i.filename: package.read(i) for i in package.infolist()}
    for part, target in (("header1.xml", "timbre.html"), ("footer1.xml", "endereco.txt")):
        members[f"word/_rels/{part}.rels"] = (
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG_RELS}">'
            f'<Relationship Id="rIdA" Type="{_CHUNK}" Target="{target}"/></Relationships>')
    members["word/timbre.html"] = "<html><body><p><b>Prefeitura de Goblinópolis</b></p></body>"
    members["word/endereco.txt"] = "Rua das Flores, 12"
    document = read(zip_bytes(members), "oficio.docx")
    assert document.text.splitlines() == [
        "Prefeitura de Goblinópolis", "Corpo do ofício.", "Rodapé:", "Rua das Flores, 12"]
    kinds = [(b.kind, b.text) for b in document.pages[0].blocks]
    assert kinds[0] == ("header", "Prefeitura de Goblinópolis")
    assert kinds[-1] == ("footer", "Rodapé:\nRua das Flores, 12")
