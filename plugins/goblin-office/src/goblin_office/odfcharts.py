"""The titles of the charts embedded in OpenDocument documents, read where the chart sits.

An ODF chart is an embedded document of its own: ``draw:object`` in a frame points at a
package folder (``Object 1/``, whose content.xml holds ``office:chart``) or, in a flat
document, holds the chart's ``office:document`` inline. Its title, subtitle and axis
titles are the words a reader sees on it, read as the Word, Excel and PowerPoint readers
read a chart's (the chart's title, then its axes'); its data table is the document's own
numbers, left to the cells or the chart's replacement picture.
"""

from __future__ import annotations

import logging
import zipfile
from collections.abc import Mapping
from typing import Any

from goblin_core.errors import CorruptDocument, UnsafeArchive
from goblin_office.containers import read_member
from goblin_office.diagrams import one_line
from goblin_office.odfobjects import manifest_entries, subdocument
from goblin_office.odftext import inline_text
from goblin_office.safexml import attr, children, local_name, parse_xml

log = logging.getLogger(__name__)

#: ODF's chart namespace and OpenOffice.org 1.x's, whose charts name the same elements
_CHART_NAMESPACES = frozenset(
    {"urn:oasis:names:tc:opendocument:xmlns:chart:1.0", "http://openoffice.org/2000/chart"}
)
#: (kind, message) of each chart left out of a package for being damaged
Problems = list[tuple[str, str]]


def chart_lines(document: Any) -> list[str]:
    """The title, subtitle and axis titles of the chart an ODF document (its root element,
    or an inline ``office:document``) holds, each on one line; [] when it holds no chart.

    >>> from lxml import etree
    >>> chart = etree.fromstring(
    ...     '<c:chart xmlns:c="urn:oasis:names:tc:opendocument:xmlns:chart:1.0" '
    ...     'xmlns:t="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><c:title><t:p>Vendas'
    ...     '</t:p></c:title><c:plot-area><c:axis><c:title><t:p>Mês</t:p></c:title></c:axis>'
    ...     '</c:plot-area></c:chart>')
    >>> chart_lines(chart)
    ['Vendas', 'Mês']
    """
    chart = next((element for element in document.iter("{*}chart") if _in_chart(element)), None)
    if chart is None:
        return []
    titles = [*children(chart, "title"), *children(chart, "subtitle")]
    for area in children(chart, "plot-area"):
        titles += [title for axis in children(area, "axis") for title in children(axis, "title")]
    lines = [one_line(inline_text(p) for p in children(title, "p")) for title in titles]
    return [line for line in lines if line]


def _in_chart(element: Any) -> bool:
    tag = element.tag
    return isinstance(tag, str) and tag[1 : tag.find("}")] in _CHART_NAMESPACES


def package_charts(archive: zipfile.ZipFile, name: str, depth: int) -> tuple[
        dict[str, list[str]], Problems, list[str]]:
    """The lines (``chart_lines``) of each chart embedded in an ODF package, by the folder
    that holds it (``Object 1``), the damaged objects left out, and the members of those
    the manifest calls charts (their titles are text lost).

    The objects embedded as folders that are no text, sheet, presentation or drawing
    (those are children of their own) are read, and their content decides: a formula's
    or any other object's holds no chart. A manifest that does not parse leaves every
    object out; the embedded objects' reading says so.
    """
    try:
        entries = manifest_entries(archive, name, depth)
    except UnsafeArchive:
        raise
    except CorruptDocument:
        return {}, [], []
    members = set(archive.namelist())
    found: dict[str, list[str]] = {}
    problems: Problems = []
    lost: list[str] = []
    for path, kind in entries.items():
        member = f"{path}content.xml"
        if not path.endswith("/") or path == "/" or subdocument(path, kind):
            continue
        if member not in members:
            if "chart" in kind:  # the manifest lists a chart the package lacks
                log.warning("%s: chart %s is missing; left out", name, member)
                problems.append(("CorruptDocument", f"part {member}, a chart the manifest "
                                 "lists, is not in the package; left out"))
                lost.append(member)
            continue
        try:
            root = parse_xml(read_member(archive, member, name), name=f"{name}:{member}",
                             max_depth=depth)
        except UnsafeArchive:
            raise
        except CorruptDocument as exc:  # the chart's titles are lost, not the document's text
            log.warning("%s; the object is left out", exc)
            problems.append((exc.kind, f"part {member} left out: {exc.message}"))
            if "chart" in kind:
                lost.append(member)
            continue
        lines = chart_lines(root)
        if lines:
            found[path.rstrip("/")] = lines
    return found, problems, lost


def object_chart_lines(element: Any, charts: Mapping[str, list[str]]) -> list[str]:
    """The lines of the chart a ``draw:object`` shows: held inline (a flat document), or
    in the package folder its ``xlink:href`` names (``./Object 1``), looked up in ``charts``
    (``package_charts``); [] for any other object."""
    inline = next((child for child in element if local_name(child) == "document"), None)
    if inline is not None:
        return chart_lines(inline)
    target = attr(element, "href").strip()
    target = target.removeprefix("./").rstrip("/")
    return list(charts.get(target, ()))
