"""DjVu files built in the tests with DjVuLibre's own encoders, from pages drawn here."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from goblin_core.testing.corpus import require_binary

ENCODERS = ("cjb2", "c44", "djvm", "djvmcvt", "bzz", "djvused", "djvutxt", "ddjvu")


@dataclass(frozen=True)
class DjvuPage:
    """A page to build: ``drawn`` lines on the scan, ``hidden`` the text layer (None: none;
    a string is written as it is, so tests can give zones of their own)."""

    drawn: Sequence[str] = ()
    hidden: Sequence[str] | str | None = None
    colour: bool = False
    dpi: int = 300
    size: tuple[int, int] = (1275, 1650)


MakeDjvu = Callable[..., Path]


@pytest.fixture
def djvulibre() -> None:
    """DjVuLibre's tools; skips (fails under CI) when djvulibre-bin is not installed."""
    for tool in ENCODERS:
        require_binary(tool, "djvulibre-bin")


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def text_layer(page: DjvuPage) -> str:
    """The page's hidden text as djvused's set-txt takes it: a line zone a string."""
    if isinstance(page.hidden, str):
        return page.hidden
    width, height = page.size
    lines = [f"(line 40 {height - 80 * (i + 1)} {width - 40} {height - 80 * i - 20} "
             f"{quoted(line)})" for i, line in enumerate(page.hidden or ())]
    return f"(page 0 0 {width} {height} {' '.join(lines)})"


def _scan(page: DjvuPage, folder: Path, number: int) -> Path:
    """The page drawn and encoded: bitonal with cjb2, colour with c44."""
    mode = "RGB" if page.colour else "1"
    image = Image.new(mode, page.size, "white" if page.colour else 1)
    font = ImageFont.load_default(size=max(12, page.dpi // 8))
    pen = ImageDraw.Draw(image)
    for i, line in enumerate(page.drawn):
        pen.text((40, 40 + i * page.dpi // 5), line, font=font,
                 fill="navy" if page.colour else 0)
    raw = folder / f"p{number}.{'ppm' if page.colour else 'pbm'}"
    image.save(raw)
    encoded = folder / f"p{number}.djvu"
    encoder = "c44" if page.colour else "cjb2"
    subprocess.run([encoder, "-dpi", str(page.dpi), str(raw), str(encoded)], check=True)
    return encoded


def build_djvu(folder: Path, pages: Sequence[DjvuPage], *, name: str = "book.djvu",
               metadata: dict[str, str] | None = None, outline: str = "") -> Path:
    """A bundled DjVu of ``pages`` (a one-page DJVU file for one page), its text layers and
    ``metadata`` and ``outline`` (djvused's ``(bookmarks ...)``) set with djvused."""
    work = folder / f"{name}.parts"
    work.mkdir(parents=True)
    encoded = [_scan(page, work, n) for n, page in enumerate(pages, start=1)]
    target = folder / name
    if len(encoded) == 1:
        target.write_bytes(encoded[0].read_bytes())
    else:
        subprocess.run(["djvm", "-c", str(target), *map(str, encoded)], check=True)
    script = []
    for number, page in enumerate(pages, start=1):
        if page.hidden is not None:
            script += [f"select {number}", "set-txt", text_layer(page), "."]
    if metadata:
        script += ["select", "set-meta", *(f"{k} {quoted(v)}" for k, v in metadata.items()), "."]
    if outline:
        script += ["set-outline", outline, "."]
    if script:
        commands = work / "set.dsed"
        commands.write_text("\n".join([*script, "save", ""]), encoding="utf-8")
        subprocess.run(["djvused", str(target), "-f", str(commands)], check=True)
    return target


@pytest.fixture
def make_djvu(djvulibre: None, tmp_path: Path) -> MakeDjvu:
    def make(pages: Sequence[DjvuPage], **options: object) -> Path:
        return build_djvu(tmp_path, pages, **options)  # type: ignore[arg-type]

    return make
