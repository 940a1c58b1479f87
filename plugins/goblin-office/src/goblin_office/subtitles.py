"""Subtitles and captions: SubRip (``.srt``), WebVTT (``.vtt``), SubStation Alpha
(``.ssa``, ``.ass``). The words spoken, in the order they are shown.

Read as plain text, a subtitle file is cue numbers, timings, styling tags
(``<i>``, ``{\\i1}``, ``<c.yellow>``), WebVTT's notes and style sheets, and, in
SubStation Alpha, style tables, comments and vector drawings. Here each cue is a
paragraph of its words, its speaker first when the file names one (WebVTT's
``<v Name>``, as meeting transcripts write it; SubStation Alpha's actor field):
``Name: words``. A cue's lines are one line of text unless a line opens with a
dialogue dash, which starts another speaker's line. A line a cue only carries over
from the cue before it, shown without a break (roll-up captions, which repeat each
line in two or three cues), is read once.

WebVTT is read with webvtt-py, which knows voices, ruby and cue settings; a file
it leaves cues of unread (it drops a cue whose timing it cannot parse) is read again
with pysubs2, which keeps every line. SubRip and SubStation Alpha are read with
pysubs2. A file pysubs2 cannot read either, or one over ``_MAX_PARSED_BYTES``, is
read as plain text, timings included, with a warning: its words are never lost.
"""

from __future__ import annotations

import html
import re
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import pysubs2
import webvtt
from pysubs2 import SSAEvent
from pysubs2.formats.subrip import SubripFormat
from pysubs2.formats.webvtt import WebVTTFormat
from webvtt.models import Caption

from goblin_core.builtin.text import PlainTextParser, decode_text, looks_utf16
from goblin_core.config import Config
from goblin_core.engines import BaseEngine, TextDocument
from goblin_core.model import Block, FileType, PageContent
from goblin_core.source import Source
from goblin_office import formats as fmt

#: Larger files are read as plain text: every cue becomes a few Python objects in the
#: readers (about 1 kB each), and 8 MiB is already days of dense captions.
_MAX_PARSED_BYTES = 8 << 20

_TIMING = r"\d{1,3}:\d{1,2}:\d{1,2}[,.]\d{1,3}"
#: A SubRip timing as tools other than SubRip write it: no hours (``00:01,000``), a colon
#: before the milliseconds (``00:00:01:000``), an arrow of dashes other than ``-->``
_LOOSE_TIMING = r"(?:\d{1,3}:)?\d{1,2}:\d{1,2}[,.:]\d{1,3}"
_LOOSE_ARROW = r"[ \t]*(?:-->|[-\u2013\u2014]{1,2}>|\u2192)[ \t]*"
_SRT_HEAD = re.compile(
    rf"\s*(?:\d{{1,9}}[ \t]*\r?\n[ \t]*)?{_LOOSE_TIMING}{_LOOSE_ARROW}{_LOOSE_TIMING}")
_SRT_TIMING_LINE = re.compile(
    rf"^[ \t]*({_LOOSE_TIMING}){_LOOSE_ARROW}({_LOOSE_TIMING})(?=[ \t]|$)", re.M)
