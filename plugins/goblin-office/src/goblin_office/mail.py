"""E-mail: .eml (the standard library's email package) and Outlook .msg (extract-msg).

Headers (From, To, Cc, Date, Subject) head the page, then the body (plain
text, or the HTML part's visible text); attachments come out as children and
go through the pipeline themselves.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import contextlib
import email
import email.errors
import email.header
import email.headerregistry
import email.policy
import email.utils
import logging
import quopri
import re
import struct
from collections import OrderedDict
from collections.abc import Sequence
from datetime import UTC, datetime
from email.message import EmailMessage
from typing import Any

from goblin_core.builtin.text import (
    declared_codecs,
    decode_text,
    looks_utf16,
    utf16_without_bom,
)
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.errors import CorruptDocument, GoblinError
from goblin_core.library_logs import HeldLogger
from goblin_core.source import Source
from goblin_office import formats as fmt
from goblin_office.layout import PageBuilder
from goblin_office.rtftext import read_rtf
from goblin_office.sniffing import emlx_message

log = logging.getLogger(__name__)

_HEADERS = ("From", "To", "Cc", "Date", "Subject")


def mail_page(headers: Sequence[tuple[str, str]], body: str, engine: str) -> PageBuilder:
    page = PageBuilder(engine=engine)
    for key, value in headers:
        if value:
            page.add(f"{key}: {' '.join(str(value).split())}", "header")
    # lone CRs end lines too: old Mac mailers and some gateways write them
    for paragraph in body.replace("\r\n", "\n").replace("\r", "\n").split("\n\n"):
        page.add(paragraph)
    return page


def html_text(markup: str) -> str:
    from goblin_office.html_tree import html_page  # BeautifulSoup, loaded when needed

    return html_page(markup)[0].text


def rtf_body_text(rtf: object, comments: bool = True) -> str:
    """The text of a mail's RTF body (Outlook's PR_RTF_COMPRESSED, decompressed) through
    goblin's RTF reader; "" when it is no RTF or cannot be read."""
    if not isinstance(rtf, bytes) or not rtf.lstrip().startswith(b"{\\rtf"):
        return ""
    try:
        content = read_rtf(rtf, comments=comments)
    except (ValueError, IndexError, RecursionError) as exc:
        log.warning("RTF body unreadable: %s", exc)
        return ""
    text = content.text.replace("\x00", "")
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


_RTF_HEADER = struct.Struct("<II4sI")  # compressed size, raw size, kind, CRC
_LZFU = b"LZFu"


def decompressed_rtf(compressed: object) -> tuple[bytes | None, str]:
    """An RTF body as Outlook compresses it (MS-OXRTFCP) decompressed, and what was
    wrong with it ("" when nothing was).

    compressed_rtf refuses a body whose checksum does not match its bytes, and the
    body was lost whole: one damaged or missing byte near its end cost every word
    before it. Such a body is decompressed as far as its bytes go, which is as much
    as they still hold.
    """
    if not isinstance(compressed, bytes) or not compressed:
        return None, ""
    import compressed_rtf

    try:
        return compressed_rtf.decompress(compressed), ""
    except Exception as exc:  # compressed_rtf raises a bare Exception for any damage
        damage = str(exc)
    if len(compressed) < _RTF_HEADER.size:
        return None, damage
    size, raw_size, kind, _crc = _RTF_HEADER.unpack_from(compressed)
    if kind != _LZFU:
        return None, damage
    content = compressed[_RTF_HEADER.size:_RTF_HEADER.size + max(0, size - 12)]
    from compressed_rtf.crc32 import crc32

    mended = _RTF_HEADER.pack(size, raw_size, kind, crc32(content)) + content
    try:
        return compressed_rtf.decompress(mended), f"{damage}; read as far as it decompresses"
    except Exception:  # damaged past reading
        return None, damage


#: Longest header value read, in characters; the rest of a longer one is dropped.
#: The standard library parses a header in time and memory that grow faster than its
#: length (64 KiB of encoded words take 135 MB, a 550 KB address list 20 s, a 2 MB
#: list of RFC 2231 parameters minutes); real headers, the To: of a message sent to a
#: thousand people included, stay well under it.
MAX_HEADER_CHARS = 64 * 1024
#: Parsed header values a message keeps for when they are read again.
_PARSED_HEADERS = 64


#: What the standard library's structured header parser raises on some malformed
#: values (``To: .:``, ``From: "``, ``Cc: \@[``: each of these raises another).
_HEADER_PARSER_ERRORS = (ValueError, IndexError, TypeError, AttributeError, UnboundLocalError,
                         email.errors.HeaderParseError)


class _UnparsedHeader(email.headerregistry.UnstructuredHeader):
    """A header the structured parser fails on, kept as its text. What the search for
    the body and attachments reads of a Content-Disposition (its first word) is read
    from that text; its parameters, as Content-Type's, are read from the text anyway."""

    @property
    def content_disposition(self) -> str:
        return str(self).split(";", 1)[0].strip().lower()


class _ParsedOnce(email.headerregistry.HeaderRegistry):
    """Header parsing that remembers its last results: finding a message's body and
    attachments reads each part's Content-Type a dozen times, and each read would
    parse it again."""

    def __init__(self) -> None:
        super().__init__()
        self._parsed: OrderedDict[tuple[str, str], Any] = OrderedDict()

    def __call__(self, name: str, value: str) -> Any:
        key = (name.lower(), value)
        header = self._parsed.get(key)
        if header is None:
            try:
                header = super().__call__(name, value)
            except _HEADER_PARSER_ERRORS as exc:
                # a value the structured parser fails on is kept as text: read where
                # it is read (Content-Disposition when looking for attachments), it
                # would otherwise fail the whole message
                log.debug("header %s read as text: %s", name, exc)
                header = type("_Unparsed", (_UnparsedHeader, self.base_class), {})(name, value)
            self._parsed[key] = header
            if len(self._parsed) > _PARSED_HEADERS:
                self._parsed.popitem(last=False)
        else:
            self._parsed.move_to_end(key)
        return header


class _MailPolicy(email.policy.EmailPolicy):
    """The standard policy, holding each header to ``MAX_HEADER_CHARS`` and naming in
    ``cut`` the headers it shortened."""

    cut: list[str] | None = None

    def __init__(self, cut: list[str] | None) -> None:
        super().__init__(header_factory=_ParsedOnce(), message_factory=EmailMessage)
        object.__setattr__(self, "cut", cut)  # a policy's attributes are read-only

    def header_source_parse(self, sourcelines: list[str]) -> tuple[str, str]:
        name, value = super().header_source_parse(sourcelines)
        if len(value) > MAX_HEADER_CHARS:
            if self.cut is not None:
                self.cut.append(name)
            value = value[:MAX_HEADER_CHARS]
        return name, value


_HEADERS_END = re.compile(rb"\r?\n\r?\n")
#: Bytes from which a multipart message is split into its parts here, each part parsed
#: on its own, instead of the whole body going through the standard library's parser.
SPLIT_MULTIPART_FROM = 8 * 1024 * 1024


def parse_mail(data: bytes, cut: list[str] | None = None) -> Any:
    """``data`` parsed as a MIME message, each header value held to ``MAX_HEADER_CHARS``
    (the names of the headers cut are added to ``cut``).

    The standard library's parser holds a body line by line, a hundred bytes a line
    whatever its length: 80 MB of short lines took 2 GB. A message of one part (no
    multipart, no message inside) needs no parsing past its headers, so only they go
    through the parser and the body is set as the payload the parser would have made.
    A large multipart message is cut into its parts at its boundary lines, and each part
    is parsed the same way (``_split_multipart``).
    """
    end = _HEADERS_END.search(data)
    if end is not None:
        headers_cut: list[str] = []
        head = email.message_from_bytes(data[: end.end()], policy=_MailPolicy(headers_cut))
        # a header block the parser read whole, up to the blank line, is the message's
        if not head.get_payload() and head.keys():
            kind = head.get_content_maintype()
            parts = (_split_multipart(head, data[end.end():], cut)
                     if kind == "multipart" and len(data) >= SPLIT_MULTIPART_FROM else None)
            if parts is not None or kind not in ("multipart", "message"):
                if parts is None:
                    head.set_payload(data[end.end():].decode("ascii", "surrogateescape"))
                else:
                    head.set_payload(parts)
                if cut is not None:
                    cut.extend(headers_cut)
                return head
    return email.message_from_bytes(data, policy=_MailPolicy(cut))


