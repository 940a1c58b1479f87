r"""RTF text and document properties, read token by token.

striprtf, which goblin used before, gives the body only: it drops the ``\info``
group (title, author, dates), annotations, and table structure (cells come out
joined by ``|``), lets field instructions leak (``HYPERLINK "..."``), and passes
lone UTF-16 surrogates from ``\u`` escapes through, which no UTF-8 writer accepts.

This reader keeps what a reader of the document sees, as Tika's RTF parser does:
the body, headers and footers, footnotes, annotations (with their author),
text boxes, field results (a hyperlink's text, not its address), cells separated
by tabs and rows by line breaks. ``\'xx`` bytes are decoded in the code page of
the current font's charset, else the document's ``\ansicpg``; ``\uN`` escapes
honour ``\ucN`` (the fallback skipped may be a byte, a character, or a control word
or symbol), and surrogate halves that do not pair become U+FFFD. Tracked changes are
read as accepted, deleted text (``\deleted``) left out; hidden text (``\v``) is read,
as Word keeps it, and counted.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field, replace
from datetime import datetime

from goblin_office.symbolfonts import symbol_run_text, symbol_table

# A font charset (\fcharsetN) and the code page its bytes are in.
CHARSET_CODEPAGES = {
    77: "mac_roman",
    128: "cp932",
    129: "cp949",
    130: "johab",
    134: "gbk",
    136: "cp950",
    161: "cp1253",
    162: "cp1254",
    163: "cp1258",
    177: "cp1255",
    178: "cp1256",
    186: "cp1257",
    204: "cp1251",
    222: "cp874",
    238: "cp1250",
    254: "cp437",
}
# Charsets 0 (ANSI), 1 (default) and 2 (symbol) mean the document's own code page; the
# symbol fonts goblin knows by name (Symbol, Wingdings) are read through their own tables.
_DOCUMENT_CHARSETS = frozenset({0, 1, 2})

_TOKEN = re.compile(
    r"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?"  # control word, optional parameter, delimiter space
    r"|\\'([0-9a-fA-F]{2})"  # a byte in the current code page
    r"|\\(.)"  # control symbol: \{ \} \\ \~ \- \_ \* and escaped line ends
    r"|([{}])"
    r"|[\r\n]+"
    r"|([^\\{}\r\n]+)",
    re.S,
)

# Groups whose text is not document text (tables, styles, pictures, instructions).
_SKIPPED = frozenset(
    {
        "colortbl",
        # what a writer puts for readers that cannot read nested tables, which are read
        "nonesttables",
        "stylesheet",
        "listtable",
        "listoverridetable",
        "revtbl",
        "rsidtbl",
        "generator",
        "pict",
        "objdata",
        "objclass",
        "objname",
        "fldinst",
        "datafield",
        "themedata",
        "colorschememapping",
        "latentstyles",
        "datastore",
        "xmlnstbl",
        "mmathPr",
        "sp",
        "shprslt",
        "nonshppict",
        "bkmkstart",
        "bkmkend",
        "template",
        "fchars",
        "lchars",
        "falt",
        "panose",
        "pgdsctbl",
        "atrfstart",
        "atrfend",
        "atnref",
        "atndate",
        "atnparent",
        "atntime",
        "private",
        "userprops",
        "xe",
        "tc",
    }
)
# Starred destinations whose text is the document's (a starred group is skipped by default).
_KEPT_STARRED = frozenset(
    {"annotation", "atnid", "atnauthor", "footnote", "shpinst", "shptxt", "ud"}
)
_HEADERS_FOOTERS = frozenset(
    {"header", "headerl", "headerr", "headerf", "footer", "footerl", "footerr", "footerf"}
)
_NOTES = frozenset({"footnote"})
_PADDED = frozenset({"annotation", "atnid", "atnauthor", "footnote"})
_COMMENTS = frozenset({"annotation", "atnid", "atnauthor"})
_INFO_TEXT = {
    "title": "title",
    "subject": "subject",
    "author": "author",
    "operator": "last_author",
    "keywords": "keywords",
    "doccomm": "comments",
    "comment": "comments",
    "company": "company",
    "manager": "manager",
    "category": "category",
    "hlinkbase": "hyperlink_base",
}
_INFO_DATES = {"creatim": "created", "revtim": "modified", "printim": "printed"}
_DATE_PARTS = {
    "yr": "year",
    "mo": "month",
    "dy": "day",
    "hr": "hour",
    "min": "minute",
    "sec": "second",
}
_SYMBOLS = {
    "par": "\n",
    "line": "\n",
    "sect": "\n",
    "page": "\n",
    "row": "\n",
    "nestrow": "\n",
    "tab": "\t",
    "cell": "\t",
    "nestcell": "\t",
    "emdash": "\u2014",
    "endash": "\u2013",
    "emspace": "\u2003",
    "enspace": "\u2002",
    "qmspace": "\u2005",
    "bullet": "\u2022",
    "lquote": "\u2018",
    "rquote": "\u2019",
    "ldblquote": "\u201c",
    "rdblquote": "\u201d",
    "zwj": "\u200d",
    "zwnj": "\u200c",
    "ltrmark": "\u200e",
    "rtlmark": "\u200f",
}
# Breaks, tabs and cell marks: they shape the text rather than being characters of it
_LAYOUT = frozenset({"par", "line", "sect", "page", "row", "nestrow", "tab", "cell", "nestcell"})
# a cell's or row's end, kept in deleted text so the table keeps its columns
_TABLE_MARKS = frozenset({"row", "nestrow", "cell", "nestcell"})
# the breaks and marks a table row lays out (``lay_out_row``)
_IN_ROWS = frozenset({"par", "line", "row", "cell", "nestrow", "nestcell"})
_CONTROL_SYMBOLS = {"~": "\u00a0", "-": "\u00ad", "_": "\u2011", "\\": "\\", "{": "{", "}": "}"}
_SYMBOL_FONT = "symbol-font:"  # the pseudo code page of a symbol font, by font number
# A font name is at most 31 characters (LOGFONT); text past this in a font entry is not one.
_FONT_NAME_CHARS = 256
# Pieces of text are joined this many at a time: a run of \uN escapes is a piece a
# character, and a string object a character would cost a dozen times the file.
_JOINED_PIECES = 1024
_CODE_PAGES = {"mac": "mac_roman", "pc": "cp437", "pca": "cp850"}


@dataclass
class _State:
    """What a group inherits: whether its text is kept, where it goes, its font."""

    skip: bool = False
    target: str = ""  # "" for the body, else "info" or "info:<property>"
    font: int | None = None
    uc: int = 1
    in_upr: bool = False
    upr_copy: bool = False  # a group inside \upr: its ANSI copy, unless \ud opens it
    in_fonttbl: bool = False
    in_font_aside: bool = False  # a font entry's {\*\panose} or {\*\falt}: not its name
    date: str = ""
    padded: bool = False  # an annotation or note: set off from the text around it
    deleted: bool = False  # a tracked deletion (\deleted)
    hidden: bool = False  # hidden text (\v)
    in_table: bool = False  # a paragraph in a table (\intbl), until \pard
    #: the control word that opened the outermost skipped group or story apart from the
    #: body (a note, a header, \info) holding it
    destination: str = ""


@dataclass
class RTFContent:
    """What the reader found: the text and the document properties of ``\\info``."""

    text: str
    metadata: dict[str, str] = field(default_factory=dict)
    cuts: list[str] = field(default_factory=list)  # what was read only in part, and why
    hidden_chars: int = 0  # characters of the text in hidden text (\v)
    #: groups still open where the data ends: a writer closes every group, so a file
    #: ending inside some was most likely cut short
    unclosed_groups: int = 0
    #: what a file ending inside open groups was cut in, when text is lost with it (a
    #: word, a control word, a picture); '' when its closing braces alone are missing
    cut_inside: str = ""


class _Reader:
    def __init__(self, data: str, excluded: frozenset[str], max_depth: int) -> None:
        self.data = data
        self.excluded = excluded
        self.max_depth = max_depth
        self.codepage = "cp1252"
        self.default_font: int | None = None
        self.font_charsets: dict[int, str] = {}
        self.font_defining: int | None = None
        self.font_name = ""
        self.symbol_fonts: dict[int, dict[int, str]] = {}
        self.parts: dict[str, list[str]] = {"": []}
        self.loose_pieces: dict[str, int] = {}  # pieces of each target not yet joined
        self.dates: dict[str, dict[str, int]] = {}
        self.pending = bytearray()
        self.pending_codec = "cp1252"
        self.pending_target = ""
        self.pending_hidden = False
        self.high_surrogate: tuple[int, str] | None = None
        self.skip_chars = 0
        self.cuts: list[str] = []
        self.hidden_chars = 0

    def codec(self, state: _State) -> str:
        font = state.font if state.font is not None else self.default_font
        if font is not None and font in self.symbol_fonts:
            return f"{_SYMBOL_FONT}{font}"
        if font is not None and font in self.font_charsets:
            return self.font_charsets[font]
        return self.codepage

    def put(self, text: str, target: str) -> None:
        parts = self.parts.setdefault(target, [])
        parts.append(text)
        loose = self.loose_pieces.get(target, 0) + 1
        if loose >= _JOINED_PIECES:
            parts[-loose:] = ["".join(parts[-loose:])]
            loose = 0
        self.loose_pieces[target] = loose

    def flush(self) -> None:
        """Decode the bytes gathered so far and settle a surrogate left without its pair."""
        if self.pending:
            data, self.pending = bytes(self.pending), bytearray()
            text = self.decode(data, self.pending_codec)
            self.put(text, self.pending_target)
            if self.pending_hidden and not self.pending_target:
                self.hidden_chars += len(text)
        if self.high_surrogate is not None:
            self.put("\ufffd", self.high_surrogate[1])
            self.high_surrogate = None

    def decode(self, data: bytes, codec: str) -> str:
        if not codec.startswith(_SYMBOL_FONT):
            return data.decode(codec, errors="replace")
        # bytes of a symbol font are the glyphs it draws; one it has no character for
        # reads as the document's code page would have it
        table = self.symbol_fonts[int(codec.removeprefix(_SYMBOL_FONT))]
        return "".join(table.get(byte) or bytes((byte,)).decode(self.codepage, "replace")
                       for byte in data)

    def emit(self, text: str, state: _State, *, character: bool = True) -> None:
        """Put ``text`` out; ``character``: it counts as hidden text when hidden (a
        break, tab or padding space does not)."""
        if not state.skip:
            self.flush()
            self.put(text, state.target)
            if character and state.hidden and not state.target:
                self.hidden_chars += len(text)

    def lay_out_row(self, word: str, state: _State) -> None:
        """A break or table mark inside a table row, laid out as the docx reader lays out
        a row: its cells apart by tabs, none after the last; a cell's paragraphs and a
        nested table's cells (``\nestcell``) inside it apart by spaces, as one line."""
        self.flush()
        parts = self.parts.setdefault(state.target, [])
        if word in ("cell", "row"):
            # no spaces a cell's own breaks left at its end
            while parts and parts[-1].endswith(" "):
                parts[-1] = parts[-1].rstrip(" ")
                if not parts[-1]:
                    parts.pop()
        if word == "row":
            if parts and parts[-1].endswith("\t"):
                parts[-1] = parts[-1][:-1]  # the last cell's mark
            self.emit("\n", state, character=False)
        elif word == "cell":
            self.emit("\t", state, character=False)
        elif parts and parts[-1] and parts[-1][-1] not in " \t\n":
            self.emit(" ", state, character=False)  # none at a cell's start

    def bytes_(self, data: bytes, state: _State) -> None:
        if self.skip_chars:
            skipped = min(self.skip_chars, len(data))
            self.skip_chars -= skipped
            data = data[skipped:]
        if state.skip or state.deleted or not data:
            return
        codec = self.codec(state)
        if self.high_surrogate is not None or (
            self.pending
            and (codec, state.target, state.hidden)
            != (self.pending_codec, self.pending_target, self.pending_hidden)
        ):
            self.flush()
        self.pending_codec, self.pending_target = codec, state.target
        self.pending_hidden = state.hidden
        self.pending += data

    def unicode(self, value: int, state: _State) -> None:
        self.skip_chars = state.uc
        if state.skip or state.deleted:
            return
        if state.hidden and not state.target:
            self.hidden_chars += 1
        value &= 0xFFFF  # \u takes a signed 16-bit number
        if 0xDC00 <= value <= 0xDFFF and self.high_surrogate is not None:
            high = self.high_surrogate[0]
            self.high_surrogate = None
            self.flush()
            self.put(chr(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)), state.target)
            return
        self.flush()
        if 0xD800 <= value <= 0xDBFF:
            self.high_surrogate = (value, state.target)
        elif 0xDC00 <= value <= 0xDFFF:
            self.put("\ufffd", state.target)
        else:
            font = state.font if state.font is not None else self.default_font
            table = self.symbol_fonts.get(font) if font is not None else None
            self.put(symbol_run_text(table, chr(value)) if table else chr(value), state.target)

    def read(self) -> RTFContent:
        state = _State()
        stack: list[_State] = []
        # Groups deeper than max_depth are read as part of the deepest group kept: a
        # state a group would cost a hundred times the brace that opens it.
        merged_groups = 0
        group_start = starred = False
        data = self.data
        position, end = 0, len(data)
        # what the data ended with, for a file that ends inside open groups
        ending = "at a lone backslash"
        # a table row begun (\trowd) and not yet ended (\row): a writer ends every row,
        # so a file ending inside one lost the rest of it, whatever the last word was
        in_row = False
        # what the data ended with before each open group began: a note or a header
        # closed says nothing of the body's text around it, which goes on after it
        ending_before: list[str] = []
        while position < end:
            match = _TOKEN.match(data, position)
            if match is None:  # a lone backslash at the very end
                ending = "at a lone backslash"
                break
            position = match.end()
            word, param, hexbyte, symbol, brace, text = match.groups()
            previous, ending = ending, _ending(word, param, hexbyte, symbol, brace, text, ending)
            if match.lastindex is None:
                # a line end, which RTF ignores: Word wraps its lines anywhere, so one
                # between a "{" and its "\*\latentstyles" must not make the group text
                continue
            if word is not None:
                first, was_starred = group_start, starred
                group_start = starred = False
                if word == "bin":
                    position += max(int(param or 0), 0)  # raw bytes, never text
                    continue
                if word in _ROW_MARKS and not state.skip:  # not an old copy's row marks
                    in_row = word == "trowd"
                state = self.control(word, param, state, first, was_starred)
                continue
            if symbol == "*":
                starred = True
                continue
            group_start = starred = False
            if hexbyte is not None:
                self.bytes_(bytes((int(hexbyte, 16),)), state)
            elif text is not None:
                if state.in_fonttbl:
                    self.font_name_text(text, state)
                self.bytes_(text.encode("latin-1"), state)
            elif symbol is not None:
                if self.skip_chars:  # a \uN's fallback character
                    self.skip_chars -= 1
                elif state.deleted:
                    continue
                elif symbol in "\r\n":
                    self.emit("\n", state, character=False)
                elif symbol in _CONTROL_SYMBOLS:
                    self.emit(_CONTROL_SYMBOLS[symbol], state)
            elif brace == "{":
                self.skip_chars = 0
                if len(stack) < self.max_depth:
                    stack.append(state)
                    ending_before.append(previous)
                    # \upr holds an ANSI copy and a Unicode one ({\*\ud}): only the
                    # latter is read, however the former opens
                    copy = state.in_upr and not state.skip
                    state = replace(state, padded=False, skip=state.skip or copy,
                                    upr_copy=copy)
                elif not merged_groups:
                    self.cuts.append(
                        f"groups nested deeper than {self.max_depth:,} read as part of the "
                        "group that holds them: limits.max_xml_depth"
                    )
                    merged_groups = 1
                else:
                    merged_groups += 1
                group_start = True
            elif brace == "}":
                self.skip_chars = 0
                if merged_groups:
                    merged_groups -= 1
                    continue
                closed = state
                if stack:
                    state = stack.pop()
                    opened_after = ending_before.pop()
                    if closed.destination not in ("", state.destination, *_IN_FLOW):
                        ending = opened_after
                if closed.padded:
                    self.emit(" ", state, character=False)
        self.flush()
        unclosed = len(stack) + merged_groups
        return RTFContent("".join(self.parts[""]), self.metadata(), self.cuts, self.hidden_chars,
                          unclosed, _cut_inside(ending, state, in_row) if unclosed else "")

    def control(
        self, word: str, param: str | None, state: _State, first: bool, starred: bool
    ) -> _State:
        if self.skip_chars:
            # the RTF specification counts a control word as one character of a \uN's
            # fallback (\u8220\ldblquote): it is skipped whole
            self.skip_chars -= 1
            return state
        if first and not state.destination and word in _STORIES:
            state.destination = word
        if state.in_fonttbl:
            if first and starred:
                state.in_font_aside = True
            else:
                self.font_table(word, param)
            return state
        if first and (
            word in _SKIPPED or word in self.excluded or (starred and word not in _KEPT_STARRED)
        ):
            if not state.skip:
                state.destination = word
            state.skip = True
            return state
        if word == "u" and param is not None:
            self.unicode(int(param), state)
        elif word in _SYMBOLS:
            if not state.deleted or word in _TABLE_MARKS:
                if state.in_table and word in _IN_ROWS and not state.skip:
                    self.lay_out_row(word, state)
                else:
                    self.emit(_SYMBOLS[word], state, character=word not in _LAYOUT)
        elif word in ("intbl", "pard"):
            # a paragraph property: its group's, until \pard sets them back
            state.in_table = word == "intbl"
        elif word == "f" and param is not None:
            state.font = int(param)
        elif word == "plain":
            state.font = None
            state.deleted = state.hidden = False
        elif word == "deleted":
            state.deleted = param != "0"
        elif word == "v":
            state.hidden = param != "0"
        elif word == "uc" and param is not None:
            state.uc = max(int(param), 0)
        elif word == "ansicpg" and param is not None and param != "0":
            codec = f"cp{int(param)}"
            if _known(codec):
                self.codepage = codec
        elif word in _CODE_PAGES:
            self.codepage = _CODE_PAGES[word]
        elif word == "deff" and param is not None:
            self.default_font = int(param)
        elif word == "fonttbl":
            state.in_fonttbl = state.skip = True
        elif word == "upr":
            state.in_upr = True
        elif word == "ud":
            state.in_upr = False
            if state.upr_copy:
                state.skip = state.upr_copy = False
        elif word == "info":
            state.target = "info"
        elif word in _INFO_TEXT and state.target.startswith("info"):
            self.flush()
            state.target = f"info:{_INFO_TEXT[word]}"
            self.parts[state.target] = []  # a property given twice keeps its last value
            self.loose_pieces[state.target] = 0
        elif word in _INFO_DATES and state.target.startswith("info"):
            state.date, state.skip = _INFO_DATES[word], True
            self.dates[state.date] = {}
        elif word in _DATE_PARTS and state.date and param is not None:
            self.dates[state.date][_DATE_PARTS[word]] = int(param)
        elif first and word in _PADDED:
            self.emit(" ", state, character=False)
            state.padded = True
        return state

    def font_table(self, word: str, param: str | None) -> None:
        if word == "f" and param is not None:
            self.font_defining = int(param)
            self.font_name = ""
        elif self.font_defining is None or param is None:
            return
        elif word == "fcharset":
            charset = int(param)
            codec = CHARSET_CODEPAGES.get(charset)
            if codec is not None:
                self.font_charsets[self.font_defining] = codec
            elif charset in _DOCUMENT_CHARSETS:
                self.font_charsets.pop(self.font_defining, None)
        elif word == "cpg" and param != "0":
            codec = f"cp{int(param)}"
            if _known(codec):
                self.font_charsets[self.font_defining] = codec

    def font_name_text(self, text: str, state: _State) -> None:
        """Gather the name of the font being defined; a symbol font's bytes are mapped."""
        if state.in_font_aside or self.font_defining is None:
            return
        # only the new text is searched for the ';' that ends the name: a name
        # gathered over a million lines and searched whole each time is quadratic
        end = text.find(";")
        if end < 0:
            if len(self.font_name) < _FONT_NAME_CHARS:
                self.font_name += text[:_FONT_NAME_CHARS]
            return
        table = symbol_table((self.font_name + text[:end]).strip())
        if table is not None:
            self.symbol_fonts[self.font_defining] = table
        self.font_defining = None

    def metadata(self) -> dict[str, str]:
        found: dict[str, str] = {}
        for target, parts in self.parts.items():
            if not target.startswith("info:"):
                continue
            value = " ".join("".join(parts).split())
            if value:
                found[target.removeprefix("info:")] = value
        for key, date_parts in self.dates.items():
            stamp = _stamp(date_parts)
            if stamp:
                found[key] = stamp
        return found


