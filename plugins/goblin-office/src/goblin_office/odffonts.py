"""Which OpenDocument text is set in a symbol font (Symbol, Wingdings), by its styles.

An ODF document names a paragraph's or a span's font in its style
(``style:text-properties style:font-name``), through a font face declared in
``office:font-face-decls`` whose ``svg:font-family`` is the font itself; a style with no
font of its own takes its parent style's, and a paragraph style the default style's.
Text in a symbol font is kept as the font's own codes (``a`` for alpha, or U+F061 as
LibreOffice writes what it imports), which ``symbolfonts`` turns into the characters
drawn. Automatic styles live in the part they format (content.xml, or styles.xml for the
master pages' headers and footers), common styles in styles.xml; a flat document holds
them all in one tree. OpenOffice.org 1.x names the same things ``style:properties`` and
``style:font-decl``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from goblin_office.safexml import attr, iterparse_xml, local_name
from goblin_office.symbolfonts import symbol_table

#: The children of a document's root that hold its styles and font faces
_STYLE_HOLDERS = frozenset({"font-face-decls", "font-decls", "styles", "automatic-styles"})
#: Parents deeper than this are not followed: a loop of parents, or a hostile chain
_MAX_PARENTS = 64


@dataclass(frozen=True)
class SymbolFonts:
    """The symbol-font table (``symbolfonts.symbol_table``) each style sets its text in.

    ``tables`` maps (family, style name) to the table of the font the style sets, or None
    when it sets a font that draws plain characters; a style absent from it sets no font
    and its text keeps the font around it. The family "" name "" holds the default
    paragraph style's.
    """

    tables: dict[tuple[str, str], dict[int, str] | None]

    def paragraph(self, element: Any) -> dict[int, str] | None:
        """The symbol-font table a paragraph (``text:p``, ``text:h``) is set in, or None."""
        found = self.tables.get(("paragraph", attr(element, "style-name")), _UNSET)
        return self.tables.get(("", "")) if found is _UNSET else found

    def span(self, element: Any, around: dict[int, str] | None) -> dict[int, str] | None:
        """The table a span (or link) is set in: its style's font, else the one ``around``."""
        name = attr(element, "style-name")
        if not name:
            return around
        found = self.tables.get(("text", name), _UNSET)
        return around if found is _UNSET else found


_UNSET: Any = object()


def symbol_fonts(roots: Iterable[Any | None]) -> SymbolFonts | None:
    """The symbol fonts of the text formatted by the styles under ``roots`` (the part's own
    tree first, then styles.xml), or None when no style sets a symbol font: the text is
    then read as it stands, at no cost per paragraph."""
    holders = [holder for root in roots if root is not None for holder in root
               if local_name(holder) in _STYLE_HOLDERS]
    faces: dict[str, str] = {}
    styles: dict[tuple[str, str], Any] = {}
    for holder in holders:
        for element in holder:
            name = local_name(element)
            if name in ("font-face", "font-decl"):
                faces.setdefault(attr(element, "name"), _family(element))
            elif name == "style":
                styles.setdefault((attr(element, "family"), attr(element, "name")), element)
            elif name == "default-style" and attr(element, "family") == "paragraph":
                styles.setdefault(("", ""), element)
    fonts = {key: _font(style, faces) for key, style in styles.items()}
    if not any(symbol_table(font) for font in fonts.values()):
        return None
    tables: dict[tuple[str, str], dict[int, str] | None] = {}
    for key in styles:
        font = _inherited(key, styles, fonts)
        if font is not None:
            tables[key] = symbol_table(font)
    return SymbolFonts(tables)


def _family(face: Any) -> str:
    family = attr(face, "font-family") or attr(face, "name")
    return family.strip().strip("'\"").strip()


def _font(style: Any, faces: dict[str, str]) -> str | None:
    """The font a style's own text properties name, or None for none."""
    for props in style:
        if local_name(props) not in ("text-properties", "properties"):
            continue
        face = attr(props, "font-name")
        if face:
            return faces.get(face, face)
        family = attr(props, "font-family")
        if family:
            return family.split(",")[0].strip().strip("'\"").strip()
    return None


def _inherited(key: tuple[str, str], styles: dict[tuple[str, str], Any],
               fonts: dict[tuple[str, str], str | None]) -> str | None:
    """A style's font, else its parents' nearest; a paragraph style's last the default's."""
    family = key[0]
    for current in _lineage(key, styles):
        font = fonts.get(current)
        if font is not None:
            return font
    return fonts.get(("", "")) if family == "paragraph" else None


def _lineage(key: tuple[str, str], styles: dict[tuple[str, str], Any]) -> Iterator[
        tuple[str, str]]:
    seen: set[tuple[str, str]] = set()
    while key in styles and key not in seen and len(seen) < _MAX_PARENTS:
        seen.add(key)
        yield key
        key = (key[0], attr(styles[key], "parent-style-name"))


def head_root(data: bytes, *, name: str, max_depth: int) -> Any:
    """The root of an XML part read up to its ``office:body`` only: the font faces and
    automatic styles that come before it, for a content.xml too large to hold as a tree."""
    root = None
    for event, element in iterparse_xml(data, name=name, max_depth=max_depth):
        if root is None:
            root = element
        if event == "start" and local_name(element) == "body":
            break
    return root
