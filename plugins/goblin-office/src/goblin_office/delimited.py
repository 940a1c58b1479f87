"""CSV and TSV: encoding detected, dialect sniffed (``;`` is common in Brazil), read as a table.

A CSV file is text, and nothing in it bounds a row: one line of fifty million
commas is a valid file. The reader is held to the limits a spreadsheet is held
to: ``office.max_sheet_cells`` bounds the fields of one row and the cells of
the table, ``limits.max_output_chars`` the text read. What is past them is not
read; the cut is logged and described in ``metadata["truncated"]``.
"""

from __future__ import annotations

import csv
import io
import logging
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, repeat

from goblin_core.builtin.text import (
    binary_content,
    decode_text,
    without_end_of_file_mark,
    without_stray_nuls,
)
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.layout import PageBuilder

log = logging.getLogger(__name__)

_DELIMITERS = ",;\t|"
# Excel's first line naming the delimiter ("sep=;"): Excel splits the rows by it and
# does not show the line
_SEP_LINE = re.compile(r"\ufeff?sep=([^\r\n\"])(?:\r\n|\r|\n|$)", re.I)
_SAMPLE = 64 * 1024
# csv.Sniffer's quote patterns take time quadratic in the sample: 64 KiB of '",' take
# over 30 s, 4 KiB a fifth of a second. It sees the whole lines of the first 4 KiB; the
# fallback counts delimiters over the whole sample, in linear time.
_SNIFFER_SAMPLE = 4 * 1024
#: Share of the lines that must hold a delimiter, as many times each, when some hold none.
_USUAL_SHARE = 0.5
# Lines are handed to the csv module from slices of about this many characters, so a
# huge file never sits in a StringIO (four bytes a character) at once.
_CHUNK = 1 << 20


def declared_delimiter(text: str) -> tuple[str, int] | None:
    """The delimiter an Excel ``sep=`` first line names and where the rows after it
    start; None when the text opens with no such line.

    >>> declared_delimiter("sep=;\\nnome;cidade\\n")
    (';', 6)
    >>> declared_delimiter("nome;cidade\\n") is None
    True
    """
    found = _SEP_LINE.match(text)
    return (found.group(1), found.end()) if found else None


def sniff_delimiter(sample: str, default: str = ",") -> str:
    """The delimiter of a CSV sample: csv.Sniffer, else the most consistent candidate.

    >>> sniff_delimiter("nome;cidade\\nJoão;São Paulo\\n")
    ';'
    """
    head = sample[:_SNIFFER_SAMPLE]
    if len(sample) > len(head):
        head = head[: max(head.rfind("\n"), head.rfind("\r")) + 1] or head
    try:
        found = csv.Sniffer().sniff(head, delimiters=_DELIMITERS).delimiter
    except csv.Error:
        found = _most_consistent(sample, default)
    return ";" if found == "," and _decimal_commas_only(head) else found


def _most_consistent(sample: str, default: str) -> str:
    """The candidate found on every line of ``sample``'s first 50, most often and most
    evenly; else the one most lines hold the same number of, when at least half do (a
    title line above the table or a total below it holds none); else ``default``."""
    lines = [line for line in sample.splitlines()[:50] if line.strip()]
    best, best_score = default, 0
    usual_best, usual_score = default, (0.0, 0)
    for delimiter in _DELIMITERS:
        counts = [line.count(delimiter) for line in lines]
        if not any(counts):
            continue
        usual, holding = Counter(count for count in counts if count).most_common(1)[0]
        share = holding / len(counts)
        if share >= _USUAL_SHARE and (share, usual) > usual_score:
            usual_best, usual_score = delimiter, (share, usual)
        if min(counts) == 0:
            continue
        score = min(counts) * 10 - (max(counts) - min(counts))
        if score > best_score:
            best, best_score = delimiter, score
    return best if best_score else usual_best


# a comma that is no decimal comma: not between two digits
_NON_DECIMAL_COMMA = re.compile(r"(?<!\d),|,(?!\d)")