_TIME_PARTS = re.compile(r"(?:(\d{1,3}):)?(\d{1,2}):(\d{1,2})[,.:](\d{1,3})")
_VTT_HEAD = re.compile(r"WEBVTT(?:[ \t][^\r\n]*)?(?:\r?\n|\Z)")
_SSA_HEAD = re.compile(r"\s*\[Script Info\]", re.I)
_SSA_PLUS = re.compile(r"^[ \t]*ScriptType[ \t]*:[ \t]*v4\.00\+", re.I | re.M)
#: A time as pysubs2 finds it in a WebVTT line
_VTT_TIMES = WebVTTFormat.TIMESTAMP
#: WebVTT writes a dot before the milliseconds; a file converted from SubRip by hand
#: often keeps SubRip's comma.
_COMMA_MILLISECONDS = re.compile(r"(\d{1,2}:\d{1,2}),(\d{1,3})\b")
#: A time inside a cue's text (``<00:00:02.600>``), where a karaoke-style caption, as
#: YouTube's automatic ones, shows each word. It is markup, left out of the words
#: anyway; pysubs2 takes a line holding two of them for a timing line, and that line
#: counted as a cue webvtt-py had left unread.
_INLINE_TIMESTAMP = re.compile(r"<(?:\d{1,4}:)?\d{1,2}:\d{1,2}\.\d{1,3}>")
#: SubStation Alpha's drawing mode: the text that follows is vector shapes
_DRAWING = re.compile(r"\\p[1-9]")
#: What opens an HTML tag in SubRip text after its "<"
_HTML_TAG = re.compile(r" *(?:/ *)?[A-Za-z]")
_DIALOGUE_DASH = re.compile(r"[-‐–—]\s")
#: A line of digits alone, and the mark that keeps one that is cue text from pysubs2
#: (an invisible separator, which no subtitle writes)
_DIGITS_LINE = re.compile(r"^[ \t]*\d+[ \t]*$", re.M)
_KEPT_NUMBER = "\u2063"
#: Distinct problems pysubs2 reports that each become a warning; the rest are counted
_MAX_READER_WARNINGS = 5
#: Characters of a SubStation Alpha file its script type is looked for in (its header)
_HEADER = 1 << 16
#: Cues shown less than this apart still read as one continuous display (seconds).
_CONTIGUOUS = 0.1


class SubtitleSniffer(BaseEngine):
    """Subtitle files by their content: WebVTT's ``WEBVTT`` line, SubStation Alpha's
    ``[Script Info]``, a SubRip file's first cue (number, then timing line)."""

    name = "office.subtitles_sniffer"
    priority = 50

    def sniff(self, head: bytes, source: Source) -> FileType | None:
        text = _head_text(head)
        if _VTT_HEAD.match(text):
            return FileType(fmt.WEBVTT, "vtt", 0.9)
        if _SSA_HEAD.match(text):
            plus = source.extension == "ass" or (
                source.extension != "ssa" and _SSA_PLUS.search(text) is not None)
            return FileType(fmt.SSA, "ass" if plus else "ssa", 0.9)
        if _SRT_HEAD.match(text):
            return FileType(fmt.SUBRIP, "srt", 0.8)
        return None


def _head_text(head: bytes) -> str:
    """The head as text for the signatures above: they are ASCII, so any byte-wide
    code page reads them; UTF-16 (which Windows tools write subtitles in) is decoded."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or looks_utf16(head):
        return decode_text(head[: len(head) // 2 * 2])[0].lstrip("\ufeff")
    head = head.removeprefix(b"\xef\xbb\xbf")
    try:  # an arrow typed as a dash character is UTF-8 (or a cut character at the end)
        return head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 3:
            return head[: exc.start].decode("utf-8")
    return head.decode("latin-1")


@dataclass(frozen=True)
class Cue:
    """One cue: when it is shown (seconds), its lines, and who speaks them."""

    start: float
    end: float
    lines: tuple[str, ...]
    speaker: str = ""


class SubtitleParser(BaseEngine):
    """SubRip, WebVTT and SubStation Alpha subtitles: the cues' words, in order."""

    name = "office.subtitles"
    formats = (fmt.SUBRIP, fmt.WEBVTT, fmt.SSA)
    priority = 50

    def open(self, source: Source, config: Config) -> TextDocument:
        problems: list[tuple[str, str]] = []
        if source.size > _MAX_PARSED_BYTES:  # the plain-text reader reads no more than it keeps
            problems.append(("FileTooLarge", f"over {_MAX_PARSED_BYTES >> 20} MiB of "
                             "subtitles: read as plain text, timings included"))
            return _as_text(source, config, problems)
        text, encoding = decode_text(source.bytes())
        text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
        metadata: dict[str, Any] = {"encoding": encoding}
        try:
            cues = self._cues(source, text, metadata, problems)
        except Exception as exc:
            problems.append(("CorruptDocument", f"the subtitles could not be read as "
                             f"cues ({type(exc).__name__}: {exc}): read as plain text"))
            return _as_text(source, config, problems)
        if not cues and text.strip():
            problems.append(("CorruptDocument", "no cue found: read as plain text"))
            return _as_text(source, config, problems)
        blocks = [Block("paragraph", line) for line in transcript(cues)]
        metadata["cues"] = len(cues)
        if cues:
            metadata["duration_seconds"] = round(max(c.end for c in cues), 3)
        document = TextDocument(
            [PageContent(number=1, text="\n".join(b.text for b in blocks), blocks=tuple(blocks))],
            metadata=metadata)
        document.warnings = problems
        return document

    def _cues(self, source: Source, text: str, metadata: dict[str, Any],
              problems: list[tuple[str, str]]) -> list[Cue]:
        if _VTT_HEAD.match(text):
            return _webvtt_cues(text, metadata, problems)
        if _SSA_HEAD.match(text):
            return _pysubs2_cues(text, "ass" if _SSA_PLUS.search(text, 0, _HEADER) else "ssa",
                                 metadata, problems)
        return _pysubs2_cues(_standard_srt_timings(text), "srt", metadata, problems)


