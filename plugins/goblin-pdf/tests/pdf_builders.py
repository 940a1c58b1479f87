"""Small PDFs built inside the tests: broken fonts, encryption, many pages."""

from __future__ import annotations

import io
import zlib
from pathlib import Path
from typing import Any

import pikepdf
from pikepdf import Array, Dictionary, Name, String

PROSE_LINES = (
    "A Prefeitura Municipal torna público que realizará licitação na modalidade pregão",
    "presencial para aquisição de materiais de limpeza e higiene destinados às escolas da",
    "rede municipal de ensino, conforme especificações constantes do edital e seus anexos.",
    "Os interessados poderão retirar o edital no setor de compras da prefeitura, em dias",
    "úteis, das oito às dezessete horas, ou solicitar cópia pelo correio eletrônico oficial.",
    "A sessão pública será realizada no dia dezoito do mês corrente, às nove horas, na sala",
    "de reuniões do paço municipal, quando serão recebidos os envelopes com as propostas e os",
    "documentos de habilitação dos licitantes, nos termos da legislação vigente aplicável.",
    "AVISO DE LICITAÇÃO PREGÃO PRESENCIAL CONTRATAÇÃO DE SERVIÇOS INFORMAÇÕES PUBLICAÇÃO",
    "AQUISIÇÃO HOMOLOGAÇÃO ADJUDICAÇÃO EXECUÇÃO DOTAÇÃO ORÇAMENTÁRIA ESPECIFICAÇÕES",
    "CONVOCAÇÃO HABILITAÇÃO PROPOSIÇÃO CONCESSÃO COMISSÃO LICITAÇÕES PÚBLICAS ÍNDICE",
    "Valor global estimado de R$ 147.200,04 para o exercício de 2020, dotação 3.3.90.30.",
)


