"""Word 97-2003 stories antiword leaves out: a short document it refuses, its comments.

antiword will not handle a WordDocument stream under 4 kB, kept in the compound file's
mini stream ("the text stream of this file is too small to handle"), as of a one-page
letter; catdoc, next in the chain, dropped a paragraph ending at a section break or
comment mark and printed the headers as body text. Such a file's stories are now read
from its piece table: body (table cells tab-separated, field results without their
instructions), footnotes, comments, headers and footers. antiword prints no comments:
they are read from the comments story, with their authors, for every file it reads.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

from packages import compound_file, libreoffice_saved

from goblin_core import Document
from goblin_core.testing.corpus import corpus_dir, require_binary

Read = Callable[..., Document]

_TEXT_AT = 2048


def _word97(stories: list[str]) -> bytes:
    """A Word 97 file whose stories (body, footnotes, headers, macros, comments, endnotes,
    text boxes, header text boxes) are the given texts in UTF-16, one piece for all."""
    stories = [*stories, *[""] * (8 - len(stories))]
    text = "".join(stories)
    word = bytearray(_TEXT_AT) + text.encode("utf-16-le")
    struct.pack_into("<HH", word, 0, 0xA5EC, 0xC1)  # wIdent, nFib of Word 97
    struct.pack_into("<H", word, 0x0A, 0x0200)  # the table stream is 1Table
    struct.pack_into("<8i", word, 0x4C, *(len(s) for s in stories))
    plc = struct.pack("<2i", 0, len(text)) + struct.pack("<HIH", 0, _TEXT_AT, 0)
    clx = b"\x02" + struct.pack("<I", len(plc)) + plc
    struct.pack_into("<II", word, 0x1A2, 0, len(clx))  # fcClx, lcbClx
    return compound_file({"WordDocument": bytes(word), "1Table": clx})


_BODY = ("Carta de apresentação\x05\x0c"  # a comment mark, then a section break
         "Prezada senhora,\r"
         "Item\x07Valor\x07\x07"  # a table row: two cells and the row's mark
         "\x13 HYPERLINK \"http://exemplo\" \x14o nosso sítio\x15 tem mais.\x02\r")


def test_the_stories_are_read_from_the_piece_table() -> None:
    from goblin_office.wordbinary import document_stories

    data = _word97([_BODY, "\x02Nota de rodapé.\r", "Cabeçalho\r\r", "",
                    "\x05Revisar o valor.\r", "\x02Nota final.\r", "Caixa de texto\r"])
    assert document_stories(data) == {
        "body": ["Carta de apresentação", "Prezada senhora,", "Item\tValor",
                 "o nosso sítio tem mais."],
        "footnotes": ["Nota de rodapé."],
        "comments": ["Revisar o valor."],
        "endnotes": ["Nota final."],
        "text boxes": ["Caixa de texto"],
    }


def test_a_repeated_paragraph_is_read_each_time() -> None:
    from goblin_office.wordbinary import document_stories

    stories = document_stories(_word97(["Assinatura\rTexto\rAssinatura\r"]))
    assert stories == {"body": ["Assinatura", "Texto", "Assinatura"]}


def test_a_doc_antiword_finds_too_small_is_read_by_it_from_its_piece_table(read: Read) -> None:
    require_binary("antiword", "antiword")
    # its WordDocument stream is under 4 kB, kept in the compound file's mini stream
    path = corpus_dir(__file__) / "office" / "qd-fake_gazette.doc"
    document = read(path.read_bytes(), path.name)
    assert document.parsed_by == ("office.antiword",)
    assert document.text == ("Hi this is a document created to test the text extraction "
                             "for the Querido Diário project.")
    assert not document.report.warnings


def test_a_short_letter_libreoffice_saves_keeps_every_paragraph(read: Read,
                                                                tmp_path: Path) -> None:
    require_binary("antiword", "antiword")
    soffice = require_binary("soffice", "libreoffice-writer-nogui")
    import docx

    letter = docx.Document()
    letter.add_paragraph("Primeira seção da carta")
    letter.sections[0].header.paragraphs[0].text = "Cabeçalho da carta"
    letter.sections[0].footer.paragraphs[0].text = "Rodapé da carta"
    letter.add_comment(letter.paragraphs[0].runs, text="Revisar", author="Ana")
    letter.add_section()
    letter.add_paragraph("Segunda seção da carta")
    source = tmp_path / "carta.docx"
    letter.save(str(source))
    document = read(libreoffice_saved(soffice, source, "doc"), "carta.doc")
    # catdoc, which read it before, lost the paragraph ending at the comment mark and
    # the section break, and printed the header and footer as body text
    assert document.text.splitlines() == [
        "Cabeçalho da carta", "Primeira seção da carta", "Segunda seção da carta",
        "Comment (Ana): Revisar", "Rodapé da carta"]


def test_the_comments_antiword_leaves_out_are_read_with_their_author(read: Read) -> None:
    require_binary("antiword", "antiword")
    path = corpus_dir(__file__) / "office" / "testComment.doc"
    document = read(path.read_bytes(), path.name)
    assert document.parsed_by == ("office.antiword",)
    assert document.text.splitlines() == [
        "Here is some text.", "Comment (Michael McCandless): Here is a comment"]
    assert "Comment" not in read(path.read_bytes(), path.name, office={"comments": False}).text


def test_notes_and_comments_follow_the_options(read: Read) -> None:
    require_binary("antiword", "antiword")
    path = corpus_dir(__file__) / "office" / "qd-fake_gazette.doc"
    document = read(path.read_bytes(), path.name, office={"notes": False, "comments": False})
    assert "Querido Diário project." in document.text
