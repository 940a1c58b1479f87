"""An EPUB chapter whose DOCTYPE declares entities (``<!ENTITY nbsp "&#160;">``, as some
e-book tools write) is read, not the whole book refused: chapters go through the HTML
parser, which expands no declared entity and reads nothing outside the book; the
package's own XML (the OPF) declaring entities is still refused."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bounds import bounded

from goblin_core.errors import GoblinError
from samples import zip_bytes

Read = Callable[..., Any]
CONTAINER = ('<?xml version="1.0"?><container version="1.0" '
             'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
             '<rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/>'
             "</rootfiles></container>")
OPF = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0">'
       '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Livro</dc:title>'
       '</metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>'
       '</manifest><spine><itemref idref="c1"/></spine></package>')


def _book(chapter: str, opf: str = OPF) -> bytes:
    return zip_bytes({"mimetype": "application/epub+zip", "META-INF/container.xml": CONTAINER,
                      "OEBPS/book.opf": opf, "OEBPS/c1.xhtml": chapter})


def _chapter(subset: str, body: str) -> str:
    return ('<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html PUBLIC '
            '"-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd" '
            f'[{subset}]><html xmlns="http://www.w3.org/1999/xhtml"><body>{body}</body></html>')


def test_a_chapter_declaring_entities_is_read(read: Read) -> None:
    chapter = _chapter('<!ENTITY nbsp "&#160;"><!ENTITY mdash "&#8212;">',
                       "<p>Capítulo&nbsp;um &mdash; início</p>")
    assert read(_book(chapter), "livro.epub").text == "Livro\nCapítulo um — início"


def test_a_chapter_s_entities_never_read_outside_the_book_nor_multiply(
        read: Read, tmp_path: Path) -> None:
    secret = tmp_path / "segredo.txt"
    secret.write_text("SEGREDO")
    laughs = '<!ENTITY l0 "lol">' + "".join(
        f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    chapter = _chapter(f'<!ENTITY x SYSTEM "file://{secret}">{laughs}',
                       "<p>antes &x; &l9; depois</p>")
    with bounded(seconds=10, megabytes=100):
        document = read(_book(chapter), "livro.epub")
    assert "SEGREDO" not in document.text
    assert "lollol" not in document.text
    assert "antes" in document.text and "depois" in document.text


def test_a_package_document_declaring_entities_is_still_refused(read: Read) -> None:
    opf = OPF.replace('<?xml version="1.0"?>',
                      '<?xml version="1.0"?><!DOCTYPE package [<!ENTITY t "Livro">]>')
    with pytest.raises(GoblinError, match="entit"):
        read(_book(_chapter("", "<p>texto</p>"), opf), "livro.epub")
