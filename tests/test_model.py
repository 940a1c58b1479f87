"""The model: Documents and Pages, offsets, walk order, JSON round trip, status rules."""

from __future__ import annotations

import json
import pickle

import pytest

from goblin_core import Attempt, Document, Page, Report, Table, extract
from goblin_core.model import SCHEMA_VERSION, ReportEntry


def _page(number: int, text: str, status: str = "clean") -> Page:
    return Page(number=number, text=text, engine="tests.parser", status=status,  # type: ignore[arg-type]
                confidence=1.0,
                attempts=(Attempt("tests.parser", "tests==1", "ok", 1.0, len(text)),))


def test_text_joins_own_pages_and_offsets_point_into_it() -> None:
    document = Document("a.pdf", "application/pdf",
                        pages=(_page(1, "first"), _page(2, ""), _page(3, "third page")))
    assert document.text == "first\n\n\n\nthird page"
    for page, (start, end) in zip(document.pages, document.page_offsets, strict=True):
        assert document.text[start:end] == page.text


def test_children_text_is_not_in_the_parent_and_walk_is_depth_first_sorted() -> None:
    inner = Document("outer.zip/b/inner.txt", "text/plain", pages=(_page(1, "inner"),))
    b = Document("outer.zip/b", "application/zip", children=(inner,))
    a = Document("outer.zip/a.txt", "text/plain", pages=(_page(1, "a text"),))
    outer = Document("outer.zip", "application/zip", children=(b, a))
    assert outer.text == ""
    assert [d.name for d in outer.walk()] == [
        "outer.zip", "outer.zip/a.txt", "outer.zip/b", "outer.zip/b/inner.txt"]


def test_json_round_trip_keeps_everything_and_names_the_schema() -> None:
    table = Table(rows=(("Item", "Valor"), ("Cimento", "R$ 10,00")), page=1, header_rows=1)
    page = Page(1, "Cimento R$ 10,00", "tests.parser", "recovered", 0.8, verdict="ok",
                tables=(table,), alternatives=(("tests.ocr", "Cimento RS 10,00"),),
                attempts=(Attempt("tests.parser", "tests==1", "garbage", 0.1, 16, 0.01,
                                  reasons=("garbage",)),
                          Attempt("tests.recovery", "tests==1", "ok", 0.8, 16, 0.02)))
    child = Document("a.zip/x.txt", "text/plain", pages=(_page(1, "child"),))
    document = Document("a.zip", "application/zip", pages=(page,), children=(child,),
                        metadata={"title": "Planilha"}, parsed_by=("tests.parser",),
                        report=Report(errors=(ReportEntry("OutputLimitReached", "cut", page=1),),
                                      ocr_pages=(1,), truncated=True))
    data = json.loads(json.dumps(document.to_dict()))
    assert data["schema_version"] == SCHEMA_VERSION
    assert data["status"] == "partially_recovered"
    assert data["pages"][0]["attempts"][1]["engine"] == "tests.recovery"
    assert Document.from_dict(data) == document


def test_documents_pickle_for_worker_processes() -> None:
    document = extract(b"some text for a worker", name="w.txt")
    assert pickle.loads(pickle.dumps(document)) == document


def test_documents_are_frozen() -> None:
    document = extract(b"text", name="a.txt")
    with pytest.raises(AttributeError):
        document.name = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("statuses", "expected"),
    [
        (["clean"], "clean"),
        (["clean", "empty"], "clean"),
        (["empty"], "clean"),
        (["clean", "recovered"], "partially_recovered"),
        (["ocr", "corrupt"], "partially_recovered"),
        (["clean", "failed"], "partially_recovered"),
        (["corrupt", "empty"], "corrupt_unrecoverable"),
        (["corrupt", "failed"], "corrupt_unrecoverable"),
        (["failed"], "failed"),
    ],
)
def test_overall_status_rule(statuses: list[str], expected: str) -> None:
    pages = tuple(_page(i, "x", s) for i, s in enumerate(statuses, start=1))
    assert Document("a", "x/y", pages=pages).status == expected


def test_document_without_pages_is_failed_only_with_errors() -> None:
    assert Document("a.zip", "application/zip").status == "clean"
    failed = Document("a.bin", "application/octet-stream",
                      report=Report(errors=(ReportEntry("UnsupportedFormat", "no reader"),)))
    assert failed.status == "failed" and failed.error is not None


def test_an_archive_with_a_refused_member_is_partial_when_another_member_was_read() -> None:
    refusal = Report(errors=(ReportEntry("UnsafeArchive", "member 'bomb.txt' refused"),))
    read = Document("a.zip/good.txt", "text/plain", pages=(_page(1, "kept"),))
    unread = Document("a.zip/bad.pdf", "application/pdf",
                      report=Report(errors=(ReportEntry("CorruptDocument", "no xref"),)))
    assert Document("a.zip", "application/zip", report=refusal,
                    children=(read, unread)).status == "partially_recovered"
    assert Document("a.zip", "application/zip", report=refusal,
                    children=(unread,)).status == "failed"
    # a nested archive counts by what was read inside it
    inner = Document("a.zip/b.zip", "application/zip", report=refusal, children=(read,))
    assert Document("a.zip", "application/zip", report=refusal,
                    children=(inner,)).status == "partially_recovered"


def test_children_listed_out_of_name_order_survive_the_json_round_trip() -> None:
    later = Document("a.zip/z.txt", "text/plain", pages=(_page(1, "last by name"),))
    earlier = Document("a.zip/b.txt", "text/plain", pages=(_page(1, "first by name"),))
    archive = Document("a.zip", "application/zip", children=(later, earlier))
    back = Document.from_dict(json.loads(json.dumps(archive.to_dict())))
    assert back == archive
    assert [c.name for c in archive.children] == ["a.zip/b.txt", "a.zip/z.txt"]
    assert [c["name"] for c in archive.to_dict()["children"]] == ["a.zip/b.txt", "a.zip/z.txt"]
