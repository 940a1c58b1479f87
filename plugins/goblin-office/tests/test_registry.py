"""Conformance: every format goblin-office claims has a fixture that yields a known phrase."""

from __future__ import annotations

from pathlib import Path

import pytest

import samples
from goblin_core import default_registry
from goblin_core.testing.corpus import contains_phrase, corpus_dir, require_binary
from goblin_office import formats as fmt

# MIME -> (builder, phrase) for formats we can write in the test
BUILT = {
    fmt.DOCX: (samples.sample_docx, samples.PHRASE),
    fmt.XLSX: (samples.sample_xlsx, samples.PHRASE),
    fmt.XLSB: (samples.sample_xlsb, samples.PHRASE),
    fmt.PPTX: (samples.sample_pptx, samples.PHRASE),
    fmt.ODT: (samples.sample_odt, samples.PHRASE),
    fmt.ODS: (samples.sample_ods, samples.PHRASE),
    fmt.ODP: (samples.sample_odp, samples.PHRASE),
    fmt.FODT: (samples.sample_fodt, samples.PHRASE),
    fmt.FODS: (samples.sample_fods, samples.PHRASE),
    fmt.FODP: (samples.sample_fodp, samples.PHRASE),
    fmt.ODG: (samples.sample_odg, samples.PHRASE),
    fmt.FODG: (samples.sample_fodg, samples.PHRASE),
    fmt.RTF: (samples.sample_rtf, samples.PHRASE),
    fmt.EPUB: (samples.sample_epub, samples.PHRASE),
    fmt.FICTIONBOOK: (samples.sample_fictionbook, samples.PHRASE),
    fmt.IPYNB: (samples.sample_notebook, samples.PHRASE),
    fmt.EMLX: (samples.sample_emlx, samples.PHRASE),
    fmt.SUBRIP: (samples.sample_srt, samples.PHRASE),
    fmt.WEBVTT: (samples.sample_vtt, samples.PHRASE),
    fmt.SSA: (samples.sample_ass, samples.PHRASE),
    fmt.CSV: (samples.sample_csv, samples.PHRASE),
    fmt.TSV: (samples.sample_tsv, samples.PHRASE),
    fmt.HTML: (samples.sample_html, samples.PHRASE),
    fmt.MHTML: (samples.sample_mhtml, samples.PHRASE),
    fmt.XML: (samples.sample_xml, samples.PHRASE),
    fmt.SVG: (samples.sample_svg, samples.PHRASE),
    fmt.JSON: (samples.sample_json, samples.PHRASE),
    fmt.NDJSON: (samples.sample_ndjson, samples.PHRASE),
    fmt.MARKDOWN: (samples.sample_markdown, samples.PHRASE),
    fmt.ICS: (samples.sample_ics, samples.PHRASE),
    fmt.VCF: (samples.sample_vcf, samples.PHRASE),
    fmt.DBF: (samples.sample_dbf, samples.PHRASE),
    fmt.EML: (samples.sample_eml, samples.PHRASE),
    fmt.TNEF: (samples.sample_tnef, samples.PHRASE),
    fmt.MBOX: (samples.sample_mbox, samples.PHRASE),
    fmt.OOXML_PROTECTED: (samples.sample_protected, samples.PHRASE),
    fmt.FLAT_WORD: (samples.sample_flat_word, samples.PHRASE),
    fmt.FLAT_POWERPOINT: (samples.sample_flat_powerpoint, samples.PHRASE),
    fmt.VSDX: (samples.sample_vsdx, samples.PHRASE),
    fmt.XPS: (samples.sample_xps, samples.PHRASE),
    fmt.WORD_2003: (samples.sample_word2003, samples.PHRASE),
    fmt.SPREADSHEETML_2003: (samples.sample_spreadsheetml2003, samples.PHRASE),
    fmt.WORDPERFECT: (samples.sample_wordperfect, samples.PHRASE),
    fmt.SXW: (samples.sample_sxw, samples.PHRASE),
    fmt.SXC: (samples.sample_sxc, samples.PHRASE),
    fmt.SXI: (samples.sample_sxi, samples.PHRASE),
    fmt.SXD: (samples.sample_sxd, samples.PHRASE),
}

# MIME -> (corpus file, phrase, binary needed) for binary formats no Python library writes
CORPUS = {
    fmt.DOC: ("office/tika-testWORD.doc", "This is a sample Microsoft Word Document.", "antiword"),
    fmt.XLS: ("office/tika-testEXCEL.xls", "Numbers and their Squares", None),
    fmt.PPT: ("office/tika-testPPT.ppt", "Sample Powerpoint Slide", "catppt"),
    fmt.MSG: ("office/test_outlook_msg.msg", "This is the body of the test email message", None),
}

# formats claimed without a fixture, and why
UNCOVERED: dict[str, str] = {}


def _claimed() -> set[str]:
    registry = default_registry()
    return {
        mime
        for entry in registry.engines("parser")
        if entry.name.startswith("office.")
        for mime in entry.formats
    }


def test_every_claimed_format_has_a_fixture() -> None:
    missing = _claimed() - set(BUILT) - set(CORPUS) - set(UNCOVERED)
    assert not missing, f"formats claimed without a fixture: {sorted(missing)}"


@pytest.mark.parametrize("mime", sorted(BUILT))
def test_built_fixture_is_detected_and_read(mime: str, read) -> None:  # type: ignore[no-untyped-def]
    builder, phrase = BUILT[mime]
    data, name = builder()
    options = {"password": "segredo"} if mime == fmt.OOXML_PROTECTED else {}
    document = read(data, name, **options)
    assert document.mime == mime
    assert document.parsed_by[0].startswith("office.")
    assert contains_phrase(document.text, phrase), document.text[:500]


@pytest.mark.corpus
@pytest.mark.parametrize("mime", sorted(CORPUS))
def test_corpus_fixture_is_detected_and_read(mime: str, read) -> None:  # type: ignore[no-untyped-def]
    file, phrase, binary = CORPUS[mime]
    if binary:
        require_binary(binary, "catdoc" if binary == "catppt" else binary)
    path = Path(corpus_dir(__file__)) / file
    document = read(path.read_bytes(), path.name)
    assert document.mime == mime
    assert contains_phrase(document.text, phrase)
