"""The trust report, built from real corpus documents and used in headless Chromium."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from goblin_core.cli import cli
from goblin_core.testing.corpus import corpus_dir, manifest, require_binary, skip_or_fail
from goblin_core.trust_report import report_data, report_html
from goblin_core.trust_report.data import DocumentRecord

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _first_with(root: Path, feature: str, prefix: str) -> Path:
    """The smallest corpus file under ``prefix`` with a MANIFEST feature."""
    found = [root / r.file for r in manifest(root)
             if r.file.startswith(prefix) and feature in r.features]
    assert found, f"no corpus file under {prefix} with feature {feature}"
    return min(found, key=lambda p: p.stat().st_size)


@pytest.fixture(scope="module")
def corpus_inputs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = corpus_dir(__file__)
    clean = root / "pdf" / "002-trivial-libre-office-writer.pdf"
    broken = _first_with(root, "garbage-text-layer", "pdf/")
    scanned = _first_with(root, "scanned", "pdf/")
    archive = _first_with(root, "contains-pdf", "archives/")
    ocr_layer = _first_with(root, "ocr-text-layer", "pdf/")
    return [clean, broken, scanned, archive, ocr_layer]


def _run_report(inputs: list[Path], out: Path, fmt: str) -> dict[str, Any] | str:
    from click.testing import CliRunner

    result = CliRunner().invoke(
        cli, ["report", *map(str, inputs), "--format", fmt, "-o", str(out), "--jobs", "2"],
        catch_exceptions=False)
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    return json.loads(text) if fmt == "json" else text


@pytest.fixture(scope="module")
def built(corpus_inputs: list[Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("report")
    os.environ.setdefault("GOBLIN_CACHE", str(folder / "cache"))
    data = _run_report(corpus_inputs, folder / "report.json", "json")
    assert isinstance(data, dict)
    # The page is built from the very data the JSON report holds.
    (folder / "report.html").write_text(report_html(data), encoding="utf-8")
    return {"data": data, "html": folder / "report.html"}


def test_the_cli_writes_a_self_contained_html_report(tmp_path: Path) -> None:
    sample = tmp_path / "nota.txt"
    sample.write_text("Relatório de conferência: página limpa.", encoding="utf-8")
    html = _run_report([sample], tmp_path / "out.html", "html")
    assert isinstance(html, str)
    assert html.startswith("<!DOCTYPE html>") and "Relatório de conferência" in html
    assert "http://" not in html and "https://" not in html


def test_summary_counts_equal_the_json_report(built: dict[str, Any]) -> None:
    data = built["data"]
    summary = data["summary"]
    pages = [p for d in data["documents"] for p in d["pages"]]
    assert summary["pages"] == len(pages) > 0
    for status, count in summary["page_statuses"].items():
        assert count == sum(1 for p in pages if p["status"] == status), status
    assert summary["documents"] == len(data["documents"])
    statuses = set(summary["page_statuses"][s] > 0 and s for s in summary["page_statuses"])
    assert "clean" in statuses and ({"corrupt", "ocr", "recovered"} & statuses)
    assert any("/" in d["name"] for d in data["documents"]), "archive members are listed"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    chromium = require_binary("chromium", "chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("playwright is not installed (pip install playwright)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def axe_script(tmp_path_factory: pytest.TempPathFactory) -> str:
    npm = require_binary("npm", "npm")
    folder = tmp_path_factory.mktemp("axe")
    done = subprocess.run([npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix",
                           str(folder), "axe-core@4"], capture_output=True, text=True, timeout=300,
                          check=False)
    script = folder / "node_modules" / "axe-core" / "axe.min.js"
    if done.returncode != 0 or not script.is_file():
        skip_or_fail(f"axe-core could not be installed from npm: {done.stderr[-500:]}")
    return script.read_text(encoding="utf-8")


def _open(browser: Any, path: Path) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("request", lambda r: problems.append(f"network: {r.url}")
            if not r.url.startswith(("file:", "data:")) else None)
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='true']")
    return page, problems


def test_report_in_a_browser(browser: Any, built: dict[str, Any], axe_script: str) -> None:
    data = built["data"]
    summary = data["summary"]
    page, problems = _open(browser, built["html"])
    cards = page.locator("#cards .card").all_inner_texts()
    assert f"{summary['documents']}\ndocuments" in cards
    assert f"{summary['pages']}\npages" in cards

    # Click a thumbnail: that page's text and attempts appear.
    doc = next(d for d in data["documents"] if d["pages"] and d["pages"][0]["text"].strip())
    page.locator(f"#doc-body tr[data-name='{doc['name']}']").click()
    page.locator("#details .thumb[data-page='1']").click()
    shown = page.locator("#page-text").inner_text()
    assert doc["pages"][0]["text"].split()[0] in shown
    attempts = page.locator("#page-detail table tbody tr")
    assert attempts.count() == len(doc["pages"][0]["attempts"])

    # A page whose text layer is an OCR drawn invisible over a scan says so.
    layered = next(d for d in data["documents"] if d["pages"] and d["pages"][0]["hidden_chars"])
    page.locator(f"#doc-body tr[data-name='{layered['name']}']").click()
    page.locator("#details .thumb[data-page='1']").click()
    info = page.locator("#page-detail p").first.inner_text()
    assert f"{layered['pages'][0]['hidden_chars']} characters of its text the document does " \
        "not show (an OCR layer drawn invisible over a scan" in info

    # Filter to corrupt pages: only those remain, in the page list and in the details.
    page.select_option("#filter-view", "pages")
    page.select_option("#filter-status", "corrupt")
    rows = page.locator("#page-body tr")
    assert rows.count() == min(summary["page_statuses"]["corrupt"], 50)
    assert set(page.locator("#page-body tr").evaluate_all(
        "rows => rows.map(r => r.dataset.status)")) <= {"corrupt"}
    if summary["page_statuses"]["corrupt"]:
        rows.first.click()
        statuses = page.locator("#details .thumb").evaluate_all("b => b.map(x => x.dataset.status)")
        assert statuses and set(statuses) == {"corrupt"}

    page.add_script_tag(content=axe_script)
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [(v["id"], v["impact"], len(v["nodes"])) for v in result["violations"]
               if v["impact"] in ("serious", "critical")]
    assert serious == []

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "trust-report.png"), full_page=False)
    assert problems == []
    page.close()


def _synthetic_records(count: int) -> list[DocumentRecord]:
    statuses = ("clean", "recovered", "ocr", "empty", "corrupt", "failed")
    records = []
    for i in range(count):
        status = statuses[i % len(statuses)]
        records.append(DocumentRecord(
            name=f"lote-{i // 100:03d}/edital-{i:05d}.pdf", mime="application/pdf",
            file_type="pdf", status="clean" if status in ("clean", "empty") else
            "partially_recovered", pages=(), page_count=3, engines=("pdf.pypdfium2",),
            seconds=0.1, errors=(), warnings=(), page_statuses={"clean": 2, status: 1}))
    return records


def test_ten_thousand_documents_load_and_filter_in_under_two_seconds(
    browser: Any, tmp_path: Path
) -> None:
    path = tmp_path / "big.html"
    records = _synthetic_records(10_000)
    path.write_text(report_html(report_data(records)), encoding="utf-8")
    expected = sum(1 for r in records if "edital-0999" in r.name and "corrupt" in r.page_statuses)
    assert expected > 0
    started = time.perf_counter()
    page, problems = _open(browser, path)
    page.fill("#search", "edital-0999")
    page.select_option("#filter-status", "corrupt")
    page.wait_for_function(
        f"document.querySelector('#doc-count').textContent.startsWith('{expected} of')")
    elapsed = time.perf_counter() - started
    assert elapsed < 2.0, f"{elapsed:.2f}s"
    assert page.locator("#doc-body tr").count() == expected
    assert problems == []
    page.close()
