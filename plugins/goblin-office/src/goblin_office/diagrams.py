"""DrawingML text kept outside a document's own flow: SmartArt graphics, charts, sheet shapes.

A slide or page holds only a reference to a SmartArt graphic (``dgm:relIds``);
its text lives in the diagram's data model (``ppt/diagrams/data1.xml``), one
point per node, in the order the nodes were entered. A chart (``c:chart``) is a
reference too: its title and axis titles live in the chart part. The text boxes
and callouts drawn over a worksheet live in the sheet's drawing part.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from goblin_office.safexml import attr, children, descendants, local_name

if TYPE_CHECKING:
    from goblin_office.ooxml import PackageXml

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


def graphic_references(element: Any) -> list[tuple[Any, str]]:
    """(reference, relationship id) of each SmartArt graphic and chart in ``element``, in
    document order: the keys of ``related_graphics``."""
    found = []
    for reference in element.iter(f"{{{DIAGRAM_NS}}}relIds", "{*}chart"):
        if local_name(reference) == "relIds":
            relationship = reference.get(f"{{{_RELATIONSHIPS_NS}}}dm")
        else:
            # r:id, in the transitional or the Strict relationships namespace
            relationship = next((v for k, v in reference.attrib.items() if k.endswith("}id")), "")
        if relationship:
            found.append((reference, relationship))
    return found


def related_graphics(package: PackageXml, part: str) -> dict[str, list[str]]:
    """The text of each SmartArt graphic and chart ``part`` links, by relationship id."""
    found = {}
    for relationship, (kind, target) in package.rels(part).items():
        if package.member(target) is None:
            continue
        if kind.endswith("/diagramData"):
            root = package.optional_xml(target, holds_text=True)
            if root is not None:
                found[relationship] = diagram_lines(root)
        elif kind.endswith("/chart"):
            root = package.optional_xml(target, holds_text=True)
            if root is not None:
                found[relationship] = chart_lines(root)
    return found


def chart_lines(space: Any) -> list[str]:
    """A chart part's (``c:chartSpace``) title, then its axes' titles."""
    title = chart_title(space)
    return [title, *axis_titles(space)] if title else axis_titles(space)


def chart_title(space: Any) -> str:
    """The title of a chart part: its rich text, else the cell text it caches; '' for none."""
    for chart in children(space, "chart"):
        for title in children(chart, "title"):
            return _title_text(title)
    return ""


def axis_titles(space: Any) -> list[str]:
    """The titles of a chart's axes (what its values and categories are), in axis order."""
    titles = []
    for axis in space.iter("{*}catAx", "{*}valAx", "{*}dateAx", "{*}serAx"):
        for title in children(axis, "title"):
            text = _title_text(title)
            if text:
                titles.append(text)
    return titles


def _title_text(title: Any) -> str:
    """A ``c:title``'s text on one line: typed in (``c:rich``) or taken from cells
    (``c:strRef``, whose ``c:strCache`` keeps what they held when the file was saved)."""
    parts = []
    for text in children(title, "tx"):
        for rich in children(text, "rich"):
            parts += ["".join(_runs(p)).strip() for p in children(rich, "p")]
        for reference in children(text, "strRef"):
            parts += [(v.text or "").strip() for v in descendants(reference, "v")]
    return one_line(parts)


def one_line(parts: Iterable[str]) -> str:
    """A chart title's paragraphs on one line, runs of spaces and line breaks as one space:
    a title is one caption however its editor broke it.

    >>> one_line(["Receita  anual", "", "2024\\n(R$)"])
    'Receita anual 2024 (R$)'
    """
    return " ".join(" ".join(part for part in parts if part).split())


#: The point types of a diagram's data model (``ST_PtType``) whose text the author typed:
#: the nodes and the assistants an organization chart hangs beside a node. The document
#: point is the model's root, the transitions (``parTrans``, ``sibTrans``) connect nodes
#: and the ``pres`` points only lay the graphic out: none holds text of the author's.
_TEXT_POINTS = frozenset({"node", "asst"})


def diagram_lines(data: Any) -> list[str]:
    """The text of each node and assistant of a diagram data part (its root element), a
    line a paragraph, in the order they were entered."""
    lines = []
    for point in descendants(data, "pt"):
        if attr(point, "type", "node") in _TEXT_POINTS:
            lines.extend(body_lines(children(point, "t")))
    return lines


def shape_lines(drawing: Any, graphics: Mapping[str, list[str]] | None = None) -> list[str]:
    """The text of each shape of a drawing part (its root element), a line a paragraph, and
    of the charts and SmartArt graphics drawn there (``graphics``, by relationship id), in
    drawing order. Pictures have no text.
    """
    graphics = graphics or {}
    references = dict(graphic_references(drawing)) if graphics else {}
    lines: list[str] = []
    for element in drawing.iter("{*}sp", *{reference.tag for reference in references}):
        if any(local_name(above) == "Fallback" for above in element.iterancestors()):
            continue  # the same shape for readers that know no newer markup (equations)
        relationship = references.get(element)
        if relationship is not None:
            lines.extend(graphics.get(relationship, ()))
        else:
            lines.extend(body_lines(children(element, "txBody")))
    return lines


def body_lines(bodies: list[Any]) -> list[str]:
    """The text of each non-empty paragraph (``a:p``) of DrawingML text bodies, stripped."""
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