def _split_multipart(head: Any, body: bytes, cut: list[str] | None) -> list[Any] | None:
    """The parts of a multipart ``body`` cut at its boundary lines as the standard
    library's parser cuts them (``--boundary``, ``--`` after the last, blanks, then the
    line's end; the line end before a boundary line belongs to it, taken off a part's
    text payload), each parsed by ``parse_mail``.

    A body with no closing boundary line (a message cut short) has its last part run to
    the end, and the ``CloseBoundaryNotFoundDefect`` the parser gives it. None, for the
    standard library to parse the whole message, when the body is not plainly that: no
    boundary, no opening boundary line, or a digest, whose parts are messages by default.
    """
    boundary = head.get_boundary()
    if not boundary or head.get_content_subtype() == "digest":
        return None
    try:  # the parser reads bytes as ASCII, a byte past it as a lone surrogate
        separator = b"--" + boundary.encode("ascii", "surrogateescape")
    except UnicodeEncodeError:  # a decoded non-ASCII boundary no line can match
        return None
    delimiter = re.compile(rb"(?:\A|(?<=[\r\n]))" + re.escape(separator)
                           + rb"(--)?[ \t]*(?:\r\n|\r|\n|\Z)")
    parts: list[Any] = []
    start: int | None = None
    for line in delimiter.finditer(body):
        if start is not None and line.start() == start:
            # boundary lines in a row make one (the parser reads no part between them);
            # a closing one among them it reads as one more of the row
            if line.group(1):
                return None
        elif start is not None and not _add_part(parts, body[start:line.start()], cut):
            return None
        if line.group(1):  # the closing boundary: what follows is the epilogue
            return parts if start is not None else None
        start = line.end()
    if start is None or start == len(body) or not _add_part(parts, body[start:], cut):
        return None
    # a message cut short: its last part runs to the end, as the parser reads it
    head.defects.append(email.errors.CloseBoundaryNotFoundDefect())
    return parts


def _add_part(parts: list[Any], data: bytes, cut: list[str] | None) -> bool:
    """``data`` parsed as one part of a multipart message, added to ``parts``; False
    when it parses as no message at all."""
    part = parse_mail(data, cut)
    if not isinstance(part, EmailMessage):
        return False
    _take_line_end(part)
    parts.append(part)
    return True


def _take_line_end(part: Any) -> None:
    """Take the line end a part's bytes close with off the text it ends in: its own, or
    its inner message's, as the standard library's parser does (a multipart part's
    goes to its epilogue, which is not read)."""
    payload = part.get_payload()
    while part.get_content_maintype() == "message" and isinstance(payload, list) and payload:
        part = payload[-1]
        payload = part.get_payload()
    if isinstance(payload, str) and part.get_content_maintype() != "multipart":
        part.set_payload(_without_line_end(payload))


def _without_line_end(text: str) -> str:
    if text.endswith("\r\n"):
        return text[:-2]
    return text[:-1] if text.endswith(("\r", "\n")) else text


def header_cuts(cut: Sequence[str]) -> list[tuple[str, str]]:
    """The warnings saying which headers ``parse_mail`` cut."""
    if not cut:
        return []
    names = ", ".join(sorted(set(cut)))
    return [("Truncated", f"{len(cut):,} header(s) longer than {MAX_HEADER_CHARS:,} "
             f"characters read only that far: {names}")]


def _eml_bytes(data: bytes) -> bytes:
    """Mail saved as UTF-16 (with or without BOM) re-encoded so the parser sees headers;
    a UTF-8 BOM or blank lines an editor left before the headers taken off (the parser
    would read them as the end of no headers, and the whole mail as a body)."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or looks_utf16(data):
        data = decode_text(data)[0].encode("utf-8")
    return data.removeprefix(codecs.BOM_UTF8).lstrip(b"\r\n")


class EMLParser(BaseEngine):
    """RFC 822 mail: headers, the best body part, attachments as children; Apple Mail's
    ``.emlx`` files are the message they wrap."""

    name = "office.eml"
    formats = (fmt.EML, fmt.EMLX)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        whole = source.bytes()
        data = _eml_bytes(emlx_message(whole) or whole)
        # one past the limit, so the pipeline still says that some were not read
        wanted = int(config.get("limits", "max_members", 10_000)) + 1
        cut: list[str] = []
        left_out: list[str] = []
        sealed: list[str] = []
        damage: list[tuple[str, str]] = []
        try:
            page, metadata, attachments = self._read(data, cut, wanted, left_out, sealed,
                                                     damage)
        except RecursionError as exc:  # the standard library's parser recurses per nested part
            raise CorruptDocument(
                "its MIME parts (forwarded messages inside messages) nest deeper than the "
                "mail parser can follow",
                file=source.display_name,
            ) from exc
        if page is None:
            raise CorruptDocument("no mail headers found", file=source.display_name)
        children = [source.child(name, blob) for name, blob in attachments]
        document = TextDocument(
            [page.build()], metadata={k: v for k, v in metadata.items() if v}, attachments=children
        )
        document.warnings = header_cuts(cut) + [
            ("CorruptDocument", f"attached message {name} left out: it nests deeper than "
             "the mail writer can follow") for name in left_out] + damage
        if sealed:
            # encrypted to its recipients' keys: no password opens it, and what it holds
            # is known lost, so the message counts as read in part
            document.warnings.append(("Encrypted", "encrypted to its recipients' keys, which "
                                      f"no password opens, and left out: {'; '.join(sealed)}"))
            document.left_out = f"{len(sealed)} encrypted part(s) (see the warnings)"
        if document.warnings:
            log.warning("%s: %s", source.display_name, document.warnings[0][1])
        return document

    def _read(self, data: bytes, cut: list[str], wanted: int, left_out: list[str],
              sealed: list[str], damage: list[tuple[str, str]],
              ) -> tuple[PageBuilder | None, dict[str, Any], list[tuple[str, bytes]]]:
        """The page, metadata and attachments of the message in ``data`` (no page when
        it has no headers); the attached messages too deep to be read are named in
        ``left_out``, its encrypted parts in ``sealed``, a message cut short in
        ``damage``."""
        message = parse_mail(data, cut)
        if not isinstance(message, EmailMessage) or not message.keys():
            return None, {}, []
        message = _with_the_boundary_used(message, data)
        message = _signed_content_read(message, data)
        damage += unclosed_parts(message, data)
        headers = [(k, _header(message, k)) for k in _HEADERS]
        (body, body_part), reports = _body(message), _reports(message)
        uuencoded: list[tuple[str, bytes]] = []
        if body_part is not None and body_part.get_content_type() == "text/plain":
            body, uuencoded = uudecoded_files(body)
            body, armored = without_pgp_messages(body)
            body = without_pgp_signatures(body)
            sealed += ["the body, inline PGP"] * bool(armored)
        page = mail_page(headers, f"{body}\n\n{reports}" if reports else body, self.name)
        metadata = {
            "title": _header(message, "Subject"),
            "author": _addresses(message, "From"),
            "created": mail_date(_header(message, "Date")),
            "message_id": _header(message, "Message-ID"),
        }
        return page, metadata, [*uuencoded, *_attachments(message, wanted, left_out, sealed,
                                                          body_part)]


def unclosed_parts(message: EmailMessage, data: bytes) -> list[tuple[str, str]]:
    """The warning for a multipart message whose parts are never closed (no line
    ``--boundary--``): one ending mid-line was cut short, and what its last part held
    past the cut is lost (``Truncated``); one ending with a whole line may only have
    been written without the closing line, which loses nothing."""
    if not message.is_multipart() or not any(
            isinstance(defect, email.errors.CloseBoundaryNotFoundDefect)
            for defect in message.defects):
        return []
    body = message.get_content_type()
    if data.endswith((b"\n", b"\r")):
        return [("CorruptDocument", f"the {body} message ends without the line closing its "
                 "parts; it may have been cut short at a line's end")]
    return [("Truncated", f"the {body} message is cut short: it ends inside its last part, "
             "mid-line, before the line closing its parts; what followed is lost")]


_DELIMITER_LINE = re.compile(r"^--(\S+)[ \t]*\r?\n[A-Za-z-]+:", re.M)


def _with_the_boundary_used(message: EmailMessage, data: bytes) -> EmailMessage:
    """``message``, or ``data`` parsed again with the boundary its body really opens
    with when the one its Content-Type names never appears, or when it names none.

    Read as declared, the body is one part of raw MIME: no text, no attachments.
    Spam and broken mailers send such messages; a mail client finds the parts. A
    multipart message whose body holds no parts at all (a mailer that labels every
    message multipart) is read as the text it is: as one part of no known type it
    was an attachment of raw text, and the message had no body.
    """
    if message.get_content_maintype() != "multipart":
        return message
    try:
        payload = message.get_payload()
    except (UnicodeError, LookupError):  # a charset no decoder takes (idna, punycode)
        return message
    if not isinstance(payload, str):
        return message
    declared = message.get_boundary()
    unwrapped = _parts_transfer_encoded(message, data)
    if unwrapped is not None:
        return unwrapped
    found = _DELIMITER_LINE.search(payload)
    if found is not None and found.group(1) != declared:
        mended = _parsed_with_boundary(data, declared, found.group(1))
        if mended is not None and isinstance(mended.get_payload(), list):
            return mended
    del message["Content-Type"]
    message["Content-Type"] = "text/html" if _HTML_START.match(payload) else "text/plain"
    return message


_TRANSFER_ENCODING = re.compile(
    rb"^content-transfer-encoding:[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*\r?\n", re.I | re.M)


def _parts_transfer_encoded(message: EmailMessage, data: bytes) -> EmailMessage | None:
    """``data`` parsed again with its body's transfer encoding undone, when a multipart
    message's parts were base64- or quoted-printable-encoded whole (RFC 2045 allows
    neither on a multipart; broken gateways send it, and mail clients decode it): its
    boundary lines are found once decoded. None for any other message."""
    encoding = str(message.get("Content-Transfer-Encoding", "")).strip().lower()
    boundary = message.get_boundary()
    if encoding not in ("base64", "quoted-printable") or not boundary:
        return None
    decoded = decoded_payload(message)
    delimiter = b"--" + boundary.encode("utf-8", "surrogateescape")
    if not isinstance(decoded, bytes) or delimiter not in decoded:
        return None
    end = _HEADERS_END.search(data)
    if end is None:
        return None
    head = _TRANSFER_ENCODING.sub(b"", data[:end.start()] + b"\n")
    mended = parse_mail(head + b"\n" + decoded)
    if isinstance(mended, EmailMessage) and isinstance(mended.get_payload(), list):
        return mended
    return None


def _signed_content_read(message: EmailMessage, data: bytes) -> EmailMessage:
    """``message``, or, when it is signed opaquely (S/MIME ``application/pkcs7-mime;
    smime-type=signed-data``: the content inside the signature's structure, as some
    mailers sign), ``data`` with that content in place of its wrapper: the message's own
    headers, then the signed MIME entity. Read as a part, the wrapper was an
    ``smime.p7m`` no reader knows, and the whole message was lost."""
    if (message.get_content_type() not in ("application/pkcs7-mime", "application/x-pkcs7-mime")
            or _param(message, "smime-type").lower() in ("enveloped-data", "authenveloped-data")):
        return message
    payload = decoded_payload(message)
    content = signed_content(payload) if isinstance(payload, bytes) else None
    if not content:
        return message
    head = re.split(rb"\r?\n\r?\n", data, maxsplit=1)[0]
    own = _CONTENT_HEADER.sub(b"", head + b"\r\n").rstrip(b"\r\n")
    read = parse_mail(own + b"\r\n" + content.lstrip(b"\r\n"))
    return read if isinstance(read, EmailMessage) else message


# A Content-* header with its folded lines and its line end
_CONTENT_HEADER = re.compile(rb"^content-[\w-]*:[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*\r?\n",
                             re.I | re.M)
#: The object identifier of CMS signed data (1.2.840.113549.1.7.2), as DER writes it
_SIGNED_DATA = bytes.fromhex("2a864886f70d010702")
#: How deep BER elements are followed: signed data's content sits five levels down
_MAX_BER_DEPTH = 16


def signed_content(signature: bytes) -> bytes | None:
    """The content a CMS signed-data structure (RFC 5652, DER or BER) carries inside it,
    or None when it is no signed data or carries none (a detached signature).

    >>> signed_content(bytes.fromhex("3080" "06092a864886f70d010702" "a080" "3080"
    ...     "020101" "3100" "3080" "06092a864886f70d010701" "a080" "2480" "04024f69"
    ...     "0000" "0000" "0000" "0000" "0000" "0000"))
    b'Oi'
    """
    try:
        _, start, end, _ = _ber_element(signature, 0)
        kind, wrapped = _ber_children(signature, start, end)[:2]
        if signature[kind[1]:kind[2]] != _SIGNED_DATA:
            return None
        signed = _ber_children(signature, wrapped[1], wrapped[2])[0]
        encapsulated = _ber_children(signature, signed[1], signed[2])[2]
        inside = _ber_children(signature, encapsulated[1], encapsulated[2])
        if len(inside) < 2:
            return None
        octets = _ber_children(signature, inside[1][1], inside[1][2])[0]
        return _ber_octets(signature, octets, 0)
    except (ValueError, IndexError):
        return None


def _ber_element(data: bytes, position: int, depth: int = 0) -> tuple[int, int, int, int]:
    """The tag, content start, content end and following position of the BER element at
    ``position``; an element of indefinite length ends at its end-of-contents octets."""
    if depth > _MAX_BER_DEPTH:
        raise ValueError("BER elements nest too deep")
    tag = data[position]
    position += 1
    if tag & 0x1F == 0x1F:  # a tag number past 30, in base-128 digits
        while data[position] & 0x80:
            position += 1
        position += 1
    first = data[position]
    position += 1
    if first == 0x80:
        if not tag & 0x20:
            raise ValueError("indefinite length on a primitive element")
        start = position
        while data[position:position + 2] != b"\0\0":
            position = _ber_element(data, position, depth + 1)[3]
        return tag, start, position, position + 2
    length = first
    if first > 0x80:
        size = first & 0x7F
        if size > 8:
            raise ValueError("BER length too long")
        length = int.from_bytes(data[position:position + size], "big")
        position += size
    if position + length > len(data):
        raise ValueError("BER element cut short")
    return tag, position, position + length, position + length


def _ber_children(data: bytes, start: int, end: int, depth: int = 0
                  ) -> list[tuple[int, int, int]]:
    """The tag, content start and content end of each element inside a constructed
    element's content ``data[start:end]``."""
    children: list[tuple[int, int, int]] = []
    position = start
    while position < end:
        tag, content, stop, position = _ber_element(data, position, depth)
        children.append((tag, content, stop))
    return children


