"""Reading one PDFium page: text, drawn glyphs and images, unmapped glyphs, annotations, fields.

Everything here takes an open pypdfium2 page and returns plain Python values,
so the caller can close the native page (and its text page) at once.
"""

from __future__ import annotations

import ctypes
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from goblin_core.ranking import REPLACEMENT, is_unmapped, unmapped_chars
from goblin_core.source import Source
from goblin_pdf.generated_gaps import apply_edits, mend_generated_gaps
from goblin_pdf.hidden_text import hidden_chars
from goblin_pdf.info_dictionary import info_entries
from goblin_pdf.layout.drop_capitals import drop_capital_edits
from goblin_pdf.layout.hyphens import mend_marked_hyphens
from goblin_pdf.layout.native import TEXT_OBJECT, drawn_text_rects
from goblin_pdf.loose_boxes import LooseBoxes
from goblin_pdf.named_ligatures import apply_corrections
from goblin_pdf.rtl_order import logical_rtl
from goblin_pdf.stray_marks import repair
from goblin_pdf.validators.char_classes import non_space_count

_MAX_FORM_DEPTH = 8
# A page of thousands of links (a generated index) lists this many; longer addresses are
# data (a base64 payload), not something to read.
_MAX_LINKS = 200
_MAX_LINK_BYTES = 2048
#: Characters of a short string read at most: a page label, a bookmark title, a file or
#: field name. Such a string is read for every page or item, so one huge string shared by
#: all of them (an indirect string packed in a compressed object stream costs the file
#: almost nothing) would be copied that many times.
MAX_SHORT_CHARS = 4096
#: Characters of annotation texts, and of form field texts, read from one page at most:
#: a page of real comments or filled fields holds a few thousand; a value past what is
#: left is not read (PDFium hands out a string whole, never a prefix).
MAX_PAGE_EXTRA_CHARS = 1 << 20
#: Characters of one document information value read at most.
_MAX_INFO_CHARS = 1 << 16
_NONSYMBOLIC = 1 << 5  # font descriptor flag 6
# Characters PDFium writes for glyphs it could not map: controls, private use, U+FFFD/U+FFFE.
_SUSPECT_CHAR = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ue000-\uf8ff\ufffd\ufffe\ud800-\udfff"
    "\U000f0000-\U0010ffff]"
)
# Kana, CJK ideographs and Hangul: text of the languages whose standard fonts (Ryumin,
# STSong, HYSMyeongJo...) a PDF may use without embedding them
_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_SKIPPED_ANNOTS = frozenset({pdfium_c.FPDF_ANNOT_POPUP, pdfium_c.FPDF_ANNOT_WIDGET,
                             pdfium_c.FPDF_ANNOT_LINK})
# Annotations whose appearance is their text (an APPROVED or dated stamp, a watermark,
# a free-text box): one that says nothing in its Contents shows it there alone.
_WORDED_ANNOTS = frozenset({pdfium_c.FPDF_ANNOT_STAMP, pdfium_c.FPDF_ANNOT_FREETEXT,
                            pdfium_c.FPDF_ANNOT_WATERMARK})
_TYPED_FIELDS = frozenset({pdfium_c.FPDF_FORMFIELD_TEXTFIELD, pdfium_c.FPDF_FORMFIELD_COMBOBOX})
# Flags of an annotation no viewer shows (Hidden, NoView)
_UNSEEN = pdfium_c.FPDF_ANNOT_FLAG_HIDDEN | pdfium_c.FPDF_ANNOT_FLAG_NOVIEW
#: An annotation whose text only its appearance shows: (left, top, right, bottom) of its
#: rectangle, and the name of its field ('' when it is none)
ShownOnly = tuple[tuple[float, float, float, float], str]


@dataclass(frozen=True)
class PageText:
    """What one page gave: text and the counts the validators and OCR rule need;
    ``joined`` the generated characters that were taken out as not separating words."""

    text: str
    glyphs: int
    images: int
    unmapped: int
    joined: frozenset[int] = frozenset()
    path_segments: int = 0
    hidden: int = 0
    #: characters put right (``read_text``'s ``corrections``), by PDFium index
    corrected: Mapping[int, str] = field(default_factory=dict)
    #: glyphs PDFium left out of the text altogether (``ObjectCensus.unread_text``),
    #: counted in ``glyphs`` and ``unmapped`` too
    unread: int = 0
    #: the page's ``drawn_text_rects``, for the layout reader (None: not read)
    rects: Sequence[tuple[float, float, float, float]] | None = None


