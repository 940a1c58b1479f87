"""Running DjVuLibre's command-line tools on one document, within goblin's limits.

Each run is bounded by ``limits.timeout`` (what is left of the document's time)
and by an address-space cap at ``limits.max_memory``: DjVuLibre decodes what the
file says, and a lying file would otherwise take the memory of the whole batch.
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import tempfile
from urllib.parse import quote

from goblin_core.child_limits import capped_child
from goblin_core.config import Config
from goblin_core.deadline import within_document
from goblin_core.errors import EngineUnavailable, ExtractionTimeout, FileTooLarge
from goblin_core.source import Source

#: The tools goblin-djvu runs, all in Debian's djvulibre-bin.
TOOLS = ("djvused", "djvutxt", "ddjvu")
INSTALL = "apt-get install djvulibre-bin"
#: The most a tool run may write: a page's text layer holds at most 16 MB, which
#: djvutxt's escapes can make four times longer.
MAX_OUTPUT_BYTES = 64 * 1024**2
# the tool's name before its message ("ddjvu: Cannot decode page 2.")
_TOOL_NAME = re.compile(r"^[a-z]+:\s*")
# DjVuLibre's message numbers ("[1-12311] Failed to open ..."), which say nothing to a
# user, but mark the message that says the cause
_MESSAGE_ID = re.compile(r"^\[\d+-\d+\]\s*")


def missing_tools() -> list[str]:
    """The DjVuLibre tools not on ``PATH``."""
    return [tool for tool in TOOLS if shutil.which(tool) is None]


class DjvuLibre:
    """The tools, pointed at one document's file."""

    def __init__(self, source: Source, config: Config) -> None:
        self.display_name = source.display_name
        # absolute, so that a file named "-x.djvu" is never read as an option
        self.path = str(source.path().resolve())
        self.timeout = float(config.get("limits", "timeout", 300.0))
        self.memory = int(config.get("limits", "max_memory", 0))

    def run(self, tool: str, *arguments: str,
            limit: int | None = None, document: bool = True
            ) -> subprocess.CompletedProcess[bytes]:
        """``tool arguments... <document>`` (ddjvu's output file after it; the arguments
        alone when ``document`` is false: djvm building a document); its exit
        code is the caller's to judge. FileTooLarge when it writes more than ``limit``
        bytes (MAX_OUTPUT_BYTES unless given): a file of a few KB can hold text layers or
        bookmarks that compress a thousandfold (12 KB made djvutxt write 629 MB)."""
        limit = MAX_OUTPUT_BYTES if limit is None else limit
        binary = shutil.which(tool)
        if binary is None:
            raise EngineUnavailable(f"DjVuLibre's {tool} not found: {INSTALL}",
                                    file=self.display_name)
        command = [binary, *arguments, *([self.path] if document else [])]
        if tool == "ddjvu":
            command.append("-")  # the image on standard output
        timeout = within_document(self.timeout)
        # into a file, not a pipe: the cap on the size of the files a child writes stops
        # the tool itself at the limit, before goblin holds any of it
        with tempfile.TemporaryFile(prefix="goblin-djvu-") as output:
            try:
                done = subprocess.run(command, stdout=output, stderr=subprocess.PIPE,
                                      timeout=timeout, check=False, stdin=subprocess.DEVNULL,
                                      preexec_fn=capped_child(self.memory, limit))
            except subprocess.TimeoutExpired as exc:
                raise ExtractionTimeout(f"DjVuLibre's {tool} ran longer than limits.timeout "
                                        f"({timeout:.0f} s)", file=self.display_name) from exc
            if done.returncode == -signal.SIGXFSZ or output.tell() > limit:
                raise FileTooLarge(f"DjVuLibre's {tool} wrote more than {limit:,} bytes for "
                                   f"it ({' '.join(arguments)[:80]})", file=self.display_name)
            output.seek(0)
            return subprocess.CompletedProcess(command, done.returncode, output.read(),
                                               done.stderr)

    def complaint(self, done: subprocess.CompletedProcess[bytes]) -> str:
        """What a tool said when it failed: the first line of its error output that
        DjVuLibre numbered (the cause: ddjvu's decoding thread may print it after the
        "Cannot decode page 2." of its main one), else its first line, else its exit
        code; the file it was given named as the user knows it, not by the path of the copy
        goblin may have spooled it to (``file://localhost/tmp/goblin-x1y2.djvu``)."""
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        lines = [_TOOL_NAME.sub("", line.strip().removeprefix("*** ").strip())
                 for line in said if line.strip()]
        meaningful = [line for line in lines if not line.startswith(("*** (", "("))]
        numbered = [line for line in meaningful if _MESSAGE_ID.match(line)]
        cause = _MESSAGE_ID.sub("", (numbered or meaningful or lines
                                     or [f"exit {done.returncode}"])[0])
        for spelled in (f"file://localhost{quote(self.path)}", self.path):
            cause = cause.replace(spelled, self.display_name)
        return cause[:200]

