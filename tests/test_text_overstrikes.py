"""A saved man page reads as the page shows: bold and underlined letters are struck
over through backspaces (``N\\bN``, ``_\\bf``), and were read with the backspaces and
each bold letter twice, so a search for "NAME" or "file" found nothing."""

from __future__ import annotations

from goblin_core import extract, load_registry

CORE_ONLY = load_registry(load=[])

MAN_PAGE = (
    b"LS(1)                     User Commands                    LS(1)\n\n"
    b"N\bNA\bAM\bME\bE\n       ls - list directory contents\n\n"
    b"S\bSY\bYN\bNO\bOP\bPS\bSI\bIS\bS\n"
    b"       l\bls\bs [_\bO_\bP_\bT_\bI_\bO_\bN]... [_\bF_\bI_\bL_\bE]...\n"
)


def test_a_man_page_saved_with_its_overstrikes_reads_as_shown() -> None:
    text = extract(MAN_PAGE, name="ls.txt", registry=CORE_ONLY).text
    assert "\b" not in text
    assert "NAME\n       ls - list directory contents" in text
    assert "SYNOPSIS\n       ls [OPTION]... [FILE]..." in text


def test_a_letter_underlined_after_it_is_written_keeps_the_letter() -> None:
    text = extract(b"see f\b_i\b_l\b_e\b_ here\n", name="note.txt", registry=CORE_ONLY).text
    assert text.strip() == "see file here"
