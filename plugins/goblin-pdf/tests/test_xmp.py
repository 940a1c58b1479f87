"""A PDF whose title and author are only in its XMP packet (as PDF 2.0 writes them)."""

from __future__ import annotations

import io
import zlib

import pikepdf
import pytest
from pdf_builders import reportlab_pdf

from goblin_core import extract

ENGINES = ("pdf.pypdfium2", "pdf.pypdf")

PACKET = """<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF
  xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
  xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
  xmlns:xmp="http://ns.adobe.com/xap/1.0/">
<rdf:Description rdf:about="" pdf:Producer="Acme Writer 2.0"
  xmp:CreateDate="2024-03-01T09:30:00+01:00">
  <dc:title><rdf:Alt>
    <rdf:li xml:lang="pt-BR">Edital de licitação</rdf:li>
    <rdf:li xml:lang="x-default">Call for tenders</rdf:li>
  </rdf:Alt></dc:title>
  <dc:creator><rdf:Seq><rdf:li>Ana Lima</rdf:li><rdf:li>Rui Costa</rdf:li></rdf:Seq></dc:creator>
  <dc:language><rdf:Bag><rdf:li>pt-BR</rdf:li></rdf:Bag></dc:language>
</rdf:Description>
<rdf:Description rdf:about="">
  <xmp:CreatorTool>Acme Designer</xmp:CreatorTool>
</rdf:Description>
</rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>"""


def _pdf(packet: str | bytes | None, *, info: dict[str, str] | None = None,
         compress: bool = False, **encrypt: str) -> bytes:
    """The test PDF with no information dictionary (or ``info``) and ``packet`` as the
    catalog's /Metadata."""
    pdf = pikepdf.open(io.BytesIO(reportlab_pdf()))
    del pdf.trailer["/Info"]
    if info:
        pdf.trailer.Info = pdf.make_indirect(pikepdf.Dictionary(
            {f"/{k}": pikepdf.String(v) for k, v in info.items()}))
    if packet is not None:
        data = packet.encode() if isinstance(packet, str) else packet
        stream = pikepdf.Stream(pdf, data)
        stream.Type = pikepdf.Name.Metadata
        stream.Subtype = pikepdf.Name.XML
        if compress:
            stream.write(zlib.compress(data), filter=pikepdf.Name.FlateDecode)
        pdf.Root.Metadata = pdf.make_indirect(stream)
    return _saved(pdf, **encrypt)


def _saved(pdf: pikepdf.Pdf, **encrypt: str) -> bytes:
    """The PDF's bytes, its packet as written (pikepdf would otherwise parse it to stamp
    the PDF version in)."""
    out = io.BytesIO()
    pdf.save(out, fix_metadata_version=False,
             encryption=pikepdf.Encryption(owner="owner", **encrypt) if encrypt else None)
    return out.getvalue()


def _only(engine: str) -> dict[str, dict[str, bool]]:
    return {name: {"enabled": name == engine} for name in ENGINES}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("compress", [False, True], ids=["plain", "flate"])
def test_the_packet_gives_what_no_information_dictionary_says(engine: str,
                                                              compress: bool) -> None:
    document = extract(_pdf(PACKET, compress=compress), ocr="never", engines=_only(engine))
    assert document.parsed_by[0] == engine
    metadata = document.metadata
    assert metadata["title"] == "Call for tenders"
    assert metadata["author"] == "Ana Lima; Rui Costa"
    assert metadata["created"] == "2024-03-01T09:30:00+01:00"
    assert metadata["language"] == "pt-BR"
    raw = document.raw_metadata
    assert raw["producer"] == "Acme Writer 2.0" and raw["creator"] == "Acme Designer"
    assert raw["xmp"]["title"] == "Call for tenders"
    assert "Prefeitura Municipal" in document.text


@pytest.mark.parametrize("engine", ENGINES)
def test_the_information_dictionary_wins_and_the_packet_fills_what_it_lacks(
    engine: str
) -> None:
    named = extract(_pdf(PACKET, info={"Title": "Edital 12/2024"}), ocr="never",
                    engines=_only(engine))
    assert named.metadata["title"] == "Edital 12/2024"
    # the dictionary names no author: the packet's is read, as Tika reads it
    assert named.metadata["author"] == "Ana Lima; Rui Costa"
    assert named.raw_metadata["xmp"]["title"] == "Call for tenders"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_dictionary_naming_title_and_author_spares_the_packet(engine: str) -> None:
    named = extract(_pdf(PACKET, info={"Title": "Edital 12/2024", "Author": "Prefeitura"}),
                    ocr="never", engines=_only(engine))
    assert (named.metadata["title"], named.metadata["author"]) == ("Edital 12/2024",
                                                                  "Prefeitura")
    # the file is not opened a second time for its packet
    assert "xmp" not in named.raw_metadata and "language" not in named.metadata


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("packet", [
    PACKET[:400],  # cut short
    b"\xff\xfe not xml at all \x00\x01",
    # entities are refused, not expanded
    '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    + PACKET.split("?>", 1)[1].replace("Call for tenders", "&b;"),
    # a title of a million characters is no title
    PACKET.replace("Call for tenders", "x" * 1_000_000),
], ids=["truncated", "binary", "entities", "huge-value"])
def test_a_bad_packet_costs_only_itself(engine: str, packet: str | bytes) -> None:
    document = extract(_pdf(packet), ocr="never", engines=_only(engine))
    assert "Prefeitura Municipal" in document.text
    assert document.metadata.get("title") != "x" * 1_000_000
    assert "aaaaaaaaaa" not in str(document.raw_metadata)
    assert not document.report.errors


@pytest.mark.parametrize("engine", ENGINES)
def test_an_encrypted_packet_is_read_with_the_password(engine: str) -> None:
    data = _pdf(PACKET, user="s3cret")
    document = extract(data, ocr="never", engines=_only(engine), password="s3cret")
    assert document.metadata["title"] == "Call for tenders"
    assert "Prefeitura Municipal" in document.text


def test_a_packet_that_is_not_a_stream_is_passed_over() -> None:
    pdf = pikepdf.open(io.BytesIO(_pdf(None)))
    pdf.Root.Metadata = pikepdf.String("not a stream")
    for engine in ENGINES:
        document = extract(_saved(pdf), ocr="never", engines=_only(engine))
        assert "title" not in document.metadata and "xmp" not in document.raw_metadata
        assert "Prefeitura Municipal" in document.text
