"""DrawingML text kept outside a document's own flow: SmartArt graphics, sheet shapes.

A slide or page holds only a reference to a SmartArt graphic (``dgm:relIds``);
its text lives in the diagram's data model (``ppt/diagrams/data1.xml``), one
point per node, in the order the nodes were entered. The text boxes and
callouts drawn over a worksheet live in the sheet's drawing part.
"""

from __future__ import annotations

from typing import Any

from goblin_office.safexml import attr, children, descendants, local_name

DIAGRAM_NS = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
_RELATIONSHIPS_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def data_relationships(element: Any) -> list[tuple[Any, str]]:
    """(reference, relationship id of its data part) of each SmartArt graphic in ``element``."""
    found = []
    for reference in element.iter(f"{{{DIAGRAM_NS}}}relIds"):
        relationship = reference.get(f"{{{_RELATIONSHIPS_NS}}}dm")
        if relationship:
            found.append((reference, relationship))
    return found


def diagram_lines(data: Any) -> list[str]:
    """The text of each node of a diagram data part (its root element), a line a paragraph.

    Connections between nodes (``parTrans``, ``sibTrans``) and the points that only
    lay the graphic out (``pres``, ``doc``) carry no text of the author's.
    """
    lines = []
    for point in descendants(data, "pt"):
        if attr(point, "type", "node") != "node":
            continue
        lines.extend(_body_lines(children(point, "t")))
    return lines


def shape_lines(drawing: Any) -> list[str]:
    """The text of each shape of a drawing part (its root element), a line a paragraph.

    Charts and pictures drawn there are frames and pictures, not shapes: no text here.
    """
    lines = []
    for shape in descendants(drawing, "sp"):
        if any(local_name(above) == "Fallback" for above in shape.iterancestors()):
            continue  # the same shape for readers that know no newer markup (equations)
        lines.extend(_body_lines(children(shape, "txBody")))
    return lines


def _body_lines(bodies: list[Any]) -> list[str]:
    lines = []
    for body in bodies:
        for paragraph in children(body, "p"):
            text = "".join(_runs(paragraph)).strip()
            if text:
                lines.append(text)
    return lines


def _runs(paragraph: Any) -> list[str]:
    out = []
    for element in paragraph.iter():
        name = local_name(element)
        if name == "t":
            out.append(element.text or "")
        elif name == "br":
            out.append("\n")
    return out
