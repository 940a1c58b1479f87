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
    """The text of each SmartArt graphic and chart ``part`` links, by relationship id; one
    the package does not hold is noted as missing, its text lost."""
    found = {}
    for relationship, (kind, target) in package.rels(part).items():
        graphic = _GRAPHIC_KINDS.get(kind.rsplit("/", 1)[-1])
        if graphic is None:
            continue
        if package.member(target) is None:
            package.missing(target, part)
            continue
        lines = _graphic_lines(package, target, graphic)
        if lines is not None:
            found[relationship] = lines
    return found


#: the relationship types (their last segment) of the graphics whose text is read, and
#: the local name of the element referring to each in a drawing
_GRAPHIC_KINDS = {"diagramData": "relIds", "chart": "chart"}


def _graphic_lines(package: PackageXml, part: str, reference: str) -> list[str] | None:
    """The text of the chart or SmartArt data ``part`` (``reference``: the local name of
    the element referring to it); None when it is damaged (noted as such)."""
    root = package.optional_xml(part, holds_text=True)
    if root is None:
        return None
    return chart_lines(root) if reference == "chart" else diagram_lines(root)


class DeclaredGraphics:
    """The charts and SmartArt graphics of a part whose relationships part is damaged:
    its references name relationship ids nothing resolves any more, but the package still
    declares the graphics' parts ([Content_Types].xml). Each reference, in document order,
    takes the next declared part of its kind no other part links, in their names' order
    (chart1, chart2: Word numbers them as they are inserted); a reference left with none
    is counted in ``unresolved``, its text lost."""

    def __init__(self, package: PackageXml, part: str) -> None:
        self.package = package
        linked = package.linked_elsewhere(part)
        self._waiting = {
            reference: [found for found in package.declared("/" + kind) if found not in linked]
            for kind, reference in _GRAPHIC_KINDS.items()
        }
        self._placed: dict[str, list[str]] = {}
        self.unresolved = 0
        #: the declared parts given to references
        self.used: list[str] = []

    def warnings(self, part: str) -> list[tuple[str, str]]:
        """What the report says of the graphics of ``part`` read this way."""
        if not self.used:
            return []
        return [("CorruptDocument", f"the relationships of {part} are damaged: its charts and "
                 "SmartArt graphics were read from the parts the content types declare "
                 f"({', '.join(self.used)}), each where the next reference of its kind stands")]

    def lines(self, reference: str, relationship: str) -> list[str]:
        """The text of the graphic a ``reference`` element (``chart``, ``relIds``) naming
        ``relationship`` stands for: the same for the same relationship id."""
        if relationship not in self._placed:
            waiting = self._waiting.get(reference) or []
            if waiting:
                part = waiting.pop(0)
                self.used.append(part)
                self._placed[relationship] = _graphic_lines(self.package, part, reference) or []
            else:
                self.unresolved += 1
                self._placed[relationship] = []
        return self._placed[relationship]


def chart_lines(space: Any) -> list[str]:
    """A chart part's (``c:chartSpace``) title, then its axes' titles."""
    title = chart_title(space)
    return [title, *axis_titles(space)] if title else axis_titles(space)


def chart_title(space: Any) -> str:
    """The title of a chart part: its rich text, else the cell text it caches; of a title
    that holds neither, the one Word and Excel draw for it (``_automatic_title``); '' for
    none."""
    for chart in children(space, "chart"):
        for title in children(chart, "title"):
            if children(title, "tx"):
                return _title_text(title)
            return _automatic_title(chart)
        # no title element: one is drawn still when the file says the automatic title
        # was not deleted (the attribute's default is that it was)
        deleted = children(chart, "autoTitleDeleted")
        if deleted and attr(deleted[0], "val", "1").lower() in ("0", "false"):
            return _automatic_title(chart)
    return ""


def _automatic_title(chart: Any) -> str:
    """What Word and Excel draw for a chart's title that holds no text of its own: the name
    of its series when it has one alone ('' for several, whose title is a placeholder),
    as the cell it names held it when the file was saved."""
    # each chart type's series (a filtered-out one is kept in an extension list, and draws
    # no name)
    series = [found for plot in children(chart, "plotArea") for kind in plot
              for found in children(kind, "ser")]
    if len(series) != 1:
        return ""
    parts = []
    for name in children(series[0], "tx"):
        parts += [(v.text or "").strip() for v in descendants(name, "v")]
    return one_line(parts)


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
