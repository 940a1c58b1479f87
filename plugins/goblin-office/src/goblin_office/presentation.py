"""PowerPoint presentations (.pptx .pptm .ppsx .ppsm .potx .potm) read with python-pptx.

One page per slide: shape text in reading order (top to bottom, then left to
right, groups opened), tables as rows, speaker notes and comments after.

A part python-pptx cannot load (it parses every XML part before it reads one)
is left out of a copy of the package with a warning naming it; a damaged slide
becomes an empty one, so only its own page fails, and so does a slide the package
does not hold (its part or relationship missing).
"""

from __future__ import annotations

import io
import logging
import zipfile
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine, BaseParsedDocument
from goblin_core.errors import CorruptDocument, GoblinError
from goblin_core.model import PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.content_types import with_rebuilt_content_types
from goblin_office.diagrams import (
    axis_titles,
    body_lines,
    chart_title,
    data_relationships,
    diagram_lines,
)
from goblin_office.layout import PageBuilder
from goblin_office.ooxml import (
    MendedPackage,
    PackageXml,
    lost_parts_message,
    package_children,
    plain_package,
    without_damaged_parts,
)
from goblin_office.safexml import attr, children, local_name

log = logging.getLogger(__name__)

# python-pptx's placeholder type names; compared by name so the module loads
# without importing python-pptx (it costs every worker a second otherwise).
_TITLES = ("TITLE", "CENTER_TITLE", "VERTICAL_TITLE")
_CHART = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_SHAPE_ELEMENTS = frozenset({"sp", "grpSp", "graphicFrame", "cxnSp", "pic"})


def _alternate_shapes(shapes: Any) -> list[Any]:
    """The shapes a slide or group keeps in ``mc:AlternateContent``, which python-pptx
    does not list: PowerPoint wraps a shape so when it holds an equation or ink.

    The first choice is read, as PowerPoint does; the fallback is mostly a picture
    of the same shape.
    """
    found = []
    for alternate in shapes._element.iterchildren(f"{_MC}AlternateContent"):
        branch = next(alternate.iterchildren(f"{_MC}Choice", f"{_MC}Fallback"), None)
        for element in branch if branch is not None else ():
            if local_name(element) in _SHAPE_ELEMENTS:
                found.append(shapes._shape_factory(element))
    return found


def _reading_order(shapes: Any) -> list[Any]:
    def key(shape: Any) -> tuple[int, int]:
        try:
            top, left = shape.top, shape.left
        except KeyError:
            # a placeholder placed by its layout, which the slide's damaged or missing
            # relationships no longer find: its text is still the slide's own, a title
            # first, as it is drawn
            top = left = -1 if _is_title(shape) else None
        return (
            top if top is not None else 1 << 40,
            left if left is not None else 1 << 40,
        )

    return sorted(shapes, key=key)


def _is_title(shape: Any) -> bool:
    if not shape.is_placeholder:
        return False
    try:
        return getattr(shape.placeholder_format.type, "name", None) in _TITLES
    except ValueError:
        return False