#: What gives a page's characters that PDFium read wrongly, by character index, from its
#: text page and PDFium's text of it (``named_ligatures``).
Corrections = Callable[[pdfium.PdfTextPage, str], Mapping[int, str]]
#: What gives the edits that put right the word gaps PDFium's text of a page misreads
#: (``WordGaps.edits``), from its text page, text and ``drawn_text_rects``.
WordGapFinder = Callable[[pdfium.PdfTextPage, str, Sequence[tuple[float, float, float, float]]],
                         Mapping[int, str]]


def read_text(page: pdfium.PdfPage, count_images_below: int = 0,
              textpage: pdfium.PdfTextPage | None = None,
              corrections: Corrections | None = None,
              unshown: frozenset[int] = frozenset(),
              word_gaps: WordGapFinder | None = None) -> PageText:
    """The page's text in PDFium's reading order, with glyph, image and unmapped counts.

    The page's objects are walked when it reads fewer than ``count_images_below``
    glyphs (0: always), to count images and text PDFium could not read. Only then
    can the counts matter: a page with plenty of text draws something whatever its
    images, and walking every object of a busy page costs as much as reading its
    text. A ``textpage`` given is used and left open (the layout reader reads it next).
    ``corrections`` puts right the characters PDFium read wrongly, one for one.
    ``unshown`` (PDFium indices of characters on a layer the default view turns off)
    are left out of the text and counted as hidden. ``word_gaps`` finds where PDFium's
    text misreads the word gaps the page shows (``WordGaps.edits``).
    """
    own = textpage is None
    textpage = page.get_textpage() if textpage is None else textpage
    try:
        text = textpage.get_text_range()
        corrected = corrections(textpage, text) if corrections is not None else {}
        if unshown:
            # a code 0 in their place keeps every index, and the glyph reader lays out
            # no character of code 0
            corrected = {**corrected, **dict.fromkeys(unshown, _UNSHOWN)}
        text = apply_corrections(text, textpage, corrected)
        unmapped = _unmapped(textpage, text)
        rects = drawn_text_rects(textpage)
        mended = mend_generated_gaps(textpage, text,
                                     word_gaps(textpage, text, rects) if word_gaps else None)
        # a drop capital moved is no gap taken back: the glyph reader places it by its box
        capitals = drop_capital_edits(textpage, text)
        edits = {**mended.edits, **capitals} if capitals else mended.edits
        # the order fix reads boxes by character index: it is made on PDFium's text, and
        # the gaps mended after, but in words they edit
        ordered = logical_rtl(textpage, text, frozenset(edits))
        if ordered is not text:
            # the glyph reader, which may rebuild the page, gets the letters put in order
            corrected = {**corrected, **_by_index(textpage, text, ordered)}
        text = apply_edits(ordered, edits) if edits else ordered
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        text = repair(mend_marked_hyphens(_without_unshown(text) if unshown else text))
        glyphs = non_space_count(text)
        # Japanese, Chinese and Korean pages may also draw in a standard CJK font PDFium
        # leaves out of its text altogether, however much else they read
        census = (ObjectCensus.of(page, textpage)
                  if not count_images_below or glyphs < count_images_below or _CJK.search(text)
                  else ObjectCensus())
        hidden = hidden_chars(textpage, unshown)
    finally:
        if own:
            textpage.close()
    # unread glyphs are drawn all the same: a page of them is not blank
    return PageText(text, glyphs + census.unread_text, census.images,
                    unmapped + census.unread_text, mended.joined, census.path_segments, hidden,
                    corrected, census.unread_text, rects)


_UNSHOWN = "\x00"
# what is left of a line once its hidden characters are taken out: PDFium's own spaces
_BLANK = re.compile(r"[^\S\n]*")


def _without_unshown(text: str) -> str:
    """``text`` without the characters marked ``_UNSHOWN``: a line of nothing else goes
    with its line break, and the spaces PDFium put around them close up into one."""
    if _UNSHOWN not in text:
        return text
    lines = []
    for line in text.split("\n"):
        if _UNSHOWN in line:
            parts = re.split(r"[^\S\n]*\x00[\x00\s]*", line)
            line = " ".join(part for part in parts if part)
            if _BLANK.fullmatch(line):
                continue
        lines.append(line)
    return "\n".join(lines)


