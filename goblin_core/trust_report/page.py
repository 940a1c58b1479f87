"""The trust report as one self-contained HTML file: inline CSS, JS, data and images."""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import Any


def _asset(name: str) -> str:
    return resources.files("goblin_core.trust_report").joinpath("assets", name).read_text("utf-8")


def _script_safe(data: Any) -> str:
    """``data`` as JSON that can stand inside a ``<script>`` element and still parse.

    Every ``<`` is written as the JSON escape ``\\u003c``: then no text of a document
    (``</script>``, ``<!--``, ``<script``) can close the element or change how the browser
    reads it, and the element's text stays JSON that ``JSON.parse`` reads back. (A
    backslash put before ``!`` made ``<!--`` harmless to the browser but is no JSON
    escape, and the whole page failed to load.)
    """
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


#: The page template's slots, filled in one pass: a slot's name inside what fills another
#: (a title naming ``__DATA__``) is then left as it is.
_SLOTS = re.compile("__(TITLE|CSS|JS|DATA)__")


def report_html(data: dict[str, Any]) -> str:
    """The HTML page for report data (see ``report_data``); it needs no network."""
    fills = {
        "TITLE": html.escape(str(data.get("title", "goblin trust report"))),
        "CSS": _asset("report.css"),
        "JS": _asset("report.js"),
        "DATA": _script_safe(data),
    }
    return _SLOTS.sub(lambda slot: fills[slot.group(1)], _asset("report.html"))