class _SlideReader:
    def __init__(self, page: PageBuilder, parts: PackageXml) -> None:
        self.page = page
        self.parts = parts

    def shapes(self, shapes: Any) -> None:
        for shape in _reading_order([*shapes, *_alternate_shapes(shapes)]):
            self.shape(shape)

    def shape(self, shape: Any) -> None:
        if getattr(shape.shape_type, "name", None) == "GROUP":
            self.shapes(shape.shapes)
            return
        if getattr(shape, "has_table", False) and shape.has_table:
            rows = [[cell.text for cell in row.cells] for row in shape.table.rows]
            self.page.add_table(rows, header_rows=1 if shape.table.first_row else 0)
            return
        if getattr(shape, "has_chart", False) and shape.has_chart:
            try:
                chart = shape.chart
            except KeyError:
                # its part was left out of the package (damaged: a warning names it), or
                # the slide's relationships that found it are damaged or missing
                self._unfound(shape, "chart")
                return
            self._chart(chart)
            return
        references = data_relationships(shape._element)
        if references:
            self._smartart(shape, references[0][1])
            return
        if shape.has_text_frame:
            self._text(shape)

    def _smartart(self, shape: Any, relationship: str) -> None:
        try:
            part = shape.part.related_part(relationship)
        except KeyError:
            self._unfound(shape, "SmartArt graphic")
            return
        data = _part_xml(self.parts, part)  # a damaged graphic costs only its own text
        if data is None:
            return
        for line in diagram_lines(data):
            self.page.add(line)

    def _unfound(self, shape: Any, what: str) -> None:
        """Note the part of a ``what`` (a chart) drawn in ``shape`` as not found: its text
        is lost (one left out as damaged is also named as such)."""
        slide = str(shape.part.partname).lstrip("/")
        self.parts.missing(f"{slide} ({what} {shape.name!r})", slide,
                           f"the {what} of shape {shape.name!r}")

    def _text(self, shape: Any) -> None:
        title = _is_title(shape)
        for paragraph in shape.text_frame.paragraphs:
            # paragraph.text keeps line breaks (as \v) and field text (slide numbers,
            # dates), which the paragraph's runs leave out
            text = paragraph.text
            kind = "heading" if title else ("list_item" if paragraph.level > 0 else "paragraph")
            # a heading is one line (markdown ends it at a line break): its breaks are spaces
            breaks = " " if title else "\n"
            self.page.add(text.replace("\x0b", breaks), kind, 2 if title else 0)

    def _chart(self, chart: Any) -> None:
        self.page.add(chart_title(chart._chartSpace))
        try:
            categories, rows = _plotted(chart)
        except NotImplementedError:
            # python-pptx models only some chart types (not 3-D area, surface, stock...);
            # the values the chart part caches are there for every type
            categories, rows = _cached(chart._chartSpace)
        header = [["", *categories]] if categories else []
        self.page.add_table(header + rows, title="chart", header_rows=1 if categories else 0)
        for title in axis_titles(chart._chartSpace):
            self.page.add(title)


def _plotted(chart: Any) -> tuple[list[str], list[list[str]]]:
    """Categories and one row per series, as python-pptx models the chart."""
    try:
        categories = [str(c) for c in chart.plots[0].categories] if chart.plots else []
    except (IndexError, ValueError, KeyError):
        categories = []
    rows = [
        [series.name or "", *(_number(v) for v in series.values)]
        for plot in chart.plots
        for series in plot.series
    ]
    return categories, rows


def _cached(space: Any) -> tuple[list[str], list[list[str]]]:
    """Categories and one row per series, from the values cached in the chart XML."""
    categories: list[str] = []
    rows: list[list[str]] = []
    for series in space.iter(f"{_CHART}ser"):
        if not categories:
            categories = _cached_values(series, "cat", "xVal")
        name = " ".join(_cached_values(series, "tx"))
        rows.append([name, *_cached_values(series, "val", "yVal")])
    return categories, rows


def _cached_values(series: Any, *tags: str) -> list[str]:
    for tag in tags:
        element = series.find(f"{_CHART}{tag}")
        if element is not None:
            return [_number(_as_number(v.text or "")) for v in element.iter(f"{_CHART}v")]
    return []


def _as_number(text: str) -> float | str:
    try:
        return float(text)
    except ValueError:
        return text


def _number(value: Any) -> str:
    from goblin_office.cells import cell_text

    return cell_text(value)