def _standard_srt_timings(text: str) -> str:
    """Each SubRip timing line as SubRip writes it (``00:00:01,000 --> ...``): pysubs2
    takes a line of another shape for cue text, so its cues run together with their
    timings in them."""
    def standard(line: re.Match[str]) -> str:
        return f"{_standard_time(line[1])} --> {_standard_time(line[2])}"

    return _SRT_TIMING_LINE.sub(standard, text)


def _standard_time(time: str) -> str:
    parts = _TIME_PARTS.fullmatch(time)
    if parts is None:
        return time
    hours, minutes, seconds, fraction = parts.groups()
    return f"{int(hours or 0):02d}:{int(minutes):02d}:{int(seconds):02d},{fraction.ljust(3, '0')}"


def _as_text(source: Source, config: Config, problems: list[tuple[str, str]]) -> TextDocument:
    """The file as the core's plain-text reader reads it (encoding, line ends, binary
    content refused, the output limit), with ``problems`` first among its warnings."""
    document = PlainTextParser().open(source, config)
    document.warnings = [*problems, *getattr(document, "warnings", [])]
    return document


def _webvtt_cues(text: str, metadata: dict[str, Any],
                 problems: list[tuple[str, str]]) -> list[Cue]:
    mended = "\n".join(
        _COMMA_MILLISECONDS.sub(r"\1.\2", line) if "-->" in line
        else _INLINE_TIMESTAMP.sub("", line) for line in text.split("\n"))
    # cue text cannot hold "-->", so each line that does is a cue's timing line; so is
    # a line of two times, which pysubs2 reads as one (``00:01.000 —> 00:02.000``)
    timings = sum(1 for line in mended.split("\n")
                  if "-->" in line or len(_VTT_TIMES.findall(line)) == 2)
    try:
        captions = webvtt.from_string(mended)
    except (webvtt.errors.MalformedFileError, webvtt.errors.MalformedCaptionError) as exc:
        read, reason = None, str(exc) or type(exc).__name__
    else:
        read, reason = captions, f"{timings - len(captions.captions)} of {timings} cues unread"
    if read is None or len(read.captions) < timings:
        # pysubs2 reads every timing line it can parse and keeps whatever follows as text
        try:
            lenient = _pysubs2_read(mended, "vtt", problems)
        except Exception as exc:
            raise ValueError(f"WebVTT: {reason}, and a lenient reading failed") from exc
        if len(lenient.events) < timings:
            raise ValueError(f"WebVTT: {timings - len(lenient.events)} of {timings} timing "
                             "lines cannot be read")
        problems.append(("CorruptDocument", f"WebVTT: {reason}; read again leniently"))
        return _pysubs2_cues(mended, "vtt", metadata, problems, lenient)
    _webvtt_metadata(read, metadata)
    return [cue for caption in read.captions if (cue := _caption_cue(caption)) is not None]


