"""Small page images for the trust report, rendered by the document's own parser and cached.

A thumbnail is drawn by the same ``ParsedDocument.render`` OCR uses, at a low
resolution, and cached on disk by the file's sha256, page and resolution, so
re-running a report on the same files renders nothing twice.
"""

from __future__ import annotations

import base64
import contextlib
import io
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from goblin_core.config import Config
from goblin_core.model import Document
from goblin_core.registry import EngineEntry, Registry
from goblin_core.source import Source

log = logging.getLogger(__name__)

THUMBNAIL_DPI = 24
THUMBNAIL_BOX = (150, 200)
CACHE_ENV = "GOBLIN_CACHE"


def cache_root() -> Path:
    """$GOBLIN_CACHE, else $XDG_CACHE_HOME/goblin, else ~/.cache/goblin."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "goblin"


def _data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _png(image: Any) -> bytes:
    image.thumbnail(THUMBNAIL_BOX)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def thumbnails_for(
    registry: Registry, config: Config, path: Path, document: Document, *, max_pages: int = 200
) -> dict[tuple[str, int], str]:
    """Data URIs of the first ``max_pages`` pages of a top-level document, keyed (name, page).

    Archive members are not re-read (their bytes are gone); a format with no
    page images (text, spreadsheets) simply has none.
    """
    parser = _parser_of(registry, document)
    if parser is None or not document.pages or not document.sha256:
        return {}
    cache = cache_root() / "thumbnails"
    # by number: the pages of one range of a document split across workers are its own
    wanted = [p.number for p in document.pages if p.number <= max_pages]
    found: dict[tuple[str, int], str] = {}
    missing = []
    for number in wanted:
        cached = cache / f"{document.sha256}-{number}-{THUMBNAIL_DPI}.png"
        if cached.is_file():
            found[(document.name, number)] = _data_uri(cached.read_bytes())
        else:
            missing.append(number)
    if missing:
        for number, png in _render(parser.engine, config, path, missing, document.sha256):
            _cache(cache / f"{document.sha256}-{number}-{THUMBNAIL_DPI}.png", png)
            found[(document.name, number)] = _data_uri(png)
    return found


def _cache(path: Path, png: bytes) -> None:
    """Keep ``png`` at ``path`` for later reports, whole or not at all: workers drawing
    the same file at once must not read one another's half-written images. A cache
    that cannot be written (a read-only home) costs the next report the time to draw
    them again, not this report its images."""
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part.write_bytes(png)
        os.replace(part, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            part.unlink(missing_ok=True)
        log.warning("thumbnail not cached in %s: %s", path.parent, exc)


def _parser_of(registry: Registry, document: Document) -> EngineEntry | None:
    for name in document.parsed_by:
        entry = registry.get(name)
        if entry is not None and entry.kind == "parser":
            return entry
    return None


def _render(
    engine: Any, config: Config, path: Path, numbers: list[int], sha256: str
) -> Iterator[tuple[int, bytes]]:
    """PNGs of pages ``numbers`` of the file at ``path``, if it still holds the content
    ``sha256`` names: a file changed since it was read would show other pages, and be
    cached under the old content's name for every later report."""
    try:
        source = Source.from_path(path)
        if source.sha256 != sha256:
            log.warning("no thumbnails for %s: it changed since it was read", path)
            return
        parsed = engine.open(source, config)
    except Exception as exc:  # thumbnails are decoration: the report goes on without them
        log.warning("no thumbnails for %s: %s", path, exc)
        return
    with parsed:
        for number in numbers:
            try:
                image = parsed.render(number, THUMBNAIL_DPI)
                if image is None:
                    return
                png = _png(image)
            except Exception as exc:  # one page that will not render costs only its image
                log.warning("no thumbnail for %s page %s: %s", path, number, exc)
                continue
            yield number, png