def _ber_octets(data: bytes, element: tuple[int, int, int], depth: int) -> bytes:
    """The bytes of an OCTET STRING, primitive or (BER) cut into pieces."""
    tag, start, end = element
    if tag == 0x04:
        return data[start:end]
    if tag != 0x24 or depth > _MAX_BER_DEPTH:
        raise ValueError("no octet string")
    return b"".join(_ber_octets(data, piece, depth + 1)
                    for piece in _ber_children(data, start, end, depth + 1))


_HTML_START = re.compile(r"\s*<(?:!doctype|html|head|body)\b", re.I)
# A Content-Type header with its folded lines, up to its last line's end
_CONTENT_TYPE = re.compile(rb"^content-type:[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*", re.I | re.M)


def _parsed_with_boundary(data: bytes, declared: str | None, used: str) -> EmailMessage | None:
    """The message in ``data`` parsed with ``used`` for its boundary: in place of the
    ``declared`` one, or added to its Content-Type when it declares none."""
    parts = re.split(rb"(\r?\n\r?\n)", data, maxsplit=1)
    if len(parts) != 3 or '"' in used:
        return None
    boundary = used.encode("utf-8", "surrogateescape")
    if declared is not None:
        head = parts[0].replace(declared.encode("utf-8", "surrogateescape"), boundary)
    else:
        head, added = _CONTENT_TYPE.subn(
            lambda line: line.group(0).rstrip(b"; \t") + b'; boundary="' + boundary + b'"',
            parts[0], count=1)
        if not added:
            return None
    mended = parse_mail(head + parts[1] + parts[2])
    return mended if isinstance(mended, EmailMessage) else None


def _header(message: EmailMessage, key: str) -> str:
    try:
        value = message.get(key)
    except _HEADER_PARSER_ERRORS as exc:  # a malformed header must not lose the body
        log.debug("header %s unreadable: %s", key, exc)
        raw = _raw_header(message, key) or ""
        return header_text(raw, message.get_content_charset())
    text = str(value or "")
    if _lost_letters(text) or _utf8_under_a_legacy_label(message, key):
        return _redecoded(message, key) or text
    return text


def _redecoded(message: EmailMessage, key: str) -> str | None:
    """Header ``key`` with its encoded words read as a body is: adjacent words of one
    charset joined before decoding, in the superset mailers mean.

    The standard library decodes each word alone in the charset it names, so a GBK
    letter labelled GB2312, or a character split across two words, becomes U+FFFD.
    Bytes sent 8-bit outside encoded words (``Subject: Ação`` in Latin-1, as old
    mailers write it), which it reads only as UTF-8, are read as the message's body
    charset, or as detected when it names none, as mail clients read them.
    """
    raw = _raw_header(message, key)
    return None if raw is None else _decoded_words(raw, message.get_content_charset())


def header_text(raw: str, charset: str | None = None) -> str:
    r"""A header value as written (8-bit bytes as the parser keeps them, lone surrogates)
    read as ``_redecoded`` reads a message's, ``charset`` the body's.

    >>> header_text("=?gb2312?B?1uzpRrv5?= Preg\udce3o eletr\udcf4nico")
    '朱镕基 Pregão eletrônico'
    """
    return _decoded_words(raw, charset) or _eight_bit_read(" ".join(raw.split()), charset)