class _PresentationDocument(BaseParsedDocument):
    def __init__(
        self,
        source: Source,
        presentation: Any,
        config: Config,
        engine: str,
        children: list[Source],
        data: bytes,
        unreadable: set[str] | None = None,
    ) -> None:
        self.source = source
        #: part names of the slides whose part was damaged (an empty slide in its place)
        self.unreadable = unreadable or set()
        self.warnings: list[tuple[str, str]] = []
        #: the package python-pptx read, for the parts it keeps as bytes (comments, their
        #: authors, SmartArt data); the damaged ones it leaves out are in ``warnings``
        self.parts = PackageXml(zipfile.ZipFile(io.BytesIO(data)), source.display_name, config)
        self.parts.left_out = self.warnings
        self.presentation = presentation
        self.config = config
        self.engine = engine
        self.children = children
        #: each slide the presentation lists, None for one whose part cannot be had
        self.slides: list[Any | None] = []
        #: why, by slide number, a slide's part cannot be had
        self.missing: dict[int, str] = {}
        self._list_slides()
        self.page_count = len(self.slides)
        self.metadata = _properties(presentation)
        hidden = [n for n, slide in enumerate(self.slides, start=1)
                  if slide is not None and _hidden(slide)]
        if hidden:
            self.metadata["hidden_slides"] = hidden
        self._authors: dict[str, str] | None = None
        #: the damaged parts left out as the package was loaded whose text is lost (a
        #: notes slide, a chart); the slides' own are failed pages instead
        self.text_lost: list[str] = []

    @property
    def left_out(self) -> str:  # type: ignore[override]
        """The damaged parts whose text is lost: those left out as the package was loaded,
        then those found damaged as the slides were read (comments, SmartArt data)."""
        return lost_parts_message(list(dict.fromkeys([*self.text_lost,
                                                      *self.parts.text_lost])))

    def _list_slides(self) -> None:
        """Each slide in the order the presentation lists them: one whose relationship
        or part the package lacks (python-pptx drops a relationship to a missing part)
        is None, with a warning naming it, so the others keep their numbers."""
        from pptx.slide import Slides

        entries = self.presentation._element.sldIdLst
        if entries is None:
            return
        # Presentation.slides first renames every slide part after its place in the list,
        # which fails whole over one missing slide (and would make a slide's part name
        # differ from its member in the package): the list is read as it stands
        listed = Slides(entries, self.presentation)
        for number, entry in enumerate(entries.sldId_lst, start=1):
            try:
                self.slides.append(listed[number - 1])
            except (KeyError, AttributeError) as exc:
                # KeyError: no such relationship; AttributeError: it names a part that is
                # no slide (python-pptx's part has no .slide)
                why = self._missing_part(str(entry.rId), exc)
                log.warning("%s: slide %d left out: %s", self.source.display_name, number, why)
                self.warnings.append(("CorruptDocument", f"slide {number} left out: {why}"))
                self.missing[number] = why
                self.slides.append(None)

    def _missing_part(self, relationship: str, exc: Exception) -> str:
        """Why the slide the presentation names by ``relationship`` cannot be had."""
        holder = str(self.presentation.part.partname).lstrip("/")
        target = self.parts.rels(holder).get(relationship)
        if target is None:
            return f"the presentation names it by relationship {relationship}, which it lacks"
        if self.parts.member(target[1]) is None:
            return f"its part {target[1]} is not in the package"
        return f"its part {target[1]} cannot be read as a slide ({exc!r})"

    def pages(self) -> Iterator[PageContent]:
        for number, slide in enumerate(self.slides, start=1):
            if slide is None:
                yield PageContent(number, error=f"slide {number} is missing: "
                                  f"{self.missing[number]}")
            else:
                yield self._slide(number, slide)

    def _slide(self, number: int, slide: Any) -> PageContent:
        if str(slide.part.partname) in self.unreadable:
            return PageContent(number, error=f"slide {number} is damaged: its part "
                               f"{slide.part.partname} cannot be read")
        page = PageBuilder(number=number, label=slide.name or f"slide {number}", engine=self.engine)
        self._missing_links(slide)
        reader = _SlideReader(page, self.parts)
        try:
            reader.shapes(slide.shapes)
        except (ValueError, KeyError, AttributeError, NotImplementedError) as exc:
            # python-pptx raises NotImplementedError for parts it does not model
            return PageContent(number, text=page.text, error=f"slide {number} is damaged: {exc}")
        if self.config.get("office", "notes", True):
            notes = self._notes(slide)
            if notes.strip():
                page.add(f"Notes: {notes}")
        if self.config.get("office", "comments", True):
            for comment in self._comments(slide):
                page.add(comment)
        if _hidden(slide):
            # the deck holds it, and a slide show skips it: counted as Word's hidden text is
            page.hidden = len(page.text)
        return page.build()

    def attachments(self) -> Iterator[Source]:
        return iter(self.children)

    def _notes(self, slide: Any) -> str:
        """The speaker notes of ``slide``; of a slide whose relationships part is damaged
        or missing, those of the notes part that links back to it (each notes slide names
        its slide)."""
        if slide.has_notes_slide:
            frame = slide.notes_slide.notes_text_frame
            return frame.text if frame is not None else ""
        partname = str(slide.part.partname).lstrip("/")
        if self.parts.rels(partname) and not self.parts.relationships_damaged(partname):
            return ""
        for member in sorted(self.parts.names):
            if not member.startswith("ppt/notesSlides/") or not member.endswith(".xml"):
                continue
            if any(kind.endswith("/slide") and target == partname
                   for kind, target in self.parts.rels(member).values()):
                root = self.parts.optional_xml(member, holds_text=True)
                return "\n".join(_notes_body_lines(root)) if root is not None else ""
        return ""

    def _missing_links(self, slide: Any) -> None:
        """Note the parts holding text the slide links but the package does not hold (its
        notes, a chart, SmartArt data, comments): python-pptx drops such a relationship
        as it loads the package, so the slide would read as if it had none."""
        wanted = [*_GRAPHIC_LINKS,
                  *(("/notesSlide",) if self.config.get("office", "notes", True) else ()),
                  *(("/comments",) if self.config.get("office", "comments", True) else ())]
        partname = str(slide.part.partname).lstrip("/")
        for kind, target in self.parts.rels(partname).values():
            if kind.endswith(tuple(wanted)) and self.parts.member(target) is None:
                self.parts.missing(target, partname)

    def _comments(self, slide: Any) -> Iterator[str]:
        """The comments on ``slide``, each followed by its replies: the legacy ones
        (``p:cmLst``) and PowerPoint 365's (``ppt/comments/modernComment_*.xml``), whose
        relationship types both end in ``/comments``."""
        for part in _related_parts(slide.part, "/comments"):
            root = _part_xml(self.parts, part)
            for comment in children(root, "cm") if root is not None else ():
                yield from self._comment(comment)
                for replies in children(comment, "replyLst"):
                    for reply in children(replies, "reply"):
                        yield from self._comment(reply)

    def _comment(self, comment: Any) -> Iterator[str]:
        # legacy comments keep plain text in p:text, modern ones DrawingML paragraphs
        texts = [(t.text or "").strip() for t in children(comment, "text")]
        text = "\n".join(t for t in [*texts, *body_lines(children(comment, "txBody"))] if t)
        if text:
            author = self._comment_authors().get(attr(comment, "authorId"))
            yield f"Comment ({author}): {text}" if author else f"Comment: {text}"

    def _comment_authors(self) -> dict[str, str]:
        """Author id -> name, from the presentation's legacy comment authors part (numeric
        ids, ``p:cmAuthor``) and its modern one (``ppt/authors.xml``: GUIDs, ``author``)."""
        if self._authors is None:
            self._authors = {}
            for suffix in ("/commentAuthors", "/authors"):
                for part in _related_parts(self.presentation.part, suffix):
                    root = self.parts.optional_xml(str(part.partname).lstrip("/"))
                    for author in root if root is not None else ():
                        if local_name(author) in ("cmAuthor", "author") and attr(author, "name"):
                            self._authors[attr(author, "id")] = attr(author, "name")
        return self._authors


