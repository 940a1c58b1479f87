"""One small document per format, built in the test run with the format's own writer.

Each builder returns (bytes, file name); the phrase each holds is
``PHRASE`` unless a builder says otherwise. The registry test and the
structure tests both use them.
"""

from __future__ import annotations

import datetime as dt
import email.message
import io
import json
import struct
import zipfile
from collections.abc import Callable
from typing import Any

import docx
import openpyxl
import pysubs2
from odf.draw import CustomShape, EnhancedGeometry, Frame, Page, TextBox
from odf.opendocument import (
    OpenDocumentDrawing,
    OpenDocumentPresentation,
    OpenDocumentSpreadsheet,
    OpenDocumentText,
)
from odf.style import MasterPage, PageLayout
from odf.table import Table, TableCell, TableRow
from odf.text import H, P
from packages import flat_opc, vsdx, xps, zip_bytes
from packages import xlsb as hand_xlsb
from pptx import Presentation
from pptx.util import Inches
from tnefdata import winmail

from goblin_core.testing.corpus import require_binary

PHRASE = "Licitação pública número 42"
Sample = Callable[[], tuple[bytes, str]]


def sample_docx() -> tuple[bytes, str]:
    document = docx.Document()
    document.add_heading("Edital", level=1)
    document.add_paragraph(PHRASE)
    table = document.add_table(rows=2, cols=2)
    for r, row in enumerate([("Item", "Valor"), ("Cimento", "12")]):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    document.sections[0].header.paragraphs[0].text = "Prefeitura de Exemplo"
    document.sections[0].footer.paragraphs[0].text = "Página de rodapé"
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue(), "edital.docx"


def sample_flat_word() -> tuple[bytes, str]:
    """The docx sample saved as a "Word XML Document" (Flat OPC)."""
    return flat_opc(sample_docx()[0], "Word.Document"), "edital.xml"


WORDML_2003 = "http://schemas.microsoft.com/office/word/2003/wordml"


def word2003(body: str, styles: str = "") -> bytes:
    """A Word 2003 XML document whose w:body holds ``body``."""
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<?mso-application progid="Word.Document"?>'
        f'<w:wordDocument xmlns:w="{WORDML_2003}" '
        'xmlns:wx="http://schemas.microsoft.com/office/word/2003/auxHint" '
        'xmlns:aml="http://schemas.microsoft.com/aml/2001/core" '
        'xmlns:o="urn:schemas-microsoft-com:office:office">'
        "<o:DocumentProperties><o:Title>Ata</o:Title><o:Author>Ana</o:Author>"
        f"</o:DocumentProperties>{styles}<w:body>{body}</w:body></w:wordDocument>"
    ).encode()


def sample_word2003() -> tuple[bytes, str]:
    """A Word 2003 XML document with one paragraph."""
    return word2003(f"<wx:sect><w:p><w:r><w:t>{PHRASE}</w:t></w:r></w:p></wx:sect>"), "ata.xml"


def spreadsheetml2003(worksheets: str) -> bytes:
    """An Excel 2003 XML workbook holding ``worksheets`` (ss:Worksheet elements)."""
    return (
        '<?xml version="1.0"?><?mso-application progid="Excel.Sheet"?>'
        '<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" '
        'xmlns:o="urn:schemas-microsoft-com:office:office" '
        'xmlns:x="urn:schemas-microsoft-com:office:excel" '
        'xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">'
        f"<o:DocumentProperties><o:Author>Ana</o:Author></o:DocumentProperties>{worksheets}"
        "</Workbook>"
    ).encode()


def sample_spreadsheetml2003() -> tuple[bytes, str]:
    """An Excel 2003 XML workbook with one text cell."""
    sheet = (
        '<Worksheet ss:Name="Planilha"><Table><Row><Cell><Data ss:Type="String">'
        f"{PHRASE}</Data></Cell></Row></Table></Worksheet>"
    )
    return spreadsheetml2003(sheet), "planilha.xml"


