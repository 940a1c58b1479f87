"""DjVu documents for goblin, read with the DjVuLibre tools."""

import logging

__version__ = "0.1.0"

# problems go to each document's report; log lines only where the application asks
logging.getLogger(__name__).addHandler(logging.NullHandler())
