"""Formats unar reads: those patool hands it (lha, zoo, dms) and those only unar reads here
(ARC, ALZip, Amiga disk images), damaged, hostile and well-formed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import archives_fixtures as fx
import pytest
from archives_bounded import run_hostile

import goblin_core
from goblin_archives.patool_handler import UNAR_FORMATS
from goblin_archives.plugin import goblin_register_archive_handlers
from goblin_archives.tool_output import unar_report
from goblin_core.errors import CorruptDocument
from goblin_core.testing.corpus import require_binary

ATA = b"ata da reuniao do conselho " * 40
PARECER = b"parecer juridico sobre o edital " * 40
TWO_MEMBERS = [("ata.txt", ATA), ("parecer.txt", PARECER)]


@pytest.fixture
def unar() -> None:
    """unar extracts, lsar lists the names to check (one Debian package)."""
    require_binary("unar", "unar")
    require_binary("lsar", "unar")


def _texts(doc: goblin_core.Document) -> dict[str, str]:
    return {d.name: d.text for d in doc.walk() if d is not doc and d.pages}


@pytest.fixture
def unar_alone(tmp_path_factory: pytest.TempPathFactory,
               monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A PATH holding unar and lsar and no other tool, so that patool runs unar for a
    format another installed tool would take (lhasa's lha for LHA)."""
    from patoolib.util import find_program  # patool remembers what it found

    folder = tmp_path_factory.mktemp("unar-alone")
    for tool in ("unar", "lsar"):
        (folder / tool).symlink_to(require_binary(tool, "unar"))
    monkeypatch.setenv("PATH", str(folder))
    find_program.cache_clear()
    yield
    find_program.cache_clear()