def sample_xlsx() -> tuple[bytes, str]:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Planilha"
    sheet["A1"] = PHRASE
    sheet["A2"] = 3
    sheet["B2"] = 2.5
    sheet["C2"] = dt.datetime(2024, 3, 15)
    second = workbook.create_sheet("Resumo")
    second["A1"] = "Total geral"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue(), "orcamento.xlsx"


def sample_xlsb() -> tuple[bytes, str]:
    """A binary workbook, written record by record (no Python library writes .xlsb)."""
    return hand_xlsb("Planilha", PHRASE, 2.5), "orcamento.xlsb"


def sample_pptx() -> tuple[bytes, str]:
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Apresentação"
    slide.placeholders[1].text = PHRASE
    shape = slide.shapes.add_table(2, 2, Inches(1), Inches(4), Inches(4), Inches(1))
    shape.table.cell(0, 0).text = "Lote"
    shape.table.cell(1, 0).text = "Lote 7"
    slide.notes_slide.notes_text_frame.text = "Nota do orador"
    buffer = io.BytesIO()
    deck.save(buffer)
    return buffer.getvalue(), "slides.pptx"


def sample_flat_powerpoint() -> tuple[bytes, str]:
    """The pptx sample saved as a "PowerPoint XML Presentation" (Flat OPC)."""
    return flat_opc(sample_pptx()[0], "PowerPoint.Show"), "slides.xml"


def sample_vsdx() -> tuple[bytes, str]:
    """A Visio drawing with one page and one shape."""
    shape = f"<Shape ID='1'><Cell N='PinX' V='1'/><Text>{PHRASE}</Text></Shape>"
    return vsdx([("Fluxo", shape)]), "fluxo.vsdx"


def sample_xps() -> tuple[bytes, str]:
    """An XPS document with one page and one run of glyphs."""
    glyphs = f'<Glyphs OriginX="96" OriginY="120" UnicodeString="{PHRASE}"/>'
    return xps([glyphs]), "impresso.xps"


def _odf_bytes(document: object) -> bytes:
    buffer = io.BytesIO()
    document.write(buffer)  # type: ignore[attr-defined]
    return buffer.getvalue()


def sample_odt() -> tuple[bytes, str]:
    document = OpenDocumentText()
    document.text.addElement(H(outlinelevel=1, text="Título"))
    document.text.addElement(P(text=PHRASE))
    return _odf_bytes(document), "texto.odt"


def sample_ods() -> tuple[bytes, str]:
    document = OpenDocumentSpreadsheet()
    table = Table(name="Dados")
    row = TableRow()
    cell = TableCell(valuetype="string")
    cell.addElement(P(text=PHRASE))
    row.addElement(cell)
    row.addElement(TableCell(valuetype="float", value="7"))
    table.addElement(row)
    document.spreadsheet.addElement(table)
    return _odf_bytes(document), "dados.ods"


def default_master(document: Any) -> MasterPage:
    """The master page a presentation's or drawing's pages name, added to ``document``."""
    layout = PageLayout(name="layout")
    document.automaticstyles.addElement(layout)
    master = MasterPage(name="Default", pagelayoutname=layout)
    document.masterstyles.addElement(master)
    return master


def flowchart_shape(text: str) -> CustomShape:
    """A LibreOffice Draw flowchart box: the text sits in the shape, in no frame."""
    shape = CustomShape(width="12cm", height="3cm", x="1cm", y="1cm")
    shape.addElement(P(text=text))
    shape.addElement(EnhancedGeometry(type="rectangle"))
    return shape


def sample_odp() -> tuple[bytes, str]:
    document = OpenDocumentPresentation()
    page = Page(masterpagename=default_master(document))
    frame = Frame(width="20cm", height="3cm", x="1cm", y="1cm")
    box = TextBox()
    box.addElement(P(text=PHRASE))
    frame.addElement(box)
    page.addElement(frame)
    document.presentation.addElement(page)
    return _odf_bytes(document), "slides.odp"


