"""The text-layer validators on strings: what they flag, and every guard against false alarms."""

from __future__ import annotations

import hashlib

import pytest

from goblin_core.model import PageContext
from goblin_pdf.options import PDF_OPTIONS
from goblin_pdf.validators.case_breaks import (
    is_alloy_code,
    is_brand,
    is_cipher_token,
    is_number_hybrid,
)
from goblin_pdf.validators.cipher import CipherValidator
from goblin_pdf.validators.fragments import FragmentationValidator
from goblin_pdf.validators.glyph_codes import GlyphCodeValidator, letter_share
from goblin_pdf.validators.words import Dictionary

OPTIONS = {o.name: o.default for o in PDF_OPTIONS}
CONTEXT = PageContext(number=1, mime="application/pdf", glyphs=1000, options=OPTIONS)
PT = Dictionary(("pt", "en"))

PROSE = (
    "A Prefeitura Municipal torna público que realizará licitação na modalidade pregão "
    "presencial para aquisição de materiais de limpeza e higiene destinados às escolas da "
    "rede municipal de ensino, conforme especificações constantes do edital e seus anexos. "
    "Os interessados poderão retirar o edital no setor de compras da prefeitura, em dias "
    "úteis, das oito às dezessete horas, ou solicitar cópia pelo correio eletrônico oficial. "
    "A sessão pública será realizada no dia dezoito do mês corrente, às nove horas, na sala "
    "de reuniões do paço municipal, quando serão recebidos os envelopes com as propostas e os "
    "documentos de habilitação dos licitantes, nos termos da legislação vigente. "
)


def cipher(text: str) -> str:
    return CipherValidator().check(text, CONTEXT).status


def garbage_codes(text: str) -> str:
    return GlyphCodeValidator().check(text, CONTEXT).status


# -- glyph codes ------------------------------------------------------------

def test_glyph_name_tokens_are_garbage() -> None:
    verdict = GlyphCodeValidator().check("/143 /120 /g17 /g18 /uni22 /45 /46 /47 /48 palavra",
                                         CONTEXT)
    assert verdict.status == "garbage" and "glyph_names" in verdict.reasons


def test_a_few_slashes_in_prose_are_not_glyph_names() -> None:
    assert garbage_codes(PROSE + " processo /2020 e lei 8.666/93 art. 24/II") == "ok"


def test_cid_markers_are_garbage() -> None:
    verdict = GlyphCodeValidator().check("(cid:25)(cid:18)(cid:3)(cid:44) (cid:12)", CONTEXT)
    assert verdict.status == "garbage" and "cid_markers" in verdict.reasons


def test_codes_on_punctuation_are_garbage() -> None:
    verdict = GlyphCodeValidator().check('"7+%- #$&* @!" =+ ]|[ }{ ^~ <>', CONTEXT)
    assert verdict.status == "garbage" and "codes_on_punctuation" in verdict.reasons


def test_clean_quantities_table_is_not_garbage() -> None:
    table = "\n".join(
        f"{i:03d} 1.234,56 {i * 7} UN R$ 4.{i:03d},00 12/03/2020 15% (3) -2,5" for i in range(40)
    )
    assert garbage_codes(table) == "ok"
    assert letter_share(table) is None or letter_share(table) >= 0.3


def test_table_of_contents_leaders_are_not_garbage() -> None:
    toc = "\n".join(f"Capítulo {i} . . . . . . . . . . . . . . . . {i * 3}" for i in range(30))
    assert garbage_codes(toc) == "ok"


def test_page_number_alone_is_not_judged() -> None:
    assert letter_share("- 5 -") is None
    assert garbage_codes("182") == "ok"


# -- cipher tokens and their guards -----------------------------------------

@pytest.mark.parametrize("token", ["LICITAgAO", "CONTRATAgAO", "PREGAoPRESENCIAL", "í47.200,04",
                                   "1O.000,00"])
def test_cipher_tokens(token: str) -> None:
    assert is_cipher_token(token, PT.knows)


@pytest.mark.parametrize("token", ["PowerPoint", "YouTube", "iPhone", "eBay", "McDonald"])
def test_camel_case_brands_are_not_cipher(token: str) -> None:
    assert is_brand(token)
    assert not is_cipher_token(token, PT.knows)


@pytest.mark.parametrize("token", ["ENiCrFe", "ERNiCrMo", "NiCrMo", "ENiCu"])
def test_alloy_codes_are_not_cipher(token: str) -> None:
    assert is_alloy_code(token)
    assert not is_cipher_token(token, PT.knows)


def test_two_real_words_glued_are_not_cipher() -> None:
    assert not is_cipher_token("contratoPregão", PT.knows)
    assert not is_cipher_token("licitaçãoEdital", PT.knows)