def dejavu_sans() -> str:
    """DejaVu Sans (Latin, Greek, Cyrillic, Hebrew and Arabic glyphs) registered with
    reportlab: the font's name there."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    from goblin_core.testing.corpus import skip_or_fail

    for folder in ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu"):
        path = Path(folder) / "DejaVuSans.ttf"
        if path.is_file():
            pdfmetrics.registerFont(TTFont("DejaVuSans", str(path)))
            return "DejaVuSans"
    skip_or_fail("DejaVu Sans not found: apt-get install fonts-dejavu-core")
    return ""


def square_glyph_font(chars: str, name: str = "GoblinSquares") -> str:
    """A TrueType font drawing every character of ``chars`` as a square an em wide,
    built with fontTools and registered with reportlab (which embeds it with a ToUnicode
    map): text in any script without a system font for it. The font's name there."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    def square() -> Any:
        pen = TTGlyphPen(None)
        pen.moveTo((100, -50))
        pen.lineTo((100, 800))
        pen.lineTo((900, 800))
        pen.lineTo((900, -50))
        pen.closePath()
        return pen.glyph()

    # reportlab keeps a font by its name: one name per set of characters
    name = f"{name}{zlib.crc32(chars.encode()):08x}"
    glyphs = {f"uni{ord(char):04X}": ord(char) for char in sorted(set(chars))}
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder([".notdef", "space", *glyphs])
    builder.setupCharacterMap({32: "space", **{code: glyph for glyph, code in glyphs.items()}})
    builder.setupGlyf({".notdef": TTGlyphPen(None).glyph(), "space": TTGlyphPen(None).glyph(),
                       **{glyph: square() for glyph in glyphs}})
    builder.setupHorizontalMetrics({".notdef": (500, 0), "space": (500, 0),
                                    **{glyph: (1000, 100) for glyph in glyphs}})
    builder.setupHorizontalHeader(ascent=880, descent=-120)
    builder.setupNameTable({"familyName": name, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120)
    builder.setupPost()
    out = io.BytesIO()
    builder.save(out)
    out.seek(0)
    pdfmetrics.registerFont(TTFont(name, out))
    return name


def _vera() -> Path:
    import reportlab

    return Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"


def identity_font_pdf(lines: tuple[str, ...] = PROSE_LINES * 2,
                      plain_lines: tuple[str, ...] = (), *, font_cmap: bool = True,
                      glyph_shift: int = 0, glyph_of: dict[int, int] | None = None) -> bytes:
    """A page set in an embedded TrueType font, Identity-H, without a ToUnicode map,
    then ``plain_lines`` in Helvetica below it.

    The codes in the content stream are glyph ids. PDFium reads them as if they
    were characters (Vera's glyphs are in the Macintosh order: each letter 29
    below its character, and the space, glyph 3, dropped); pdfminer maps them
    back through the font's own cmap table. ``font_cmap=False`` takes that table
    out of the font program, so nothing in the file names a glyph; ``glyph_shift``
    moves every code as a font with one glyph more (or less) before its letters
    would; ``glyph_of`` numbers the characters another way (a renumbering subset).
    """
    from reportlab.pdfbase.ttfonts import TTFontFile

    ttf_bytes = _vera().read_bytes() if font_cmap else _without_cmap(_vera())
    if glyph_of is None:
        glyph_of = {char: glyph + glyph_shift
                    for char, glyph in TTFontFile(str(_vera())).charToGlyph.items()}
    pdf = pikepdf.new()
    font_file = pdf.make_stream(ttf_bytes, Length1=len(ttf_bytes))
    descriptor = Dictionary(Type=Name.FontDescriptor, FontName=Name("/Vera"), Flags=32,
                            FontBBox=Array([-183, -236, 1287, 928]), ItalicAngle=0, Ascent=928,
                            Descent=-236, CapHeight=729, StemV=80, FontFile2=font_file)
    descendant = Dictionary(
        Type=Name.Font, Subtype=Name.CIDFontType2, BaseFont=Name("/Vera"),
        CIDSystemInfo=Dictionary(Registry="Adobe", Ordering="Identity", Supplement=0),
        FontDescriptor=pdf.make_indirect(descriptor), CIDToGIDMap=Name.Identity, DW=600,
    )
    font = Dictionary(Type=Name.Font, Subtype=Name.Type0, BaseFont=Name("/Vera"),
                      Encoding=Name("/Identity-H"),
                      DescendantFonts=Array([pdf.make_indirect(descendant)]))
    commands = []
    for index, line in enumerate(lines):
        codes = "".join(f"{glyph_of.get(ord(c), 0):04X}" for c in line)
        commands.append(f"BT /F1 9 Tf 40 {800 - 16 * index} Td <{codes}> Tj ET")
    for index, line in enumerate(plain_lines, start=len(lines)):
        text = line.encode("cp1252").hex().upper()
        commands.append(f"BT /F2 9 Tf 40 {800 - 16 * index} Td <{text}> Tj ET")
    helvetica = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica,
                           Encoding=Name.WinAnsiEncoding)
    page = pdf.add_blank_page(page_size=(595, 842))
    page.Resources = Dictionary(Font=Dictionary(F1=pdf.make_indirect(font),
                                                F2=pdf.make_indirect(helvetica)))
    page.Contents = pdf.make_stream("\n".join(commands).encode("ascii"))
    return _save(pdf)


def mac_cmap_font_pdf(lines: tuple[str, ...] = PROSE_LINES) -> bytes:
    """``lines`` in Windows' code page, drawn in a simple TrueType font as Ghostscript
    rewrites one: no /Encoding, no ToUnicode map, flagged symbolic, its program holding
    only a Macintosh cmap and a (3,0) symbol cmap from the codes to the glyphs, and no
    glyph names. PDFium reads the codes as Mac Roman (``licitaÁ„o``); pdftotext and
    pdfminer read them right."""
    from fontTools.ttLib import TTFont, newTable
    from fontTools.ttLib.tables._c_m_a_p import cmap_format_4, cmap_format_6

    program = TTFont(str(_vera()))
    by_unicode = program.getBestCmap()
    glyph_of = {code: by_unicode[ord(char)] for code in range(0x20, 0x100)
                if (char := bytes([code]).decode("cp1252", errors="ignore"))
                and ord(char) in by_unicode}
    mac = cmap_format_6(6)
    mac.platformID, mac.platEncID, mac.language, mac.cmap = 1, 0, 0, dict(glyph_of)
    symbol = cmap_format_4(4)
    symbol.platformID, symbol.platEncID, symbol.language = 3, 0, 0
    symbol.cmap = {0xF000 + code: glyph for code, glyph in glyph_of.items()}
    program["cmap"] = newTable("cmap")
    program["cmap"].tableVersion, program["cmap"].tables = 0, [mac, symbol]
    program["post"].formatType = 3.0
    out = io.BytesIO()
    program.save(out)
    pdf = pikepdf.new()
    font_file = pdf.make_stream(out.getvalue(), Length1=len(out.getvalue()))
    descriptor = Dictionary(Type=Name.FontDescriptor, FontName=Name("/GBLNAA+Vera"), Flags=4,
                            FontBBox=Array([-183, -236, 1287, 928]), ItalicAngle=0, Ascent=928,
                            Descent=-236, CapHeight=729, StemV=80, FontFile2=font_file)
    font = Dictionary(Type=Name.Font, Subtype=Name.TrueType, BaseFont=Name("/GBLNAA+Vera"),
                      FirstChar=32, LastChar=255, Widths=Array([600] * 224),
                      FontDescriptor=pdf.make_indirect(descriptor))
    page = pdf.add_blank_page(page_size=(595, 842))
    page.Resources = Dictionary(Font=Dictionary(F1=pdf.make_indirect(font)))
    page.Contents = pdf.make_stream("\n".join(
        f"BT /F1 9 Tf 40 {800 - 16 * index} Td <{line.encode('cp1252').hex().upper()}> Tj ET"
        for index, line in enumerate(lines)).encode("ascii"))
    return _save(pdf)


