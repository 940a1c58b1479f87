"""A slide the presentation lists but the package does not hold (its part or its
relationship gone, or a relationship to a part that is no slide) costs only its own page:
a failed page in its place, so the slides after it keep their numbers, a warning naming
the slide and why, and every other slide read. The deck is the damaged-parts tests' one:
three slides of one text box each."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from packages import rewrite, zip_bytes
from test_presentation_damaged_parts import _deck, _members

from goblin_core import CorruptDocument, Document

Read = Callable[..., Document]
_RELS = "ppt/_rels/presentation.xml.rels"


def _relationship(package: bytes, target: str) -> str:
    """The id the presentation's relationships give the part ``target``."""
    rels = _members(package)[_RELS].decode()
    found = re.search(rf'<Relationship [^>]*Id="(\w+)"[^>]*Target="{target}"', rels) or \
        re.search(rf'<Relationship [^>]*Target="{target}"[^>]*Id="(\w+)"', rels)
    assert found is not None
    return found.group(1)


def _pages(document: Document) -> list[tuple[int, str, str]]:
    """Each page's number, status and slide text (its text box's line)."""
    return [(page.number, page.status,
             next((line for line in page.text.splitlines() if line.startswith("Texto")), ""))
            for page in document.pages]


def _warnings(document: Document) -> list[str]:
    return [w.message for w in document.report.warnings if w.kind == "CorruptDocument"]


def test_a_slide_whose_part_is_missing_is_a_failed_page_and_the_others_are_read(
        read: Read) -> None:
    members = _members(_deck())
    del members["ppt/slides/slide2.xml"]
    document = read(zip_bytes(members), "falta.pptx")
    assert document.parsed_by == ("office.pptx",)
    assert _pages(document) == [(1, "clean", "Texto do slide 1"), (2, "failed", ""),
                                (3, "clean", "Texto do slide 3")]
    assert any("slide 2" in w and "ppt/slides/slide2.xml is not in the package" in w
               for w in _warnings(document))


def test_the_first_slide_missing_leaves_the_numbers_of_the_rest(read: Read) -> None:
    members = _members(_deck())
    del members["ppt/slides/slide1.xml"]
    del members["ppt/slides/_rels/slide1.xml.rels"]
    document = read(zip_bytes(members), "primeiro.pptx")
    assert [(n, status) for n, status, _ in _pages(document)] == [
        (1, "failed"), (2, "clean"), (3, "clean")]
    assert "Texto do slide 3" in document.pages[2].text


def test_a_presentation_whose_slides_are_all_missing_is_a_clear_error(read: Read) -> None:
    members = {name: data for name, data in _members(_deck()).items()
               if not name.startswith("ppt/slides/")}
    with pytest.raises(CorruptDocument,
                       match=r"no slide .* can be read .*ppt/slides/slide1\.xml is not in"):
        read(zip_bytes(members), "vazia.pptx")


def test_a_slide_whose_relationship_is_missing_is_named_in_a_warning(read: Read) -> None:
    deck = _deck()
    relationship = _relationship(deck, "slides/slide3.xml")
    rels = _members(deck)[_RELS].decode()
    cut = re.sub(rf'<Relationship [^>]*Id="{relationship}"[^>]*/>', "", rels)
    document = read(rewrite(deck, {_RELS: cut.encode()}), "sem-relacao.pptx")
    assert [status for _, status, _ in _pages(document)] == ["clean", "clean", "failed"]
    assert any("slide 3" in w and relationship in w for w in _warnings(document))


def test_a_slide_relationship_to_a_part_that_is_no_slide_costs_only_that_slide(
        read: Read) -> None:
    deck = _deck()
    rels = _members(deck)[_RELS].decode()
    wrong = rels.replace('Target="slides/slide2.xml"', 'Target="slideLayouts/slideLayout1.xml"')
    document = read(rewrite(deck, {_RELS: wrong.encode()}), "trocado.pptx")
    assert [status for _, status, _ in _pages(document)] == ["clean", "failed", "clean"]
    assert any("slide 2" in w and "slideLayout1.xml" in w for w in _warnings(document))


def test_a_damaged_slide_listed_out_of_its_part_order_fails_its_own_page(read: Read) -> None:
    # the list opens with slide3.xml: a damaged slide3.xml is page 1, whatever its name
    deck = _deck()
    members = _members(deck)
    presentation = members["ppt/presentation.xml"].decode()
    first = _relationship(deck, "slides/slide1.xml")
    third = _relationship(deck, "slides/slide3.xml")
    by_relationship = {re.findall(r'r:id="(\w+)"', entry)[0]: entry
                       for entry in re.findall(r"<p:sldId [^>]*/>", presentation)}
    swapped = presentation.replace(by_relationship[first], "\0").replace(
        by_relationship[third], by_relationship[first]).replace("\0", by_relationship[third])
    whole = members["ppt/slides/slide3.xml"]
    document = read(rewrite(deck, {"ppt/presentation.xml": swapped.encode(),
                                   "ppt/slides/slide3.xml": whole[: len(whole) // 2]}),
                    "ordem.pptx")
    assert _pages(document) == [(1, "failed", ""), (2, "clean", "Texto do slide 2"),
                                (3, "clean", "Texto do slide 1")]
