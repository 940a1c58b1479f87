"""ocr.tesseract with a binary that misbehaves: hangs, crashes, floods stderr, prints junk.

A fake ``tesseract`` script answers ``--version`` and ``--list-langs`` with the
real binary's answers and misbehaves only when asked to read a page.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest
from PIL import Image

from goblin_core import default_registry
from goblin_core.config import Config
from goblin_core.deadline import document_deadline
from goblin_core.errors import EngineFailed, ExtractionTimeout
from goblin_ocr_tesseract.backend import TesseractBackend
from goblin_ocr_tesseract.languages import tessdata_folder
from goblin_ocr_tesseract.words import mean_confidence, parse_tsv

DrawPage = Callable[..., Image.Image]


def fake_tesseract(folder: Path, tesseract: str, misbehaviour: str) -> str:
    """A script that passes availability probes to ``tesseract`` and runs ``misbehaviour``."""
    script = folder / "tesseract"
    script.write_text(
        "#!/bin/sh\n"
        f'case " $* " in *" --version "*|*" --list-langs "*) exec {tesseract} "$@";; esac\n'
        f"{misbehaviour}\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


def config(command: str, **tesseract: object) -> Config:
    return default_registry().config(tesseract={"command": command, **tesseract})


def test_a_hanging_binary_is_stopped_with_a_clear_timeout(
    tesseract: str, tmp_path: Path, page_image: DrawPage
) -> None:
    # the sleep is a child of the script: it must die with it, not hold the page
    command = fake_tesseract(tmp_path, tesseract, f"sleep 300; echo done > {tmp_path}/woke")
    started = time.monotonic()
    with pytest.raises(ExtractionTimeout, match=r"tesseract\.timeout \(2 s\)"):
        TesseractBackend().recognize(page_image(), "eng", config(command, timeout=2))
    assert time.monotonic() - started < 15
    found = subprocess.run(["pgrep", "-f", "sleep 300"], capture_output=True, check=False)
    assert str(os.getpid()) not in found.stdout.decode()
    assert not (tmp_path / "woke").exists()


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="POSIX interval timers")
def test_a_run_interrupted_by_its_caller_stops_tesseract_and_what_it_started(
    tesseract: str, tmp_path: Path, page_image: DrawPage
) -> None:
    # Ctrl-C reaches the caller's process group only; Tesseract runs in a
    # session of its own, so it must be ended on the way out
    pid_file = tmp_path / "sleep.pid"
    command = fake_tesseract(tmp_path, tesseract, f"sleep 300 & echo $! > {pid_file}; wait")

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 1.5)
    try:
        with pytest.raises(KeyboardInterrupt):
            TesseractBackend().recognize(page_image(), "eng", config(command, timeout=60))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    sleeper = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _running(sleeper) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(sleeper), "the run's child process outlived the interrupted run"


def _running(pid: int) -> bool:
    try:
        return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


def test_a_hanging_binary_stops_when_the_documents_time_is_up(
    tesseract: str, tmp_path: Path, page_image: DrawPage
) -> None:
    # tesseract.timeout would allow a minute; the document has two seconds left
    command = fake_tesseract(tmp_path, tesseract, "exec sleep 300")
    started = time.monotonic()
    with document_deadline(time.monotonic() + 2), \
            pytest.raises(ExtractionTimeout, match=r"document had left of limits\.timeout"):
        TesseractBackend().recognize(page_image(), "eng", config(command, timeout=60))
    assert time.monotonic() - started < 10


def test_no_run_starts_once_the_documents_time_is_up(
    tesseract: str, tmp_path: Path, page_image: DrawPage
) -> None:
    command = fake_tesseract(tmp_path, tesseract, f"echo ran > {tmp_path}/ran")
    with document_deadline(time.monotonic() - 1), \
            pytest.raises(ExtractionTimeout, match="no time was left"):
        TesseractBackend().recognize(page_image(), "eng", config(command, timeout=60))
    assert not (tmp_path / "ran").exists()


def test_every_pass_over_a_page_shares_one_timeout(
    tesseract: str, tmp_path: Path, page_image: DrawPage
) -> None:
    # the first run reads; every later pass (enlarged, levelled, upright...) hangs
    count = tmp_path / "runs"
    command = fake_tesseract(
        tmp_path, tesseract,
        f'n=$(cat {count} 2>/dev/null || echo 0); echo $((n+1)) > {count}\n'
        f'if [ "$n" -ge 1 ]; then exec sleep 300; fi\nexec {tesseract} "$@"',
    )
    tiny_tilted = page_image(size=9, margin=8).rotate(4, expand=True, fillcolor=255)
    started = time.monotonic()
    result = TesseractBackend().recognize(tiny_tilted, "eng",
                                          config(command, timeout=4, orientation_below=1.0))
    elapsed = time.monotonic() - started
    assert int(count.read_text()) >= 2, "no second pass ran: the test proves nothing"
    assert result.text, "the first reading is kept"
    assert elapsed < 8, f"{elapsed:.1f} s: each pass got its own timeout"


def test_a_crashing_binary_is_a_failure_naming_the_signal(
    tesseract: str, tmp_path: Path, page_image: DrawPage
) -> None:
    command = fake_tesseract(tmp_path, tesseract, "kill -SEGV $$")
    with pytest.raises(EngineFailed, match=r"Tesseract failed on a \d+x\d+ page image: "
                                           r"Tesseract ended with status -11"):
        TesseractBackend().recognize(page_image(), "eng", config(command))


def test_a_page_tesseract_crashed_on_is_a_lost_page_in_the_report(
    tesseract: str, tmp_path: Path, page_image: DrawPage
) -> None:
    command = fake_tesseract(tmp_path, tesseract, "echo 'Segmentation fault' >&2; exit 139")
    path = tmp_path / "scan.png"
    page_image().save(path)
    done = subprocess.run(
        [sys.executable, "-m", "goblin_core.cli", "extract", str(path), "--ocr", "always",
         "-O", f"tesseract.command={command}"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1, done.stderr
    assert "page 1: EngineFailed: Tesseract failed on a" in done.stderr
    assert "status 139: Segmentation fault" in done.stderr


def _peak_rss_of(code: str, env: dict[str, str]) -> tuple[int, str]:
    """Peak RSS in KB of a child Python running ``code``, and its stdout."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120, check=True)
    return int(done.stdout.split()[-1]), done.stdout