def _without_cmap(path: Path) -> bytes:
    from fontTools.ttLib import TTFont

    font = TTFont(str(path))
    del font["cmap"]
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def reportlab_pdf(lines: tuple[str, ...] = PROSE_LINES, pages: int = 1, **encrypt: str) -> bytes:
    """A plain Helvetica PDF from reportlab; ``encrypt`` takes userPassword/ownerPassword."""
    from reportlab.lib.pdfencrypt import StandardEncryption
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    encryption = StandardEncryption(encrypt["user"], encrypt.get("owner", "owner"),
                                    strength=128) if "user" in encrypt else None
    canvas = Canvas(out, encrypt=encryption)
    for _ in range(pages):
        canvas.setFont("Helvetica", 9)
        for index, line in enumerate(lines):
            canvas.drawString(40, 800 - 14 * index, line)
        canvas.showPage()
    canvas.save()
    return out.getvalue()


def substituted_font_pdf(swaps: dict[str, str]) -> bytes:
    """The reportlab page with a ToUnicode map that sends some glyphs to the wrong letters.

    The page still shows the right text; every engine that trusts ToUnicode
    (all of them) reads ``LICITAgAO`` and ``R$ í47.200,04``.
    """
    pdf = pikepdf.open(io.BytesIO(reportlab_pdf()))
    entries = []
    for code in range(0x20, 0x100):
        char = bytes([code]).decode("cp1252", errors="ignore")
        if not char:
            continue
        target = swaps.get(char, char)
        entries.append(f"<{code:02X}> <{ord(target):04X}>")
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Goblin-Test-UCS def /CMapType 2 def\n"
        "1 begincodespacerange <00> <FF> endcodespacerange\n"
        + "".join(
            f"{len(chunk)} beginbfchar\n" + "\n".join(chunk) + "\nendbfchar\n"
            for chunk in (entries[i:i + 100] for i in range(0, len(entries), 100))
        )
        + "endcmap CMapName currentdict /CIDInit defineresource pop end end\n"
    )
    for page in pdf.pages:
        for _, font in page.Resources.Font.items():
            font.ToUnicode = pdf.make_stream(cmap.encode("ascii"))
    return _save(pdf)


def many_pages_pdf(count: int) -> bytes:
    """``count`` pages, each with a few lines of text, sharing one font and one content stream."""
    pdf = pikepdf.open(io.BytesIO(reportlab_pdf(PROSE_LINES[:6])))
    first = pdf.pages[0]
    for _ in range(count - 1):
        pdf.pages.append(first)
    return _save(pdf)


def helvetica_pages(*contents: str, size: tuple[int, int] = (595, 842)) -> pikepdf.Pdf:
    """A new PDF of one page per content stream, each with Helvetica as /F1: the start of
    a fixture that then adds annotations, forms or an outline before ``saved``."""
    return standard_font_pages(*(content.encode("latin-1") for content in contents), size=size,
                               fonts={"F1": "Helvetica"}, encoding=None)


