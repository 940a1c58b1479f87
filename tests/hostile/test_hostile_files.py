"""Hostile files through `goblin extract`, the Python API and `goblin unpack`.

For each: the documented outcome (an error kind in the report, or the
harmless text), under 20 s and 1 GiB peak RSS in a child process, and nothing
written outside the destination.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import hostile_files as build
from hostile_runner import HostileRunner, Run

PASSWD_MARK = "root:x:0:0"


@dataclass(frozen=True)
class Case:
    """A hostile file and what goblin must make of it.

    ``kinds``: the report (or the raised error) holds at least one of these
    error kinds; empty means the file is harmless and must give ``text``.
    ``refused``: member names that must be refused.
    """

    builder: Callable[[Path], Path]
    kinds: frozenset[str] = frozenset()
    text: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()
    archive: bool = False
    options: dict[str, object] = field(default_factory=dict)


CASES: dict[str, Case] = {
    "deflate-bomb": Case(build.deflate_bomb, frozenset({"UnsafeArchive"}), archive=True),
    "nested-bomb": Case(build.nested_bomb, frozenset({"UnsafeArchive"}), archive=True),
    "gzip-bomb": Case(build.gzip_bomb, frozenset({"UnsafeArchive"}), archive=True),
    "path-traversal": Case(
        build.traversal_zip,
        frozenset({"UnsafeArchive"}),
        text=("harmless member text",),
        forbidden=("ESCAPED-BY-DOTDOT",),
        refused=("../../escaped.txt",),
        archive=True,
    ),
    "link-escapes": Case(
        build.link_tar,
        frozenset({"UnsafeArchive"}),
        text=("harmless tar member",),
        refused=("etc-link", "up-link", "passwd-hard"),
        archive=True,
    ),
    "device-members": Case(
        build.device_tar,
        frozenset({"UnsafeArchive"}),
        text=("regular file beside devices",),
        refused=("dev/null-copy", "dev/sda-copy", "dev/pipe"),
        archive=True,
    ),
    "setuid-member": Case(build.setuid_tar, text=("setuid text",), archive=True),
    "200000-members": Case(build.many_members_zip, frozenset({"UnsafeArchive"}), archive=True),
    "40-level-nesting": Case(build.deep_nesting_zip, frozenset({"UnsafeArchive"}), archive=True),
    "encrypted-zip": Case(build.encrypted_zip, frozenset({"PasswordRequired"}), archive=True),
    "xxe-xml": Case(build.xxe_xml, forbidden=(PASSWD_MARK,)),
    "xxe-svg": Case(build.xxe_svg, forbidden=(PASSWD_MARK,)),
    "xxe-docx": Case(build.xxe_docx, forbidden=(PASSWD_MARK,)),
    "xxe-xlsx": Case(build.xxe_xlsx, forbidden=(PASSWD_MARK,)),
    "xxe-odt": Case(build.xxe_odt, forbidden=(PASSWD_MARK,)),
    "laughs-xml": Case(build.laughs_xml, forbidden=("lol" * 1000,)),
    "laughs-svg": Case(build.laughs_svg, forbidden=("lol" * 1000,)),
    "laughs-docx": Case(build.laughs_docx, forbidden=("lol" * 1000,)),
    "laughs-xlsx": Case(build.laughs_xlsx, forbidden=("lol" * 1000,)),
    "laughs-odt": Case(build.laughs_odt, forbidden=("lol" * 1000,)),
    "zip-bomb-docx": Case(
        build.zip_bomb_docx, frozenset({"UnsafeArchive", "FileTooLarge", "CorruptDocument"})
    ),
    "gigapixel-png": Case(build.gigapixel_png, frozenset({"FileTooLarge"})),
    "looping-page-tree": Case(build.looping_page_tree_pdf),
    "cyclic-references": Case(build.cyclic_reference_pdf, text=("Cyclic page text",)),
    "huge-declared-sizes": Case(build.huge_declared_sizes_pdf, text=("Huge sizes text",)),
    "5000-annotations": Case(build.many_annotations_pdf, text=("Annotated page text",)),
    "60000-widgets": Case(build.many_widgets_pdf, text=("Widget page text", "field1: value 1")),
    "looping-ole-xls": Case(build.looping_ole_xls, frozenset({"CorruptDocument"})),
    "looping-ole-doc": Case(build.looping_ole_doc, frozenset({"CorruptDocument"})),
    "sparse-corner-xlsx": Case(build.sparse_corner_xlsx, text=("cell text",)),
    "gigapixel-scan-pdf": Case(build.gigapixel_scan_pdf),
    "form-xobject-bomb": Case(build.form_bomb_pdf, frozenset({"CorruptDocument"})),
    "pdf-dense-content": Case(build.dense_content_pdf, frozenset({"CorruptDocument"})),
    "pdf-repeated-content": Case(build.repeated_content_pdf, frozenset({"CorruptDocument"})),
    "pdf-million-strings": Case(build.million_strings_pdf, frozenset({"CorruptDocument"})),
    "form-text-bomb": Case(build.form_text_bomb_pdf, frozenset({"CorruptDocument"})),
    "pdf-stamp-form-bomb": Case(build.stamp_form_bomb_pdf, text=("Stamp bomb page",)),
    "self-drawing-form": Case(build.self_drawing_form_pdf, frozenset({"CorruptDocument"})),
    "self-kids-page-tree": Case(build.self_kids_pdf, frozenset({"CorruptDocument"})),
    "pdf-attachment-bomb": Case(
        build.attachment_bomb_pdf,
        frozenset({"FileTooLarge"}),
        text=("Page beside the bomb",),
        # the ratio limit set out of reach: the size of the one member is what is checked
        # here (pdf-attachment-ratio checks the ratio); decoding stops at the first crossed
        options={"max_member_size": "64MB", "max_ratio": 100_000},
    ),
    "ods-repeated-cells": Case(build.repeated_cells_ods, text=("Repeated header",)),
    "pdf-content-bomb": Case(build.content_bomb_pdf, frozenset({"FileTooLarge"})),
    "pdf-object-stream-bomb": Case(build.object_stream_bomb_pdf, frozenset({"FileTooLarge"})),
    "pdf-lzw-font-bomb": Case(build.lzw_font_bomb_pdf, frozenset({"FileTooLarge"})),
    "pdf-ascii85-font-bomb": Case(build.ascii85_font_bomb_pdf, frozenset({"FileTooLarge"})),
    "pdf-attachment-ratio": Case(
        build.attachment_ratio_pdf, frozenset({"UnsafeArchive"}), text=("Page beside the bomb",)
    ),
    "overlapping-zip": Case(
        build.overlapping_zip,
        frozenset({"UnsafeArchive"}),
        text=("text of the honest member",),
        refused=("zeros.bin",),
        archive=True,
    ),
    "small-members-tgz": Case(build.small_members_tgz, frozenset({"UnsafeArchive"}), archive=True),
    "huge-member-txz": Case(build.huge_member_txz, frozenset({"UnsafeArchive"}), archive=True),
    "sparse-tar": Case(
        build.sparse_tar,
        frozenset({"UnsafeArchive"}),
        text=("harmless tar member beside the sparse ones",),
        archive=True,
    ),
    "many-text-members": Case(
        build.many_text_members_zip,
        frozenset({"OutputLimitReached"}),
        text=("Edital item 00000",),
        options={"max_output_chars": 20_000_000},
    ),
    "500-part-mail": Case(
        build.many_parts_eml,
        frozenset({"UnsafeArchive"}),
        text=("Body of the many-part mail",),
        options={"max_members": 100},
    ),
}


def _kinds(run: Run) -> set[str]:
    result = run.result
    if "raised" in result:
        return {result["raised"]}
    return set(result.get("errors", ()))


def _check(case: Case, run: Run) -> None:
    result = run.result
    text = result.get("text", "")
    if case.kinds:
        assert case.kinds & _kinds(run), result
    for phrase in case.text:
        assert phrase in text, result
    for phrase in case.forbidden:
        assert phrase not in text, f"{phrase[:40]!r} leaked"
    for name in case.refused:
        assert name in result.get("refused", []), result.get("refused")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hostile-inputs")
    return {name: case.builder(folder) for name, case in CASES.items()}


@pytest.mark.parametrize("name", list(CASES))
def test_python_api(name: str, built: dict[str, Path], hostile: HostileRunner) -> None:
    case = CASES[name]
    run = hostile.api(built[name], **case.options)
    _check(case, run)
    hostile.assert_contained([hostile.root / "in"])


@pytest.mark.parametrize("name", list(CASES))
def test_goblin_extract(name: str, built: dict[str, Path], hostile: HostileRunner) -> None:
    case = CASES[name]
    limits = [arg for key, value in case.options.items() for arg in ("-O", f"limits.{key}={value}")]
    run = hostile.cli("extract", str(built[name]), "--format", "json", *limits)
    assert run.code in (0, 1), run.stderr[-2000:]
    if run.stdout.strip():
        data = json.loads(run.stdout)
        docs = data if isinstance(data, list) else [data]
        text = json.dumps(docs, ensure_ascii=False)
        for phrase in case.forbidden:
            assert phrase not in text
        for phrase in case.text:
            assert phrase in text
    else:
        assert case.kinds, "no output for a harmless file"
        assert run.code == 1 and "goblin:" in run.stderr
    hostile.assert_contained([hostile.root / "in"])


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c.archive])
def test_goblin_unpack(name: str, built: dict[str, Path], hostile: HostileRunner) -> None:
    dest = hostile.root / "dest"
    run = hostile.cli("unpack", str(built[name]), str(dest))
    assert run.code in (0, 1), run.stderr[-2000:]
    hostile.assert_contained([hostile.root / "in", dest])
    for path in dest.rglob("*") if dest.exists() else []:
        assert not path.is_symlink(), path
        if path.is_file():
            mode = path.stat().st_mode
            assert not mode & (stat.S_ISUID | stat.S_ISGID), f"setuid kept on {path}"
            assert stat.S_ISREG(mode)
            assert "ESCAPED-BY-DOTDOT" not in path.read_text(errors="replace")


def test_the_right_password_opens_the_encrypted_zip(
    built: dict[str, Path], hostile: HostileRunner
) -> None:
    run = hostile.api(built["encrypted-zip"], password="senha123")
    assert "segredo do edital" in run.result["text"]


def test_a_batch_goes_on_past_every_hostile_file(
    built: dict[str, Path], hostile: HostileRunner
) -> None:
    folder = hostile.root / "in" / "batch"
    folder.mkdir()
    for name in (
        "deflate-bomb",
        "path-traversal",
        "xxe-docx",
        "gigapixel-png",
        "looping-page-tree",
        "encrypted-zip",
    ):
        (folder / built[name].name).write_bytes(built[name].read_bytes())
    (folder / "good.txt").write_text("Edital de licitação: documento bom.", encoding="utf-8")
    out = hostile.root / "in" / "out"
    # Six hostile files and one good one: the ceiling covers the batch, not one file.
    run = hostile.cli(
        "extract", str(folder), "--jobs", "2", "--output", str(out), "--format", "text",
        ceiling=90.0,
    )
    assert run.code == 1
    assert "Edital de licitação: documento bom." in (out / "good.txt.txt").read_text()
    hostile.assert_contained([hostile.root / "in"])


def test_member_names_lose_their_control_characters(
    tmp_path: Path, hostile: HostileRunner
) -> None:
    archive = build.control_names_zip(tmp_path)
    run = hostile.api(archive)
    assert len(run.result["names"]) == 1 + len(build.CONTROL_NAMES), run.result
    dest = hostile.root / "dest"
    unpacked = hostile.cli("unpack", "--no-flatten", str(archive), str(dest))
    written = [p.name for p in dest.iterdir()]
    assert len(written) == len(build.CONTROL_NAMES), written
    # the lines goblin prints may end in newlines; nothing else may be a control character
    for text in [*run.result["names"], *written, unpacked.stderr.replace("\n", "")]:
        assert not [c for c in text if ord(c) < 32 or 127 <= ord(c) < 160], repr(text)


def test_overlapping_entries_are_never_written(
    built: dict[str, Path], hostile: HostileRunner
) -> None:
    dest = hostile.root / "dest"
    run = hostile.cli("unpack", str(built["overlapping-zip"]), str(dest))
    assert run.code == 1
    assert sorted(p.name for p in dest.iterdir()) == ["ok.txt"]
    assert "overlapping-entry" in run.stderr


def test_a_fifo_given_as_input_ends_with_a_clear_error(hostile: HostileRunner) -> None:
    """Opening a FIFO for reading waits for a writer; none ever comes here."""
    fifo = hostile.root / "in" / "pipe.pdf"
    os.mkfifo(fifo)
    run = hostile.api(fifo)
    assert run.result.get("raised") == "UnreadableFile", run.result
    assert "not a regular file" in run.result["message"]
    assert run.code == 0
    cli = hostile.cli("extract", str(fifo))
    assert cli.code == 1 and "pipe.pdf" in cli.stderr