def _decimal_commas_only(sample: str) -> bool:
    """Whether every line of ``sample`` holds a semicolon and every comma in it stands
    between digits: numbers written with decimal commas in a file delimited by
    semicolons, as spreadsheets in Brazil and most of Europe save them. The csv module's
    sniffer, finding both in every row, prefers the comma, and "1,5;2,5" read as the
    three fields "1", "5;2" and "5".

    >>> _decimal_commas_only("1,5;2,5\\n3;4,25\\n"), _decimal_commas_only("a,b;c\\n")
    (True, False)
    """
    lines = [line for line in sample.splitlines() if line.strip()]
    return bool(lines) and all(";" in line for line in lines) and \
        _NON_DECIMAL_COMMA.search(sample) is None


class DelimitedParser(BaseEngine):
    """CSV and TSV in any common encoding, as one table with the header row marked."""

    name = "office.csv"
    formats = (fmt.CSV, fmt.TSV)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        text, encoding = decode_text(source.bytes())
        text, nuls = without_stray_nuls(text)
        text = without_end_of_file_mark(text)
        if binary_content(text):
            raise CorruptDocument(
                f"binary content in a CSV file (decoded as {encoding})", file=source.display_name
            )
        declared = declared_delimiter(text)
        if declared is not None:
            delimiter, start = declared
            text = text[start:]
        else:
            default = "\t" if source.extension in ("tsv", "tab") else ","
            delimiter = sniff_delimiter(text[:_SAMPLE], default)
        reader = BoundedRows(
            delimiter,
            max_cells=int(config.get("office", "max_sheet_cells", 5_000_000)),
            max_chars=int(config.get("limits", "max_output_chars", 100_000_000)),
        )
        csv.field_size_limit(sys.maxsize)
        try:
            rows = reader.read(text)
        except csv.Error as exc:
            raise CorruptDocument(
                f"the CSV cannot be read ({exc})", file=source.display_name
            ) from exc
        page = PageBuilder(engine=self.name)
        page.add_table(rows, header_rows=1 if rows else 0)
        metadata: dict[str, object] = {
            "encoding": encoding,
            "delimiter": delimiter,
            "rows": len(rows),
        }
        if declared is not None:
            metadata["delimiter_declared"] = True  # by a "sep=" first line
        if nuls:
            metadata["nul_characters_dropped"] = nuls
        if reader.cuts:
            metadata["truncated"] = "; ".join(reader.cuts)
            log.warning("%s: %s", source.display_name, metadata["truncated"])
        document = TextDocument([page.build()], metadata=metadata)
        document.warnings = [("Truncated", cut) for cut in reader.cuts]
        if nuls:
            document.warnings.append(("CorruptDocument", f"{nuls:,} NUL character(s) dropped: "
                                      "no text holds them (a file padded or damaged)"))
        return document