def test_a_flood_of_error_output_is_not_held_in_memory(
    tesseract: str, tmp_path: Path
) -> None:
    command = fake_tesseract(
        tmp_path, tesseract,
        "head -c 200000000 /dev/zero | tr '\\0' 'x' >&2; echo 'last words' >&2; exit 1")
    code = (
        "import logging, resource\n"
        "from PIL import Image, ImageDraw\n"
        "from goblin_core import default_registry\n"
        "from goblin_ocr_tesseract.backend import TesseractBackend\n"
        "page = Image.new('L', (400, 100), 255)\n"
        "ImageDraw.Draw(page).text((10, 40), 'flood', fill=0)\n"
        f"cfg = default_registry().config(tesseract={{'command': {command!r}}})\n"
        "seen = []\n"
        "logging.getLogger().addHandler(logging.Handler())\n"
        "logging.getLogger().handlers[-1].emit = lambda r: seen.append(r.getMessage())\n"
        "try:\n"
        "    TesseractBackend().recognize(page, 'eng', cfg)\n"
        "except Exception as failure:\n"
        "    seen.append(str(failure))\n"
        "    print(type(failure).__name__)\n"
        "print(max(len(m) for m in seen), any('last words' in m for m in seen))\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    peak, out = _peak_rss_of(code, {})
    lines = out.splitlines()
    assert lines[0] == "EngineFailed"
    longest, said = lines[1].split()
    assert int(longest) < 10_000 and said == "True"
    assert peak < 300_000, f"peak RSS {peak} KB"


@pytest.mark.parametrize("tsv", [
    "level\theight\tconf\ttext\n5\t12\tinf\tfar\n5\t12\t1e308\tfar\n",
    "level\theight\tconf\ttext\n5\t12\tnan\tx\n5\t12\t-1\t\n",
    "level\tleft\ttop\twidth\theight\tconf\ttext\n5\t0\t0\t9\t99999999999999999999\t90\tx\n",
    "level\theight\tconf\ttext\n5\t12\t90\t" + "x" * 200_000 + "\n",
    "not a table at all\n\x00\x01\xff\n",
], ids=["infinite", "nan", "huge-box", "long-field", "junk"])
def test_junk_in_the_word_table_is_read_as_missing(tsv: str) -> None:
    words = parse_tsv(tsv)
    assert 0.0 <= mean_confidence(words) <= 1.0
    assert all(0 <= w.confidence <= 100 and max(w.box) <= 1 << 16 for w in words)


def test_junk_in_the_binary_output_gives_no_traceback(
    tesseract: str, tmp_path: Path, page_image: DrawPage
) -> None:
    # outputs named after the base (second argument): txt, tsv, hocr and osd
    junk = "conf\\ttext\\ninf\\tfar\\n" + "x" * 300_000
    command = fake_tesseract(
        tmp_path, tesseract,
        f'for e in txt tsv hocr osd; do printf "{junk}\\377\\n" > "$2.$e"; done\n'
        'printf "Rotate: 1e999\\nOrientation confidence: nan\\nScript: x: y\\n" > "$2.osd"')
    result = TesseractBackend().recognize(page_image(), "eng",
                                          config(command, orientation_below=1.0))
    assert 0.0 <= result.confidence <= 1.0


def test_osd_report_junk_is_ignored() -> None:
    from goblin_ocr_tesseract.reading import _osd

    assert _osd("Rotate: 1e999\nOrientation confidence: nan\nWhat: 3\n") == {}


def test_a_tessdata_folder_with_quotes_in_its_name_is_one_argument(
    tesseract: str, tmp_path: Path, page_image: DrawPage
) -> None:
    folder = tmp_path / 'odd "name'
    folder.mkdir()
    (folder / "eng.traineddata").symlink_to(
        Path(tessdata_folder(tesseract)) / "eng.traineddata")
    args = tmp_path / "args"
    command = fake_tesseract(tmp_path, tesseract,
                             f'for a in "$@"; do echo "$a"; done > {args}; exit 1')
    with pytest.raises(EngineFailed, match="status 1"):
        TesseractBackend().recognize(page_image(), "eng",
                                     config(command, tessdata_dir=str(folder)))
    assert str(folder) in args.read_text().splitlines()


@pytest.mark.parametrize("languages", ["eng;touch${IFS}pwned", "eng$(touch pwned)",
                                       "+".join(["eng"] * 3 + [f"x{i}" for i in range(50)])])
def test_hostile_language_strings_run_nothing(
    tesseract: str, tmp_path: Path, page_image: DrawPage, languages: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    started = time.monotonic()
    result = TesseractBackend().recognize(page_image(), languages, config("tesseract"))
    assert time.monotonic() - started < 30
    assert not (tmp_path / "pwned").exists()
    assert 0.0 <= result.confidence <= 1.0
