"""MarkItDown's convert on one Office file (no plugins, no LLM)."""

import logging
from importlib.metadata import version

from markitdown import MarkItDown
from peer_protocol import run_peer

logging.disable(logging.WARNING)
converter = MarkItDown(enable_plugins=False)


def extract(path: str) -> tuple[int, str]:
    return 1, converter.convert(path).text_content


run_peer("markitdown", version("markitdown"), extract)