def standard_font_pages(*contents: bytes, size: tuple[int, int] = (595, 842),
                        fonts: dict[str, str] | None = None,
                        encoding: str | None = "WinAnsiEncoding") -> pikepdf.Pdf:
    """A new PDF of one page per content stream, each with the standard fonts ``fonts``
    (resource name -> base font; Times-Roman as /F1 by default) in ``encoding``."""
    pdf = pikepdf.new()
    resources = pikepdf.Dictionary()
    for name, base in (fonts or {"F1": "Times-Roman"}).items():
        font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                  BaseFont=pikepdf.Name("/" + base))
        if encoding:
            font.Encoding = pikepdf.Name("/" + encoding)
        resources[pikepdf.Name("/" + name)] = pdf.make_indirect(font)
    for content in contents:
        page = pdf.add_blank_page(page_size=size)
        page.Resources = pikepdf.Dictionary(Font=resources)
        page.Contents = pdf.make_stream(content)
    return pdf


def saved(pdf: pikepdf.Pdf) -> bytes:
    """The PDF's bytes."""
    return _save(pdf)


def _save(pdf: pikepdf.Pdf) -> bytes:
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def standard_cjk_font_pdf(cids: tuple[int, ...], lines: int = 12,
                          columns: bool = False) -> bytes:
    """A page drawn in Ryumin-Light, one of the standard Japanese fonts a PDF may use
    without embedding: Identity-H codes are Adobe-Japan1 CIDs, and there is no ToUnicode.
    Readers with the Adobe-Japan1 maps (pdfminer, Poppler) read it; PDFium has none."""
    pdf = pikepdf.new()
    add_standard_cjk_text(pdf, pdf.add_blank_page(page_size=(595, 842)), cids, lines,
                          columns=columns)
    return _save(pdf)


def add_standard_cjk_text(pdf: pikepdf.Pdf, page: pikepdf.Page, cids: tuple[int, ...],
                          lines: int, top: int = 800, columns: bool = False) -> None:
    """``lines`` lines of ``cids`` in Ryumin-Light (see ``standard_cjk_font_pdf``) drawn on
    ``page`` from ``top`` down, one text object per glyph as typesetting software often
    writes Japanese; with ``columns``, set vertically (Identity-V) instead, one text object
    per column, the columns from the right edge leftwards."""
    descendant = Dictionary(
        Type=Name.Font, Subtype=Name.CIDFontType0, BaseFont=Name("/Ryumin-Light"),
        CIDSystemInfo=Dictionary(Registry="Adobe", Ordering="Japan1", Supplement=2),
        FontDescriptor=pdf.make_indirect(Dictionary(
            Type=Name.FontDescriptor, FontName=Name("/Ryumin-Light"), Flags=6,
            FontBBox=Array([-170, -331, 1024, 903]), ItalicAngle=0, Ascent=723,
            Descent=-241, CapHeight=709, StemV=69)),
        DW=1000,
    )
    font = Dictionary(Type=Name.Font, Subtype=Name.Type0, BaseFont=Name("/Ryumin-Light"),
                      Encoding=Name("/Identity-V" if columns else "/Identity-H"),
                      DescendantFonts=Array([pdf.make_indirect(descendant)]))
    if columns:
        column = "".join(f"{cid:04X}" for cid in cids)
        commands = [f"BT /Ryumin 12 Tf {550 - 20 * line} {top} Td <{column}> Tj ET"
                    for line in range(lines)]
    else:
        commands = [f"BT /Ryumin 12 Tf {40 + 14 * k} {top - 20 * line} Td <{cid:04X}> Tj ET"
                    for line in range(lines) for k, cid in enumerate(cids)]
    resources = page.obj.get("/Resources") or Dictionary()
    fonts = resources.get("/Font") or Dictionary()
    fonts.Ryumin = pdf.make_indirect(font)
    resources.Font = fonts
    page.obj.Resources = resources
    page.contents_add(pdf.make_stream("\n".join(commands).encode("ascii")))


