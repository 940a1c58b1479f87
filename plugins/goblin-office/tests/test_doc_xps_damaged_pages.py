"""An XPS or Visio page that is damaged, or that the document lists but the package
lacks, costs that page only: a failed page in its place, the others read under their
numbers. A damaged page failed the whole document, and a missing one was skipped
without a word, the pages after it taking its number."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import pytest
from packages import damaged, xps, zip_bytes

from goblin_core import CorruptDocument, Document

Read = Callable[..., Document]


def _page(text: str) -> str:
    return (f'<Glyphs OriginX="10" OriginY="20" FontRenderingEmSize="12" '
            f'UnicodeString="{text}"/>')


def _three_pages() -> bytes:
    return xps([_page(f"Texto da página {n} " * 30) for n in (1, 2, 3)])


def _pages(document: Document) -> list[tuple[int, str, str]]:
    return [(p.number, p.status, p.text.split(" ")[3] if p.text else "") for p in document.pages]


def test_a_damaged_page_is_a_failed_page(read: Read) -> None:
    document = read(damaged(_three_pages(), "Documents/1/Pages/2.fpage"), "paginas.xps")
    assert _pages(document) == [(1, "clean", "1"), (2, "failed", ""), (3, "clean", "3")]


def test_a_page_the_package_lacks_is_a_failed_page(read: Read) -> None:
    with zipfile.ZipFile(io.BytesIO(_three_pages())) as archive:
        members = {name: archive.read(name) for name in archive.namelist()
                   if name != "Documents/1/Pages/2.fpage"}
    document = read(zip_bytes(members), "paginas.xps")
    assert _pages(document) == [(1, "clean", "1"), (2, "failed", ""), (3, "clean", "3")]
    assert "Documents/1/Pages/2.fpage" in str(document.pages[1])


def test_no_readable_page_is_a_clear_error(read: Read) -> None:
    data = xps([_page("Única página " * 30)])
    with pytest.raises(CorruptDocument, match="no page"):
        read(damaged(data, "Documents/1/Pages/1.fpage"), "pagina.xps")


def _drawing() -> bytes:
    from packages import vsdx

    return vsdx([(f"Página {n}", f'<Shape ID="1"><Text>Caixa da página {n} ' + "texto " * 40
                  + "</Text></Shape>") for n in (1, 2, 3)])


def _labels(document: Document) -> list[tuple[str, str]]:
    return [(p.label, p.status) for p in document.pages]


def test_a_damaged_visio_page_is_a_failed_page(read: Read) -> None:
    document = read(damaged(_drawing(), "visio/pages/page2.xml"), "fluxo.vsdx")
    assert _labels(document) == [("Página 1", "clean"), ("Página 2", "failed"),
                                 ("Página 3", "clean")]
    assert "Caixa da página 3" in document.pages[2].text


def test_a_visio_page_the_package_lacks_is_a_failed_page(read: Read) -> None:
    with zipfile.ZipFile(io.BytesIO(_drawing())) as archive:
        members = {name: archive.read(name) for name in archive.namelist()
                   if name != "visio/pages/page2.xml"}
    document = read(zip_bytes(members), "fluxo.vsdx")
    assert _labels(document) == [("Página 1", "clean"), ("Página 2", "failed"),
                                 ("Página 3", "clean")]