@pytest.mark.usefixtures("unar_alone")
@pytest.mark.parametrize(("suffix", "build"), [("lzh", fx.lzh_bytes), ("zoo", fx.zoo_bytes)])
def test_a_cut_archive_unar_reads_says_it_is_cut_and_keeps_what_came_before(
        tmp_path: Path, suffix: str, build: Callable[[list[tuple[str, bytes]]], bytes]) -> None:
    """unar ends with exit status 1 whatever went wrong: its own report says what."""
    data = build(TWO_MEMBERS)
    path = tmp_path / f"cortado.{suffix}"
    path.write_bytes(data[:len(data) - len(PARECER) // 2])  # half of the second member
    doc = goblin_core.extract(path, ocr="never")
    assert _texts(doc) == {f"cortado.{suffix}/ata.txt": ATA.decode()}
    errors = [e for e in doc.report.errors if not e.message.startswith("member ")]
    assert [e.kind for e in errors] == ["CorruptDocument"]
    assert errors[0].message.startswith(f"cortado.{suffix}: ")
    assert "the archive is truncated or damaged" in errors[0].message
    assert "Attempted to read more data than was available" in errors[0].message
    if suffix == "lzh":  # a Zoo lists nothing past the cut, an LHA the member it cuts
        refused = [m for m in doc.report.members if m.action == "refused"]
        assert [m.name for m in refused] == ["parecer.txt"]
        assert "truncated or damaged" in refused[0].reason

    path.write_bytes(data[:60])  # not even the first member whole
    with pytest.raises(CorruptDocument, match=rf"cortado\.{suffix}: .*the archive is truncated "
                       "or damaged"):
        goblin_core.extract(path, ocr="never")


def test_unars_report_of_what_failed_is_read() -> None:
    said = unar_report("x.zoo: Zoo\n  a.txt  (600 B)... OK.\n  b.txt  (680 B)... Failed! "
                       "(Wrong checksum)\nArchive parsing failed! (Attempted to read more "
                       "data than was available.)\n")
    assert said == ("b.txt: Wrong checksum; archive parsing failed: Attempted to read more "
                    "data than was available")
    assert unar_report("x.bin: Couldn't recognize the archive format.\n") == \
        "couldn't recognize the archive format"
    assert unar_report("x.zoo: Zoo\n  a.txt  (600 B)... OK.\nSuccessfully extracted.\n") == ""


@pytest.mark.usefixtures("unar")
@pytest.mark.parametrize(("name", "build", "mime", "handler"), [
    ("atas.arc", fx.arc_bytes, "application/x-arc", "archive.unar.arc"),
    ("atas.alz", fx.alz_bytes, "application/x-alz-compressed", "archive.unar.alzip"),
    ("atas.adf", fx.adf_bytes, "application/x-adf", "archive.unar.adf"),
])
def test_formats_only_unar_reads_are_read_through_it(
        tmp_path: Path, name: str, build: Callable[[list[tuple[str, bytes]]], bytes],
        mime: str, handler: str) -> None:
    """Without the format's own tool (nomarch, unalz, unadf), which patool would run, unar
    reads it: the patool engine is turned off here, whatever this machine has."""
    without_patool = {handler.replace(".unar.", ".patool."): {"enabled": False}}
    path = tmp_path / name
    path.write_bytes(build(TWO_MEMBERS))
    doc = goblin_core.extract(path, ocr="never", engines=without_patool)
    assert doc.mime == mime
    assert handler in doc.parsed_by
    assert _texts(doc) == {f"{name}/ata.txt": ATA.decode(),
                           f"{name}/parecer.txt": PARECER.decode()}
    assert not doc.report.errors
    # found by its content, whatever it is called
    renamed = path.rename(tmp_path / "anexo")
    assert goblin_core.extract(renamed, ocr="never", engines=without_patool).mime == mime


@pytest.mark.usefixtures("unar")
def test_an_arc_of_hostile_names_writes_nothing_outside_the_destination(tmp_path: Path) -> None:
    """unar writes ``../fora.txt`` of an ARC as ``.._fora.txt``: refused as the archive
    spells it, what unar made of it dropped, the other members read."""
    path = tmp_path / "hostil.arc"
    path.write_bytes(fx.arc_bytes([("ata.txt", ATA), ("../fora.txt", b"ESCAPED"),
                                   ("/raiz.txt", b"ESCAPED"), ("parecer.txt", PARECER)]))
    run = run_hostile(tmp_path, path)
    actions = {m[0]: (m[1], m[2]) for m in run.result["members"]}
    assert actions == {"../fora.txt": ("refused", "path traversal (..) refused"),
                       "/raiz.txt": ("refused", "absolute path refused"),
                       "ata.txt": ("extracted", ""), "parecer.txt": ("extracted", "")}
    assert "ESCAPED" not in " ".join(run.result["texts"])
    written = sorted(Path(p).relative_to(tmp_path / "dest").as_posix()
                     for p in run.result["unpack_written"])
    assert written == ["ata.txt", "parecer.txt"]


@pytest.mark.usefixtures("unar")
def test_an_alzip_bomb_is_stopped_while_unar_writes(tmp_path: Path) -> None:
    path = tmp_path / "bomba.alz"
    path.write_bytes(fx.alz_bytes([("zeros.bin", bytes(64 << 20))], deflate=True))  # ~1000:1
    run = run_hostile(tmp_path, path)
    assert "limits.max_ratio" in str(run.result.get("raised") or run.result["errors"])
    assert not run.result.get("unpack_written")


def test_unar_goes_after_the_tool_patool_has_for_the_same_format() -> None:
    """patool's own tool for a format (nomarch, unalz, unadf) goes first when installed;
    unar reads what it did not, or everything when it is missing."""
    handlers: dict[str, Any] = {}
    goblin_register_archive_handlers(lambda h: handlers.setdefault(h.name, h))
    for fmt in UNAR_FORMATS:
        unar, patool = handlers[f"archive.unar.{fmt.name}"], handlers[f"archive.patool.{fmt.name}"]
        assert unar.formats == patool.formats
        assert unar.priority < patool.priority
