"""CSV and TSV: encoding detected, dialect sniffed (``;`` is common in Brazil), read as a table."""

from __future__ import annotations

import csv
import io
import sys

from goblin_core.builtin.text import decode_text
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.layout import PageBuilder

_DELIMITERS = ",;\t|"
_SAMPLE = 64 * 1024


def sniff_delimiter(sample: str, default: str = ",") -> str:
    """The delimiter of a CSV sample: csv.Sniffer, else the most consistent candidate.

    >>> sniff_delimiter("nome;cidade\\nJoão;São Paulo\\n")
    ';'
    """
    try:
        return csv.Sniffer().sniff(sample, delimiters=_DELIMITERS).delimiter
    except csv.Error:
        pass
    lines = [line for line in sample.splitlines()[:50] if line.strip()]
    best, best_score = default, 0
    for delimiter in _DELIMITERS:
        counts = [line.count(delimiter) for line in lines]
        if not counts or min(counts) == 0:
            continue
        score = min(counts) * 10 - (max(counts) - min(counts))
        if score > best_score:
            best, best_score = delimiter, score
    return best


class DelimitedParser(BaseEngine):
    """CSV and TSV in any common encoding, as one table with the header row marked."""

    name = "office.csv"
    formats = (fmt.CSV, fmt.TSV)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        text, encoding = decode_text(source.bytes())
        if "\x00" in text:
            raise CorruptDocument(
                f"binary content in a CSV file (decoded as {encoding})", file=source.display_name
            )
        default = "\t" if source.extension in ("tsv", "tab") else ","
        delimiter = sniff_delimiter(text[:_SAMPLE], default)
        csv.field_size_limit(sys.maxsize)
        try:
            rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
        except csv.Error as exc:
            raise CorruptDocument(
                f"the CSV cannot be read ({exc})", file=source.display_name
            ) from exc
        page = PageBuilder(engine=self.name)
        page.add_table(rows, header_rows=1 if rows else 0)
        return TextDocument(
            [page.build()],
            metadata={"encoding": encoding, "delimiter": delimiter, "rows": len(rows)},
        )
