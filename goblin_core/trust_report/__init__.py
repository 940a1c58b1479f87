"""The trust report: which pages of which files can be trusted, in ten seconds.

``build_report`` turns files, folders or a batch manifest into report data;
``report_html`` makes the self-contained HTML page. The renderers registered
by the built-in plugin (formats ``report`` and ``report-json``) give the same
output for Documents already extracted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from goblin_core.config import Config
from goblin_core.engines import BaseEngine
from goblin_core.model import Document
from goblin_core.registry import Registry
from goblin_core.trust_report.data import (
    DocumentRecord,
    document_records,
    manifest_records,
    report_data,
    summary,
)
from goblin_core.trust_report.page import report_html

if TYPE_CHECKING:  # goblin_core.inputs is imported when a report is built
    from goblin_core.inputs import PathsLike

__all__ = [
    "HTMLReportRenderer",
    "JSONReportRenderer",
    "build_report",
    "document_records",
    "manifest_records",
    "report_data",
    "report_html",
    "summary",
]


def build_report(
    registry: Registry,
    config: Config,
    paths: PathsLike,
    *,
    jobs: int | None = None,
    thumbnails: bool = True,
    progress: Callable[[int, int, str], None] | None = None,
    unreadable: Callable[[str, str], None] | None = None,
    leave_out: str | os.PathLike[str] | None = None,
) -> dict[str, Any]:
    """Report data for files and folders (extracted now) and JSONL manifests (read back);
    one path alone is one path. ``unreadable`` hears the name and the cause of each path
    that could not be read (missing, a dangling link, a pipe), a failed document of the
    report. ``leave_out`` is a file not to report on: the report being written, which
    an earlier run may have put inside a folder given."""
    from goblin_core.inputs import InputProblem, input_paths, tasks_for

    records: list[DocumentRecord] = []
    files: list[str | os.PathLike[str]] = []
    for path in input_paths(paths):
        if str(path).endswith(".jsonl") and Path(path).is_file():
            records.extend(manifest_records(Path(path)))
        else:
            files.append(path)
    from goblin_core.executors.worker import problem_document

    walked = list(tasks_for(files)) if files else []
    skipped = Path(leave_out).resolve() if leave_out is not None else None
    tasks = [t for t in walked if not isinstance(t, InputProblem)
             and (skipped is None or t.path is None or Path(t.path).resolve() != skipped)]
    # a path that could not be read (missing, a dangling link, a pipe) is a failed
    # document of the report, as it is of an extraction
    documents: list[Document] = []
    for problem in (t for t in walked if isinstance(t, InputProblem)):
        documents.append(problem_document(problem))
        if unreadable is not None:
            unreadable(problem.path, f"{documents[-1].report.errors[0].kind}: {problem.message}")
    thumbs: dict[tuple[str, int], str] = {}
    if tasks:
        executor = registry.get("executor.local")
        assert executor is not None
        # the workers draw the thumbnails of what they read: on every core, and a
        # renderer that crashes or hangs loses its document's images, not the report
        results = executor.engine.run(tasks, config, jobs=jobs, thumbnails=thumbnails)
        for done, result in enumerate(results, start=1):
            documents.append(result.document)
            thumbs.update(getattr(result, "thumbnails", {}))
            if progress is not None:
                progress(done, len(tasks), result.task.display_name)
    documents.sort(key=lambda d: d.name)
    records.extend(document_records(documents, thumbs))
    return report_data(records)


class HTMLReportRenderer(BaseEngine):
    """The trust report page for Documents already extracted (no thumbnails)."""

    name = "render.report"
    format = "report"

    def render(self, documents: Sequence[Document], config: Config) -> str:
        return report_html(report_data(document_records(documents)))


class JSONReportRenderer(BaseEngine):
    """The trust report's data as JSON."""

    name = "render.report_json"
    format = "report-json"

    def render(self, documents: Sequence[Document], config: Config) -> str:
        data = report_data(document_records(documents))
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