def sample_odg() -> tuple[bytes, str]:
    """A LibreOffice Draw drawing: a flowchart shape holding the phrase, on a named page."""
    document = OpenDocumentDrawing()
    page = Page(name="Fluxo", masterpagename=default_master(document))
    page.addElement(flowchart_shape(PHRASE))
    document.drawing.addElement(page)
    return _odf_bytes(document), "fluxo.odg"


_FLAT = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.{kind}">'
    "<office:body><office:{element}>{body}</office:{element}></office:body></office:document>"
)


def flat_odf(kind: str, body: str, element: str = "") -> bytes:
    """A flat ODF document of ``kind`` (text, spreadsheet, presentation, graphics) around
    ``body``, in the body element ``element`` (the kind's name but for drawings')."""
    return _FLAT.format(kind=kind, element=element or kind, body=body).encode()


_OPENOFFICE_1 = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE office:document-{part} PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" \
"office.dtd">
<office:document-{part} xmlns:office="http://openoffice.org/2000/office" \
xmlns:style="http://openoffice.org/2000/style" xmlns:text="http://openoffice.org/2000/text" \
xmlns:table="http://openoffice.org/2000/table" xmlns:draw="http://openoffice.org/2000/drawing" \
xmlns:presentation="http://openoffice.org/2000/presentation" \
xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="http://openoffice.org/2000/meta" \
office:class="{kind}" office:version="1.0">{body}</office:document-{part}>"""


def openoffice_1(mimetype: str, kind: str, body: str, title: str = "Edital 42") -> bytes:
    """An OpenOffice.org 1.x package (StarOffice 6-7): ``body`` straight in office:body, as
    those versions wrote it (no office:text, office:spreadsheet... wrapper)."""
    content = _OPENOFFICE_1.format(part="content", kind=kind,
                                   body=f"<office:body>{body}</office:body>")
    meta = _OPENOFFICE_1.format(part="meta", kind=kind,
                                body=f"<office:meta><dc:title>{title}</dc:title>"
                                     "<meta:initial-creator>Ana</meta:initial-creator>"
                                     "</office:meta>")
    manifest = ('<manifest:manifest xmlns:manifest="http://openoffice.org/2001/manifest">'
                f'<manifest:file-entry manifest:media-type="{mimetype}" '
                'manifest:full-path="/"/></manifest:manifest>')
    return zip_bytes({"mimetype": mimetype, "content.xml": content, "meta.xml": meta,
                      "META-INF/manifest.xml": manifest}, zipfile.ZIP_STORED)


def sample_sxw() -> tuple[bytes, str]:
    body = (f'<text:h text:level="2">Título</text:h><text:p>{PHRASE}</text:p>'
            "<table:table><table:table-row><table:table-cell><text:p>célula</text:p>"
            "</table:table-cell></table:table-row></table:table>")
    return openoffice_1("application/vnd.sun.xml.writer", "text", body), "texto.sxw"


def sample_sxc() -> tuple[bytes, str]:
    body = ('<table:table table:name="Dados"><table:table-row><table:table-cell>'
            f"<text:p>{PHRASE}</text:p></table:table-cell>"
            '<table:table-cell table:value-type="float" table:value="7"><text:p>7</text:p>'
            "</table:table-cell></table:table-row></table:table>")
    return openoffice_1("application/vnd.sun.xml.calc", "spreadsheet", body), "dados.sxc"


def sample_sxi() -> tuple[bytes, str]:
    body = ('<draw:page draw:name="Capa"><draw:text-box svg:width="20cm" svg:height="3cm" '
            f'xmlns:svg="http://www.w3.org/2000/svg"><text:p>{PHRASE}</text:p>'
            "</draw:text-box></draw:page>")
    return openoffice_1("application/vnd.sun.xml.impress", "presentation", body), "slides.sxi"


def sample_sxd() -> tuple[bytes, str]:
    body = ('<draw:page draw:name="Fluxo"><draw:rect><text:p>'
            f"{PHRASE}</text:p></draw:rect></draw:page>")
    return openoffice_1("application/vnd.sun.xml.draw", "drawing", body), "fluxo.sxd"


def sample_fodt() -> tuple[bytes, str]:
    body = f'<text:h text:outline-level="1">Título</text:h><text:p>{PHRASE}</text:p>'
    return flat_odf("text", body), "texto.fodt"


def sample_fods() -> tuple[bytes, str]:
    body = (
        '<table:table table:name="Folha"><table:table-row>'
        f'<table:table-cell office:value-type="string"><text:p>{PHRASE}</text:p></table:table-cell>'
        '<table:table-cell office:value-type="float" office:value="2.50"><text:p>2,5</text:p>'
        "</table:table-cell></table:table-row></table:table>"
    )
    return flat_odf("spreadsheet", body), "folha.fods"


def sample_fodp() -> tuple[bytes, str]:
    body = (
        f'<draw:page draw:name="p1"><draw:frame><draw:text-box><text:p>{PHRASE}</text:p>'
        "</draw:text-box></draw:frame></draw:page>"
    )
    return flat_odf("presentation", body), "slides.fodp"


def sample_fodg() -> tuple[bytes, str]:
    body = (f'<draw:page draw:name="p1"><draw:rect><text:p>{PHRASE}</text:p></draw:rect>'
            "</draw:page>")
    return flat_odf("graphics", body, "drawing"), "desenho.fodg"


#: WordPerfect 5.x's Multinational 1 character set (number 1): the accented Latin letters.
_WP_ACCENTED = "ÁáÂâÄäÀàÅåÆæÇçÉéÊêËëÈèÍíÎîÏïÌìÑñÓóÔôÖöÒòÚúÛûÜüÙù"
_WP_MULTINATIONAL = {ch: 26 + i for i, ch in enumerate(_WP_ACCENTED)}
_WP_MULTINATIONAL |= {"Ã": 76, "ã": 77}


def wordperfect51(*paragraphs: str, encryption_key: int = 0) -> bytes:
    """A WordPerfect 5.1 document: the 16-byte prefix (magic, where the text starts,
    product 1 and file type 10: a WordPerfect document), then one paragraph a hard return
    (0x0A); an accented letter is an extended-character function (0xC0 char set 0xC0)."""
    header = b"\xffWPC" + (16).to_bytes(4, "little") + bytes([1, 10, 0, 1])
    header += encryption_key.to_bytes(2, "little") + b"\x00\x00"
    body = bytearray()
    for paragraph in paragraphs:
        for ch in paragraph:
            if ch in _WP_MULTINATIONAL:
                body += bytes([0xC0, _WP_MULTINATIONAL[ch], 1, 0xC0])
            else:
                body += ch.encode("ascii")
        body += b"\x0a"
    return header + bytes(body)


def sample_wordperfect() -> tuple[bytes, str]:
    require_binary("wpd2text", "libwpd-tools")
    return wordperfect51("Edital", PHRASE), "edital.wpd"


def sample_rtf() -> tuple[bytes, str]:
    data = (
        r"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Arial;}}"
        r"\f0 Licita\'e7\'e3o p\'fablica n\'famero 42\par}"
    )
    return data.encode("ascii"), "nota.rtf"


def fictionbook(body: str, description: str = "", *, encoding: str = "utf-8",
                binaries: str = "") -> bytes:
    """A FictionBook 2 file: ``description``'s title-info, the main ``body`` (its XML),
    then ``binaries`` (pictures), in ``encoding`` as its declaration says."""
    text = (f'<?xml version="1.0" encoding="{encoding}"?>\n'
            '<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0" '
            'xmlns:l="http://www.w3.org/1999/xlink">'
            f"<description><title-info>{description}</title-info></description>"
            f"<body>{body}</body>{binaries}</FictionBook>")
    return text.encode(encoding)


def sample_fictionbook() -> tuple[bytes, str]:
    return fictionbook(f"<section><title><p>Edital</p></title><p>{PHRASE}</p></section>",
                       "<book-title>Edital</book-title><lang>pt</lang>"), "edital.fb2"


def notebook(cells: list[dict[str, Any]], **metadata: Any) -> bytes:
    """A Jupyter notebook (nbformat 4) of ``cells``, keys sorted as Jupyter writes them."""
    return json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4,
                       "nbformat_minor": 5}, indent=1, sort_keys=True,
                      ensure_ascii=False).encode()


def sample_notebook() -> tuple[bytes, str]:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# Edital\n", PHRASE]}]
    return notebook(cells), "edital.ipynb"


def emlx(message: bytes) -> bytes:
    """An Apple Mail message file: the message's length, the message, a property list."""
    plist = (b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict>'
             b"<key>flags</key><integer>8590195713</integer></dict></plist>\n")
    return str(len(message)).encode() + b"       \n" + message + plist