@pytest.mark.parametrize("token", ["3,5kg", "200m", "2020", "1.234,56", "R$"])
def test_numbers_and_units_are_not_hybrids(token: str) -> None:
    assert not is_number_hybrid(token)


# -- cipher pages -----------------------------------------------------------

#: A font whose accented capitals landed on lowercase letters and two lowercase letters swapped.
SUBSTITUTION = str.maketrans({"Ç": "g", "Ã": "a", "Õ": "o", "É": "e", "Á": "a", "Ó": "o",
                              "Í": "i", "n": "u", "e": "o"})
HEADINGS = (
    "AVISO DE LICITAÇÃO PREGÃO PRESENCIAL CONTRATAÇÃO DE SERVIÇOS INFORMAÇÕES PUBLICAÇÃO "
    "AQUISIÇÃO HOMOLOGAÇÃO ADJUDICAÇÃO EXECUÇÃO DOTAÇÃO ORÇAMENTÁRIA ESPECIFICAÇÕES "
    "CONVOCAÇÃO HABILITAÇÃO PROPOSIÇÃO CONCESSÃO COMISSÃO LICITAÇÕES PÚBLICAS ÍNDICE ÚNICO "
)


def test_substitution_cipher_page_is_garbage() -> None:
    page = (HEADINGS + PROSE * 2).translate(SUBSTITUTION)
    assert "LICITAgaO" in page
    verdict = CipherValidator().check(page, CONTEXT)
    assert verdict.status == "garbage"
    assert "cipher" in verdict.reasons


def test_clean_portuguese_prose_is_ok() -> None:
    assert cipher(PROSE * 3) == "ok"


def test_brands_repeated_in_prose_are_ok() -> None:
    brands = " ".join(["PowerPoint", "YouTube", "iPhone", "JavaScript", "eBay"] * 6)
    assert cipher(PROSE * 2 + brands + PROSE) == "ok"


def test_alloy_catalogue_is_ok() -> None:
    catalogue = " ".join(
        f"Eletrodo {code} diâmetro {d} mm para soldagem de ligas de níquel" for code, d in
        [("ENiCrFe-3", "3,25"), ("ERNiCrMo-3", "2,4"), ("ENiCrMo-4", "4,0"), ("ENiCu-7", "3,2")]
        * 8
    )
    assert cipher(catalogue + PROSE) == "ok"


def test_one_token_dominating_a_window_is_skipped() -> None:
    page = " ".join(["LICITAgAO"] * 150 + PROSE.split()[:60])
    assert cipher(page) == "ok"


def test_table_window_is_skipped() -> None:
    rows = " ".join(f"{i} 1.234,56 R$ 12,00 xY{i} 15%" for i in range(120))
    assert cipher(rows) == "ok"


def test_short_page_gets_a_low_confidence_verdict() -> None:
    verdict = CipherValidator().check("Aviso de licitação pregão presencial", CONTEXT)
    assert verdict.status == "ok" and verdict.low_confidence


def test_raw_codes_on_a_short_page_are_garbage_with_low_confidence() -> None:
    verdict = CipherValidator().check("3HQČåQtSURVWĜHGN\\QD~þWHFK", CONTEXT)
    assert verdict.status == "garbage" and verdict.low_confidence


def test_form_field_names_are_not_raw_codes() -> None:
    """goblin writes a form's values after its page text as "name: value"; field names
    are CamelCase words joined by underscores, not codes read as characters."""
    fields = ("Test Form\nListbox_MultiSelectMultipleMismatch: Alligator\n"
              "Combo_Editable: Banana\nListbox_SingleSelectLastSelected: Saskatchewan\n"
              "Text_FieldWithValue: Epsilon\nCheckBox_CheckedBox: Yes")
    assert CipherValidator().check(fields, CONTEXT).status == "ok"


def test_shifted_codes_are_garbage() -> None:
    shifted = "".join(chr(ord(c) - 29) if c.isalpha() and c.isascii() else c
                      for c in ("Herausgeber Gemeindeverwaltung Schutterwald verantwortlich "
                                "für den Inhalt des amtlichen Teils Bürgermeister Martin ") * 8)
    verdict = CipherValidator().check(shifted, CONTEXT)
    assert verdict.status == "garbage" and "shifted_codes" in verdict.reasons


def test_all_caps_real_text_is_not_shifted_codes() -> None:
    assert cipher(PROSE.upper() * 2) == "ok"


_SERIAL = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"  # no I, O or Q: they pass for 1 and 0


def _codes(alphabet: str, length: int, count: int) -> list[str]:
    import random

    draw = random.Random(7)
    return ["".join(draw.choice(alphabet) for _ in range(length)) for _ in range(count)]