def _by_index(textpage: pdfium.PdfTextPage, text: str, changed: str) -> dict[int, str]:
    """The characters ``changed`` (``text`` with some characters replaced, one for one)
    puts in place of ``text``'s, by PDFium character index."""
    aligned = len(text) == textpage.count_chars()
    return {_char_index(textpage, position, aligned): char
            for position, (old, char) in enumerate(zip(text, changed, strict=True))
            if old != char}


def _char_index(textpage: pdfium.PdfTextPage, position: int, aligned: bool) -> int:
    """The PDFium character index of ``position`` in PDFium's text of ``textpage``.
    PDFium leaves some characters out of its text (code 0, some controls): the text's
    positions are then not character indices, which ``aligned`` (the text as long as
    the character count) rules out."""
    return position if aligned else pdfium_c.FPDFText_GetCharIndexFromTextIndex(textpage,
                                                                                position)


def _unmapped(textpage: pdfium.PdfTextPage, text: str) -> int:
    """Glyphs PDFium could not map to a printable character.

    A glyph PDFium mapped without a ToUnicode (from glyph names, a font's own
    tables) is often right, so the flag alone does not count; only flagged
    glyphs that came out as control, private-use or replacement characters do.
    PDFium is asked only about the characters that look unmapped in ``text``
    (one text character per PDFium character, the generated line breaks included).
    U+FFFD counts whatever the flag: a ToUnicode map may send glyphs there (cairo
    does, for glyphs it cannot name), which PDFium takes as a mapping like any other,
    and no glyph is rightly read as the replacement character.
    """
    if not unmapped_chars(text):
        return 0
    total = textpage.count_chars()
    aligned = len(text) == total
    count = 0
    for match in _SUSPECT_CHAR.finditer(text):
        if match.group() == REPLACEMENT:
            count += 1
            continue
        index = _char_index(textpage, match.start(), aligned)
        if not 0 <= index < total or pdfium_c.FPDFText_HasUnicodeMapError(textpage, index) != 1:
            continue
        code = pdfium_c.FPDFText_GetUnicode(textpage, index)
        if code == 0 or _bad_code(code):
            count += 1
    return count


def _bad_code(code: int) -> bool:
    try:
        return is_unmapped(chr(code))
    except ValueError:
        return True


@dataclass(frozen=True)
class ObjectCensus:
    """What a walk over a page's objects (form XObjects included) found.

    ``unread_text``: glyphs of text objects in a font the PDF does not embed whose text
    PDFium gives as nothing. PDFium has no character maps for the standard CJK fonts
    (Ryumin-Light, GothicBBB-Medium... with Identity-H or Identity-V and no ToUnicode)
    and leaves their glyphs out of its text altogether, so a page of them reads as nearly
    empty and nothing looks unmapped. Counted as unmapped, such glyphs send the page to
    the engines that do have those maps. An object holds a line or a column of them:
    its length over its font size (an ideograph is an em square), and at least one.
    """

    images: int = 0
    unread_text: int = 0
    path_segments: int = 0

    @classmethod
    def of(cls, page: pdfium.PdfPage, textpage: pdfium.PdfTextPage) -> ObjectCensus:
        images = unread = segments = 0
        pending: list[tuple[Any, int]] = [(None, 0)]
        while pending:
            form, depth = pending.pop()
            for obj in _objects(page, form):
                kind = pdfium_c.FPDFPageObj_GetType(obj)
                if kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
                    images += 1
                elif kind == pdfium_c.FPDF_PAGEOBJ_TEXT and _unread(obj, textpage):
                    unread += _glyphs_spanned(obj)
                elif kind == pdfium_c.FPDF_PAGEOBJ_PATH:
                    segments += max(pdfium_c.FPDFPath_CountSegments(obj), 0)
                elif kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < _MAX_FORM_DEPTH:
                    pending.append((obj, depth + 1))
        return cls(images, unread, segments)


def _unread(text_object: Any, textpage: pdfium.PdfTextPage) -> bool:
    """A text object in a font the PDF does not embed and does not call nonsymbolic, whose
    text PDFium reads as nothing (the size it reports counts the UTF-16 terminator).
    Nonsymbolic fonts use a standard Latin encoding PDFium always reads: an object of
    theirs that reads as nothing holds spaces (Word writes many)."""
    font = pdfium_c.FPDFTextObj_GetFont(text_object)
    return (bool(font) and not pdfium_c.FPDFFont_GetIsEmbedded(font)
            and not pdfium_c.FPDFFont_GetFlags(font) & _NONSYMBOLIC
            and pdfium_c.FPDFTextObj_GetText(text_object, textpage, None, 0) <= 2)



