"""Comments, web links, form field values and the outline of a PDF read by pypdf.

``pdf.pypdf`` reads the documents PDFium will not open. PDFium's parser puts after each
page's text its comments, the web links it does not print, and its form fields' values,
and after the last page the outline (``pdf.annotations``, ``pdf.forms``, ``pdf.outline``);
without the same here, those options did nothing for such a document and its filled-in
form read as a blank one. They are written as PDFium's parser writes them, under the
same bounds.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from goblin_pdf.pdfium_page import MAX_PAGE_EXTRA_CHARS, PageAnnotations
from goblin_pdf.unshown_fields import MAX_BUTTON_OPTIONS, button_state

#: Annotations looked at on one page at most, and parents climbed for a field's name
MAX_ANNOTATIONS = 50_000
MAX_LINKS = 200
_MAX_NAME_DEPTH = 32
_UNSEEN_FLAGS = 2 | 32  # Hidden, NoView
_NO_TEXT = frozenset({"/Popup", "/Widget", "/Link"})
_JOINED = "; "


def page_extras(page: Any, text: str, annotations: bool, fields: bool) -> list[str]:
    """What follows the page's own ``text``: its comments and the web links it does not
    print (``annotations``), then its fields' ``name: value`` (``fields``)."""
    found = _resolved(page.get("/Annots"))
    if not isinstance(found, list):
        return []
    comments: dict[str, None] = {}
    links: dict[str, None] = {}
    values: dict[str, None] = {}
    budget = MAX_PAGE_EXTRA_CHARS
    for reference in found[:MAX_ANNOTATIONS]:
        if budget <= 0:
            break
        annotation = _resolved(reference)
        if not isinstance(annotation, dict):
            continue
        subtype = str(annotation.get("/Subtype", ""))
        if annotations and subtype == "/Link" and len(links) < MAX_LINKS:
            address = _uri(annotation)
            if address:
                links[address] = None
        if _unseen(annotation):
            continue
        line = ""
        if subtype == "/Widget" and fields:
            line = _field_line(annotation)
        elif annotations and subtype not in _NO_TEXT:
            line = _comment(annotation)
        if line and len(line) <= budget:
            target = values if subtype == "/Widget" else comments
            if line not in target:
                target[line] = None
                budget -= len(line)
    extras = list(comments)
    unseen = PageAnnotations((), 0, tuple(links), ()).unseen_links(text)
    if unseen:
        extras.append("\n".join(unseen))
    return extras + list(values)


def outline_entries(reader: Any, max_items: int) -> list[dict[str, Any]]:
    """The outline as ``{level, title, page}``, as PDFium's parser gives it (page None
    for a bookmark that goes nowhere in the document), at most ``max_items``. pypdf
    gives each bookmark's children as a list right after it."""
    entries: list[dict[str, Any]] = []
    stack: list[tuple[Iterator[Any], int]] = [(iter(reader.outline), 0)]
    while stack and len(entries) < max_items:
        items, level = stack[-1]
        item = next(items, None)
        if item is None:
            stack.pop()
        elif isinstance(item, list):
            stack.append((iter(item), level + 1))
        else:
            number = _page_number(item, reader)
            title = str(getattr(item, "title", "") or "").replace("\x00", "").strip()
            entries.append({"level": level, "title": title,
                            "page": number + 1 if number is not None else None})
    return entries


def _page_number(item: Any, reader: Any) -> int | None:
    """The 0-based page a bookmark goes to, or None. A destination may name its page by
    number, as remote destinations do and some writers do for the document's own pages
    too: PDFium follows it, where pypdf gave no page or a wrong one."""
    page = _resolved(getattr(item, "page", None))
    try:
        if isinstance(page, int) and not isinstance(page, bool):
            return page if 0 <= page < len(reader.pages) else None
        number = reader.get_destination_page_number(item)
    except Exception:  # a destination that goes nowhere, a page tree pypdf cannot count
        return None
    return number if isinstance(number, int) and number >= 0 else None


def _resolved(value: Any) -> Any:
    return value.get_object() if hasattr(value, "get_object") else value


def _unseen(annotation: dict[str, Any]) -> bool:
    flags = _resolved(annotation.get("/F", 0))
    return isinstance(flags, int) and bool(flags & _UNSEEN_FLAGS)


def _text(value: Any) -> str:
    value = _resolved(value)
    return str(value).strip() if isinstance(value, str) else ""


def _comment(annotation: dict[str, Any]) -> str:
    """``author: subject`` then contents, as in a viewer's comments pane."""
    author, subject, contents = (_text(annotation.get(key)) for key in ("/T", "/Subj", "/Contents"))
    said = "\n".join(part for part in (subject, contents) if part)
    if not said:
        return ""
    return f"{author}: {said}" if author and author != said else said


def _uri(annotation: dict[str, Any]) -> str:
    action = _resolved(annotation.get("/A"))
    if not isinstance(action, dict) or action.get("/S") != "/URI":
        return ""
    address = _resolved(action.get("/URI"))
    if isinstance(address, bytes):
        address = address.decode("latin-1")
    address = str(address or "").strip()
    return address if address.isprintable() else ""


def _field_line(widget: dict[str, Any]) -> str:
    """``full.name: value`` of the field a widget belongs to ('' when it has no value):
    the name and the value climb through /Parent, as both are inherited."""
    names: list[str] = []
    value: Any = None
    options: Any = None
    node: Any = widget
    seen: set[int] = set()
    for _ in range(_MAX_NAME_DEPTH):
        if not isinstance(node, dict) or id(node) in seen:
            break
        seen.add(id(node))
        partial = _text(node.get("/T"))
        if partial:
            names.append(partial)
        if value is None and "/V" in node:
            value = _resolved(node.get("/V"))
        if options is None and "/Opt" in node:
            options = _resolved(node.get("/Opt"))
        node = _resolved(node.get("/Parent"))
    text = _value_text(value, _option_texts(options))
    if not text:
        return ""
    name = ".".join(reversed(names))
    return f"{name}: {text}" if name else text


def _value_text(value: Any, options: list[str]) -> str:
    from pypdf.generic import NameObject

    if isinstance(value, NameObject):  # a check box's or radio button's state
        return button_state(str(value)[1:], options)
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list):
        parts = [_value_text(_resolved(item), options) for item in value[:1000]]
        return _JOINED.join(part for part in parts if part)
    return ""


def _option_texts(options: Any) -> list[str]:
    """A field's /Opt entries that are text (a button's export values), in order."""
    if not isinstance(options, list):
        return []
    return [_text(item) for item in options[:MAX_BUTTON_OPTIONS]]