@pytest.mark.parametrize("lines", [
    # checksums of release files
    [f"{hashlib.sha256(str(n).encode()).hexdigest()}  goblin-1.{n}.tar.gz" for n in range(40)],
    # a vehicle register: 17-character identification numbers
    [f"{n:2d}  {code}" for n, code in enumerate(_codes(_SERIAL, 17, 45))],
    # part numbers in capitals
    [f"{code}  {n} un" for n, code in enumerate(_codes(_SERIAL + "Q", 9, 60))],
])
def test_a_page_of_codes_written_out_is_not_shifted_codes(lines: list[str]) -> None:
    assert cipher("Register\n" + "\n".join(lines)) == "ok"


def test_shifted_codes_with_digits_and_spaces_shifted_too_are_garbage() -> None:
    # an identity font read with codes 29 below: digits and the space become controls
    written = ("Freitag, 31. Januar 2025 Schutterwald aktuell Ausgabe 1234 Gemeinde 77746 "
               "Telefon 07821 Herausgeber Gemeindeverwaltung Schutterwald ") * 6
    verdict = CipherValidator().check("".join(chr(ord(c) - 29) for c in written), CONTEXT)
    assert verdict.status == "garbage" and "shifted_codes" in verdict.reasons


def _run_together_codes(text: str, distance: int = 29) -> str:
    """``text`` as an identity font in the Macintosh glyph order reads: codes 29 below the
    characters, and no spaces."""
    return "".join(chr(ord(c) - distance) for c in text if c != " ")


def test_words_run_together_in_shifted_codes_beside_readable_text_are_garbage() -> None:
    page = PROSE + "\n" + _run_together_codes(PROSE) + "\n" + PROSE
    verdict = CipherValidator().check(page, CONTEXT)
    assert verdict.status == "garbage" and "shifted_runs" in verdict.reasons
    assert verdict.score < 0.3


@pytest.mark.parametrize("distance", [28, 30, 31])
def test_run_together_codes_of_a_font_a_glyph_or_two_off_are_garbage(distance: int) -> None:
    page = PROSE + "\n" + _run_together_codes(PROSE, distance) + "\n" + PROSE
    verdict = CipherValidator().check(page, CONTEXT)
    assert verdict.status == "garbage" and "shifted_runs" in verdict.reasons


@pytest.mark.parametrize("token", [
    "https://example.org/licitacoes/pregao-presencial/edital-2020-anexo-unico.pdf",
    "dGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZyBhbmQgbW9yZQ==",
    "9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08",
    "RECHTSSCHUTZVERSICHERUNGSGESELLSCHAFTEN",
    "AVISODELICITACAOPREGAOPRESENCIALCONTRATACAODESERVICOS",
    "ACGTTGCAAGCTTAGGCTAACGGTTACGATCGATCGGCTAAGCTTGACG",
    "Donaudampfschifffahrtsgesellschaftskapitänswitwe",
])
def test_long_tokens_that_are_not_shifted_prose_are_ok(token: str) -> None:
    page = PROSE + "\n" + " ".join([token] * 12) + "\n" + PROSE
    assert cipher(page) == "ok"


def test_a_few_shifted_words_on_a_long_page_are_ok() -> None:
    page = PROSE * 4 + _run_together_codes("licitação na modalidade pregão presencial")
    assert cipher(page) == "ok"


# -- fragmentation ----------------------------------------------------------

def test_letters_spaced_out_are_fragmented() -> None:
    spaced = " ".join(" ".join(word) for word in
                      ["LICITAÇÃO", "CONTRATO", "PREFEITURA", "MUNICIPAL", "EDITAL"] * 4)
    verdict = FragmentationValidator().check(spaced, CONTEXT)
    assert verdict.status == "garbage" and "fragmented" in verdict.reasons


def test_one_spaced_title_on_a_prose_page_is_ok() -> None:
    page = "L I C I T A Ç Ã O\n" + PROSE * 2
    assert FragmentationValidator().check(page, CONTEXT).status == "ok"


def test_short_words_in_a_row_are_not_fragments() -> None:
    page = (PROSE + " e o de a se em um " * 3) * 2
    assert FragmentationValidator().check(page, CONTEXT).status == "ok"


def test_word_lists_read_line_by_line_match_json() -> None:
    import gzip
    import json
    import pkgutil

    from goblin_pdf.validators.words import _keys, _word_list

    packed = pkgutil.get_data("spellchecker", "resources/es.json.gz")
    assert packed is not None
    counts = json.loads(gzip.decompress(packed))
    assert _word_list("es") == frozenset(word.lower() for word in counts)
    # escapes, several entries on a line, a key with a line break: json.loads reads it
    escaped = '{"\\u00c9TAT": 1, "Cafe\\u0301": 2,\n"a\\nb": 3}'.lower()
    assert _keys(escaped) == ["état", "café"]
    assert _keys('{\n"água": 12,\n"Ônibus": 3\n}'.lower()) == ["água", "ônibus"]