#: Glyphs one unread text object is counted as at most: a run across a page of small
#: type; an object claiming more is a stretched or damaged one.
_MAX_SPANNED = 200


def _glyphs_spanned(text_object: Any) -> int:
    """About how many glyphs a text object PDFium cannot read draws: its extent along the
    way it runs, in ems, is the steps from its first glyph to its last (an unread font
    has no metrics, so the boxes are nearly nil). An em is the font size as the object's
    matrix scales it: ``1 Tf`` in a text matrix of 12 draws twelve-point glyphs."""
    size = ctypes.c_float()
    matrix = pdfium_c.FS_MATRIX()
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    if (not pdfium_c.FPDFTextObj_GetFontSize(text_object, ctypes.byref(size))
            or not pdfium_c.FPDFPageObj_GetMatrix(text_object, matrix)
            or not pdfium_c.FPDFPageObj_GetBounds(text_object, left, bottom, right, top)):
        return 1
    em = size.value * math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
    if not em > 0:
        return 1
    extent = max(right.value - left.value, top.value - bottom.value)
    return max(1, min(round(extent / em) + 1, _MAX_SPANNED))


def _objects(page: pdfium.PdfPage, form: Any) -> Iterator[Any]:
    """Top-level objects of the page, or of one form XObject when ``form`` is given."""
    if form is None:
        for index in range(max(pdfium_c.FPDFPage_CountObjects(page), 0)):
            yield pdfium_c.FPDFPage_GetObject(page, index)
        return
    for index in range(max(pdfium_c.FPDFFormObj_CountObjects(form), 0)):
        yield pdfium_c.FPDFFormObj_GetObject(form, index)


@dataclass(frozen=True)
class PageAnnotations:
    """What a page's annotations hold: ``texts`` their Contents (comments, free text,
    stamps...), ``attached_files`` how many are file attachments (files a reader opens
    from an icon on the page, outside the document's list of embedded files)."""

    texts: tuple[str, ...]
    attached_files: int
    links: tuple[str, ...] = ()
    #: annotations with no Contents whose appearance holds their text (``appearance_texts``)
    shown_only: tuple[ShownOnly, ...] = ()

    def unseen_links(self, text: str) -> list[str]:
        """The link targets a reader of ``text`` would not see: those the page does not
        spell out itself (scheme, ``www.`` and a closing slash aside, line breaks ignored)."""
        if not self.links:
            return []
        flat = "".join(text.split()).casefold()
        return [link for link in self.links if _bare_address(link) not in flat]


def read_annotations(page: pdfium.PdfPage, with_texts: bool = True) -> PageAnnotations:
    """The page's annotation texts and web links (when ``with_texts``) and file
    attachments, in one pass. An annotation no viewer shows (flagged Hidden or NoView)
    gives no text."""
    texts: dict[str, None] = {}  # in page order, each once, looked up in constant time
    links: dict[str, None] = {}
    shown_only: list[ShownOnly] = []
    budget = MAX_PAGE_EXTRA_CHARS
    attached = 0
    for annot in _annotations(page):
        subtype = pdfium_c.FPDFAnnot_GetSubtype(annot)
        attached += subtype == pdfium_c.FPDF_ANNOT_FILEATTACHMENT
        if not with_texts:
            continue
        if subtype == pdfium_c.FPDF_ANNOT_LINK and len(links) < _MAX_LINKS:
            link = _link_address(page, annot)
            if link:
                links[link] = None
        if subtype in _SKIPPED_ANNOTS or budget <= 0 or _unseen(annot):
            continue
        value = _annotation_text(annot, budget)
        if value and value not in texts:
            texts[value] = None
            budget -= len(value)
        elif not value and subtype in _WORDED_ANNOTS:
            shown_only.extend(_shown_only(annot, ""))
    return PageAnnotations(tuple(texts), attached, tuple(links), tuple(shown_only))


def _unseen(annot: Any) -> bool:
    return bool(pdfium_c.FPDFAnnot_GetFlags(annot) & _UNSEEN)


