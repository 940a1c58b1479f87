"""The text of an OpenDocument paragraph: spans, spaces (text:s), tabs, line breaks."""

from __future__ import annotations

from typing import Any

from goblin_office.odffonts import SymbolFonts
from goblin_office.safexml import attr, local_name
from goblin_office.symbolfonts import symbol_run_text

#: What a paragraph may anchor in its line to be drawn beside it: ODF's frames and drawing
#: shapes, which may hold text of their own (a callout, a flowchart box), and
#: OpenOffice.org 1.x's text boxes, pictures and objects, which stood in the paragraph
#: unframed. Their text is theirs, read as blocks of its own, never as the paragraph's line.
DRAWING_OBJECTS = frozenset(
    {
        "frame",
        "text-box",
        "image",
        "object",
        "object-ole",
        "g",
        "rect",
        "line",
        "polyline",
        "polygon",
        "regular-polygon",
        "path",
        "circle",
        "ellipse",
        "connector",
        "caption",
        "measure",
        "custom-shape",
        "control",
        "page-thumbnail",
        "scene",
    }
)

_INLINE_SKIP = DRAWING_OBJECTS | {
    "annotation",
    "annotation-end",
    "note",
    "bookmark",
    "bookmark-start",
    "bookmark-end",
    "reference-mark",
    "soft-page-break",
    # a ruby's reading (its phonetic guide) is set small above the base: the line a
    # reader reads holds the base alone
    "ruby-text",
}


def inline_text(element: Any, fonts: SymbolFonts | None = None) -> str:
    """A paragraph's own text: spans, spaces (text:s), tabs and line breaks; of a ruby, the
    base alone; the frames and shapes it anchors, its notes and comments left out. Text
    its styles (``fonts``) set in a symbol font reads as the characters that font draws."""
    out: list[str] = []
    _inline(element, out, fonts, fonts.paragraph(element) if fonts else None)
    return "".join(out)


def _inline(element: Any, out: list[str], fonts: SymbolFonts | None,
            table: dict[int, str] | None) -> None:
    """``element``'s text into ``out``; ``table`` is the symbol font it is set in."""
    if element.text:
        out.append(symbol_run_text(table, element.text) if table else element.text)
    for child in element:
        name = local_name(child)
        if name == "s":
            count = attr(child, "c", "1")
            out.append(" " * min(int(count) if count.isdigit() else 1, 1000))
        elif name == "tab":
            out.append("\t")
        elif name == "line-break":
            out.append("\n")
        elif name and name not in _INLINE_SKIP and not _unrendered(name, child.text or ""):
            _inline(child, out, fonts, fonts.span(child, table) if fonts else table)
        if child.tail:
            out.append(symbol_run_text(table, child.tail) if table else child.tail)


#: The page fields a presentation fills in as each page is shown: LibreOffice keeps a
#: stand-in for the value in the file (``<number>``), which no page shows
_PAGE_FIELDS = frozenset({"page-number", "page-count"})


def _unrendered(name: str, text: str) -> bool:
    """Whether an element is a field the file holds no value of: "???" stands for one never
    computed (a sheet name, a page count), ``<number>`` for a page number on a slide or
    notes page."""
    if text == "???":
        return True
    return name in _PAGE_FIELDS and text.startswith("<") and text.endswith(">")


def annotation_line(annotation: Any, fonts: SymbolFonts | None = None) -> str:
    """A comment (``office:annotation``) as goblin's other readers write one: ``Comment
    (author): text`` with the author its ``dc:creator`` names, ``Comment: text`` when it
    names none; '' for a comment with no text."""
    paragraphs = (inline_text(p, fonts) for p in annotation.iter("{*}p", "{*}h"))
    text = "\n".join(paragraph for paragraph in paragraphs if paragraph.strip())
    if not text:
        return ""
    author = " ".join(" ".join(c.text or "" for c in annotation.iterchildren("{*}creator")).split())
    return f"Comment ({author}): {text}" if author else f"Comment: {text}"


class AcceptedDeletions:
    """The body's blocks, in order, as a document whose tracked changes are accepted
    reads them: the text of the deletions a flat document keeps in place taken out."""

    def __init__(self) -> None:
        #: the ids of the tracked deletions, and of those whose range is still open
        self.deleted: set[str] = set()
        self.open_ranges: set[str] = set()

    def accept(self, block: Any) -> None:
        """Take the deleted ranges out of ``block``, a child of the body (the
        ``text:tracked-changes`` list comes before the blocks it names)."""
        if local_name(block) == "tracked-changes":
            self.deleted |= deletion_ids(block)
        elif self.deleted and (self.open_ranges
                               or next(block.iter("{*}change-start"), None) is not None):
            drop_deleted_ranges(block, self.deleted, self.open_ranges)


def deletion_ids(tracked_changes: Any) -> set[str]:
    """The ids of the changed regions of a ``text:tracked-changes`` element that are
    deletions."""
    return {attr(region, "id") for region in tracked_changes.iterchildren("{*}changed-region")
            if region.find("{*}deletion") is not None and attr(region, "id")}


def drop_deleted_ranges(element: Any, deleted: set[str], open_ranges: set[str]) -> None:
    """Take out of ``element`` what stands between the ``text:change-start`` and
    ``text:change-end`` of a deletion (ids ``deleted``), as a document whose changes are
    accepted reads: LibreOffice writes a deletion so in a flat document, the deleted text
    in place, where a packaged one keeps it apart in ``text:tracked-changes``. A range may
    run on into the next blocks: ``open_ranges`` holds the ids of those still open, before
    and after ``element``."""
    if open_ranges:
        element.text = None
    for child in list(element):
        name = local_name(child)
        if name == "change-start" and attr(child, "change-id") in deleted:
            open_ranges.add(attr(child, "change-id"))
        elif name == "change-end":
            open_ranges.discard(attr(child, "change-id"))
        elif open_ranges and child.find(".//{*}change-end") is None:
            element.remove(child)  # wholly deleted, spaces, tabs and its tail with it
            continue
        elif len(child) or open_ranges:
            drop_deleted_ranges(child, deleted, open_ranges)
        if open_ranges:
            child.tail = None
