"""Archive handlers for goblin: zip, tar, gz/bz2/xz/zst/lz4, 7z, rar and what patool reaches."""

import logging

__version__ = "0.1.0"

# problems go to each document's report; log lines only where the application asks
logging.getLogger(__name__).addHandler(logging.NullHandler())