def readable_and_standard_cjk_pdf(readable_lines: int, cids: tuple[int, ...],
                                  unread_lines: int, columns: bool = False) -> bytes:
    """A page with ``readable_lines`` of hiragana in an embedded font PDFium reads, then
    ``unread_lines`` of ``cids`` in the standard Ryumin-Light it cannot (set in vertical
    ``columns`` under the readable lines when asked)."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    letters = "あいうえお"
    names = [".notdef", *(f"kana{k}" for k in range(len(letters)))]
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({ord(c): f"kana{k}" for k, c in enumerate(letters)})
    pen = TTGlyphPen(None)  # every glyph a plain square: only the cmap matters here
    pen.moveTo((100, 0))
    for corner in ((100, 800), (900, 800), (900, 0)):
        pen.lineTo(corner)
    pen.closePath()
    box = pen.glyph()
    builder.setupGlyf({name: box for name in names})
    builder.setupHorizontalMetrics({name: (1000, 100) for name in names})
    builder.setupHorizontalHeader(ascent=880, descent=-120)
    builder.setupNameTable({"familyName": "GoblinKana", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=880, usWinAscent=880, usWinDescent=120)
    builder.setupPost()
    font_file = io.BytesIO()
    builder.save(font_file)
    font_file.seek(0)
    pdfmetrics.registerFont(TTFont("GoblinKana", font_file))
    out = io.BytesIO()
    drawing = canvas.Canvas(out, pagesize=(595, 842))
    drawing.setFont("GoblinKana", 10)
    for line in range(readable_lines):
        drawing.drawString(40, 820 - 12 * line, letters * 2)
    drawing.save()
    pdf = pikepdf.open(io.BytesIO(out.getvalue()))
    add_standard_cjk_text(pdf, pdf.pages[0], cids, unread_lines,
                          top=800 - 12 * readable_lines, columns=columns)
    return _save(pdf)


def chromium_pdf(body: str, folder: Path, size: str = "12pt") -> bytes:
    """``body`` (HTML) in DejaVu Sans of ``size``, printed to PDF by headless Chromium, as
    a browser's "Save as PDF" writes web pages: Skia places every glyph with a move of
    its own, and tags the page."""
    import subprocess

    from goblin_core.testing.corpus import require_binary

    chromium = require_binary("chromium", "chromium")
    page, pdf = folder / "page.html", folder / "page.pdf"
    page.write_text('<html><head><meta charset="utf-8"></head>'
                    f'<body style="font-family: DejaVu Sans; font-size: {size}; margin: 40px">'
                    f"{body}</body></html>", encoding="utf-8")
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update",
                    f"--user-data-dir={folder / 'profile'}", "--no-pdf-header-footer",
                    f"--print-to-pdf={pdf}", page.as_uri()],
                   capture_output=True, timeout=120, check=True)
    return pdf.read_bytes()


def wkhtmltopdf_pdf(body: str, folder: Path, width: str = "260px") -> bytes:
    """``body`` (HTML, English) in DejaVu Sans 12pt, ``width`` wide, printed to PDF by
    wkhtmltopdf (Qt WebKit), as report and invoice generators write: every glyph drawn
    with a Tj of its own, a line's text in one upside-down text matrix."""
    import os
    import subprocess

    from goblin_core.testing.corpus import require_binary

    wkhtmltopdf = require_binary("wkhtmltopdf", "wkhtmltopdf")
    page, pdf = folder / "page.html", folder / "page.pdf"
    page.write_text('<html lang="en"><head><meta charset="utf-8"></head>'
                    '<body style="font-family: DejaVu Sans; font-size: 12pt; '
                    f'width: {width}">{body}</body></html>', encoding="utf-8")
    subprocess.run([wkhtmltopdf, "--quiet", str(page), str(pdf)], capture_output=True,
                   timeout=120, check=True, env={**os.environ, "XDG_RUNTIME_DIR": str(folder)})
    return pdf.read_bytes()


def with_note_and_outline(data: bytes, note: str, bookmark: str,
                          fields: dict[str, str] | None = None) -> bytes:
    """``data`` with a sticky note (by ``Ann``) and a text field for each of ``fields``
    (name: value) on its first page, and one outline entry leading to that page."""
    pdf = pikepdf.open(io.BytesIO(data))
    page = pdf.pages[0]
    annotations = [pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Text, Rect=[300, 650, 320, 670],
        Contents=String(note), T=String("Ann")))]
    widgets = [pdf.make_indirect(Dictionary(
        Type=Name.Annot, Subtype=Name.Widget, FT=Name.Tx, T=String(name), V=String(value),
        Rect=[50, 50 + 30 * index, 250, 70 + 30 * index], P=page.obj))
        for index, (name, value) in enumerate((fields or {}).items())]
    page.obj.Annots = Array(annotations + widgets)
    if widgets:
        pdf.Root.AcroForm = Dictionary(Fields=Array(widgets))
    outlines = pdf.make_indirect(Dictionary(Type=Name.Outlines))
    entry = pdf.make_indirect(Dictionary(Title=String(bookmark), Parent=outlines,
                                         Dest=[page.obj, Name.Fit]))
    outlines.First = outlines.Last = entry
    outlines.Count = 1
    pdf.Root.Outlines = outlines
    return _save(pdf)