def _notes_body_lines(notes: Any) -> list[str]:
    """The lines of a notes slide's notes placeholder (``p:ph type="body"``), the text
    python-pptx's ``notes_text_frame`` holds."""
    for shape in notes.iter("{*}sp"):
        placeholder = shape.find("{*}nvSpPr/{*}nvPr/{*}ph")
        if placeholder is not None and attr(placeholder, "type") == "body":
            return [line for body in children(shape, "txBody") for paragraph in
                    children(body, "p") for line in [_paragraph_text(paragraph)]]
    return []


def _paragraph_text(paragraph: Any) -> str:
    """A DrawingML paragraph's text, its line breaks as line breaks."""
    return "".join("\n" if local_name(element) == "br" else (element.text or "")
                   for element in paragraph.iter("{*}t", "{*}br"))


#: the relationship types (their endings) of the graphics whose text a slide shows
_GRAPHIC_LINKS = ("/chart", "/diagramData")


def _part_xml(package: PackageXml, part: Any) -> Any | None:
    """A python-pptx part's XML, read from the package with the hardened parser; None when
    it is damaged, which costs only its own text."""
    return package.optional_xml(str(part.partname).lstrip("/"), holds_text=True)


def _related_parts(part: Any, suffix: str) -> Iterator[Any]:
    """The parts ``part`` links to in the package with a relationship type ending in
    ``suffix``."""
    for rel in part.rels.values():
        if not rel.is_external and rel.reltype.endswith(suffix):
            yield rel.target_part


