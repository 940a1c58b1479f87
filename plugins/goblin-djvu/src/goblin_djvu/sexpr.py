r"""DjVuLibre's s-expressions, as ``djvutxt --detail`` and ``djvused`` print them.

Only what those tools write is read: lists, bare atoms (numbers, symbols) and
strings in double quotes, whose escapes (``\n``, ``\"``, ``\\``, octal ``\303``)
stand for bytes of UTF-8 text. A string is returned as ``str``, an atom as
``bytes``, a list as ``list``.

DjVu text is UTF-8 by its specification, but files made by older tools wrote their
text layers and bookmarks in the code page of the machine (Latin-1 umlauts, Windows
Cyrillic): strings that are not UTF-8 are read in the code page that goblin's text
decoder finds for all of them together (one tool run's strings are one file's).

>>> parse_all(rb'(page 0 0 10 20 "Relat\303\263rio\n") ()')
[[b'page', b'0', b'0', b'10', b'20', 'Relatório\n'], []]
"""

from __future__ import annotations

import re

from goblin_core.builtin.text import decode_text

SExpr = str | bytes | list["SExpr"]

# a string's runs of plain bytes taken whole: one byte at a time, a page's 15 MB of text
# took 4 s to read
_TOKEN = re.compile(rb'\s*(?:(\()|(\))|"((?:[^"\\]++|\\.)*+)"|([^\s()"]+))', re.S)
_ESCAPE = re.compile(rb"\\([0-7]{1,3}|x[0-9A-Fa-f]{1,2}|.)", re.S)
_NAMED = {b"n": b"\n", b"t": b"\t", b"r": b"\r", b"f": b"\f", b"v": b"\v", b"b": b"\b",
          b"a": b"\a"}


class SExprError(ValueError):
    """The tool's output is not the s-expressions it should be."""


def parse_all(data: bytes) -> list[SExpr]:
    r"""Every top-level expression of ``data``, in order.

    >>> parse_all(b'(bookmarks ("Gr\\366\\337e" "#1") ("\\344rger" "#2"))')
    [[b'bookmarks', ['Größe', '#1'], ['ärger', '#2']]]
    """
    found: list[SExpr] = []
    stack: list[list[SExpr]] = []
    # strings that are not UTF-8, decoded together once all are known: where each stands
    legacy: list[tuple[list[SExpr], int, bytes]] = []
    position, end = 0, len(data.rstrip())
    while position < end:
        token = _TOKEN.match(data, position)
        if token is None:
            raise SExprError(f"unreadable at byte {position}: {data[position:position + 20]!r}")
        position = token.end()
        opening, closing, string, atom = token.groups()
        if opening:
            stack.append([])
            continue
        value: SExpr
        if closing:
            if not stack:
                raise SExprError(f"')' without '(' at byte {position - 1}")
            value = stack.pop()
        holder = stack[-1] if stack else found
        if string is not None:
            raw = _unescaped_bytes(string)
            try:
                value = raw.decode("utf-8")
            except UnicodeDecodeError:
                legacy.append((holder, len(holder), raw))
                value = ""
        elif not closing:
            value = atom
        holder.append(value)
    if stack:
        raise SExprError("the output ends inside a list")
    if legacy:
        codec = decode_text(b"\n".join(raw for _, _, raw in legacy))[1]
        for holder, index, raw in legacy:
            holder[index] = raw.decode(codec, "replace")
    return found


def unescape(raw: bytes) -> str:
    r"""A quoted string's text: escapes undone, the bytes read as UTF-8, or in the code
    page goblin's text decoder finds when they are not UTF-8.

    >>> unescape(rb'a\"b\\c\tx\101\303\251'), unescape(rb'caf\351')
    ('a"b\\c\txAé', 'café')
    """
    data = _unescaped_bytes(raw)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return decode_text(data)[0]


def _unescaped_bytes(raw: bytes) -> bytes:
    return _ESCAPE.sub(_unescaped, raw)


def _unescaped(found: re.Match[bytes]) -> bytes:
    code = found.group(1)
    if code[:1].isdigit():
        return bytes([int(code, 8) & 0xFF])
    if code[:1] == b"x" and len(code) > 1:
        return bytes([int(code[1:], 16)])
    return _NAMED.get(code, code)