def sample_emlx() -> tuple[bytes, str]:
    message = ("From: Ana <ana@example.org>\nTo: rui@example.org\nSubject: Edital\n"
               "Content-Type: text/plain; charset=utf-8\n\n" + PHRASE + "\n").encode()
    return emlx(message), "12345.emlx"


def subtitles(extension: str, *lines: str) -> bytes:
    """A subtitle file (srt, vtt, ass, ssa) of one cue per line, written by pysubs2."""
    track = pysubs2.SSAFile()
    for index, line in enumerate(lines):
        track.append(pysubs2.SSAEvent(start=2000 * index, end=2000 * index + 1500, text=line))
    return track.to_string(extension).encode()


def sample_srt() -> tuple[bytes, str]:
    return subtitles("srt", "Edital", PHRASE), "edital.srt"


def sample_vtt() -> tuple[bytes, str]:
    return subtitles("vtt", "Edital", PHRASE), "edital.vtt"


def sample_ass() -> tuple[bytes, str]:
    return subtitles("ass", "Edital", PHRASE), "edital.ass"


def sample_epub() -> tuple[bytes, str]:
    xhtml = (
        f'<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml">'
        f"<head><title>c1</title></head><body><h1>Capítulo</h1><p>{PHRASE}</p></body></html>"
    )
    opf = (
        '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Livro</dc:title></metadata>'
        '<manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest>'
        '<spine><itemref idref="c1"/></spine></package>'
    )
    container = (
        '<?xml version="1.0"?><container version="1.0" '
        'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
        '<rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/>'
        "</rootfiles></container>"
    )
    return zip_bytes(
        {
            "mimetype": "application/epub+zip",
            "META-INF/container.xml": container,
            "OEBPS/book.opf": opf,
            "OEBPS/c1.xhtml": xhtml,
        }
    ), "livro.epub"