def _hidden(slide: Any) -> bool:
    """Whether the slide is hidden from the slide show (``show="0"`` on ``p:sld``)."""
    return str(slide._element.get("show", "1")).lower() in ("0", "false")


def _properties(presentation: Any) -> dict[str, Any]:
    """docProps/core.xml through python-pptx, under the keys and in the form the other
    OOXML readers give: python-pptx turns a W3CDTF date into a naive datetime in UTC."""
    props = presentation.core_properties
    found = {
        "title": props.title,
        "author": props.author,
        "created": _utc(props.created),
        "modified": _utc(props.modified),
        "language": props.language,
        "subject": props.subject,
        "keywords": props.keywords,
        "last_modified_by": props.last_modified_by,
        "description": props.comments,
    }
    return {k: v for k, v in found.items() if v}


def _utc(moment: datetime | None) -> str | None:
    return f"{moment.replace(tzinfo=None).isoformat()}Z" if moment is not None else None


# Main-part content types of the slide show and template variants (ppsx, potx and
# their macro-enabled forms). python-pptx's Presentation() accepts only .pptx and
# .pptm, and has no part class for the two macro-enabled ones, though all four
# hold the very same presentation part.
_MACRO_MAIN_PARTS = (
    "application/vnd.ms-powerpoint.slideshow.macroEnabled.main+xml",
    "application/vnd.ms-powerpoint.template.macroEnabled.main+xml",
)


def _open_presentation(data: bytes) -> Any:
    from pptx.opc.package import PartFactory
    from pptx.package import Package
    from pptx.parts.presentation import PresentationPart

    for content_type in _MACRO_MAIN_PARTS:
        PartFactory.part_type_for.setdefault(content_type, PresentationPart)
    part = Package.open(io.BytesIO(data)).main_document_part
    if not isinstance(part, PresentationPart):
        raise ValueError(f"the main part is not a presentation (content type {part.content_type})")
    return part.presentation