def _webvtt_metadata(captions: Any, metadata: dict[str, Any]) -> None:
    title = str(captions.header_text or "").strip().lstrip("-–— \t").strip()
    if title:
        metadata["title"] = title
    for line in captions.metadata or ():
        key, colon, value = str(line).partition(":")
        if colon and value.strip() and key.strip().lower() in ("language", "kind"):
            metadata[key.strip().lower()] = value.strip()


def _caption_cue(caption: Caption) -> Cue | None:
    lines: list[str] = []
    speakers: list[str] = []
    for line in caption.lines:
        words, voices = _cue_line(line)
        speakers += [voice for voice in voices if voice not in speakers]
        if words.strip():
            lines.append(words.strip())
    if not lines:
        return None
    return Cue(caption.start_time.in_milliseconds() / 1000,
               caption.end_time.in_milliseconds() / 1000, tuple(lines), " & ".join(speakers))


def _cue_line(line: str, webvtt_markup: bool = True) -> tuple[str, list[str]]:
    """A cue line's words and the voices it names (``<v.loud Name>``).

    WebVTT escapes a ``<`` that opens no tag, so every ``<...>`` is a tag and its
    character references are decoded; in SubRip only ``<`` before a letter opens one
    (``<i>``, ``<font color=red>``; ``I <3 you`` is text). Ruby readings (``<rt>``) are
    left out. The readers' own patterns (``<.*?>``, ``< */? *[a-zA-Z][^>]*>``) take
    time quadratic in a line of ``<`` that no ``>`` closes: 200 kB of them held a file
    for minutes. Here each character is looked at a bounded number of times."""
    words: list[str] = []
    voices: list[str] = []
    ruby_reading = False
    at = closing = 0
    while (opening := line.find("<", at)) >= 0:
        if closing <= opening and (closing := line.find(">", opening)) < 0:
            break
        if not webvtt_markup and not _HTML_TAG.match(line, opening + 1):
            if not ruby_reading:
                words.append(line[at:opening + 1])
            at = opening + 1
            continue
        if not ruby_reading:
            words.append(line[at:opening])
        name, _, annotation = line[opening + 1:closing].strip().partition(" ")
        kind = name.split(".", 1)[0].lower()
        if kind == "v" and annotation.strip():
            voices.append(annotation.strip())
        elif kind == "rt":
            ruby_reading = True
        elif kind in ("/rt", "/ruby"):
            ruby_reading = False
        at = closing + 1
    if not ruby_reading:
        words.append(line[at:])
    text = "".join(words)
    return (html.unescape(text) if webvtt_markup else text), voices


def _numbers_kept(text: str, format_name: str) -> str:
    """``text`` with each cue line of digits alone (``3``, ``1999``) marked with
    ``_KEPT_NUMBER``: pysubs2 takes a cue's last such line for the number of the cue
    after it and drops it, so a countdown's last "3", or the last line of the last cue,
    was lost. A line of digits with a timing line after it is a cue's number, and one
    after a blank line is no cue text: those stay as they are."""
    if not _DIGITS_LINE.search(text):
        return text
    timestamp = (WebVTTFormat if format_name == "vtt" else SubripFormat).TIMESTAMP
    lines = text.split("\n")
    for index in range(1, len(lines)):
        if (_DIGITS_LINE.fullmatch(lines[index]) and lines[index - 1].strip()
                and len(timestamp.findall(lines[index + 1] if index + 1 < len(lines) else ""))
                != 2):
            lines[index] += _KEPT_NUMBER
    return "\n".join(lines)


def _pysubs2_read(text: str, format_name: str,
                  problems: list[tuple[str, str]]) -> pysubs2.SSAFile:
    """``text`` read by pysubs2; what it warns of (a field it could not parse and set to
    its default, a time out of range) becomes a warning of the document's."""
    markup = format_name in ("srt", "vtt")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # HTML tags are kept and taken out by _cue_line: pysubs2's patterns for them
        # are the quadratic kind
        subtitles = pysubs2.SSAFile.from_string(
            _numbers_kept(text, format_name) if markup else text, format_=format_name,
            **({"keep_html_tags": True} if markup else {}))
    said = list(dict.fromkeys(str(w.message) for w in caught))
    for message in said[:_MAX_READER_WARNINGS]:
        problems.append(("CorruptDocument", f"{format_name.upper()}: {message}"))
    if len(said) > _MAX_READER_WARNINGS:
        problems.append(("CorruptDocument", f"{format_name.upper()}: "
                             f"{len(said) - _MAX_READER_WARNINGS} more problems of that kind"))
    return subtitles


