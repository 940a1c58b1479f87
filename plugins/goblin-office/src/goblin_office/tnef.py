"""TNEF (``winmail.dat``, application/ms-tnef): what Outlook sends in place of a rich-text mail.

tnefparse decodes the stream; the message reads like an ``.eml``: From, To,
Date, Subject, then the body (plain text, else the HTML body's text, else the
compressed RTF body through goblin's RTF reader), attachments as children
(an embedded message as the TNEF stream it is, so it is read the same way).
"""

from __future__ import annotations

import codecs
import contextvars
import logging
import struct
from datetime import datetime
from typing import TYPE_CHECKING, Any

from goblin_core.builtin.text import decode_text
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.mail import (
    attachment_name,
    decompressed_rtf,
    html_text,
    iso_moment,
    mail_page,
    rtf_body_text,
)

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

log = logging.getLogger(__name__)

SIGNATURE = b"\x78\x9f\x3e\x22"  # 0x223E9F78, little-endian

# MAPI property ids of the message, for what the TNEF attributes leave out
_PR_SUBJECT = 0x0037
_PR_SENDER_NAME = 0x0C1A
_PR_SENDER_EMAIL = 0x0C1F
_PR_DISPLAY_NAME = 0x3001
_PR_EMAIL_ADDRESS = 0x3003
_PR_SMTP_ADDRESS = 0x39FE

# how many more levels of embedded messages the message being read may open
_levels_left: contextvars.ContextVar[int] = contextvars.ContextVar("tnef_levels", default=10)