def _shown_only(annot: Any, name: str) -> list[ShownOnly]:
    """The annotation's rectangle and ``name`` when it has an appearance to read."""
    rect = pdfium_c.FS_RECTF()
    if not pdfium_c.FPDFAnnot_HasKey(annot, b"AP") or not pdfium_c.FPDFAnnot_GetRect(annot, rect):
        return []
    return [((rect.left, rect.top, rect.right, rect.bottom), name)]


def _annotation_text(annot: Any, max_chars: int = MAX_PAGE_EXTRA_CHARS) -> str:
    """A comment as a reader sees it in the comments pane: its author (the T entry of
    markup annotations), its subject and its contents, ``author: subject`` then contents.
    An author with nothing said (a bare highlight) is no text; a part over ``max_chars``
    is not read."""
    author, subject, contents = (
        utf16_text(pdfium_c.FPDFAnnot_GetStringValue, annot, key, max_chars=max_chars)
        .strip() for key in (b"T", b"Subj", b"Contents"))
    said = "\n".join(part for part in (subject, contents) if part)
    if not said:
        return ""
    return f"{author}: {said}" if author and author != said else said


def _link_address(page: pdfium.PdfPage, annot: Any) -> str:
    """The web address a link annotation opens ('' for a jump inside the document)."""
    link = pdfium_c.FPDFAnnot_GetLink(annot)
    action = pdfium_c.FPDFLink_GetAction(link) if link else None
    if not action or pdfium_c.FPDFAction_GetType(action) != pdfium_c.PDFACTION_URI:
        return ""
    size = pdfium_c.FPDFAction_GetURIPath(page.pdf, action, None, 0)
    if size <= 1 or size > _MAX_LINK_BYTES:
        return ""
    buffer = ctypes.create_string_buffer(size)
    pdfium_c.FPDFAction_GetURIPath(page.pdf, action, buffer, size)
    # The address is 7-bit ASCII by the standard; some producers put Latin-1 there.
    address = buffer.raw[: size - 1].decode("latin-1").strip()
    return address if address.isprintable() else ""


def _bare_address(link: str) -> str:
    """The part of an address a page would print: no scheme, no ``www.``, no closing slash."""
    bare = re.sub(r"^(?:[a-z][a-z0-9+.-]*:(?://)?)?(?:www\.)?", "", link.casefold())
    return "".join(bare.rstrip("/").split())


def attached_files(page: pdfium.PdfPage, pdf: pdfium.PdfDocument) -> Iterator[pdfium.PdfAttachment]:
    """The files attached to the page's file-attachment annotations, each valid until the
    caller moves on (the annotation is closed then)."""
    for annot in _annotations(page):
        if pdfium_c.FPDFAnnot_GetSubtype(annot) != pdfium_c.FPDF_ANNOT_FILEATTACHMENT:
            continue
        raw = pdfium_c.FPDFAnnot_GetFileAttachment(annot)
        if raw:
            yield pdfium.PdfAttachment(raw, pdf)


def form_field_texts(page: pdfium.PdfPage, form_handle: Any | None,
                     shown_only: list[ShownOnly] | None = None) -> list[str]:
    """``name: value`` of the form fields whose widgets sit on the page.

    Without a form handle (no AcroForm: a page cut out of a filled form keeps its
    widgets, the catalogue's field list stays behind), and for a widget the form does not
    list, the widget's own V and T are read: viewers and poppler still show the value.
    PDFium finds a widget's field by going through the form's fields one by one, so
    past ``MAX_FORM_LOOKUPS`` widgets on a page only their own V and T are read: a page
    of 30,000 fields took 76 s, each widget looked up costing time in proportion to all.
    A text field (or combo box) with no value whose widget a viewer shows and has an
    appearance is added to ``shown_only``, when given: what it shows is its value.
    A list or combo box with several options selected reads as their labels, in the
    options' order, joined by ``"; "`` (PDFium gives a field's first value alone).
    """
    texts: dict[str, None] = {}  # in page order, each once, looked up in constant time
    budget = MAX_PAGE_EXTRA_CHARS
    lookups = 0
    option_checks = MAX_OPTION_CHECKS
    for annot in _annotations(page):
        if budget <= 0:
            break
        if pdfium_c.FPDFAnnot_GetSubtype(annot) != pdfium_c.FPDF_ANNOT_WIDGET:
            continue
        value = name = ""
        typed = False
        if form_handle is not None and lookups < MAX_FORM_LOOKUPS:
            lookups += 1
            value = utf16_text(pdfium_c.FPDFAnnot_GetFormFieldValue, form_handle, annot,
                               max_chars=budget).strip()
            name = utf16_text(pdfium_c.FPDFAnnot_GetFormFieldName, form_handle, annot).strip()
            kind = pdfium_c.FPDFAnnot_GetFormFieldType(form_handle, annot)
            typed = kind in _TYPED_FIELDS
            if kind in _CHOICE_FIELDS and option_checks > 0:
                chosen, checked = _chosen_options(form_handle, annot, option_checks, budget)
                option_checks -= checked
                if len(chosen) > 1:
                    value = _CHOICES_JOINED.join(chosen)
        if not value and not name:
            value = utf16_text(pdfium_c.FPDFAnnot_GetStringValue, annot, b"V",
                               max_chars=budget).strip()
            name = utf16_text(pdfium_c.FPDFAnnot_GetStringValue, annot, b"T").strip()
        if not value and typed and shown_only is not None and not _unseen(annot):
            shown_only.extend(_shown_only(annot, name))
        if not value or value == "Off":
            continue
        line = f"{name}: {value}" if name else value
        if line not in texts:
            texts[line] = None
            budget -= len(line)
    return list(texts)