def _decoded_words(raw: str, charset: str | None) -> str | None:
    """``raw``, a header value as written, with its encoded words read as
    ``_redecoded`` says, other 8-bit text in ``charset`` when it fits; None when the
    words cannot be split."""
    try:
        chunks = email.header.decode_header(raw)
    except (ValueError, LookupError, binascii.Error, email.errors.HeaderParseError) as exc:
        log.debug("header not re-read: %s", exc)
        return None
    out = []
    for chunk, label in chunks:
        if isinstance(chunk, str):
            out.append(_eight_bit_read(chunk, charset))
            continue
        # the text between encoded words comes back as raw-unicode-escape bytes
        text = (_declared_text(chunk, label) if label
                else _eight_bit_read(chunk.decode("raw-unicode-escape"), charset))
        if text is None:
            # a charset no codec knows ("unknown-8bit", a typo) or that does not fit:
            # read as undeclared text is, as the body of such a part is
            text = decode_text(chunk, None)[0]
        out.append(text)
    return " ".join("".join(out).split())


def _eight_bit_read(text: str, charset: str | None) -> str:
    """``text`` of a header, its 8-bit bytes (kept by the parser as lone surrogates) or
    ISO-2022 escape sequences (Japanese mailers wrote JIS in headers unencoded) read in
    ``charset`` (the body's) when they fit it, else as detected."""
    if not _ESCAPED_BYTE.search(text) and "\x1b" not in text:
        return text
    raw = text.encode("utf-8", "surrogateescape")
    return decode_text(raw, charset)[0]


_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


def _utf8_under_a_legacy_label(message: EmailMessage, key: str) -> bool:
    """Whether an encoded word of header ``key`` labelled with a legacy charset holds
    UTF-8 (``=?iso-8859-1?B?...?=`` around UTF-8 bytes, as some mailers write it): read
    as labelled, each letter past ASCII would become two (``AÃ§Ã£o``)."""
    raw = _raw_header(message, key)
    if raw is None or "=?" not in raw:
        return False
    try:
        chunks = email.header.decode_header(raw)
    except (ValueError, LookupError, binascii.Error, email.errors.HeaderParseError):
        return False
    for chunk, charset in chunks:
        if (isinstance(chunk, bytes) and charset and not chunk.isascii()
                and not charset.lower().startswith("utf")):
            try:
                chunk.decode("utf-8")
            except UnicodeDecodeError:
                continue
            return True
    return False


def _raw_header(message: EmailMessage, key: str) -> str | None:
    """Header ``key`` as the message wrote it (its first occurrence)."""
    raw = next((v for k, v in message.raw_items() if k.lower() == key.lower()), None)
    return raw if isinstance(raw, str) else None


def _lost_letters(text: str) -> bool:
    """Whether the standard decoding of a header lost letters: U+FFFD in their place,
    bytes it could not read kept as lone surrogates (an address's display name), or
    ISO-2022 escape sequences read as ASCII."""
    return "\ufffd" in text or "\x1b" in text or _ESCAPED_BYTE.search(text) is not None


def _addresses(message: EmailMessage, key: str) -> str:
    """The addresses of a header as people write them: ``Name <address>``, no quoting."""
    try:
        addresses = getattr(message.get(key), "addresses", None)
    except _HEADER_PARSER_ERRORS:
        addresses = None
    if not addresses:
        return _header(message, key)
    text = ", ".join(
        f"{a.display_name} <{a.addr_spec}>"
        if a.display_name and a.addr_spec
        else a.display_name or a.addr_spec
        for a in addresses
    )
    if _lost_letters(text) or _utf8_under_a_legacy_label(message, key):
        return _redecoded(message, key) or text
    return text


# Writers' variants of RFC 5322 dates: "16 May 2016 at 09:30:32 GMT+1".
_AT = re.compile(r"\s+at\s+", re.I)
_GMT_OFFSET = re.compile(r"\b(?:GMT|UTC)\s*([+-])(\d{1,2})(?::?(\d{2}))?\b", re.I)


def mail_date(value: str) -> str | None:
    """A Date header in ISO 8601: UTC with ``Z`` when it names a zone, else as written.
    A header written in ISO 8601 already, as scripts that make mail write it, is read too.

    >>> mail_date("2024-03-15 14:30:00 -0300"), mail_date("2024-03-15T14:30:00")
    ('2024-03-15T17:30:00Z', '2024-03-15T14:30:00')
    """
    if not value.strip():
        return None
    text = _GMT_OFFSET.sub(
        lambda m: f"{m.group(1)}{int(m.group(2)):02d}{m.group(3) or '00'}", _AT.sub(" ", value)
    )
    try:
        moment = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        try:  # the zone may stand apart from the time ("14:30:00 -0300")
            moment = datetime.fromisoformat(_ZONE_APART.sub(r"\1", text.strip()))
        except ValueError:
            return None
    return iso_moment(moment)


_ZONE_APART = re.compile(r"\s+([+-]\d{2}:?\d{2}|Z)$")


def iso_moment(moment: datetime) -> str:
    """A moment as ``mail_date`` writes it: UTC with ``Z`` when its zone is known.

    >>> from datetime import timedelta, timezone
    >>> iso_moment(datetime(2009, 1, 29, 20, 16, 40, tzinfo=timezone(timedelta(hours=1))))
    '2009-01-29T19:16:40Z'
    >>> iso_moment(datetime(2009, 1, 29, 20, 16, 40, 500))
    '2009-01-29T20:16:40'
    """
    if moment.tzinfo is None or moment.utcoffset() is None:
        return moment.replace(microsecond=0).isoformat()
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _body(message: EmailMessage) -> tuple[str, Any]:
    """The body's text and the part it is read from (the plain part, or else the HTML
    part, when none holds text; None when the message has neither)."""
    first = None
    # a mailer may send a blank plain alternative beside the HTML that holds the text,
    # as a .msg or winmail.dat may: the HTML is then read, as it is for those
    for kind in ("plain", "html"):
        part = _body_part(message, (kind,))
        if part is None:
            continue
        first = part if first is None else first
        text = _part_text(part)
        if part.get_content_type() == "text/html":
            text = html_text(text)
        elif _param(part, "format").lower() == "flowed":
            text = unflowed(text, delete_space=_param(part, "delsp").lower() == "yes")
        if text.strip():
            return text, part
    return "", first


#: A uuencoded file in a text: its ``begin`` line (mode, name), its lines (each opens with
#: a character counting its bytes, space to backquote, the last of none), ``end``.
_UUENCODED = re.compile(r"^begin[ \t]+[0-7]{3,4}[ \t]+([^\n]*?)[ \t]*\r?\n"
                        r"((?:[!-`][ -`]*\r?\n)*?)end[ \t]*\r?$", re.M)


def uudecoded_files(text: str) -> tuple[str, list[tuple[str, bytes]]]:
    r"""``text`` without the files uuencoded in it, and those files, decoded.

    Mailers before MIME, Outlook Express and Usenet posters put attachments in the
    body as uuencoded blocks (``begin 644 file.pdf``, lines of encoded bytes, ``end``),
    which mail clients show as attachments; read as text they were lines of noise and
    the file was lost.

    >>> uudecoded_files("Segue.\nbegin 644 a.txt\n#86)C\n`\nend\nTchau.")
    ('Segue.\nTchau.', [('a.txt', b'abc')])
    """
    if "begin" not in text:
        return text, []
    files: list[tuple[str, bytes]] = []
    kept: list[str] = []
    position = 0
    for block in _UUENCODED.finditer(text):
        data = b"".join(_uudecoded_line(line) for line in block.group(2).split("\n"))
        if not data:  # no file, whatever its lines looked like: they stay text
            continue
        files.append((attachment_name(block.group(1), f"uuencoded-{len(files) + 1}.bin"), data))
        kept.append(text[position:block.start()])
        position = block.end() + 1  # the line end after "end" goes with the block
    kept.append(text[position:])
    return "".join(kept), files


_PGP_BEGIN = "-----BEGIN PGP MESSAGE-----"
_PGP_END = "-----END PGP MESSAGE-----"


def without_pgp_messages(text: str) -> tuple[str, int]:
    r"""``text`` without the PGP messages armored in it (``-----BEGIN PGP MESSAGE-----``
    to its END line, as inline PGP encrypts a body), and how many there were: cipher
    text, which read as text is a page of base64. A signed message's armor
    (``BEGIN PGP SIGNED MESSAGE``) holds its text in the clear (``without_pgp_signatures``).

    >>> armored = "-----BEGIN PGP MESSAGE-----\n\nhQEM\n-----END PGP MESSAGE-----\n"
    >>> without_pgp_messages("Oi.\n" + armored + "Fim.")
    ('Oi.\nFim.', 1)
    """
    kept: list[str] = []
    position = count = 0
    end = -1
    # found with find, not a pattern, each END looked for once: linear however many
    # BEGIN lines there are
    while (begin := text.find(_PGP_BEGIN, position)) >= 0:
        if end < begin:
            end = text.find(_PGP_END, begin)
        if end < 0:
            break
        if begin > 0 and text[begin - 1] not in "\r\n":
            kept.append(text[position:begin + 1])  # not at a line's start: quoted, kept
            position = begin + 1
            continue
        kept.append(text[position:begin])
        line_end = text.find("\n", end)
        position = len(text) if line_end < 0 else line_end + 1
        count += 1
    kept.append(text[position:])
    return "".join(kept), count


