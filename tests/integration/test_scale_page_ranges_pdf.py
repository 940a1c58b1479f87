"""Page ranges on real PDFs (goblin-pdf): the pipeline keeps its range, partials merge back."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from goblin_core import default_registry, extract, extract_many
from goblin_core.engines import Task
from goblin_core.executors.page_ranges import merge_partials, split_ranges


def _pdf(path: Path, pages: int) -> Path:
    canvas = Canvas(str(path))
    for number in range(1, pages + 1):
        canvas.setFont("Helvetica", 12)
        canvas.drawString(72, 720, f"Page {number} of the long report: item {number * 7}.")
        canvas.showPage()
    canvas.save()
    return path


def test_the_pipeline_keeps_only_the_pages_in_its_range(tmp_path: Path) -> None:
    pdf = _pdf(tmp_path / "report.pdf", 6)
    part = extract(pdf, goblin={"page_range": "3-4"}, ocr="never")
    assert [p.number for p in part.pages] == [3, 4]
    assert part.pages[0].text.startswith("Page 3 of the long report")
    assert part.metadata["page_count"] == 6


def test_partials_merge_into_the_unsplit_document(tmp_path: Path) -> None:
    pdf = _pdf(tmp_path / "report.pdf", 9)
    whole = extract(pdf, ocr="never")
    parts = [extract(pdf, goblin={"page_range": r}, ocr="never") for r in split_ranges(9, 3)]
    merged = merge_partials(list(reversed(parts)))
    assert merged.text == whole.text
    assert [p.number for p in merged.pages] == list(range(1, 10))
    assert merged.parsed_by == whole.parsed_by
    assert merged.report.errors == whole.report.errors


def test_the_local_executor_splits_a_long_pdf_across_idle_workers(tmp_path: Path) -> None:
    pdf = _pdf(tmp_path / "long.pdf", 30)
    whole = extract(pdf, ocr="never")
    registry = default_registry()
    config = registry.config(ocr="never", goblin={"split_pages": 8})
    executor = registry.get("executor.local").engine
    [result] = list(executor.run([Task(path=str(pdf), display_name="long.pdf")], config, jobs=2))
    assert result.task.display_name == "long.pdf"
    assert result.task.options == {}  # the caller's task, not a range of it
    assert result.document.text == whole.text
    assert [p.number for p in result.document.pages] == list(range(1, 31))
    assert result.document.name == whole.name
    [unsplit] = list(extract_many([pdf], jobs=2, ocr="never", goblin={"split_pages": 0}))
    assert unsplit.text == whole.text


def test_the_splitter_reads_a_first_range_then_queues_the_rest(tmp_path: Path) -> None:
    from goblin_core.engines import TaskResult
    from goblin_core.executors.page_ranges import PageSplitter
    from goblin_core.executors.worker import extract_task

    pdf = _pdf(tmp_path / "long.pdf", 30)
    settings = default_registry().config(ocr="never").to_dict()
    splitter = PageSplitter(settings, split_above=8, workers=2)
    task = Task(path=str(pdf), display_name="long.pdf")
    assert splitter.prepare(task, idle=0) is task  # nobody idle: read whole
    first = splitter.prepare(task, idle=1)
    assert first.options["goblin"]["page_range"] == "1-8"
    more, ready = splitter.finished(TaskResult(first, extract_task(first, settings)))
    assert ready is None
    assert [t.options["goblin"]["page_range"] for t in more] == ["9-19", "20-30"]
    assert all(t.options["goblin"]["attachments"] is False for t in more)
    results = [splitter.finished(TaskResult(t, extract_task(t, settings))) for t in more]
    assert results[0] == ([], None)
    merged = results[1][1]
    assert merged is not None and merged.task is task
    assert merged.document.text == extract(pdf, ocr="never").text


