"""Form fields that hold a value no page shows.

A form field's value is read from its widgets, page by page (PDFium lists a page's
widgets). A field may have none on any page: a value a script computes and keeps out of
view, a field whose widget an editor deleted, a form filled by a program that never drew
it. Its value is still in the file, and Tika lists it with the others: it is read here,
from the form's field tree (qpdf), and written after the last page as ``name: value``.

So is a check box or radio group whose widgets have no appearance streams (a form filled
by a program that set ``/V`` and drew nothing), or none for the state ``/V`` names:
PDFium tells a button's state by the appearance it names, and without one reads every
such button as ``Off``.
"""

from __future__ import annotations

from typing import Any

#: Field-tree nodes visited at most, and page annotations looked at to know which
#: widgets are shown: a form of a hundred thousand fields is a hostile one
MAX_FIELD_NODES = 100_000
MAX_SHOWN_WIDGETS = 1_000_000
#: Characters of such values kept at most (as a page keeps of its own fields' values)
MAX_CHARS = 1_000_000
_JOINED = "; "  # several values of one field (a list box), as on the page
#: Export values of one button field read at most (one per widget of a radio group)
MAX_BUTTON_OPTIONS = 10_000


def unshown_field_texts(pdf: Any) -> list[str]:
    """``name: value`` of each field of ``pdf`` (a pikepdf document) that holds a value
    and has no widget on any page, in the field tree's order."""
    import pikepdf

    form = pdf.Root.get("/AcroForm")
    fields = form.get("/Fields") if isinstance(form, pikepdf.Dictionary) else None
    if not isinstance(fields, pikepdf.Array):
        return []
    shown = _shown_annotations(pdf)
    texts: dict[str, None] = {}
    budget = MAX_CHARS
    seen: set[tuple[int, int]] = set()
    # (node, the full name of its parent, the value, field type and options it inherits)
    stack: list[tuple[Any, str, Any, Any, Any]] = [(field, "", None, None, None)
                                                   for field in reversed(list(fields))]
    while stack and len(seen) < MAX_FIELD_NODES and budget > 0:
        node, parent_name, inherited, inherited_type, inherited_options = stack.pop()
        if not isinstance(node, pikepdf.Dictionary):
            continue
        if node.is_indirect:
            if node.objgen in seen:
                continue  # a loop through /Kids or /Parent
            seen.add(node.objgen)
        partial = node.get("/T")
        name = parent_name
        if isinstance(partial, pikepdf.String) and str(partial):
            name = f"{parent_name}.{partial}" if parent_name else str(partial)
        value = node.get("/V", inherited)
        field_type = node.get("/FT", inherited_type)
        options = node.get("/Opt", inherited_options)
        kids = node.get("/Kids")
        children = [kid for kid in kids if isinstance(kid, pikepdf.Dictionary)] \
            if isinstance(kids, pikepdf.Array) else []
        fields_below = [kid for kid in children if "/T" in kid]
        if fields_below:
            stack.extend((kid, name, value, field_type, options)
                         for kid in reversed(fields_below))
            continue
        widgets = children or [node]
        if any(widget.is_indirect and widget.objgen in shown for widget in widgets) \
                and not _button_state_undrawn(field_type, value, widgets):
            continue  # a page shows it: read with that page
        text = _value_text(value, _option_texts(options) if field_type == "/Btn" else [])
        if not text or not name:
            continue
        line = f"{name}: {text}"
        if line not in texts and len(line) <= budget:
            texts[line] = None
            budget -= len(line)
    return list(texts)


def _button_state_undrawn(field_type: Any, value: Any, widgets: list[Any]) -> bool:
    """Whether no widget of a button field has an appearance for the state its value
    names (none at all, or only others: LibreOffice draws a check box's ``/on`` and sets
    it ``/Yes``, leaving viewers to draw it again), so PDFium reads it as ``Off``
    whatever ``/V`` says."""
    import pikepdf

    if field_type != "/Btn":
        return False
    if not isinstance(value, pikepdf.Name):
        return not any("/AP" in widget for widget in widgets)
    for widget in widgets:
        appearances = widget.get("/AP")
        normal = appearances.get("/N") if isinstance(appearances, pikepdf.Dictionary) else None
        if isinstance(normal, pikepdf.Dictionary) and str(value) in normal:
            return False
    return True


def _shown_annotations(pdf: Any) -> set[tuple[int, int]]:
    """The annotations the pages list, by (object, generation)."""
    import pikepdf

    shown: set[tuple[int, int]] = set()
    for page in pdf.pages:
        annotations = page.obj.get("/Annots")
        if not isinstance(annotations, pikepdf.Array):
            continue
        for annotation in annotations:
            if isinstance(annotation, pikepdf.Dictionary) and annotation.is_indirect:
                shown.add(annotation.objgen)
        if len(shown) > MAX_SHOWN_WIDGETS:
            break
    return shown


def _value_text(value: Any, options: list[str]) -> str:
    """A field value as a viewer lists it: text as written, a check box's or radio
    button's state by its name (none when ``Off``) or by the export value its ``options``
    give it, several values joined."""
    import pikepdf

    if isinstance(value, pikepdf.String):
        return str(value).strip()
    if isinstance(value, pikepdf.Name):
        return button_state(str(value)[1:], options)
    if isinstance(value, pikepdf.Array):
        parts = [_value_text(item, options) for item in list(value)[:1000]
                 if isinstance(item, pikepdf.String | pikepdf.Name)]
        return _JOINED.join(part for part in parts if part)
    return ""  # a signature's dictionary, a stream of rich text: not a value to list


def _option_texts(options: Any) -> list[str]:
    """A button field's /Opt as text, one entry per widget."""
    import pikepdf

    if not isinstance(options, pikepdf.Array):
        return []
    return [str(item) if isinstance(item, pikepdf.String) else ""
            for item in list(options)[:MAX_BUTTON_OPTIONS]]


def button_state(state: str, options: list[str]) -> str:
    """What a check box or radio button set to ``state`` reads as: nothing when it is
    ``Off``; the export value when the field's /Opt gives one (its widgets' states are
    then named by their place in it, ``0``, ``1``...); the state's name otherwise.

    >>> button_state("1", ["Single", "Married"]), button_state("Yes", []), button_state("Off", [])
    ('Married', 'Yes', '')
    """
    if state == "Off":
        return ""
    if state.isdigit() and int(state) < len(options) and options[int(state)].strip():
        return options[int(state)].strip()
    return state
