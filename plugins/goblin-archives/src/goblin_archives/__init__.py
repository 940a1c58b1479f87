"""Archive handlers for goblin: zip, tar, gz/bz2/xz/zst/lz4, 7z, rar and what patool reaches."""

__version__ = "0.1.0"
