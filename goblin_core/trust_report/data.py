"""The trust report's data: a summary and one record per document and page.

The same data feeds ``goblin report --format json`` and the HTML page, so the
numbers a reviewer sees are the numbers a pipeline can read.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from goblin_core.errors import CorruptDocument
from goblin_core.model import Document, Page

REPORT_SCHEMA_VERSION = 1
PAGE_STATUSES = ("clean", "recovered", "ocr", "empty", "corrupt", "failed")
#: Characters of page text carried per page: enough to review, bounded for big batches.
PAGE_TEXT_CHARS = 4000


@dataclass(frozen=True)
class DocumentRecord:
    """One document of the report: its pages when known, else the manifest's totals."""

    name: str
    mime: str
    file_type: str
    status: str
    pages: tuple[dict[str, Any], ...]
    page_count: int
    engines: tuple[str, ...]
    seconds: float
    errors: tuple[dict[str, str], ...]
    warnings: tuple[dict[str, str], ...]
    page_statuses: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "mime": self.mime,
            "type": self.file_type,
            "status": self.status,
            "page_count": self.page_count,
            "page_statuses": dict(self.page_statuses),
            "engines": list(self.engines),
            "seconds": self.seconds,
            "errors": list(self.errors),
            "warnings": list(self.warnings),
            "pages": list(self.pages),
        }


def _file_type(name: str, mime: str) -> str:
    last = name.rsplit("/", 1)[-1]
    if "." in last.strip("."):
        return last.rsplit(".", 1)[-1].lower()
    return mime.rsplit("/", 1)[-1] if mime else "unknown"


def page_record(page: Page, thumbnail: str | None = None) -> dict[str, Any]:
    """A page as the report shows it: status, engine, confidence, attempts, text."""
    text = page.text
    return {
        "number": page.number,
        "status": page.status,
        "reason": page.reason,
        "engine": page.engine,
        "confidence": page.confidence,
        "verdict": page.verdict,
        "reasons": list(page.reasons),
        "text": text[:PAGE_TEXT_CHARS],
        "text_truncated": len(text) > PAGE_TEXT_CHARS,
        "chars": len(text),
        "hidden_chars": page.hidden_chars,
        "attempts": [
            {"engine": a.engine, "distribution": a.distribution, "verdict": a.verdict,
             "score": a.score, "chars": a.chars, "seconds": a.seconds,
             "error": f"{a.error_kind}: {a.error}" if a.error_kind else "; ".join(a.reasons)}
            for a in page.attempts
        ],
        "thumbnail": thumbnail,
    }


def document_records(
    documents: Iterable[Document], thumbnails: Mapping[tuple[str, int], str] | None = None
) -> list[DocumentRecord]:
    """Every document and archive member, depth-first, as report records."""
    records: list[DocumentRecord] = []
    thumbs = thumbnails or {}
    for top in documents:
        for doc in top.walk():
            if doc.children and not doc.pages and not doc.report.errors:
                continue
            pages = tuple(page_record(p, thumbs.get((doc.name, p.number))) for p in doc.pages)
            records.append(DocumentRecord(
                name=doc.name,
                mime=doc.mime,
                file_type=_file_type(doc.name, doc.mime),
                status=doc.status,
                pages=pages,
                page_count=len(doc.pages),
                engines=tuple(sorted({p.engine for p in doc.pages if p.engine})),
                seconds=doc.report.seconds,
                errors=tuple({"kind": e.kind, "message": e.message} for e in doc.report.errors),
                warnings=tuple({"kind": w.kind, "message": w.message}
                               for w in doc.report.warnings),
                page_statuses=dict(Counter(p.status for p in doc.pages)),
            ))
    return records


def manifest_records(manifest: Path) -> list[DocumentRecord]:
    """Records from a batch's JSONL manifest, with page detail from JSON outputs beside it.

    A line that is not a manifest row raises CorruptDocument naming the file and the line.
    """
    records: list[DocumentRecord] = []
    try:
        lines = manifest.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise CorruptDocument(f"not a manifest (not UTF-8 text: {exc.reason})",
                              file=str(manifest)) from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.extend(_manifest_records(manifest.parent, json.loads(line)))
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise CorruptDocument(
                f"line {number} is not a manifest row ({type(exc).__name__}: {exc}); give the "
                "manifest.jsonl a goblin extract --output run wrote", file=str(manifest),
            ) from exc
    return records


def _manifest_records(folder: Path, row: Mapping[str, Any]) -> list[DocumentRecord]:
    """The records of one manifest row: its JSON result's documents, else the row's totals."""
    detail = _json_output(folder, str(row.get("output", "")))
    if detail is not None:
        return document_records([detail])
    error = str(row.get("error", ""))
    kind, _, message = error.partition(": ")
    return [DocumentRecord(
        name=str(row["path"]),
        mime="",
        file_type=_file_type(str(row["path"]), ""),
        status=str(row.get("status", "")),
        pages=(),
        page_count=int(row.get("pages", 0)),
        engines=tuple(row.get("engines", ())),
        seconds=float(row.get("seconds", 0.0)),
        errors=({"kind": kind, "message": message},) if error else (),
        warnings=(),
        page_statuses=dict(row.get("page_statuses", {})),
    )]


def _json_output(folder: Path, output: str) -> Document | None:
    """The JSON result a manifest row names, read from inside the manifest's folder only:
    a row naming ``../x.json`` or ``/home/x.json`` (a manifest made or edited elsewhere)
    must not bring a file from anywhere else into the report."""
    if not output.endswith(".json"):
        return None
    path = (folder / output).resolve()
    if not path.is_relative_to(folder.resolve()) or not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:  # UnicodeDecodeError is a ValueError too
        raise CorruptDocument(f"not a goblin JSON result ({exc})", file=str(path)) from exc
    return Document.from_dict(data) if isinstance(data, dict) and "pages" in data else None


def summary(records: Sequence[DocumentRecord]) -> dict[str, Any]:
    """Totals: documents, pages, share of pages per status, engines, time, errors by kind."""
    statuses: Counter[str] = Counter()
    engines: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    documents: Counter[str] = Counter()
    for record in records:
        documents[record.status] += 1
        statuses.update(record.page_statuses)
        if record.pages:
            engines.update(p["engine"] for p in record.pages if p["engine"])
        else:
            engines.update(record.engines)
        errors.update(e["kind"] for e in record.errors)
    pages = sum(statuses.values())
    return {
        "documents": len(records),
        "pages": pages,
        "page_statuses": {s: statuses.get(s, 0) for s in PAGE_STATUSES},
        "page_shares": {s: round(statuses.get(s, 0) / pages, 4) if pages else 0.0
                        for s in PAGE_STATUSES},
        "document_statuses": dict(sorted(documents.items())),
        "engines": dict(engines.most_common()),
        "seconds": round(sum(r.seconds for r in records), 3),
        "errors_by_kind": dict(errors.most_common()),
        "file_types": dict(Counter(r.file_type for r in records).most_common()),
    }


def report_data(
    records: Sequence[DocumentRecord], *, title: str = "goblin trust report"
) -> dict[str, Any]:
    """The whole report as JSON-ready data."""
    return {
        "schema_version": REPORT_SCHEMA_VERSION,
        "title": title,
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "summary": summary(records),
        "documents": [r.to_dict() for r in records],
    }