def sample_csv() -> tuple[bytes, str]:
    text = f"descrição;cidade\n{PHRASE};São Paulo\nCimento;Belém\n"
    return text.encode("cp1252"), "itens.csv"


def sample_tsv() -> tuple[bytes, str]:
    return f"item\tvalor\n{PHRASE}\t10\n".encode(), "itens.tsv"


def sample_html() -> tuple[bytes, str]:
    page = (
        f"<!DOCTYPE html><html lang='pt'><head><title>Aviso</title>"
        "<style>body {{color: red}}</style><script>var secret = 'no-script-text';</script></head>"
        f"<body><h1>Aviso</h1><ul><li>Primeiro</li><li>Segundo</li></ul><p>{PHRASE}</p>"
        "<table><tr><th>Lote</th><th>Valor</th></tr><tr><td>1</td><td>99</td></tr></table>"
        "</body></html>"
    )
    return page.encode("utf-8"), "aviso.html"


def sample_mhtml() -> tuple[bytes, str]:
    message = email.message.EmailMessage()
    message["Subject"] = "page"
    message["MIME-Version"] = "1.0"
    message.set_content(f"<html><body><p>{PHRASE}</p></body></html>", subtype="html")
    message.make_related()
    return message.as_bytes(), "pagina.mht"


def sample_xml() -> tuple[bytes, str]:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><r><item>{PHRASE}</item></r>'.encode(),
        "dados.xml",
    )