_SIGNED_BEGIN = "-----BEGIN PGP SIGNED MESSAGE-----"
_SIGNATURE_BEGIN = "-----BEGIN PGP SIGNATURE-----"
_SIGNATURE_END = "-----END PGP SIGNATURE-----"
_DASH_ESCAPED = re.compile(r"^- ", re.M)
_ARMOR_HEADERS_END = re.compile(r"\r?\n[ \t]*\r?\n")


def without_pgp_signatures(text: str) -> str:
    r"""``text`` with each message signed in the clear (inline PGP, RFC 4880 7) read as
    mail clients show it: the signed text, its dash-escaping undone (``- -- `` is
    ``-- ``); the armor line and its ``Hash:`` headers and the signature block, a
    page of base64, left out. A block not whole (no signature, no end) is kept as it is.

    >>> signed = ("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nAprovado.\n- -- \n"
    ...           "Ana\n-----BEGIN PGP SIGNATURE-----\n\niQEz\n-----END PGP SIGNATURE-----\n")
    >>> without_pgp_signatures("Oi.\n" + signed + "Fim.")
    'Oi.\nAprovado.\n-- \nAna\nFim.'
    """
    kept: list[str] = []
    position = 0
    # found with find, each piece looked for once after the one before: linear
    while (begin := text.find(_SIGNED_BEGIN, position)) >= 0:
        if begin > 0 and text[begin - 1] not in "\r\n":
            kept.append(text[position:begin + 1])  # not at a line's start: quoted, kept
            position = begin + 1
            continue
        headers_end = _ARMOR_HEADERS_END.search(text, begin)
        signature = text.find(_SIGNATURE_BEGIN, headers_end.end()) if headers_end else -1
        end = text.find(_SIGNATURE_END, signature) if signature >= 0 else -1
        if headers_end is None or end < 0:
            break
        kept.append(text[position:begin])
        kept.append(_DASH_ESCAPED.sub("", text[headers_end.end():signature]))
        line_end = text.find("\n", end)
        position = len(text) if line_end < 0 else line_end + 1
    kept.append(text[position:])
    return "".join(kept)


def _uudecoded_line(line: str) -> bytes:
    """The bytes of one uuencoded line; an encoder that dropped trailing spaces or added
    padding past the count it wrote leaves a line the count alone decodes."""
    encoded = line.rstrip("\r").encode("ascii")
    if not encoded:
        return b""
    try:
        return binascii.a2b_uu(encoded)
    except binascii.Error:
        whole = ((encoded[0] - 32) & 63) * 4 // 3 + 1  # the count's character and its bytes
        try:
            return binascii.a2b_uu(encoded[:whole + 1])
        except binascii.Error:
            return b""


def _param(part: Any, name: str) -> str:
    """Content-Type parameter ``name`` of ``part``, "" when it is missing or unreadable."""
    try:
        value = part.get_param(name)
    except _HEADER_PARSER_ERRORS:
        return ""
    return value if isinstance(value, str) else ""


def unflowed(text: str, delete_space: bool = False) -> str:
    r"""Plain text sent as ``format=flowed`` (RFC 3676, as Thunderbird and Apple Mail send
    it) with its soft line breaks joined: a line ending in a space goes on in the next
    one of the same quote depth, so each paragraph is one line again; the space that
    stuffs a line is taken off, and with ``delete_space`` (``DelSp=yes``, which breaks
    lines inside words of scripts written without spaces) the space before a soft
    break too. The signature separator ``-- `` is no soft break.

    >>> unflowed("Um texto que \r\ncontinua.\r\n\r\n> citado \r\n> aqui\r\n")
    'Um texto que continua.\n\n> citado aqui\n'
    >>> unflowed("日本語の \nテキスト\n", delete_space=True)
    '日本語のテキスト\n'
    """
    out: list[str] = []
    pending: tuple[int, str] | None = None  # quote depth and text of a flowed line
    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:].removeprefix(" ")
        soft = content.endswith(" ") and content != "-- "
        if soft and delete_space:
            content = content[:-1]
        if pending is not None and pending[0] == depth:
            content = pending[1] + content
        elif pending is not None:
            out.append(_quoted(*pending))
        pending = (depth, content) if soft else None
        if not soft:
            out.append(_quoted(depth, content))
    if pending is not None:
        out.append(_quoted(*pending))
    return "\n".join(out)


def _quoted(depth: int, text: str) -> str:
    return f"{'>' * depth} {text}" if depth else text


def _body_part(message: EmailMessage, kinds: tuple[str, ...]) -> Any:
    """The part the standard library takes for the body, of one of the text ``kinds``."""
    try:
        return message.get_body(preferencelist=kinds)
    except (KeyError, LookupError):
        return None


def _declared_text(payload: bytes, declared: str) -> str | None:
    """``payload`` read whole: as UTF-8 when it is valid UTF-8 (a body re-saved as
    UTF-8 under its old label: legacy text with letters past ASCII is almost never
    valid UTF-8, while GB18030 or cp1252 accept almost any bytes), else in the
    superset mailers mean by the declared charset, as browsers read it (GB2312 as
    GB18030, ISO-8859-1 as Windows-1252, Big5 with the euro sign of cp950), else in
    that charset; None when none of them reads it without errors. Bytes all below 0x80
    are valid UTF-8 and say nothing of a re-save: a 7-bit charset's (ISO-2022-JP, UTF-7)
    are read as declared."""
    readings = declared_codecs(declared)
    if not readings:
        return None
    utf8_first = not readings[-1].startswith("utf") and not payload.isascii()
    candidates = ("utf-8", *readings) if utf8_first else readings
    for candidate in candidates:
        try:
            return payload.decode(candidate)
        except (UnicodeError, LookupError):
            # LookupError: a charset naming a codec that is no text encoding (hex,
            # base64, rot13, zlib), which is no charset at all
            continue
    return None


def decoded_payload(part: Any) -> Any:
    """The part's payload with its transfer encoding undone (``_mended_payload``'s
    reading of one the standard library cannot decode)."""
    mended = _mended_payload(part)
    return part.get_payload(decode=True) if mended is None else mended


def _mended_payload(part: Any) -> bytes | None:
    """A payload the standard library cannot decode, decoded as mail clients decode it;
    None for any other.

    - A transfer encoding named with spaces around it (``quoted-printable `` before the
      line's end) it does not decode at all: the text read ``A=C3=A7=C3=A3o``.
    - Base64 chunks encoded one by one and joined (as a gateway appending a base64
      disclaimer to a base64 body sends them) stop it at the first padding, the rest
      lost; base64 cut short one character past a whole group (a truncated mail) it
      gives back still encoded: an attachment became its own base64 text.
    - Quoted-printable soft line breaks with spaces after the ``=`` (added in transport,
      which RFC 2045 tells decoders to take off) it leaves in the text.
    """
    written = str(part.get("Content-Transfer-Encoding", ""))
    encoding = written.strip().lower()
    if encoding not in ("base64", "quoted-printable"):
        return None
    encoded = part.get_payload()
    if not isinstance(encoded, str):
        return None
    unread = written.lower() != encoding  # spaces around the name
    # the checks look at the text as it is: a copy of a large attachment costs
    if encoding == "quoted-printable":
        if not unread and _SPACED_SOFT_BREAK.search(encoded) is None:
            return None
        raw = encoded.encode("utf-8", "surrogateescape")  # bytes as parsed, letters as UTF-8
        return quopri.decodestring(_TRAILING_SPACE.sub(b"", raw))
    if not unread and _INNER_PADDING.search(encoded) is None and _base64_length(encoded) % 4 != 1:
        return None
    compact = _NOT_BASE64.sub(b"", encoded.encode("ascii", "ignore"))
    return b"".join(_base64_chunk(chunk) for chunk in _PADDING.split(compact) if chunk)


def _base64_length(encoded: str) -> int:
    """The characters of base64 text that encode bytes, line breaks, blanks and padding
    left out (counted, not copied)."""
    return len(encoded) - sum(encoded.count(sign) for sign in "\r\n \t=")


_SPACED_SOFT_BREAK = re.compile(r"=[ \t]+\r?$", re.M)
_TRAILING_SPACE = re.compile(rb"[ \t]+(?=\r?$)", re.M)
_NOT_BASE64 = re.compile(rb"[^A-Za-z0-9+/=]")
_PADDING = re.compile(rb"=+")
_INNER_PADDING = re.compile(r"=+\s*[A-Za-z0-9+/]")