#: Widgets of one page whose field is looked up through PDFium's form, at most (a tax
#: form's busiest page has a few hundred).
MAX_FORM_LOOKUPS = 2000
#: Options of list and combo boxes asked whether they are selected, on one page at most:
#: a country list has about 250, and PDFium's answer for each goes through the field's
#: values again.
MAX_OPTION_CHECKS = 20_000
_CHOICE_FIELDS = frozenset({pdfium_c.FPDF_FORMFIELD_LISTBOX, pdfium_c.FPDF_FORMFIELD_COMBOBOX})
# how the values of one field are joined; an option's label may hold a comma
_CHOICES_JOINED = "; "


def _chosen_options(form_handle: Any, annot: Any, max_checks: int,
                    max_chars: int) -> tuple[list[str], int]:
    """The labels of the choice field's selected options, in the options' order and each
    once, and how many options were asked about (at most ``max_checks``). A selected
    option is one its value array (or its /I indices) names. The label is what a viewer
    lists: for an option that is a pair of export value and label, the label."""
    count = min(max(pdfium_c.FPDFAnnot_GetOptionCount(form_handle, annot), 0), max_checks)
    chosen: dict[str, None] = {}
    for index in range(count):
        if max_chars <= 0:
            break
        if pdfium_c.FPDFAnnot_IsOptionSelected(form_handle, annot, index):
            label = utf16_text(pdfium_c.FPDFAnnot_GetOptionLabel, form_handle, annot, index,
                               max_chars=max_chars).strip()
            if label and label not in chosen:
                chosen[label] = None
                max_chars -= len(label) + len(_CHOICES_JOINED)
    return list(chosen), count


def signature_boxes(page: pdfium.PdfPage, form_handle: Any) -> list[tuple[float, ...]]:
    """(left, top, right, bottom) of the page's signature-field widgets."""
    boxes: list[tuple[float, ...]] = []
    for annot in _annotations(page):
        if (pdfium_c.FPDFAnnot_GetSubtype(annot) == pdfium_c.FPDF_ANNOT_WIDGET
                and pdfium_c.FPDFAnnot_GetFormFieldType(form_handle, annot)
                == pdfium_c.FPDF_FORMFIELD_SIGNATURE):
            rect = pdfium_c.FS_RECTF()
            if pdfium_c.FPDFAnnot_GetRect(annot, rect):
                boxes.append((rect.left, rect.top, rect.right, rect.bottom))
    return boxes


def signature_texts(pdf: pdfium.PdfDocument, index: int,
                    boxes: list[tuple[float, ...]]) -> list[str]:
    """What the signature widgets in ``boxes`` show ("Digitally signed by ...", "Assinado
    por: ..."): PDFium's text leaves annotations out, so the page is flattened (its
    annotations' appearances merged into its content, as a viewer shows them) and the text
    inside each box read. Flattening changes only the open document, which shows the same."""
    return [text for text in _flattened_texts(pdf, index, boxes) if text]


