"""JSON, NDJSON, Markdown, iCalendar and vCard: decoded text with what structure each has."""

from __future__ import annotations

import functools
import html
import io
import json
import quopri
import re
from collections.abc import Iterator
from dataclasses import replace

from goblin_core.builtin.text import binary_content, decode_text
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.model import Block, PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_MD_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$")
#: The line under a paragraph that makes it a heading: ===== level 1, ----- level 2
_SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
_CONTENT_LINE = re.compile(r"^([A-Za-z0-9-]+)((?:;[^:]*)?):(.*)$")
_SKIPPED_PROPERTIES = frozenset(
    {
        "BEGIN",
        "END",
        "VERSION",
        "PRODID",
        "CALSCALE",
        "UID",
        "PHOTO",
        "LOGO",
        "SOUND",
        "KEY",
    }
)


def _text(source: Source) -> tuple[str, str]:
    text, encoding = decode_text(source.bytes())
    if binary_content(text):
        raise CorruptDocument(
            f"binary content in a text file (decoded as {encoding})", file=source.display_name
        )
    return text.replace("\r\n", "\n").replace("\r", "\n"), encoding


# One backslash escape, read whole so an escaped backslash before "u" is not taken for
# a \u escape; a high surrogate's \u escape together with its low one.
_JSON_ESCAPE = re.compile(
    r"\\(u(?:[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|[0-9a-fA-F]{4})|.)", re.S)


def _spelled_out(match: re.Match[str]) -> str:
    escape = match.group(1)
    if escape[0] != "u" or len(escape) == 1:  # another escape, or "\u" not followed by a code
        return match.group(0)
    if len(escape) > 5:  # a surrogate pair: one character past U+FFFF
        high, low = int(escape[1:5], 16), int(escape[7:11], 16)
        return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    unit = int(escape[1:], 16)
    return chr(unit) if _spellable(unit) else match.group(0)


def _spellable(unit: int) -> bool:
    # controls, quotes, backslashes and lone surrogates stay escaped: the JSON stays JSON
    return unit >= 0x20 and unit not in (0x22, 0x5C) and not 0xD800 <= unit <= 0xDFFF


def unescaped_json(text: str) -> str:
    """``text`` (JSON as written) with its ``\\uXXXX`` escapes spelled out, so ``Ol\\u00e1``
    reads and is found as ``Olá``; the layout, and every other escape, stay as written.

    >>> unescaped_json('{"s": "Ol\\\\u00e1 \\\\ud83d\\\\ude00", "q": "\\\\"\\\\u0022"}')
    '{"s": "Olá 😀", "q": "\\\\"\\\\u0022"}'
    """
    return _JSON_ESCAPE.sub(_spelled_out, text) if "\\u" in text else text


def _valid(text: str) -> bool:
    json.loads(text)
    return True


class JSONParser(BaseEngine):
    """JSON and NDJSON: the text as written, checked (invalid JSON is reported in metadata)."""

    name = "office.json"
    formats = (fmt.JSON, fmt.NDJSON)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        text, encoding = _text(source)
        metadata: dict[str, object] = {"encoding": encoding}
        try:
            # each record is checked and let go: only the count is kept
            lines = io.StringIO(text) if source.extension in ("ndjson", "jsonl") else (text,)
            records = sum(1 for line in lines if line.strip() and _valid(line))
            metadata["records"] = records
            metadata["valid_json"] = True
        except (ValueError, RecursionError) as exc:
            # ValueError: JSONDecodeError, or a number past Python's limit on the
            # digits of an int (4,300); RecursionError: arrays nested too deep
            metadata["valid_json"] = False
            metadata["json_error"] = str(exc)
        return TextDocument([unescaped_json(text)], metadata=metadata)


