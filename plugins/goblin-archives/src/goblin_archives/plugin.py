"""Hook implementations of goblin-archives."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goblin_archives.compressed_handler import CompressedHandler
from goblin_archives.compression import CODECS
from goblin_archives.options import ARCHIVE_OPTIONS
from goblin_archives.patool_handler import (
    BSDTAR_FORMATS,
    FALLBACK_FORMATS,
    PATOOL_FORMATS,
    UNAR_FORMATS,
    BsdtarHandler,
    PatoolHandler,
    UnarHandler,
)
from goblin_archives.rar_handler import RarHandler
from goblin_archives.sevenzip_handler import SevenZipHandler
from goblin_archives.sniffers import ArchiveSniffer
from goblin_archives.tar_handler import TarHandler
from goblin_archives.volume_handler import VolumeHandler
from goblin_archives.warc_handler import WarcHandler
from goblin_archives.zip_handler import ZipHandler
from goblin_core import hookimpl


@hookimpl
def goblin_register_archive_handlers(register: Callable[[Any], None]) -> None:
    register(ZipHandler())
    register(TarHandler())
    register(SevenZipHandler())
    register(RarHandler())
    register(VolumeHandler())
    register(WarcHandler())
    for codec in CODECS:
        register(CompressedHandler(codec))
    for fmt in PATOOL_FORMATS:
        register(PatoolHandler(fmt))
    for fmt in BSDTAR_FORMATS:
        register(BsdtarHandler(fmt))
    for fmt in UNAR_FORMATS:
        register(UnarHandler(fmt))
    for fmt in FALLBACK_FORMATS:
        # Last resort for the formats above: the system tool may read what Python could not.
        register(PatoolHandler(fmt, name=f"archive.patool.{fmt.name}", priority=5))


@hookimpl
def goblin_register_sniffers(register: Callable[[Any], None]) -> None:
    register(ArchiveSniffer())


@hookimpl
def goblin_register_options(register: Callable[..., None]) -> None:
    register("archives", ARCHIVE_OPTIONS, extra="archives",
             help="Archive reading: passwords, member-name encodings, external tools.")