def appearance_texts(pdf: pdfium.PdfDocument, index: int, shown_only: list[ShownOnly],
                     page_text: str) -> list[str]:
    """What the annotations of page ``index`` in ``shown_only`` show, a line each
    (``name: text`` for a field), leaving out what ``page_text`` already holds. They are
    drawn by flattening a copy of the page in a document of its own: the page itself
    keeps its annotations (a file attachment, a signature field read after)."""
    scratch = pdfium.PdfDocument.new()
    try:
        if not pdfium_c.FPDF_ImportPagesByIndex(scratch, pdf, (ctypes.c_int * 1)(index), 1, 0):
            return []
        texts = _drawn_texts(scratch, [box for box, _ in shown_only])
    finally:
        scratch.close()
    flat = "".join(page_text.split()).casefold()
    lines: dict[str, None] = {}
    for text, (_, name) in zip(texts, shown_only, strict=False):
        if text and "".join(text.split()).casefold() not in flat:
            lines[f"{name}: {text}" if name else text] = None
    return list(lines)


def _drawn_texts(pdf: pdfium.PdfDocument, boxes: list[tuple[float, ...]]) -> list[str]:
    """The text the appearances of page 0 draw inside each box, once the page is
    flattened: only characters of the objects flattening adds, which an appearance
    laid over the page's own text (a stamp on a line) must not mix with; none at all
    when flattening fails."""
    page = pdf[0]
    try:
        own = pdfium_c.FPDFPage_CountObjects(page)
        if pdfium_c.FPDFPage_Flatten(page, pdfium_c.FLAT_NORMALDISPLAY) \
                != pdfium_c.FLATTEN_SUCCESS:
            return []
    finally:
        page.close()
    page = pdf[0]  # a flattened page is read from the document
    try:
        drawn: set[int] = set()
        for position in range(own, pdfium_c.FPDFPage_CountObjects(page)):
            drawn.update(_text_objects(pdfium_c.FPDFPage_GetObject(page, position), 0))
        if not drawn:
            return ["" for _ in boxes]
        textpage = page.get_textpage()
        try:
            return [_text_of_objects(textpage, box, drawn) for box in boxes]
        finally:
            textpage.close()
    finally:
        page.close()


def _text_objects(obj: Any, depth: int) -> Iterator[int]:
    """Addresses of the text objects ``obj`` is or holds (forms looked into)."""
    kind = pdfium_c.FPDFPageObj_GetType(obj)
    if kind == pdfium_c.FPDF_PAGEOBJ_TEXT:
        yield ctypes.cast(obj, ctypes.c_void_p).value or 0
    elif kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < _MAX_FORM_DEPTH:
        for position in range(pdfium_c.FPDFFormObj_CountObjects(obj)):
            yield from _text_objects(pdfium_c.FPDFFormObj_GetObject(obj, position), depth + 1)


def _text_of_objects(textpage: pdfium.PdfTextPage, box: tuple[float, ...],
                     objects: set[int]) -> str:
    """The characters of ``objects`` whose boxes lie in ``box`` (left, top, right,
    bottom), in PDFium's order, with the spaces and line breaks it puts between them."""
    left, top, right, bottom = box
    low, high = min(top, bottom), max(top, bottom)
    handle = ctypes.cast(textpage.raw, ctypes.c_void_p).value or 0
    boxes = LooseBoxes(textpage)
    chars: list[str] = []
    pending = ""  # generated characters after the last one kept
    for index in range(textpage.count_chars()):
        address = TEXT_OBJECT(handle, index)
        if not address:
            if chars:
                pending += chr(pdfium_c.FPDFText_GetUnicode(textpage, index))
            continue
        found = boxes(index) if address in objects else None
        if found is None:
            continue
        x = (found[0] + found[2]) / 2
        y = (found[1] + found[3]) / 2
        if left <= x <= right and low <= y <= high:
            chars.append(pending + chr(pdfium_c.FPDFText_GetUnicode(textpage, index)))
            pending = ""
    return " ".join("".join(chars).split())


def _flattened_texts(pdf: pdfium.PdfDocument, index: int,
                     boxes: list[tuple[float, ...]]) -> list[str]:
    """The text each box of page ``index`` gains when the page is flattened, spaces
    closed up ('' where it gains none); none at all when flattening fails."""
    before = _texts_in(pdf, index, boxes, flatten=True)
    if before is None:
        return []
    after = _texts_in(pdf, index, boxes) or []  # a flattened page is read from the document
    # flattening draws the appearances after the page's own content: what the box held
    # before comes first
    shown = [a[len(b):] if a.startswith(b) else a for a, b in zip(after, before, strict=True)]
    return [" ".join(t.split()) for t in shown]