#: Control words that end a paragraph, a cell or a row: a file cut right after one lost
#: only its closing braces (Word and LibreOffice end the body with \par and braces),
#: unless it is still inside a table row.
_BLOCK_ENDS = frozenset({"par", "line", "cell", "nestcell", "row", "nestrow", "sect", "page"})
#: Control words beginning a table row's definition and ending the row (a nested
#: table's rows, \nestrow, end inside the row holding them)
_ROW_MARKS = frozenset({"trowd", "row"})
#: Skipped destinations a writer puts after the body (Word's XML data store): a file cut
#: inside one has lost no text.
_AFTER_BODY = frozenset({"datastore"})


def _ending(word: str | None, param: str | None, hexbyte: str | None, symbol: str | None,
            brace: str | None, text: str | None, before: str) -> str:
    """What the data read so far ends with, as ``_cut_inside`` names it (line ends, which
    RTF ignores, leave it as it was)."""
    if word is not None:
        return f"at the control word \\{word}{param or ''}"
    if brace == "{":
        return "just after opening a group"
    if brace == "}":
        # closing a group ends no paragraph ({\b bold} mid-sentence): what came before
        # it says whether the text was cut; an empty group says nothing
        return "" if before == "just after opening a group" else before
    if hexbyte is not None or (text is not None and text.strip()):
        return "in the middle of its text"
    if symbol is not None:
        if symbol in "\r\n":  # an escaped line end is a paragraph's end, as \par is
            return ""
        return before if symbol == "*" else "in the middle of its text"
    return before