def _pysubs2_cues(text: str, format_name: str, metadata: dict[str, Any],
                  problems: list[tuple[str, str]],
                  subtitles: pysubs2.SSAFile | None = None) -> list[Cue]:
    markup = format_name in ("srt", "vtt")
    if subtitles is None:
        subtitles = _pysubs2_read(text, format_name, problems)
    if not markup:
        info = subtitles.info
        for key, name in (("Title", "title"), ("Original Script", "author")):
            value = str(info.get(key, "")).strip()
            if value and value.lower() not in ("<untitled>", "untitled"):
                metadata[name] = value
    cues: list[Cue] = []
    for event in subtitles.events:
        if event.is_comment:
            continue
        words = _event_words(event.text.replace(_KEPT_NUMBER, ""))
        if words is None:
            continue
        speakers = [event.name.strip()] if event.name.strip() else []
        lines: list[str] = []
        for line in words.split("\n"):
            if markup:
                line, voices = _cue_line(line, webvtt_markup=format_name == "vtt")
                speakers += [voice for voice in voices if voice not in speakers]
            if line.strip():
                lines.append(line.strip())
        if lines:
            cues.append(Cue(event.start / 1000, event.end / 1000, tuple(lines),
                            " & ".join(speakers)))
    # SubStation Alpha lists events by layer and style as often as by time
    return sorted(cues, key=lambda cue: cue.start) if not markup else cues


def _event_words(text: str) -> str | None:
    """The words of a pysubs2 event's text (SubStation Alpha markup: ``{\\i1}``
    override blocks, ``\\N`` line breaks), or None for a vector drawing (``{\\p1}``).

    pysubs2's ``plaintext`` and ``is_drawing`` match ``{[^}]*}``, which takes time
    quadratic in a line of ``{`` that no ``}`` closes (200 kB of them: 16 s). Only the
    text up to the last ``}`` can hold a block, so only that part is matched: each
    ``{`` there is closed, and each match ends at the first ``}`` after it."""
    closed = text.rfind("}") + 1
    head, tail = text[:closed], text[closed:]
    if any(_DRAWING.search(block) for block in SSAEvent.OVERRIDE_SEQUENCE.findall(head)):
        return None
    words = SSAEvent.OVERRIDE_SEQUENCE.sub("", head) + tail
    return words.replace(r"\h", " ").replace(r"\n", "\n").replace(r"\N", "\n")


def transcript(cues: Iterable[Cue]) -> Iterator[str]:
    """Each cue's new words as one line, ``speaker: `` first when known.

    >>> list(transcript([Cue(0, 2, ("one",)), Cue(2, 4, ("one", "two")),
    ...                  Cue(4, 6, ("- Yes?", "- No."), "Ana")]))
    ['one', 'two', 'Ana: - Yes?\\n- No.']
    """
    shown: tuple[str, ...] = ()
    shown_until = float("-inf")
    for cue in cues:
        lines = cue.lines
        if cue.start <= shown_until + _CONTIGUOUS:
            lines = lines[_carried_over(shown, lines):]
        shown, shown_until = cue.lines, max(cue.end, cue.start)
        if not lines:
            continue
        parts = [lines[0]]
        for line in lines[1:]:
            parts += ("\n" if _DIALOGUE_DASH.match(line) else " ", line)
        joined = "".join(parts)
        yield f"{cue.speaker}: {joined}" if cue.speaker else joined


def _carried_over(before: tuple[str, ...], lines: tuple[str, ...]) -> int:
    """How many of ``lines``' first lines are the last lines of ``before``."""
    for size in range(min(len(before), len(lines)), 0, -1):
        if before[-size:] == lines[:size]:
            return size
    return 0
