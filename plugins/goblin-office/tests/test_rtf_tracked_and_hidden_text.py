r"""RTF tracked changes read as accepted (``\deleted`` text left out, as the Word
readers do), and hidden text (``\v``) read and counted in ``hidden_chars``."""

from __future__ import annotations

from packages import para
from test_alt_chunks import chunk, with_chunks

import samples


def test_deleted_text_is_left_out(read) -> None:  # type: ignore[no-untyped-def]
    data = (
        rb"{\rtf1\ansi{\*\revtbl {Unknown;}{Ana;}}Keep {\deleted\revauthdel1 GONE\tab\emdash"
        rb"\u8212\'97\~\par}{\revised\revauth1 INSERTED} end "
        rb"{\deleted gone}{\deleted\deleted0 back} {\deleted x\plain plain}\par}"
    )
    text = read(data, "revisado.rtf").text
    assert text.strip() == "Keep INSERTED end back plain"


def test_a_deleted_cell_keeps_the_table_columns(read) -> None:  # type: ignore[no-untyped-def]
    data = (rb"{\rtf1\ansi\trowd\cellx1000\cellx2000\cellx3000 A\cell{\deleted B\cell}C\cell\row}")
    assert read(data, "tabela.rtf").text.strip() == "A\t\tC"


def test_hidden_text_is_read_and_counted(read) -> None:  # type: ignore[no-untyped-def]
    data = (
        rb"{\rtf1\ansi Visible {\v HIDDEN\tab\u8212\'97\emdash} more {\v x\v0  shown}"
        rb"{\v y\plain z}\par}"
    )
    document = read(data, "oculto.rtf")
    assert document.text.strip() == "Visible HIDDEN\t\u2014\u2014 more x shownyz"
    assert document.pages[0].hidden_chars == len("HIDDEN\u2014\u2014xy")
    assert read(*samples.sample_rtf()).pages[0].hidden_chars == 0


def test_hidden_text_of_a_merged_rtf_chunk_is_counted(read) -> None:  # type: ignore[no-untyped-def]
    rtf = r"{\rtf1\ansi Shown {\v Hidden}\par}"
    data = with_chunks(para("Corpo") + chunk("A"), {"afchunk.rtf": rtf})
    document = read(data, "bloco.docx")
    assert "Shown Hidden" in document.text
    assert document.pages[0].hidden_chars == len("Hidden")