def _base64_chunk(chunk: bytes) -> bytes:
    """One chunk of base64 between paddings (of the alphabet only), a last lone
    character, which encodes no whole byte, dropped."""
    chunk = chunk[: len(chunk) - (len(chunk) % 4 == 1)]
    return base64.b64decode(chunk + b"=" * (-len(chunk) % 4))


def wide_unicode_label(label: str) -> bool:
    """Whether a charset label names UTF-16 or UTF-32 (any byte order), or UCS-2.

    >>> [wide_unicode_label(n) for n in ("utf-16le", "UTF-32", "unicode", "ucs-2", "utf-8")]
    [True, True, True, True, False]
    """
    label = label.strip().lower()
    if label in ("unicode", "ucs-2", "ucs2", "iso-10646-ucs-2", "unicodefffe", "unicodefeff"):
        return True
    try:
        codec = codecs.lookup(label).name
    except (LookupError, ValueError):  # ValueError: a NUL in the label
        return False
    return codec.startswith(("utf-16", "utf-32"))


def _not_utf16(payload: bytes) -> bool:
    """Whether bytes a label calls UTF-16 are none: no BOM, and neither the NUL bytes of
    Latin text nor the shape of other scripts in UTF-16 (a mailer that labels 8-bit
    text with the charset it read it in)."""
    return (not payload.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
            and not looks_utf16(payload) and utf16_without_bom(payload) is None)


def _part_text(part: Any) -> str:
    declared = part.get_content_charset()
    mended = _mended_payload(part)
    payload = part.get_payload(decode=True) if mended is None else mended
    # decoded as UTF-16, 8-bit text (a label a mailer gave it from where it read it)
    # is a page of ideographs: such a label is set aside
    set_aside = (declared is not None and isinstance(payload, bytes)
                 and wide_unicode_label(declared) and _not_utf16(payload))
    if set_aside:
        declared = None
    # ISO-2022 text (Japanese mail's JIS) is 7-bit: ASCII to the standard library
    if isinstance(payload, bytes) and (mended is not None or not payload.isascii()
                                       or b"\x1b" in payload or set_aside):
        if declared is None or declared.strip() in ("us-ascii", "ascii"):
            # The standard's default is ASCII, which would turn every other byte into
            # U+FFFD; mailers that leave the charset out mostly send UTF-8 or cp1252.
            if part.get_content_type() == "text/html":
                # HTML names its charset itself (<meta charset>), as mail clients read
                # it: detection alone took a short Greek page for Latin-1
                from goblin_office.markup import decode_html  # it imports this module

                return decode_html(payload)[0]
            return decode_text(payload)[0]
        text = _declared_text(payload, declared.strip())
        if text is not None:
            return text
        # a label the bytes do not fit (Latin-1 sent as UTF-8): read as undeclared
        # text is, not with a U+FFFD for each letter past ASCII
        return decode_text(payload, declared.strip())[0]
    try:
        return str(part.get_content())
    except (LookupError, ValueError, AttributeError):  # ValueError: a NUL in the charset
        payload = part.get_payload(decode=True) or b""
        return decode_text(payload, part.get_content_charset())[0]


#: Message types that are a message of their own: read as a child, like any attachment.
_FORWARDED = frozenset({"message/rfc822", "message/global", "message/news", "message/partial"})


def _attachments(message: EmailMessage, wanted: int, left_out: list[str],
                 sealed: list[str], body: Any = None) -> list[tuple[str, bytes]]:
    """The first ``wanted`` attachments: past them a message of 200,000 parts would
    spend seconds and their bytes on attachments no one reads. Attached messages
    nested too deep to be read are named in ``left_out``; encrypted parts (PGP/MIME,
    S/MIME) are no attachment, but named in ``sealed``: read as files they were cipher
    text (an armored PGP message as its text) or a failure to read an unknown format.

    A message whose own type is message/rfc822 (a forward sent as nothing but the
    original) has that message as its one attachment: it has no body of its own. So
    has a message of one part that is no text body (a scanner's PDF sent alone, a
    text/calendar invitation, a text file sent as an attachment). Of a multipart
    message, every part but ``body`` and its other renditions (``_attached_parts``).
    """
    if message.get_content_type() in _FORWARDED:
        name = f"attachment-1{_extension(message)}"
        data = _forwarded_or_none(message, name, left_out)
        return [(name, data)] if data else []
    if scheme := _encryption(message):
        sealed.append(f"the message, {scheme}")
        return []
    if not message.is_multipart():
        if _body_part(message, ("plain", "html")) is not None:
            return []
        payload = decoded_payload(message)
        name = attachment_name(_filename(message), f"attachment-1{_extension(message)}")
        return [(name, payload)] if isinstance(payload, bytes) and payload else []
    found: list[tuple[str, bytes]] = []
    for index, part in enumerate(_attached_parts(message, body), start=1):
        if len(found) >= wanted:
            break
        name = attachment_name(_filename(part), f"attachment-{index}{_extension(part)}")
        if scheme := _encryption(part):
            sealed.append(f"{name}, {scheme}")
            continue
        if part.get_content_type() in _FORWARDED:
            data = _forwarded_or_none(part, name, left_out)
        elif part.get_content_maintype() == "message":
            continue  # a delivery or read report: its fields are read with the body
        else:
            payload = decoded_payload(part)
            data = payload if isinstance(payload, bytes) else b""
        # a blank text part beside the body (a mailer's empty alternative) holds nothing
        if data.strip() or (data and part.get_content_maintype() != "text"):
            found.append((name, data))
    return found


def _encryption(part: Any) -> str:
    """How ``part`` is encrypted: "PGP/MIME" or "S/MIME" (RFC 3156, RFC 8551), another
    name for a multipart/encrypted of another protocol; "" when it is not encrypted
    (an S/MIME signature, or a message signed opaquely, is not)."""
    kind = part.get_content_type()
    if kind == "multipart/encrypted":
        protocol = _param(part, "protocol").lower()
        return "PGP/MIME" if "pgp" in protocol else f"multipart/encrypted {protocol}".strip()
    enveloped = _param(part, "smime-type").lower() in ("enveloped-data", "authenveloped-data")
    return "S/MIME" if enveloped and kind.endswith("pkcs7-mime") else ""


#: What a multipart/alternative holds beside the body as the same text in another form.
#: Anything else in one (Outlook's text/calendar invitation, with the meeting's time
#: and place that its plain and HTML text leave out) is a part of its own.
_RENDITIONS = frozenset({"text/plain", "text/html", "text/enriched", "text/richtext",
                         "text/watch-html", "text/x-amp-html"})


def _attached_parts(message: EmailMessage, body: Any) -> list[Any]:
    """The parts of a multipart ``message`` a mail client shows besides its ``body``,
    in order, at any depth: every part that holds no parts, but the body and its other
    renditions in the multipart/alternative that holds it (a named file inside one of
    them is no rendition), and a signed part's signature. A message inside
    (message/rfc822, a delivery report) is one part; its own parts are its to read.

    The standard library's ``iter_attachments`` looks one level down and skips the
    first text part of each kind there as if it were the body: the attachments of a
    signed message (multipart/signed around a multipart/mixed) or of a multipart/mixed
    inside another were lost, and so were a mailing list's footer (a text part after
    the multipart/alternative body) and an invitation's text/calendar alternative.
    """
    parents: dict[int, Any] = {}
    leaves: list[Any] = []
    pending: list[Any] = [message]
    while pending:  # a loop, not recursion: parts nest as deep as the parser went
        part = pending.pop()
        inner = part.get_payload() if part.get_content_maintype() == "multipart" else None
        if not isinstance(inner, list) or _encryption(part):  # its parts are one cipher
            leaves.append(part)
            continue
        if part.get_content_type() == "multipart/signed" and len(inner) == 2:
            # RFC 1847: the second part is the signature of the first (smime.p7s), which
            # no mail client shows as an attachment and no reader can turn into text
            inner = inner[:1]
        for child in reversed(inner):
            parents[id(child)] = part
            pending.append(child)
    holding_body: set[int] = set()
    holder = parents.get(id(body)) if body is not None else None
    while holder is not None:
        holding_body.add(id(holder))
        holder = parents.get(id(holder))

    def rendition_of_body(part: Any) -> bool:
        if part.get_content_type() not in _RENDITIONS or part.is_attachment():
            return False
        holder = parents.get(id(part))
        if (holder is not None and holder.get_content_type() != "multipart/alternative"
                and _filename(part) is not None):
            # a file shown in place inside a rendition (Apple Mail attaches a .txt or
            # .html as an inline part of the HTML alternative's multipart/mixed), not a
            # piece of the body: it is nowhere else in the message
            return False
        while holder is not None:
            if id(holder) in holding_body and holder.get_content_type() == "multipart/alternative":
                return True
            holder = parents.get(id(holder))
        return False

    return [part for part in leaves
            if part is not message and part is not body and not rendition_of_body(part)]