def _texts_in(pdf: pdfium.PdfDocument, index: int, boxes: list[tuple[float, ...]],
              flatten: bool = False) -> list[str] | None:
    """The page's text inside each box; with ``flatten``, the page is flattened after it is
    read (None when that fails)."""
    page = pdf[index]
    try:
        textpage = page.get_textpage()
        try:
            texts = [_bounded_text(textpage, box) for box in boxes]
        finally:
            textpage.close()
        if flatten and pdfium_c.FPDFPage_Flatten(page, pdfium_c.FLAT_NORMALDISPLAY) \
                != pdfium_c.FLATTEN_SUCCESS:
            return None
        return texts
    finally:
        page.close()


def document_info(pdf: pdfium.PdfDocument, source: Source | None = None,
                  password: str | None = None) -> dict[str, str]:
    """The document information dictionary's keys that have a value: the standard ones
    as PDFium reads them and, when the ``source`` PDFium opened (and its ``password``)
    is given, every other key, listed by qpdf (``info_entries``). A value that is not
    valid UTF-16 (a lone surrogate from a damaged or hand-made file) keeps what reads,
    unlike pypdfium2's own reader, which raises and so cost the whole file."""
    info: dict[str, str] = {}
    for key in pdfium.PdfDocument.METADATA_KEYS:
        value = utf16_text(pdfium_c.FPDF_GetMetaText, pdf, key.encode("ascii"),
                           max_chars=_MAX_INFO_CHARS)
        if value:
            info[key] = value
    if source is not None:
        for key, value in info_entries(source, password, _MAX_INFO_CHARS).items():
            info.setdefault(key, value)
    return info


def _annotations(page: pdfium.PdfPage) -> Iterator[Any]:
    """Annotation handles of the page, each closed as soon as the caller moves on."""
    for index in range(max(pdfium_c.FPDFPage_GetAnnotCount(page), 0)):
        annot = pdfium_c.FPDFPage_GetAnnot(page, index)
        if not annot:
            continue
        try:
            yield annot
        finally:
            pdfium_c.FPDFPage_CloseAnnot(annot)


def _bounded_text(textpage: pdfium.PdfTextPage, box: tuple[float, ...]) -> str:
    """The text inside ``box`` (left, top, right, bottom); PDFium counts UTF-16 units."""
    units = pdfium_c.FPDFText_GetBoundedText(textpage, *box, None, 0)
    if units <= 0:
        return ""
    buffer = (ctypes.c_ushort * (units + 1))()
    written = pdfium_c.FPDFText_GetBoundedText(textpage, *box, buffer, units + 1)
    return bytes(buffer)[: 2 * max(written, 0)].decode("utf-16-le", errors="replace").rstrip("\0")


def added_text(parts: list[str]) -> str:
    """What a parser adds to a page (comments, field values, the outline), one part after
    another, its line breaks written as ``\\n``: Acrobat ends the lines of a comment or of
    a multi-line field's value with a bare ``\\r``, which a terminal reads as a return to
    the start of the line, printing the next line over the one before. NULs, which many
    writers end their strings with (``Note\\x00``), are left out.

    >>> added_text(["Rui: first line\\rsecond line", "notes: a\\r\\nb\\x00"])
    'Rui: first line\\nsecond line\\n\\nnotes: a\\nb'
    """
    joined = "\n\n".join(parts)
    return joined.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")


def utf16_text(call: Callable[..., int], *args: Any, max_chars: int = MAX_SHORT_CHARS,
               too_long: Callable[[int], None] | None = None) -> str:
    """Run a PDFium getter that fills a UTF-16LE buffer, ``call(*args, buffer, size)``;
    '' when it has nothing or more than ``max_chars`` UTF-16 units (measured before any
    copy is made; ``too_long`` is then told how many). What does not decode (a lone
    surrogate) is replaced, not raised."""
    size = call(*args, None, 0)
    if size <= 2:
        return ""
    if (size - 2) // 2 > max_chars:
        if too_long is not None:
            too_long((size - 2) // 2)
        return ""
    buffer = ctypes.create_string_buffer(size)
    call(*args, ctypes.cast(buffer, ctypes.POINTER(pdfium_c.FPDF_WCHAR)), size)
    return buffer.raw[: size - 2].decode("utf-16-le", errors="replace")