class MarkdownParser(BaseEngine):
    """Markdown: the text as written with its character references spelled out,
    headings and list items kept as blocks."""

    name = "office.markdown"
    formats = (fmt.MARKDOWN,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        text, encoding = _text(source)
        blocks = [b if b.kind == "code" else replace(b, text=spelled_references(b.text))
                  for b in markdown_blocks(text)]
        return TextDocument([PageContent(number=1, text=spelled_references(text),
                                         blocks=tuple(blocks))],
                            metadata={"encoding": encoding})


# CommonMark's character references: a name, or a decimal or hex code, ended by ";"
# (HTML's legacy names without it, such as "&copy", are text in Markdown).
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_BACKTICKS = re.compile(r"`+")


def spelled_references(text: str) -> str:
    """``text`` with the character references Markdown shows as characters spelled out;
    those in code, fenced or between backticks, are shown as written and stay.

    >>> spelled_references("Licita&ccedil;&atilde;o &#8211; `&amp;` &nbsp &bogus;")
    'Licitação – `&amp;` &nbsp &bogus;'
    """
    if "&" not in text:
        return text
    # written line by line to a buffer: a list of the lines of a file of millions of
    # short lines would take fifty times the file
    spelled = io.StringIO()
    fence = ""
    for line in io.StringIO(text):
        if fence:
            if _closes(fence, line):
                fence = ""
        elif opened := _opened_fence(line):
            fence = opened
        elif "&" in line:
            line = _spelled_outside_code(line)
        spelled.write(line)
    return spelled.getvalue()


def _opened_fence(line: str) -> str:
    """The fence (a run of three or more backticks or tildes) ``line`` opens a code
    block with, or ''."""
    opening = _FENCE.match(line)
    if opening is None or (opening.group(1)[0] == "`" and "`" in line[opening.end():]):
        return ""  # a backtick fence's info string holds no backtick: that is a code span
    return opening.group(1)


def _closes(fence: str, line: str) -> bool:
    """Whether ``line`` closes the code block ``fence`` opened: a fence of its character,
    as long or longer, and nothing after it."""
    closing = _FENCE.match(line)
    return (closing is not None and closing.group(1)[0] == fence[0]
            and len(closing.group(1)) >= len(fence) and not line[closing.end():].strip())


def _spelled_outside_code(line: str) -> str:
    if "`" not in line:
        return _REFERENCE.sub(_reference, line)
    spans = _code_spans(line)
    pieces: list[str] = []
    start = 0
    for code_start, code_end in [*spans, (len(line), len(line))]:
        pieces.append(_REFERENCE.sub(_reference, line[start:code_start]))
        pieces.append(line[code_start:code_end])
        start = code_end
    return "".join(pieces)


def _reference(match: re.Match[str]) -> str:
    return _spelled(match.group(0))


@functools.lru_cache(maxsize=4096)
def _spelled(reference: str) -> str:
    return html.unescape(reference)


def _code_spans(line: str) -> list[tuple[int, int]]:
    """Where a run of backticks and the next run of the same length enclose code; a run
    with no match is plain text (found in one pass: each run knows the next of its length)."""
    runs = list(_BACKTICKS.finditer(line))
    following: dict[int, int] = {}
    next_of_length: list[int] = [0] * len(runs)
    for index in range(len(runs) - 1, -1, -1):
        length = len(runs[index].group(0))
        next_of_length[index] = following.get(length, -1)
        following[length] = index
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(runs):
        closing = next_of_length[index]
        if closing < 0:
            index += 1
            continue
        spans.append((runs[index].start(), runs[closing].end()))
        index = closing + 1
    return spans


def markdown_blocks(text: str) -> list[Block]:
    """Headings (``#`` and underlined), list items, paragraphs and fenced code blocks of
    Markdown ``text``; the lines of one paragraph or item (up to a blank line, a heading
    or the next item) are one block. A code block's lines are code, as written: a
    ``# comment`` or ``- x`` in it is no heading or list item.

    >>> text = "# Title\\nfirst line\\nsecond\\n\\n- an item\\n  goes on"
    >>> [(b.kind, b.text) for b in markdown_blocks(text)]
    [('heading', 'Title'), ('paragraph', 'first line\\nsecond'), ('list_item', 'an item\\ngoes on')]
    >>> [(b.kind, b.text) for b in markdown_blocks("Setup\\n=====\\n```sh\\n# run\\n```")]
    [('heading', 'Setup'), ('code', '# run')]
    """
    blocks: list[Block] = []
    lines: list[str] = []
    kind = ""
    fence = ""

    def close() -> None:
        if lines and any(line for line in lines):
            blocks.append(Block(kind, "\n".join(lines)))
        lines.clear()

    # line by line from a stream: a list of the lines of a file of millions of short
    # lines would take fifty times the file
    for raw in io.StringIO(text):
        line = raw.rstrip("\r\n")
        if fence:
            if _closes(fence, line):
                close()
                fence = ""
            else:
                lines.append(line)
            continue
        if opened := _opened_fence(line):
            close()
            fence, kind = opened, "code"
            continue
        underline = _SETEXT.match(line) if kind == "paragraph" and lines else None
        if underline is not None:
            blocks.append(Block("heading", " ".join(lines),
                                level=1 if underline.group(1)[0] == "=" else 2))
            lines.clear()
            continue
        heading = _MD_HEADING.match(line)
        item = _MD_ITEM.match(line) if heading is None else None
        if not line.strip():
            close()
        elif heading is not None:
            close()
            if heading.group(2).strip():
                blocks.append(Block("heading", heading.group(2), level=len(heading.group(1))))
        elif item is not None:
            close()
            kind = "list_item"
            lines.append(item.group(1).strip())
        else:
            if not lines:
                kind = "paragraph"
            lines.append(line.strip())
    close()
    return blocks


def unfold(text: str) -> Iterator[str]:
    r"""RFC 5545/6350 content lines with folded continuation lines joined, one at a time
    (a list of the lines of a calendar of millions would take thirty times the file).

    A quoted-printable value (vCard 2.1, vCalendar 1.0) goes on past a line that ends
    with its soft line break, ``=``, whatever the next line starts with.

    >>> list(unfold("SUMMARY:a\n b\n\tc\nEND:X\n"))
    ['SUMMARY:abc', 'END:X']
    >>> list(unfold("NOTE;QUOTED-PRINTABLE:Endere=\n=C3=A7o\nEND:X\n"))
    ['NOTE;QUOTED-PRINTABLE:Endere=C3=A7o', 'END:X']
    """
    # the pieces of the line being unfolded, joined once it ends: adding each
    # continuation to the line so far copies it again, quadratic in the line's length
    pieces: list[str] = []
    quoted_printable = False
    for raw in io.StringIO(text):
        line = raw.rstrip("\r\n")
        if quoted_printable and pieces[-1].endswith("=") and not _COMPONENT_EDGE.match(line):
            pieces[-1] = pieces[-1][:-1]
            pieces.append(line)
        elif line[:1] in (" ", "\t") and pieces:
            pieces.append(line[1:])
        elif line.strip():
            if pieces:
                yield "".join(pieces)
            pieces = [line]
            head = line.partition(":")[0]
            quoted_printable = "QUOTED-PRINTABLE" in head.upper() and _parameters(head).get(
                "ENCODING", "").upper() == "QUOTED-PRINTABLE"
    if pieces:
        yield "".join(pieces)


#: A component's first or last line: never a value's continuation, even after a stray "=".
_COMPONENT_EDGE = re.compile(r"(?:BEGIN|END):[A-Za-z-]+\s*$", re.I)
#: vCard 2.1 writes a value's encoding as a bare parameter (";QUOTED-PRINTABLE").
_BARE_ENCODINGS = frozenset({"QUOTED-PRINTABLE", "BASE64", "B", "8BIT", "7BIT"})


def _parameters(written: str) -> dict[str, str]:
    """A content line's parameters (``;CHARSET=UTF-8;ENCODING=B``), names upper-cased;
    a bare encoding (vCard 2.1) under ENCODING."""
    parameters: dict[str, str] = {}
    for item in written.split(";")[1:]:
        name, equals, value = item.partition("=")
        if equals:
            parameters[name.strip().upper()] = value.strip().strip('"')
        elif name.strip().upper() in _BARE_ENCODINGS:
            parameters["ENCODING"] = name.strip()
    return parameters


def _quoted_printable(value: str, charset: str) -> str:
    """A quoted-printable value as text, in its CHARSET (UTF-8 when it names none or one
    that does not decode it, then Windows-1252, the code page legacy exporters wrote in).

    >>> _quoted_printable("Jo=C3=A3o=20Silva", "")
    'João Silva'
    >>> _quoted_printable("Jo=E3o", "UTF-8")
    'João'
    """
    declared = charset or "utf-8"
    try:
        # characters written unencoded beside the escapes go back to the bytes they were
        raw = quopri.decodestring(value.encode("ascii" if value.isascii() else declared))
    except (LookupError, UnicodeEncodeError):
        raw = quopri.decodestring(value.encode("utf-8"))
    for codec in (declared, "utf-8"):
        try:
            return raw.decode(codec)
        except (LookupError, UnicodeDecodeError):
            continue
    return raw.decode("cp1252", "replace")


def _unescape(value: str) -> str:
    return (
        value.replace("\\n", "\n")
        .replace("\\N", "\n")
        .replace("\\,", ",")
        .replace("\\;", ";")
        .replace("\\\\", "\\")
    )

#: Extensions calendar programs show their users: the calendar's name and description
#: (as RFC 7986's NAME and DESCRIPTION, which most exports write this way instead).
_SHOWN = frozenset({"X-WR-CALNAME", "X-WR-CALDESC"})


class CalendarCardParser(BaseEngine):
    """iCalendar (.ics) and vCard (.vcf): one ``NAME: value`` line per property."""

    name = "office.ics_vcf"
    formats = (fmt.ICS, fmt.VCF)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        text, encoding = _text(source)
        blocks: list[Block] = []
        # the properties of one component (an event, a card...) are one paragraph, written
        # to a buffer: a list of the lines of a component of millions would take far more
        shown = io.StringIO()

        def close() -> None:
            if shown.tell():
                blocks.append(Block("paragraph", shown.getvalue()[:-1]))
                shown.seek(0)
                shown.truncate()

        for line in unfold(text):
            found = _CONTENT_LINE.match(line)
            if found is None:
                continue
            prop = found.group(1).upper()
            if prop in ("BEGIN", "END"):
                close()
            if prop == "BEGIN" and found.group(3).upper() in ("VEVENT", "VCARD", "VTODO"):
                blocks.append(Block("heading", found.group(3).upper(), level=2))
            if prop in _SKIPPED_PROPERTIES or (prop.startswith("X-") and prop not in _SHOWN):
                continue
            parameters = _parameters(found.group(2))
            encoding = parameters.get("ENCODING", "").upper()
            if encoding in ("BASE64", "B") or parameters.get("VALUE", "").upper() == "BINARY":
                continue  # an attached file or picture: bytes, no text
            value = found.group(3)
            if encoding == "QUOTED-PRINTABLE":
                value = _quoted_printable(value, parameters.get("CHARSET", ""))
                value = value.replace("\r\n", "\n").replace("\r", "\n")
            value = _unescape(value).strip()
            if value:
                shown.write(f"{prop}: {value}\n")
        close()
        page_text = "\n".join(block.text for block in blocks)
        return TextDocument([PageContent(number=1, text=page_text, blocks=tuple(blocks))],
                            metadata={"encoding": encoding})