def _filename(part: Any) -> str | None:
    """The file name a part gives, or None when it gives none or its parameters cannot
    be read (the standard library fails on some, RFC 2231 continuations numbered and
    not numbered at once among them). A name whose letters the standard decoding lost
    is read again (``_redecoded_filename``)."""
    try:
        name = part.get_filename()
    except _HEADER_PARSER_ERRORS as exc:
        log.debug("attachment name unreadable: %s", exc)
        return None
    if isinstance(name, str) and _lost_letters(name):
        return _redecoded_filename(part) or name
    return name if isinstance(name, str) else None


def _redecoded_filename(part: Any) -> str | None:
    """The file name of ``part`` read from its header as written: 8-bit bytes (``filename=
    "relatório.pdf"`` in Latin-1) in the part's charset when they fit it, else as
    detected, and RFC 2231 names in a charset no codec knows as detected, where the
    standard library gives U+FFFD."""
    for header, param in (("Content-Disposition", "filename"), ("Content-Type", "name")):
        raw = _raw_header(part, header)
        if raw is None:
            continue
        # the legacy API parses parameters as written, each byte here a Latin-1 letter
        written = email.message.Message()
        written[header] = raw.encode("utf-8", "surrogateescape").decode("latin-1")
        try:
            value = written.get_param(param, header=header)
        except _HEADER_PARSER_ERRORS as exc:
            log.debug("attachment name not re-read: %s", exc)
            continue
        if isinstance(value, tuple):  # RFC 2231: charset, language, bytes as Latin-1
            charset, _, text = value
            data = str(text).encode("latin-1", "replace")
            return decode_text(data, str(charset) if charset else None)[0]
        if isinstance(value, str) and "=?" in value:  # encoded words, as Outlook writes
            return _decoded_words(value, part.get_content_charset())
        if isinstance(value, str):
            data = value.encode("latin-1", "replace")
            return decode_text(data, part.get_content_charset())[0]
    return None