class BoundedRows:
    """The rows of a CSV text, read no further than the limits allow.

    ``cuts`` says, after ``read``, what was left out and which limit did it.

    >>> reader = BoundedRows(",", max_cells=4, max_chars=1_000)
    >>> reader.read("a,b\\n\\n\\nc,d\\ne,f\\n")
    [['a', 'b'], ()]
    >>> reader.cuts
    ['rows after row 2 cut: the table reached office.max_sheet_cells (4 cells)']
    >>> reader = BoundedRows(",", max_cells=3, max_chars=1_000)
    >>> reader.read("a,b,c,d,e\\n")
    [['a', 'b', 'c']]
    """

    def __init__(self, delimiter: str, *, max_cells: int, max_chars: int) -> None:
        self.delimiter = delimiter
        self.max_cells = max(max_cells, 1)
        self.max_chars = max_chars
        self.cuts: list[str] = []
        self._line_cut = False

    def read(self, text: str) -> list[Sequence[str]]:
        if len(text) > self.max_chars:
            text = text[: self.max_chars]
            self.cuts.append(
                f"text after character {self.max_chars:,} not read: limits.max_output_chars"
            )
        rows: list[Sequence[str]] = []
        widest = 1
        # Blank lines are kept only when a row follows them: millions of trailing
        # newlines then cost a counter, not a million empty rows.
        blank = 0
        reader = csv.reader(self._lines(text), delimiter=self.delimiter)
        for number, row in enumerate(reader, start=1):
            if not row:
                blank += 1
                continue
            if len(row) > self.max_cells or self._line_cut:
                self._cut_row(number)
                row = row[: self.max_cells]
            widest = max(widest, len(row))
            room = self.max_cells // widest - len(rows)
            if blank + 1 > room:
                rows.extend(repeat((), max(min(blank, room), 0)))
                self.cuts.append(
                    f"rows after row {len(rows):,} cut: the table reached "
                    f"office.max_sheet_cells ({self.max_cells:,} cells)"
                )
                break
            rows.extend(repeat((), blank))
            blank = 0
            rows.append(row)
        return rows

    def _cut_row(self, number: int) -> None:
        self._line_cut = False
        if not any(cut.startswith("fields after") for cut in self.cuts):
            self.cuts.append(
                f"fields after field {self.max_cells:,} of row {number:,} cut: "
                "office.max_sheet_cells"
            )

    def _lines(self, text: str) -> Iterator[str]:
        return chain.from_iterable(self._chunks(text))

    def _chunks(self, text: str) -> Iterator[Iterable[str]]:
        """The lines of ``text``, a slice of about ``_CHUNK`` characters at a time.

        A line longer than that comes alone, without a StringIO copy, and cut when it
        has more fields than a row may hold: the csv module would build a list of
        every field before the row could be checked.
        """
        start, size = 0, len(text)
        while start < size:
            end = start + _CHUNK
            cut = max(text.rfind("\n", start, end), text.rfind("\r", start, end)) + 1
            if text.startswith("\r\n", cut - 1):
                # a CRLF split between two slices would read as two line ends, a blank
                # row in the middle of the table
                cut += 1
            if end >= size:
                cut = size
            elif cut <= start:
                cut = _line_end(text, end)
                yield (self._bounded_line(text, start, cut),)
                start = cut
                continue
            yield io.StringIO(text[start:cut], newline="")
            start = cut

    def _bounded_line(self, text: str, start: int, end: int) -> str:
        """``text[start:end]``, one line, cut after its ``max_cells``-th field."""
        last = _nth(text, self.delimiter, self.max_cells, start, end)
        if last < 0:
            return text[start:end]
        # read() learns of the cut as the csv module hands it this line's row
        self._line_cut = True
        return text[start:last] + text[_content_end(text, start, end) : end]


def _nth(text: str, char: str, n: int, start: int, end: int) -> int:
    """The index of the ``n``-th ``char`` in ``text[start:end]``, or -1.

    Counted a block at a time, then bisected in the block that holds it: a regex or a
    split would keep a record of each of millions of occurrences.

    >>> _nth("a,b,c,d", ",", 2, 0, 7)
    3
    >>> _nth("a,b", ",", 2, 0, 3)
    -1
    """
    pos = start
    while pos < end:
        stop = min(pos + _CHUNK, end)
        found = text.count(char, pos, stop)
        if found >= n:
            low, high = pos, stop - 1
            while low < high:
                middle = (low + high) // 2
                if text.count(char, pos, middle + 1) >= n:
                    high = middle
                else:
                    low = middle + 1
            return low
        n -= found
        pos = stop
    return -1


def _line_end(text: str, start: int) -> int:
    """The index just past the first line end at or after ``start`` (or the text's end)."""
    ends = [i for i in (text.find("\n", start), text.find("\r", start)) if i >= 0]
    if not ends:
        return len(text)
    end = min(ends)
    if text.startswith("\r\n", end):
        return end + 2
    return end + 1


def _content_end(text: str, start: int, end: int) -> int:
    """The index where the line ending of the line ``text[start:end]`` begins."""
    while end > start and text[end - 1] in "\r\n":
        end -= 1
    return end