#: Groups apart from the body's flow: a file cut inside one lost the body after it too.
_STORIES = frozenset({"info", "fonttbl", "shptxt", "shpinst", "fldinst", "fldrslt",
                      *_PADDED, *_HEADERS_FOOTERS})


#: Of those, the groups whose text stands in the body's flow (a field's result): a file
#: cut right after one ends where its text does, not where the body did before it.
_IN_FLOW = frozenset({"fldrslt"})


def _cut_inside(ending: str, state: _State, in_row: bool) -> str:
    """What a file ending inside open groups was cut in, losing the text that followed;
    '' when its closing braces alone are missing (it ends, in the body, with the end of
    a paragraph or a row, then braces) or it was cut inside data a writer puts after the
    body. ``in_row``: it ends inside a table row, whose end no writer leaves out."""
    if state.destination:
        if state.destination in _AFTER_BODY:
            return ""
        return f"inside the \\{state.destination} group"
    word = ending.removeprefix("at the control word \\")
    if not ending or (word != ending and word in _BLOCK_ENDS):
        return "inside a table row, before its end (\\row)" if in_row else ""
    return ending


def _known(codec: str) -> bool:
    try:
        codecs.lookup(codec)
    except LookupError:
        return False
    return True


def _stamp(parts: dict[str, int]) -> str | None:
    """An ``\\info`` date as ISO 8601: date and time, or the date alone when no hour is given."""
    try:
        moment = datetime(
            parts["year"],
            parts.get("month", 1),
            parts.get("day", 1),
            parts.get("hour", 0),
            parts.get("minute", 0),
            parts.get("second", 0),
        )
    except (KeyError, ValueError):
        return None
    if "hour" not in parts:
        return moment.date().isoformat()
    return moment.isoformat()


def read_rtf(
    data: bytes,
    *,
    comments: bool = True,
    notes: bool = True,
    headers_footers: bool = True,
    max_depth: int = 256,
) -> RTFContent:
    """The text and ``\\info`` properties of an RTF document (``data`` as stored).

    Groups nested deeper than ``max_depth`` are read as part of the group holding them.
    """
    excluded = frozenset(
        (set() if comments else _COMMENTS)
        | (set() if notes else _NOTES)
        | (set() if headers_footers else _HEADERS_FOOTERS)
    )
    return _Reader(data.decode("latin-1"), excluded, max(max_depth, 1)).read()
