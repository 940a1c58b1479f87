"""pdf.cjk_mapping: Han text guessed from glyph codes is flagged, real CJK text never is."""

from __future__ import annotations

import pytest
from corpus_runs import extracted, pdf_rows

from goblin_core.model import PageContext
from goblin_core.testing.corpus import contains_phrase, corpus_dir
from goblin_pdf.validators.cjk_mapping import CJKMappingValidator, common_han

CONTEXT = PageContext(number=1, mime="application/pdf", glyphs=1000)

SIMPLIFIED = (
    "我们今天在会议上讨论了明年的预算计划，大家都认为应该增加教育和医疗方面的投入。"
    "会后，财务部门将根据各单位提交的意见修改方案，并在下个月报请理事会审议。"
)
TRADITIONAL = (
    "我們今天在會議上討論了明年的預算計畫，大家都認為應該增加教育與醫療方面的投入。"
    "會後，財務部門將根據各單位提交的意見修改方案，並在下個月報請理事會審議。"
)
CANTONESE = (
    "我哋今日開會傾咗明年嘅預算，大家都覺得應該喺教育同醫療方面加多啲錢。"
    "佢話唔使驚，冇問題嘅。"
)
JAPANESE = (
    "本日の会議では来年度の予算案について話し合い、教育と医療への投資を増やすべきだという"
    "意見が多く出ました。元来日本語は漢文に倣い、文字を上から下へ書いていた。"
)
KOREAN = (
    "오늘 회의에서는 來年度 豫算案에 대해 論議했으며, "
    "敎育과 醫療에 대한 投資를 늘려야 한다는 意見이 많았다."
)


def verdict(text: str) -> tuple[str, tuple[str, ...]]:
    found = CJKMappingValidator().check(text, CONTEXT)
    return found.status, found.reasons


def misread(text: str) -> str:
    """Each Han character swapped for another one, as a font's codes guessed wrong would."""
    first, size = 0x4E00, 0x9FA5 - 0x4E00
    return "".join(chr(first + (ord(c) - first) * 7919 % size) if "\u4e00" <= c <= "\u9fa5"
                   else c for c in text)


@pytest.mark.parametrize("text", [SIMPLIFIED, TRADITIONAL, CANTONESE, JAPANESE, KOREAN],
                         ids=["zh-hans", "zh-hant", "yue", "ja", "ko-hanja"])
def test_real_cjk_text_is_ok(text: str) -> None:
    assert verdict(text)[0] == "ok"


@pytest.mark.parametrize("text", [SIMPLIFIED, TRADITIONAL, JAPANESE],
                         ids=["zh-hans", "zh-hant", "ja"])
def test_every_character_guessed_wrong_is_garbage(text: str) -> None:
    status, reasons = verdict(misread(text))
    assert status == "garbage"
    assert reasons[0] == "cjk_mismapped"


def test_a_cid_font_read_without_its_map() -> None:
    # pdf.pypdfium2's text of a page drawing "ISSUE Date：2019-4-25 Buyer：黎荣".
    status, reasons = verdict("ISSUE Date˖2019-4-25 Buyer˖哾㦓")
    assert status == "garbage"
    assert "stray_modifiers=2" in reasons


def test_one_rare_name_in_real_text_is_ok() -> None:
    assert verdict(f"{SIMPLIFIED}申请人：王㦓哾，联系电话见附件。")[0] == "ok"


def test_two_rare_characters_alone_are_not_enough() -> None:
    assert verdict("Buyer: 哾㦓")[0] == "ok"


def test_phonetic_modifier_letters_next_to_latin_letters_are_not_evidence() -> None:
    text = "Cantonese 㗎 [kʰaː˧] and 㖭 [tʰɐm˥] are rare in print; ʔ and ˈ mark stress."
    assert verdict(text)[0] == "ok"


def test_text_without_han_is_ok() -> None:
    assert verdict("Invoice 2019-4-25, buyer: J. Smith ˈsmɪθ")[0] == "ok"


def test_common_repertoire_has_each_script_s_everyday_characters() -> None:
    common = common_han()
    assert set("的一是不了人在有国們國語嘅咗啲倣漢") <= common
    assert 9000 < len(common) < 14000  # about half of the unified block


@pytest.mark.corpus
def test_pdfium_guess_is_flagged_and_pdfplumber_maps_the_font() -> None:
    corpus_dir(__file__)
    page = extracted("pdf/issue_566_test_1.pdf").pages[0]
    primary = page.attempts[0]
    assert (primary.engine, primary.verdict) == ("pdf.pypdfium2", "garbage")
    assert page.status == "recovered"
    assert contains_phrase(page.text, "黎荣")


@pytest.mark.corpus
def test_corpus_cjk_pages_with_good_text_are_ok() -> None:
    corpus_dir(__file__)
    files = [r.file for r in pdf_rows() if r.features & {"zh", "ja", "ko"}
             and "garbage-text-layer" not in r.features]
    pages = [(f, p.number, p.text) for f in files for p in extracted(f).pages
             if sum("\u4e00" <= c <= "\u9fff" for c in p.text) >= 5]
    assert len(pages) >= 3
    assert [(f, n) for f, n, text in pages if verdict(text)[0] != "ok"] == []
