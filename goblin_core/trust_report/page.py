"""The trust report as one self-contained HTML file: inline CSS, JS, data and images."""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any


def _asset(name: str) -> str:
    return resources.files("goblin_core.trust_report").joinpath("assets", name).read_text("utf-8")


def _script_safe(data: Any) -> str:
    # JSON inside <script> must not close the element or open a comment.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def report_html(data: dict[str, Any]) -> str:
    """The HTML page for report data (see ``report_data``); it needs no network."""
    page = _asset("report.html")
    return (
        page.replace("__TITLE__", html.escape(str(data.get("title", "goblin trust report"))))
        .replace("__CSS__", _asset("report.css"))
        .replace("__JS__", _asset("report.js"))
        .replace("__DATA__", _script_safe(data))
    )