def sample_svg() -> tuple[bytes, str]:
    svg = (
        f'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><title>Mapa</title>'
        f'<text x="1" y="2">{PHRASE}</text><rect width="1" height="1"/></svg>'
    )
    return svg.encode(), "mapa.svg"


def sample_json() -> tuple[bytes, str]:
    return json.dumps({"objeto": PHRASE}, ensure_ascii=False).encode(), "dados.json"


def sample_ndjson() -> tuple[bytes, str]:
    lines = [json.dumps({"n": 1, "objeto": PHRASE}, ensure_ascii=False), json.dumps({"n": 2})]
    return ("\n".join(lines) + "\n").encode(), "dados.ndjson"


def sample_markdown() -> tuple[bytes, str]:
    return f"# Título\n\n- item um\n- item dois\n\n{PHRASE}\n".encode(), "leia.md"


def sample_ics() -> tuple[bytes, str]:
    text = (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nSUMMARY:Sessão de abertura\r\n"
        f"DESCRIPTION:{PHRASE[:20]}\r\n {PHRASE[20:]}\r\nDTSTART:20240315T100000Z\r\n"
        "END:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    return text.encode(), "agenda.ics"


def sample_vcf() -> tuple[bytes, str]:
    text = f"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Maria Silva\r\nNOTE:{PHRASE}\r\nEND:VCARD\r\n"
    return text.encode(), "contato.vcf"


def sample_eml() -> tuple[bytes, str]:
    message = email.message.EmailMessage()
    message["From"] = "Pregoeiro <pregao@example.org>"
    message["To"] = "fornecedor@example.com"
    message["Subject"] = "Resultado do pregão"
    message["Date"] = "Fri, 15 Mar 2024 10:00:00 -0300"
    message.set_content(f"Prezados,\n\n{PHRASE}\n")
    message.add_attachment(
        b"%PDF-1.4\n%%EOF\n", maintype="application", subtype="pdf", filename="ata.pdf"
    )
    return message.as_bytes(), "mensagem.eml"


def sample_mbox() -> tuple[bytes, str]:
    first, _ = sample_eml()
    second = email.message.EmailMessage()
    second["From"] = "Compras <compras@example.org>"
    second["Subject"] = PHRASE
    second["Date"] = "Sat, 16 Mar 2024 09:00:00 +0000"
    second.set_content("Segunda mensagem\n")
    separator = b"From pregao@example.org Fri Mar 15 10:00:00 2024\n"
    return separator + first + b"\n" + separator + second.as_bytes() + b"\n", "caixa.mbox"


def sample_tnef() -> tuple[bytes, str]:
    return winmail("Resultado do pregão", PHRASE, {"ata.txt": b"Ata da sessao\n"}), "winmail.dat"


def sample_dbf() -> tuple[bytes, str]:
    """A dBASE III table with one character field, code page cp1252 (driver 0x03)."""
    value = PHRASE.encode("cp1252").ljust(40)
    header = struct.pack("<BBBBIHH20x", 3, 124, 3, 15, 1, 32 + 32 + 1, 1 + 40)
    header = header[:29] + b"\x03" + header[30:]
    field = b"OBJETO".ljust(11, b"\x00") + b"C" + b"\x00" * 4 + bytes([40, 0]) + b"\x00" * 14
    return header + field + b"\r" + b" " + value + b"\x1a", "itens.dbf"


def sample_protected() -> tuple[bytes, str]:
    """An encrypted docx with no extension (password 'segredo')."""
    import msoffcrypto.format.ooxml as ooxml

    plain, _ = sample_docx()
    out = io.BytesIO()
    ooxml.OOXMLFile(io.BytesIO(plain)).encrypt("segredo", out)  # type: ignore[arg-type]
    return out.getvalue(), "protegido"