_PATH_SEPARATOR = re.compile(r"[/\\]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def attachment_name(written: object, fallback: str) -> str:
    r"""The name an attachment is read under: the last part of the name the message
    gives it, as mail clients save it (RFC 2183 tells them to ignore any folder in it:
    ``../../x.pdf``, ``/etc/x.pdf`` and ``C:\Users\x.pdf`` are ``x.pdf``), control
    characters and NUL as ``_``; ``fallback`` when nothing, or only ``.`` or ``..``, is
    left.

    >>> attachment_name("..\\..\\edital.pdf", "attachment-1.bin")
    'edital.pdf'
    >>> attachment_name("../..", "attachment-2.bin")
    'attachment-2.bin'
    """
    name = _PATH_SEPARATOR.split(str(written or ""))[-1]
    name = _CONTROL.sub("_", name).strip()
    return fallback if name in ("", ".", "..") else name


def _reports(message: EmailMessage) -> str:
    """The fields of the delivery and read reports a message carries
    (message/delivery-status, message/disposition-notification), as mail clients show
    them beside the body: a bounce's failed recipient and the server's answer. Reports
    travel in a multipart/report (RFC 6522); other messages are not searched for them."""
    if message.get_content_type() != "multipart/report":
        return ""
    charset = message.get_content_charset()
    blocks = []
    for part in message.iter_attachments():
        if part.get_content_maintype() != "message" or part.get_content_type() in _FORWARDED:
            continue
        payload = part.get_payload()
        if not isinstance(payload, list):  # not parsed into header blocks: its text as is
            text = part.get_payload(decode=True)
            blocks.append(decode_text(text)[0] if isinstance(text, bytes) else "")
            continue
        for block in payload:
            if isinstance(block, email.message.Message):
                # fields as written, their 8-bit bytes (a server's answer in Latin-1)
                # read as a header's are
                blocks.append("\n".join(
                    f"{key}: {_eight_bit_read(' '.join(str(value).split()), charset)}"
                    for key, value in block.raw_items()))
    return "\n\n".join(block.strip() for block in blocks if block.strip())


def _forwarded(part: Any) -> bytes:
    """The bytes of an attached message, undoing a transfer encoding the standard forbids
    on message/rfc822 but mailers use (a base64 attachment would read as headerless text).

    Raises RecursionError for a message nested deeper than the standard library writes
    messages back (it parses them deeper than that)."""
    inner = part.get_payload()
    first = inner[0] if isinstance(inner, list) and inner else None
    if not isinstance(first, email.message.Message):
        return b""
    data = first.as_bytes()
    encoding = str(part.get("Content-Transfer-Encoding", "")).strip().lower()
    try:
        if encoding == "base64":
            return base64.b64decode(b"".join(data.split()))
        if encoding == "quoted-printable":
            return quopri.decodestring(data.lstrip(b"\r\n"))
    except (binascii.Error, ValueError) as exc:
        log.debug("attached message not decodable as %s: %s", encoding, exc)
    return data


def _forwarded_or_none(part: Any, name: str, left_out: list[str]) -> bytes:
    """``_forwarded``, or nothing, its name added to ``left_out``, for a message nested
    too deep to be written back: the message holding it keeps its own text."""
    try:
        return _forwarded(part)
    except RecursionError:
        left_out.append(name)
        return b""


def _extension(part: Any) -> str:
    import mimetypes

    return mimetypes.guess_extension(part.get_content_type()) or ".bin"


class MSGParser(BaseEngine):
    """Outlook .msg through extract-msg: headers, body, attachments (embedded mail too)."""

    name = "office.msg"
    formats = (fmt.MSG,)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        # Imported here: extract-msg takes seconds to load, and every worker
        # and every goblin command would pay that for files that are not .msg.
        import extract_msg

        data = source.bytes()
        damage = ""
        try:
            with _EXTRACT_MSG_LOG.held():
                message = _open_msg(extract_msg, data, extract_msg.enums.ErrorBehavior.THROW)
        except GoblinError:
            raise
        except Exception as exc:  # extract-msg raises many kinds for damaged or odd files
            # read again past what it refused (a broken attachment or recipient, an
            # OLE defect), rather than lose the message's text over it
            # a file cut short ends mid-sector, which olefile refuses whatever it is
            # told: the missing bytes of its last sector read as zeros
            whole_sectors = data + b"\0" * (-len(data) % _LARGEST_SECTOR)
            try:
                message = _open_msg(extract_msg, whole_sectors,
                                    extract_msg.enums.ErrorBehavior.SUPPRESS_ALL)
            except Exception:  # as damaged read leniently: the first cause says most
                raise CorruptDocument(
                    f"extract-msg cannot read the message ({exc})", file=source.display_name
                ) from exc
            damage = str(exc)
        try:
            document = self._read(message, source,
                                  bool(config.get("office", "comments", True)))
        finally:
            message.close()
        if damage:
            if not any(page.text.strip() for page in document.pages()) and not any(
                    True for _ in document.attachments()):
                raise CorruptDocument(f"extract-msg cannot read the message ({damage})",
                                      file=source.display_name)
            warning = f"read past damage extract-msg refused ({damage}); parts may be missing"
            log.warning("%s: %s", source.display_name, warning)
            document.warnings = [("CorruptDocument", warning)]
        return document

    def _read(self, message: Any, source: Source, comments: bool) -> TextDocument:
        headers = [
            ("From", msg_sender(message) or _msg_field(message, "sender")),
            ("To", msg_recipients(message, "to") or _msg_header(message, "To")),
            ("Cc", msg_recipients(message, "cc") or _msg_header(message, "Cc")),
            ("Date", msg_date(message) or ""),
            ("Subject", _msg_field(message, "subject")),
        ]
        page = mail_page(headers, msg_body(message, comments), self.name)
        children = []
        for index, attachment in enumerate(_msg_attachments(message), start=1):
            item = _msg_attachment(attachment, index)
            if item is not None:
                children.append(source.child(*item))
        metadata = {"title": headers[4][1], "author": headers[0][1], "created": headers[3][1]}
        return TextDocument(
            [page.build()], metadata={k: v for k, v in metadata.items() if v}, attachments=children
        )


def msg_body(message: Any, comments: bool = True) -> str:
    """A .msg's body: its plain text, else its HTML's visible text, else its RTF's.

    The HTML body is bytes (PR_HTML), read as an HTML file is, in the charset its
    ``<meta>`` declares: detection alone took a short Greek or Cyrillic message for
    Latin-1."""
    body = _msg_field(message, "body")
    if body.strip():
        return body
    try:
        html = message.htmlBody
    except Exception as exc:  # extract-msg computes fields lazily and may fail on any one
        log.debug("msg field htmlBody unreadable: %s", exc)
        html = None
    if isinstance(html, bytes) and html.strip():
        from goblin_office.markup import decode_html  # it imports this module

        body = html_text(decode_html(html)[0].replace("\0", ""))
    elif isinstance(html, str):
        body = html_text(html.replace("\0", ""))
    if body.strip():
        return body
    # Outlook's rich text, kept only as RTF: extract-msg reads plain text and HTML out
    # of RTF that wraps them, not RTF itself
    return rtf_body_text(_msg_rtf(message), comments)


# MAPI property tags (MS-OXPROPS), as extract-msg names a property: tag and type in hex
_PR_MESSAGE_CODEPAGE = "3FFD0003"
_PR_INTERNET_CPID = "3FDE0003"
_PLAIN_BODY_8BIT = "__substg1.0_1000001E"
_PR_SENDER_NAME = "__substg1.0_0C1A"
_PR_SENDER_ADDRTYPE = "__substg1.0_0C1E"
_PR_SENDER_EMAIL_ADDRESS = "__substg1.0_0C1F"
_PR_SENDER_SMTP_ADDRESS = "__substg1.0_5D01"


def msg_string_encoding(message: Any) -> str | None:
    """The code page of an 8-bit message's strings, when extract-msg would guess wrong.

    extract-msg reads only PR_MESSAGE_CODEPAGE and otherwise takes ISO-8859-15, which
    turns a Big5 or Shift_JIS message into Latin mojibake. Outlook often keeps only
    PR_INTERNET_CPID, the code page the message came in with; without either, the
    plain-text body's own bytes are the best evidence. ``None``: extract-msg's choice
    stands (Unicode strings, or a code page the message declares).
    """
    try:
        if message.areStringsUnicode or _PR_MESSAGE_CODEPAGE in message.props:
            return None
        declared = message.props.get(_PR_INTERNET_CPID)
        if declared is not None:
            codec = _code_page_codec(declared.value)
            if codec is not None:
                return codec
        body = message.getStream(_PLAIN_BODY_8BIT)
    except Exception as exc:  # a damaged property stream leaves extract-msg's choice
        log.debug("msg code page unreadable: %s", exc)
        return None
    if not body or body.isascii():
        return None
    guessed = decode_text(body)[1]
    return guessed if _eight_bit(guessed) else None


def _code_page_codec(code_page: object) -> str | None:
    """Python's codec for a Windows code page number, if it has one for 8-bit strings
    (ASCII kept as is: code page 1200, UTF-16, names no 8-bit encoding)."""
    from extract_msg.encoding import lookupCodePage

    if not isinstance(code_page, int) or code_page <= 0:
        return None
    # Python's cpNNN first: extract-msg names 932 "shift_jis", which lacks Microsoft's
    # extensions (NEC and IBM characters) that code page 932 has
    candidates = [f"cp{code_page}"]
    with contextlib.suppress(Exception):  # extract-msg raises for numbers it has no name for
        candidates.append(lookupCodePage(code_page))
    return next((name for name in candidates if _eight_bit(name)), None)


def _eight_bit(codec: str) -> bool:
    try:
        return codecs.lookup(codec)._is_text_encoding and "Mail".encode(codec) == b"Mail"
    except (LookupError, UnicodeError):
        return False


def msg_sender(message: Any) -> str:
    """The sender as Outlook shows it: PR_SENDER_NAME and an SMTP address.

    extract-msg prefers the transport headers the message arrived with, which a
    saved, edited or forwarded message no longer agrees with; an Exchange sender
    address (``/O=ORG/OU=.../CN=...``) is no address to show, so it is left out.
    """
    name = _msg_string(message, _PR_SENDER_NAME)
    address = _msg_string(message, _PR_SENDER_SMTP_ADDRESS)
    if not address and _msg_string(message, _PR_SENDER_ADDRTYPE).upper() == "SMTP":
        address = _msg_string(message, _PR_SENDER_EMAIL_ADDRESS)
    return _mailbox(name, address)


def msg_recipients(message: Any, kind: str) -> str:
    """The message's own recipients of ``kind`` ("to", "cc", "bcc"), ``; ``-joined."""
    try:
        found = [_mailbox(str(recipient.name or ""), str(recipient.email or ""))
                 for recipient in message.recipients
                 if getattr(recipient.type, "name", "").lower() == kind]
    except Exception as exc:  # a damaged recipient table leaves the transport headers
        log.debug("msg recipients unreadable: %s", exc)
        return ""
    return "; ".join(mailbox for mailbox in found if mailbox)


def _mailbox(name: str, address: str) -> str:
    name, address = name.strip(), address.strip()
    if name and address and name.lower() != address.lower():
        return f"{name} <{address}>"
    return name or address


def _msg_header(message: Any, key: str) -> str:
    """Header ``key`` of the transport headers the message arrived with, decoded."""
    try:
        header = message.header
        value = header.get(key) if header is not None else None
        if not value:
            return ""
        decoded = email.header.make_header(email.header.decode_header(str(value)))
    except Exception as exc:  # a damaged header stream or encoded word must not lose the message
        log.debug("msg transport header %s unreadable: %s", key, exc)
        return ""
    return " ".join(str(decoded).split())


def _msg_string(message: Any, stream: str) -> str:
    try:
        value = message.getStringStream(stream)
    except Exception as exc:  # extract-msg reads each stream when asked and may fail
        log.debug("msg stream %s unreadable: %s", stream, exc)
        return ""
    # NUL: a string's terminator, or all there is of one whose sectors were cut off
    return value.replace("\0", "") if isinstance(value, str) else ""


def _msg_rtf(message: Any) -> bytes | None:
    """The message's RTF body, decompressed (a damaged one as far as it goes); None when
    it has none or it cannot be read."""
    try:
        compressed = message.compressedRtf
    except Exception as exc:  # extract-msg reads each stream when asked and may fail
        log.warning("msg RTF body unreadable: %s", exc)
        return None
    rtf, damage = decompressed_rtf(compressed)
    if damage:
        log.warning("msg RTF body damaged: %s", damage)
    return rtf


def _msg_field(message: Any, name: str) -> str:
    try:
        value = getattr(message, name)
    except Exception as exc:  # extract-msg computes fields lazily and may fail on any one
        log.debug("msg field %s unreadable: %s", name, exc)
        return ""
    if isinstance(value, bytes):
        value = decode_text(value)[0]
    return str(value or "").replace("\0", "")


def msg_date(message: Any) -> str | None:
    """When the message was sent, in ISO 8601 as ``.eml`` dates are: Outlook's own
    submit time, else the Date of the transport headers it kept."""
    try:
        moment = message.date
    except Exception as exc:  # extract-msg computes fields lazily and may fail on any one
        log.debug("msg date unreadable: %s", exc)
        moment = None
    if isinstance(moment, datetime):
        return iso_moment(moment)
    if isinstance(moment, str) and moment.strip():
        return mail_date(moment)
    try:
        header = message.header
        written = header.get("Date") if header is not None else None
    except Exception as exc:  # a damaged header stream must not lose the message
        log.debug("msg transport headers unreadable: %s", exc)
        return None
    return mail_date(str(written)) if written else None


#: extract-msg's log (its modules' loggers, through their parent's level), silent while
#: a message is first opened. It logs an error before it raises over a damaged file,
#: which is then read again past the damage or fails with that cause in the report: the
#: log line (``ERROR: ... OLE DirEntry index out of range`` on standard error, of a file
#: read after all) only misleads.
_EXTRACT_MSG_LOG = HeldLogger("extract_msg", logging.CRITICAL + 1)


#: The largest sector of a compound file (version 4); version 3's 512 divides it.
_LARGEST_SECTOR = 4096


def _open_msg(extract_msg: Any, data: bytes, errors: Any) -> Any:
    """The message extract-msg opens from ``data``, with ``errors`` as its
    ``ErrorBehavior``, its strings in the code page ``msg_string_encoding`` finds."""
    message = extract_msg.openMsg(data, strict=False, errorBehavior=errors)
    encoding = msg_string_encoding(message)
    if encoding is None:
        return message
    message.close()
    return extract_msg.openMsg(data, strict=False, errorBehavior=errors,
                               overrideEncoding=encoding)


def _msg_attachments(message: Any) -> list[Any]:
    """The message's attachments as extract-msg lists them; none when their table is
    damaged, the message's own text kept."""
    try:
        return list(getattr(message, "attachments", None) or [])
    except Exception as exc:  # extract-msg reads the attachment table when asked
        log.warning("msg attachments unreadable: %s", exc)
        return []


def _msg_attachment(attachment: Any, index: int) -> tuple[str, bytes] | None:
    # extract-msg reads a name when asked, and a damaged stream fails there
    name = attachment_name(
        _msg_field(attachment, "longFilename") or _msg_field(attachment, "shortFilename"),
        f"attachment-{index}",
    )
    try:
        data = attachment.data
    except Exception as exc:  # a damaged attachment must not lose the message
        log.debug("attachment %s unreadable: %s", name, exc)
        return None
    if isinstance(data, bytes):
        return name, data
    export = getattr(data, "exportBytes", None)
    if export is not None:
        try:
            return f"{name}.msg", export()
        except Exception as exc:  # embedded message export is best effort
            log.debug("embedded message %s cannot be exported: %s", name, exc)
    return None
