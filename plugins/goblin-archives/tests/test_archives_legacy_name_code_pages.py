"""Legacy member names are decoded in the code page whose reading is plausible, among the
code pages archivers write, not in one chardet ranks first on a few short names."""

from __future__ import annotations

import pytest

from goblin_archives.names import CODE_PAGES, guess_encoding


@pytest.mark.parametrize(("names", "code_page"), [
    (("Résumé ü.txt", "Ñandú.txt"), "cp437"),  # was read as Hebrew (cp862)
    (("Résumé ü.txt", "Ñandú.txt"), "cp1252"),  # was Ńandú (cp1250)
    (("naïve café résumé.txt",), "cp850"),  # was naőve (cp852)
    (("Año 2024 señal.txt",), "cp850"),  # was read as Big5-HKSCS
    (("Français élève.txt",), "cp1252"),
    (("Città di Forlì.pdf",), "cp850"),  # was Forlı (Turkish cp857)
    (("Årsrapport.pdf", "Søknad.docx"), "cp1252"),
    (("Följesedel.pdf",), "cp437"),
    (("Pregão eletrônico nº 12.pdf",), "cp850"),
    (("Edital nº 5.pdf",), "cp850"),
    (("Zażółć gęślą jaźń.txt",), "cp852"),  # was read as Russian DOS
    (("Smlouva o dílo.pdf", "Příloha č. 1.docx"), "cp1250"),
    (("Προσφορά.docx",), "cp737"),
    (("Договор поставки.docx",), "cp1251"),
    (("報告.doc",), "big5"),  # was read as Turkish DOS (cp857)
    (("請求書.pdf",), "gbk"),
    (("計畫書.doc",), "cp932"),
])
def test_legacy_names_are_read_in_a_plausible_code_page(names: tuple[str, ...],
                                                         code_page: str) -> None:
    raw = [name.encode(code_page) for name in names]
    encoding = guess_encoding(raw)
    assert [r.decode(encoding) for r in raw] == list(names)


@pytest.mark.parametrize("raw", [
    ["Résumé ü.txt".encode("cp437")], ["報告.doc".encode("big5")], [bytes(range(0x80, 0xA0))],
])
def test_only_the_code_pages_archivers_write_are_guessed(raw: list[bytes]) -> None:
    import codecs

    known = {codecs.lookup(page).name for page in CODE_PAGES}
    assert guess_encoding(raw) in known
