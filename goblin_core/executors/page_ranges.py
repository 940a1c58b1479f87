"""Huge documents split into page ranges, and the partial Documents merged back.

A range is ``"FIRST-LAST"`` (1-based, inclusive) in ``goblin.page_range``.
The pipeline keeps only the pages inside it, whatever the parser; parsers
that can seek read ``goblin.page_range`` themselves and skip the rest cheaply.
Attachments are read by the first range only, so a merged Document has each
of them once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from goblin_core.engines import Task, TaskResult
from goblin_core.errors import ConfigError
from goblin_core.executors.worker import WorkerResult
from goblin_core.model import Document, Report

_Entry = TypeVar("_Entry", bound=Hashable)


def parse_page_range(text: str) -> tuple[int, int] | None:
    """``"101-200"`` -> (101, 200); ``"7"`` -> (7, 7); ``""`` -> None (all pages)."""
    text = text.strip()
    if not text:
        return None
    first, dash, last = text.partition("-")
    try:
        start = int(first)
        end = int(last) if dash else start
    except ValueError as exc:
        raise ConfigError(f"goblin.page_range {text!r} is not FIRST-LAST (e.g. 101-200)") from exc
    if start < 1 or end < start:
        raise ConfigError(f"goblin.page_range {text!r}: pages count from 1 and LAST >= FIRST")
    return start, end


def split_ranges(page_count: int, pieces: int) -> list[str]:
    """``page_count`` pages cut into ``pieces`` contiguous ranges of near-equal size."""
    pieces = max(1, min(pieces, page_count))
    size, extra = divmod(page_count, pieces)
    ranges, start = [], 1
    for index in range(pieces):
        end = start + size - 1 + (1 if index < extra else 0)
        ranges.append(f"{start}-{end}")
        start = end + 1
    return ranges


def merge_partials(parts: Sequence[Document]) -> Document:
    """One Document from the Documents of consecutive page ranges of one file.

    Pages keep their own numbers (each range numbered them as in the whole
    file); the reports are joined, seconds summed; name, type, metadata and
    attachments come from the first range.
    """
    if not parts:
        raise ValueError("merge_partials needs at least one partial Document")
    first = parts[0]
    ordered = sorted(parts, key=lambda d: d.pages[0].number if d.pages else 0)
    engines = list(dict.fromkeys(e for d in ordered for e in d.parsed_by))
    report = Report(
        errors=_unique(e for d in ordered for e in d.report.errors),
        warnings=_unique(w for d in ordered for w in d.report.warnings),
        members=first.report.members,
        seconds=round(sum(d.report.seconds for d in ordered), 4),
        detected=first.report.detected,
        ocr_pages=tuple(n for d in ordered for n in d.report.ocr_pages),
        truncated=any(d.report.truncated for d in ordered),
    )
    return dataclasses.replace(
        first,
        pages=tuple(p for d in ordered for p in d.pages),
        children=tuple(c for d in ordered for c in d.children),
        parsed_by=tuple(engines),
        report=report,
    )


def _unique(entries: Iterable[_Entry]) -> tuple[_Entry, ...]:
    # The same document-level warning (an encryption note, say) comes back
    # from every range; it is one fact, reported once.
    return tuple(dict.fromkeys(entries))


@dataclass
class _Group:
    original: Task
    expected: int
    parts: list[TaskResult] = field(default_factory=list)


class PageSplitter:
    """Splits documents longer than ``split_above`` pages across idle workers.

    A document given to a worker while others sit idle is read for its first
    ``split_above`` pages only; when its page count says there are more, the
    rest is cut into one range per worker and queued first, and the partial
    Documents are merged into one result when the last range is back. A
    document that is short, fails, or starts when no worker is idle is read
    whole, as before.
    """

    def __init__(self, settings: Mapping[str, Any], split_above: int, workers: int) -> None:
        self.core = dict(settings.get("goblin", {}))
        self.split_above = split_above
        self.workers = workers
        # Formats whose parsers seek to a range: others would read every earlier page
        # again in each range, so their rest is read as one range.
        self.formats = frozenset(self.core.get("split_formats", ("application/pdf",)))
        self._first: dict[int, Task] = {}
        self._groups: dict[int, _Group] = {}
        self._group_of: dict[int, int] = {}

    def prepare(self, task: Task, idle: int) -> Task:
        """The task to send: its first range when other workers are idle."""
        if self.split_above <= 0 or idle < 1 or task.path is None or task.data is not None:
            return task
        if task.options.get("goblin", {}).get("page_range"):
            return task  # already a range (of a split, or the caller's own): never cut again
        first = self._ranged(task, f"1-{self.split_above}", attachments=None)
        self._first[id(first)] = task
        return first

    def finished(self, result: TaskResult) -> tuple[list[Task], TaskResult | None]:
        """New range tasks to run first, and the result to hand on (None: wait for more)."""
        original = self._first.pop(id(result.task), None)
        if original is not None:
            return self._after_first(original, result)
        key = self._group_of.pop(id(result.task), None)
        if key is None:
            return [], result
        group = self._groups[key]
        group.parts.append(result)
        if len(group.parts) < group.expected:
            return [], None
        del self._groups[key]
        merged = merge_partials([part.document for part in group.parts])
        seconds = sum(part.seconds for part in group.parts)
        # replace() keeps what an executor's result carries beyond TaskResult; the first
        # range's, which is no failure (a failed first range is not split)
        whole = dataclasses.replace(group.parts[0], task=group.original, document=merged,
                                    seconds=seconds)
        if isinstance(whole, WorkerResult):  # each range's page images
            whole = dataclasses.replace(whole, thumbnails={
                key: image for part in group.parts if isinstance(part, WorkerResult)
                for key, image in part.thumbnails.items()})
        return [], whole

    def _after_first(
        self, original: Task, result: TaskResult
    ) -> tuple[list[Task], TaskResult | None]:
        document = result.document
        total = int(document.metadata.get("page_count") or 0)
        if total <= self.split_above or document.status == "failed" or not document.pages:
            # replace() keeps what an executor's result carries beyond TaskResult (its error).
            return [], dataclasses.replace(result, task=original)
        rest = total - self.split_above
        pieces = max(1, min(self.workers, -(-rest // max(1, self.split_above // 4))))
        if document.mime not in self.formats:
            pieces = 1
        ranges = [_shifted(r, self.split_above) for r in split_ranges(rest, pieces)]
        tasks = [self._ranged(original, r, attachments=False) for r in ranges]
        key = id(original)
        self._groups[key] = _Group(original, expected=len(tasks) + 1, parts=[result])
        for task in tasks:
            self._group_of[id(task)] = key
        return tasks, None

    def _ranged(self, task: Task, pages: str, attachments: bool | None) -> Task:
        core = {**self.core, **dict(task.options.get("goblin", {})), "page_range": pages}
        if attachments is not None:
            core["attachments"] = attachments
        return dataclasses.replace(task, options={**task.options, "goblin": core})


def _shifted(pages: str, offset: int) -> str:
    first, _, last = pages.partition("-")
    return f"{int(first) + offset}-{int(last) + offset}"