class PptxParser(BaseEngine):
    """python-pptx for pptx, pptm and the show and template variants: slides, notes, comments."""

    name = "office.pptx"
    formats = (fmt.PPTX,)
    priority = 50

    def open(self, source: Source, config: Config) -> _PresentationDocument:
        plain = plain_package(source, config)
        mended = MendedPackage(with_rebuilt_content_types(plain.bytes()))
        slides: set[str] = set()  # part names of the slides an empty one stands in for
        mended_types: dict[str, str] = {}  # damaged member -> its content type
        try:
            presentation = _open_presentation(mended.data)
        except GoblinError:
            raise
        except Exception as exc:  # python-pptx raises KeyError, ValueError, lxml errors...
            # python-pptx loads every part first: one damaged theme or layout stopped it
            def stand_in(member: str, content_type: str) -> bytes | None:
                mended_types[member] = content_type
                if content_type == _SLIDE_TYPE:
                    slides.add(f"/{member}")
                return _empty_part(content_type)

            mended = without_damaged_parts(mended.data, source.display_name, stand_in,
                                           _is_xml_part)
            if not mended.damaged:
                raise CorruptDocument(f"python-pptx cannot read the presentation ({exc})",
                                      file=source.display_name) from exc
            try:
                presentation = _open_presentation(mended.data)
            except Exception as again:
                raise CorruptDocument(
                    f"python-pptx cannot read the presentation ({exc}), nor without its "
                    f"damaged parts ({', '.join(sorted(mended.damaged))}: {again})",
                    file=source.display_name) from again
        children = package_children(plain, config)
        try:
            document = _PresentationDocument(source, presentation, config, self.name, children,
                                             mended.data, slides)
        except (KeyError, ValueError, AttributeError) as exc:
            # the slide list names relationships a damaged relationships part took along
            raise CorruptDocument(f"python-pptx cannot list the slides ({exc})"
                                  f"{_damage(mended)}", file=source.display_name) from exc
        if document.slides and all(slide is None for slide in document.slides):
            # one slide missing costs its page; all of them, the presentation's own
            # relationships (or the package) are what is damaged
            raise CorruptDocument(
                f"no slide the presentation lists ({len(document.slides)}) can be read "
                f"(slide 1: {document.missing[1]}){_damage(mended)}",
                file=source.display_name)
        document.warnings.extend(mended.warnings())
        document.text_lost = [member for member in sorted(mended.damaged)
                              if _holds_text(mended_types.get(member, ""))]
        return document


def _damage(mended: MendedPackage) -> str:
    """The damaged parts left out of the package, for an error message."""
    return f"; damaged: {', '.join(sorted(mended.damaged))}" if mended.damaged else ""


def _holds_text(content_type: str) -> bool:
    """Whether a part of ``content_type`` is read for its text besides the slides (a
    damaged slide is a failed page of its own): notes, comments, charts, SmartArt data."""
    return content_type.endswith(("notesSlide+xml", "comments+xml", "drawingml.chart+xml",
                                  "diagramData+xml"))


def _is_xml_part(member: str) -> bool:
    """Whether python-pptx parses member ``member`` as it loads the package: every XML
    part and relationships part (the ones it keeps as bytes are few and cheap to check)."""
    return member.lower().endswith((".xml", ".rels"))


_PRESENTATIONML = "application/vnd.openxmlformats-officedocument.presentationml."
_SLIDE_TYPE = _PRESENTATIONML + "slide+xml"
#: The root element of each part that has a shape tree, by content type: an empty one
#: stands in for a damaged part, so the slides keep their numbers and a slide's
#: placeholders still find their layout and master (with nothing to inherit).
_SHAPE_TREE_ROOTS = {
    _SLIDE_TYPE: "sld",
    _PRESENTATIONML + "slideLayout+xml": "sldLayout",
    _PRESENTATIONML + "slideMaster+xml": "sldMaster",
    _PRESENTATIONML + "notesSlide+xml": "notes",
    _PRESENTATIONML + "notesMaster+xml": "notesMaster",
}
_EMPTY_SHAPE_TREE = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<p:{root} xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main">'
    '<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/>'
    "</p:nvGrpSpPr><p:grpSpPr/></p:spTree></p:cSld></p:{root}>"
)


def _empty_part(content_type: str) -> bytes | None:
    root = _SHAPE_TREE_ROOTS.get(content_type)
    return None if root is None else _EMPTY_SHAPE_TREE.format(root=root).encode()