class TNEFParser(BaseEngine):
    """winmail.dat: headers, the best body, attachments and embedded messages as children."""

    name = "office.tnef"
    formats = (fmt.TNEF,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        data = source.bytes()
        if not data.startswith(SIGNATURE):
            raise CorruptDocument("not a TNEF stream (no 0x223E9F78 signature)",
                                  file=source.display_name)
        max_depth = int(config.get("limits", "max_depth", 10))
        try:
            message = _decode(data, max_depth)
        except RecursionError as exc:
            raise CorruptDocument(
                "its embedded messages nest deeper than the TNEF reader can follow",
                file=source.display_name,
            ) from exc
        except (ValueError, LookupError, TypeError, NameError, struct.error, AssertionError,
                UnicodeError) as exc:  # tnefparse checks little: damage shows as any of these
            raise CorruptDocument(
                f"the TNEF stream cannot be read ({type(exc).__name__}: {exc}); it is "
                "truncated or damaged", file=source.display_name,
            ) from exc
        headers = [
            ("From", _sender(message)),
            ("To", _recipients(message)),
            ("Date", _date(message) or ""),
            ("Subject", _subject(message)),
        ]
        warnings: list[tuple[str, str]] = []
        page = mail_page(headers, _body(message, config, warnings), self.name)
        children = [source.child(name, blob) for name, blob in _attachments(message)]
        metadata = {
            "title": headers[3][1],
            "author": headers[0][1],
            "created": headers[2][1],
            "message_class": _attribute(message, "Message Class"),
        }
        document = TextDocument(
            [page.build()], metadata={k: v for k, v in metadata.items() if v}, attachments=children
        )
        cut = cut_short(data)
        if cut:
            # tnefparse reads an attribute cut off as what is left of it, and says nothing
            warnings.append(("Truncated", f"the TNEF stream is cut short: {cut}; what "
                             "followed is lost"))
        document.warnings = warnings
        if warnings:
            log.warning("%s: %s", source.display_name, warnings[0][1])
        return document


# an attribute's level, its id and type, and the length of its data; a checksum follows
_ATTRIBUTE_HEAD = struct.Struct("<BII")
_CHECKSUM_SIZE = 2
_LEVELS = (1, 2)  # the message's, an attachment's
_FIRST_ATTRIBUTE = len(SIGNATURE) + 2  # after the signature and the legacy key


def cut_short(data: bytes) -> str:
    """How a TNEF stream's last attribute runs past the stream's end ("" when none does).

    The attributes are walked by their lengths alone, as their framing is all that says
    where each ends. A walk that meets what is no attribute (damage of another kind, or
    padding after the last one) stops without a verdict.

    >>> head = SIGNATURE + b"\\x01\\x00"
    >>> cut_short(head + _ATTRIBUTE_HEAD.pack(1, 0x00018004, 4) + b"Oi\\x00")
    'the attribute at byte 6 holds 3 of its 4 bytes and no checksum'
    >>> cut_short(head + _ATTRIBUTE_HEAD.pack(1, 0x00018004, 3) + b"Oi\\x00\\x00\\x00")
    ''
    """
    offset = _FIRST_ATTRIBUTE
    while len(data) - offset >= _ATTRIBUTE_HEAD.size:
        level, _, length = _ATTRIBUTE_HEAD.unpack_from(data, offset)
        if level not in _LEVELS:
            return ""
        start = offset + _ATTRIBUTE_HEAD.size
        end = start + length + _CHECKSUM_SIZE
        if end > len(data):
            held = min(length, len(data) - start)
            checksum = "part of its checksum" if held == length else "no checksum"
            return (f"the attribute at byte {offset:,} holds {held:,} of its {length:,} "
                    f"bytes and {checksum}")
        offset = end
    return ""


def _decode(data: bytes, max_depth: int) -> Any:
    from tnefparse import mapi, tnef

    _harden(tnef, mapi)
    token = _levels_left.set(max_depth)
    try:
        return tnef.TNEF(data, do_checksum=False)
    finally:
        _levels_left.reset(token)


def _harden(tnef: Any, mapi: Any) -> None:
    """Bound what tnefparse does with a hostile stream; it reads well-formed ones unchanged.

    - It hands each object ``data[offset:]``, a copy of the rest of the stream: a
      few MB of tiny objects would copy terabytes. A memoryview makes that a view.
    - A MAPI block's property count is trusted: 0xFFFFFFFF properties over an empty
      block loop four billion times. A count the block cannot hold is refused.
    - A multi-valued property's count of values is trusted too, and a value of a
      fixed size read past the block's end is empty, not an error: 0xFFFFFFFF short
      integers in an 84-byte stream were four billion attributes. A value starting
      past the end stops the block, keeping the properties read before it.
    - An embedded message is parsed as it is met, with a copy of its bytes at each
      level; the levels are held to ``limits.max_depth``.
    - The code page it is told is read as ``python_codec`` names it, leniently, and
      one never told is Windows-1252.
    """
    if getattr(tnef, "_goblin_hardened", False):
        return
    base_tnef, base_object, base_decode = tnef.TNEF, tnef.TNEFObject, tnef.decode_mapi

    class BoundedTNEF(base_tnef):  # type: ignore[misc, valid-type]
        def __init__(self, data: Any, do_checksum: bool = True) -> None:
            left = _levels_left.get()
            if left < 0:
                raise ValueError("embedded messages nest deeper than limits.max_depth")
            token = _levels_left.set(left - 1)
            try:
                view = data if isinstance(data, memoryview) else memoryview(bytes(data))
                super().__init__(view, do_checksum)
            finally:
                _levels_left.reset(token)

        # a stream that declares no code page before its strings (tnefparse starts from
        # None, and decoding with it is a TypeError) is read as Windows-1252, the
        # code page Outlook writes most
        @property
        def codepage(self) -> str:
            return getattr(self, "_codepage", None) or _LENIENT + "cp1252"

        @codepage.setter
        def codepage(self, value: str | None) -> None:
            self._codepage = value

    class ObjectBytes(base_object):  # type: ignore[misc, valid-type]
        data: bytes

        def __init__(self, data: Any, do_checksum: bool = False) -> None:
            super().__init__(data, do_checksum)
            self.data = bytes(self.data)

    def bounded_decode(data: Any, codepage: Any = "cp1252", starting_offset: Any = None) -> Any:
        offset = starting_offset or 0
        if len(data) >= offset + 4:
            count = struct.unpack_from("<I", data, offset)[0]
            if count > (len(data) - offset) // 4:
                raise ValueError(f"a MAPI block claims {count:,} properties in "
                                 f"{len(data) - offset:,} bytes")
        return base_decode(data, codepage, starting_offset)

    base_property = mapi.parse_property

    def bounded_property(data: Any, offset: int, *rest: Any) -> Any:
        if offset > len(data):
            raise ValueError(f"a MAPI value at byte {offset:,} of a {len(data):,}-byte block")
        return base_property(data, offset, *rest)

    class KnownCodepage(tnef.Codepage):
        def codepage(self) -> str:
            return _LENIENT + python_codec(self.cp)

    tnef.TNEF, tnef.TNEFObject, tnef.decode_mapi = BoundedTNEF, ObjectBytes, bounded_decode
    tnef.Codepage = KnownCodepage
    mapi.parse_property = bounded_property
    tnef._goblin_hardened = True


#: Windows code pages Python knows under another name than ``cpNNNN``.
_CODE_PAGE_NAMES = {
    20127: "ascii", 20866: "koi8_r", 21866: "koi8_u", 20932: "euc_jp", 50220: "iso2022_jp",
    50221: "iso2022_jp", 50222: "iso2022_jp", 51932: "euc_jp", 51949: "euc_kr",
    20936: "gb2312", 936: "gbk", 54936: "gb18030", 10000: "mac_roman", 65001: "utf-8",
    **{28590 + n: f"iso8859_{n}" for n in range(1, 16)},
}


#: What names the codec ``_lenient_codec`` finds: the declared one, read leniently.
_LENIENT = "goblin_tnef_"


def _lenient_codec(name: str) -> codecs.CodecInfo | None:
    """The codec of a TNEF stream's code page (``goblin_tnef_<codec>``): that code page,
    and for bytes it does not fit, the core's detection. tnefparse decodes each string
    attribute strictly, and one that did not fit (a Shift_JIS subject in a stream
    declared Windows-1252) failed the whole stream."""
    if not name.startswith(_LENIENT):
        return None
    declared = name.removeprefix(_LENIENT)
    base = codecs.lookup(declared)

    def decode(data: ReadableBuffer, errors: str = "strict", /) -> tuple[str, int]:
        raw = bytes(data)
        try:
            return base.decode(raw, errors)
        except UnicodeDecodeError:
            # the NULs that end and pad a string would read as UTF-16 to the detector
            return decode_text(raw.rstrip(b"\0"), declared)[0], len(raw)

    return codecs.CodecInfo(base.encode, decode, name=name)


codecs.register(_lenient_codec)


def python_codec(code_page: object) -> str:
    """The Python codec of a Windows code page number, cp1252 for one it has none for.

    tnefparse names any number above 1258 ``cpNNNN``, which Python does not know for
    most of them (EUC-JP's 20932, ISO-2022-JP's 50220, GB18030's 54936), nor for 0: the
    whole stream failed with LookupError.

    >>> python_codec(932), python_codec(50220), python_codec(0)
    ('cp932', 'iso2022_jp', 'cp1252')
    """
    if not isinstance(code_page, int):
        return "cp1252"
    for name in (_CODE_PAGE_NAMES.get(code_page), f"cp{code_page}"):
        if name is None:
            continue
        try:
            if codecs.lookup(name)._is_text_encoding:
                return name
        except LookupError:
            continue
    return "cp1252"


def _text(value: Any, codepage: str | None) -> str:
    if isinstance(value, bytes):
        if codepage:
            try:
                value = value.decode(codepage)
            except (UnicodeDecodeError, LookupError):
                value = decode_text(value)[0]
        else:
            value = decode_text(value)[0]
    return str(value or "").rstrip("\x00").strip()


def _attribute(message: Any, name: str) -> Any:
    for item in message.msgprops:
        if item.name_str == name:
            return item.data
    return None


def _mapi(attributes: Any, prop: int) -> Any:
    for item in attributes:
        if item.name == prop:
            return item.data
    return None


def _person(name: str, address: str) -> str:
    if name and address and name != address:
        return f"{name} <{address}>"
    return name or address


def _sender(message: Any) -> str:
    found = _attribute(message, "From")
    if isinstance(found, tuple) and len(found) == 3:
        return _person(_text(found[0], message.codepage), _text(found[2], message.codepage))
    return _person(
        _text(_mapi(message.mapiprops, _PR_SENDER_NAME), message.codepage),
        _text(_mapi(message.mapiprops, _PR_SENDER_EMAIL), message.codepage),
    )


def _recipients(message: Any) -> str:
    table = _attribute(message, "Recipients") or []
    people = []
    for row in table:
        address = _mapi(row, _PR_SMTP_ADDRESS) or _mapi(row, _PR_EMAIL_ADDRESS)
        people.append(_person(_text(_mapi(row, _PR_DISPLAY_NAME), message.codepage),
                              _text(address, message.codepage)))
    return ", ".join(p for p in people if p)


def _subject(message: Any) -> str:
    return _text(_attribute(message, "Subject") or _mapi(message.mapiprops, _PR_SUBJECT),
                 message.codepage)


def _date(message: Any) -> str | None:
    """When it was sent, as ``.eml`` dates are written: TNEF dates carry no zone."""
    for name in ("Date Sent", "Date Received", "Date Modified"):
        moment = _attribute(message, name)
        if isinstance(moment, datetime):
            return iso_moment(moment)
    return None


def _body(message: Any, config: Config, warnings: list[tuple[str, str]]) -> str:
    """The plain body, else the HTML body's text, else the RTF body's (a damaged one
    read as far as it decompresses, said in ``warnings``)."""
    text = _text(message.body, message.codepage)
    if text:
        return text
    html = _text(message.htmlbody, message.codepage)
    if html:
        return html_text(html)
    # the compressed body as tnefparse keeps it, its last byte (a NUL) taken off and
    # put back as its own reading does, which refuses a damaged body whole
    compressed = getattr(message, "_rtfbody", None)
    rtf, damage = decompressed_rtf(compressed + b"\0" if isinstance(compressed, bytes)
                                   else None)
    if damage:
        warnings.append(("CorruptDocument", f"the RTF body is damaged: {damage}"))
    return rtf_body_text(rtf, comments=bool(config.get("office", "comments", True)))


def _attachments(message: Any) -> list[tuple[str, bytes]]:
    found = []
    for index, attachment in enumerate(message.attachments, start=1):
        data = attachment.data
        if not isinstance(data, bytes) or not data:
            continue
        try:
            name = _text(attachment.long_filename(), message.codepage)
        except (UnicodeError, AttributeError, TypeError) as exc:  # a name in a legacy code page
            log.debug("TNEF attachment %d name unreadable: %s", index, exc)
            name = _text(getattr(attachment, "_name", b""), message.codepage)
        if hasattr(attachment, "embed"):
            name = f"{name or 'message'}.dat"
        found.append((attachment_name(name, f"attachment-{index}"), data))
    return found
