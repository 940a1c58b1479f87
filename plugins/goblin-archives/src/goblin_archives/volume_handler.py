"""Later parts of multi-volume sets, given on their own: reported as skipped, not as errors.

``x.7z.002`` or ``x.z02`` hold bytes from the middle of an archive; the set
is read through its first volume (``x.7z.001``, ``x.zip``), so a later part
met on its own (in a folder beside the first, or alone) lists one member of
kind ``volume``, which the report shows as skipped with the set it belongs to.
"""

from __future__ import annotations

from collections.abc import Iterator

from goblin_archives.volumes import VOLUME_MIME, later_volume, volume_member
from goblin_core.config import Config
from goblin_core.engines import ArchiveLimits, BaseEngine, Member
from goblin_core.source import Source


class VolumeHandler(BaseEngine):
    """A later part of a split set (numbered, spanned zip or RAR), skipped with its reason."""

    name = "archive.volume"
    formats = (VOLUME_MIME,)
    priority = 50

    def members(self, source: Source, limits: ArchiveLimits, config: Config) -> Iterator[Member]:
        reason = later_volume(source) or "a later part of a multi-volume set"
        yield volume_member(source, reason)
