"""Form XObjects nested into billions of draws, or drawn into gigabytes of content: the page
is refused before PDFium loads it."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
import time
import zlib
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from filter_encoders import lzw_encoded
from pikepdf import Array, Dictionary, Name

import goblin_core
from goblin_core.source import Source
from goblin_pdf import page_weight, stream_filters
from goblin_pdf.page_weight import MAX_FORM_DRAWS, MAX_PAGE_CONTENT, PageCensus

_FONT = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica)


def _form(pdf: pikepdf.Pdf, body: bytes, xobjects: Dictionary | None) -> pikepdf.Object:
    form = pdf.make_stream(body, Type=Name.XObject, Subtype=Name.Form,
                           BBox=Array([0, 0, 612, 792]))
    if xobjects is not None:
        form.Resources = Dictionary(XObject=xobjects, Font=Dictionary(F1=_FONT))
    return form


def _add_page(pdf: pikepdf.Pdf, text: str, xobjects: Dictionary | None = None,
              draw: bytes = b"") -> None:
    content = b"BT /F1 24 Tf 72 720 Td (%s) Tj ET " % text.encode() + draw
    resources = Dictionary(Font=Dictionary(F1=_FONT))
    if xobjects is not None:
        resources.XObject = xobjects
    pdf.pages.append(pikepdf.Page(Dictionary(Type=Name.Page, MediaBox=Array([0, 0, 612, 792]),
                                             Resources=resources,
                                             Contents=pdf.make_stream(content))))


def _save(pdf: pikepdf.Pdf, **options: Any) -> bytes:
    out = io.BytesIO()
    pdf.save(out, **options)
    return out.getvalue()


def chain_pdf(levels: int, times: int, leaf: bytes = b"leaf") -> bytes:
    """Page 1 plain; page 2 draws a chain of ``levels`` forms, each drawing the next
    ``times`` times, down to a form saying ``leaf``; page 3 plain again."""
    pdf = pikepdf.new()
    form = _form(pdf, b"BT /F1 9 Tf 10 10 Td (%s) Tj ET" % leaf, Dictionary())
    for _ in range(levels - 1):
        form = _form(pdf, b"/Z Do " * times, Dictionary(Z=pdf.make_indirect(form)))
    _add_page(pdf, "Before the forms")
    _add_page(pdf, "Forms page", Dictionary(Y=pdf.make_indirect(form)), b"/Y Do")
    _add_page(pdf, "After the forms")
    return _save(pdf)


def text_form_pdf(draws: int, characters: int = 1000, **save: Any) -> bytes:
    """Page 1 plain; page 2 draws one form of ``characters`` characters ``draws`` times;
    page 3 plain again."""
    pdf = pikepdf.new()
    form = _form(pdf, b"BT /F1 1 Tf 10 10 Td (%s) Tj ET" % (b"x" * characters), Dictionary())
    _add_page(pdf, "Before the forms")
    _add_page(pdf, "Forms page", Dictionary(Y=pdf.make_indirect(form)), b"/Y Do " * draws)
    _add_page(pdf, "After the forms")
    return _save(pdf, **save)


def self_drawing_pdf(times: int) -> bytes:
    """A form without resources of its own that draws itself ``times`` times through
    the page's (PDFium aborts on 2 after gigabytes)."""
    pdf = pikepdf.new()
    form = pdf.make_indirect(_form(pdf, b"/X Do " * times, None))
    _add_page(pdf, "Self drawing page", Dictionary(X=form), b"/X Do")
    return _save(pdf)


# A bomb that got past the census would take the test process down: extract in a
# child capped at 3 GiB of address space, which PDFium then aborts on instead.
CHILD = textwrap.dedent(
    """
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))
    from goblin_core import extract
    document = extract(sys.argv[1], ocr="never")
    print(json.dumps([{"text": p.text, "status": p.status,
                       "errors": [a.error for a in p.attempts]} for p in document.pages]))
    """
)


def _extract_in_child(data: bytes, folder: Path) -> list[dict[str, Any]]:
    path = folder / "forms.pdf"
    path.write_bytes(data)
    done = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    pages: list[dict[str, Any]] = json.loads(done.stdout.strip().splitlines()[-1])
    return pages


def _refusals(data: bytes) -> list[str | None]:
    with PageCensus(Source.from_bytes(data, "forms.pdf")) as census:
        return [census.refusal(number) for number in range(1, len(pikepdf.open(
            io.BytesIO(data)).pages) + 1)]


def _only_page_two_refused(data: bytes, reason: str) -> None:
    refusals = _refusals(data)
    assert refusals[0] is None and refusals[2] is None
    assert refusals[1] is not None and reason in refusals[1]


def _only_page_two_failed(data: bytes, folder: Path, subject: str, reason: str) -> None:
    """Extracted in a child: page 2 failed with ``reason``, pages 1 and 3 read."""
    pages = _extract_in_child(data, folder)
    assert f"Before the {subject}" in pages[0]["text"]
    assert f"After the {subject}" in pages[2]["text"]
    assert pages[1]["status"] == "failed"
    assert any(reason in error for error in pages[1]["errors"])


def test_a_doubling_chain_of_forty_forms_is_refused_and_the_other_pages_read(
        tmp_path: Path) -> None:
    data = chain_pdf(40, 2)
    _only_page_two_refused(data, "form bomb")
    _only_page_two_failed(data, tmp_path, "forms", "form bomb")


def test_nested_forms_within_the_limit_are_read() -> None:
    data = chain_pdf(4, 10)  # 1,111 draws
    assert _refusals(data) == [None, None, None]
    # plain forms (inline resources, Flate): counted from the bytes, pypdf never opened
    assert PageCensus(Source.from_bytes(data, "forms.pdf"))._reader is None
    document = goblin_core.extract(data, name="forms.pdf", ocr="never")
    assert "leaf" in document.pages[1].text


def test_the_limit_is_on_draws_not_on_depth() -> None:
    # 3 forms, each drawing the next 400 times: 160,000 leaves from a 5 kB file
    assert MAX_FORM_DRAWS < 400 ** 2
    assert _refusals(chain_pdf(3, 400))[1] is not None


def test_a_form_drawing_itself_twice_through_the_page_resources_is_refused(
        tmp_path: Path) -> None:
    assert _refusals(self_drawing_pdf(2))[0] is not None
    assert _extract_in_child(self_drawing_pdf(2), tmp_path)[0]["status"] == "failed"


def test_a_form_drawing_itself_once_per_round_is_harmless_and_read() -> None:
    assert _refusals(self_drawing_pdf(1)) == [None]
    document = goblin_core.extract(self_drawing_pdf(1), name="self.pdf", ocr="never")
    assert "Self drawing page" in document.text


def test_a_pdf_without_form_xobjects_never_opens_pypdf() -> None:
    pdf = pikepdf.new()
    _add_page(pdf, "Plain page")
    census = PageCensus(Source.from_bytes(_save(pdf), "plain.pdf"))
    assert census._reader is None


def test_a_form_drawn_into_more_content_than_the_limit_is_refused_and_the_other_pages_read(
        tmp_path: Path) -> None:
    # 100,000 draws of a thousand characters: a hundred million characters for PDFium
    # (past 4 GB before it aborts), from a file of two kilobytes
    data = text_form_pdf(MAX_FORM_DRAWS)
    assert len(data) < 4000
    _only_page_two_refused(data, "pdf.max_page_content")
    _only_page_two_failed(data, tmp_path, "forms", "form bomb")


def test_nested_forms_are_weighed_by_their_content_not_only_counted() -> None:
    # 90,301 draws, under MAX_FORM_DRAWS, but 90,000 of them parse a thousand characters
    data = chain_pdf(3, 300, b"x" * 1000)
    assert MAX_FORM_DRAWS >= 1 + 300 + 300 ** 2 and MAX_PAGE_CONTENT < 300 ** 2 * 1000
    refusals = _refusals(data)
    assert refusals[1] is not None and "pdf.max_page_content" in refusals[1]
    assert refusals[0] is None and refusals[2] is None


def test_forms_drawn_within_the_limit_are_read_and_pypdf_never_opens() -> None:
    data = text_form_pdf(200)
    assert _refusals(data) == [None, None, None]
    # the bytes settle it: the costliest form drawn as often as the pages say Do
    assert PageCensus(Source.from_bytes(data, "forms.pdf"))._reader is None
    document = goblin_core.extract(data, name="forms.pdf", ocr="never")
    assert "x" * 1000 in document.pages[1].text


def test_the_form_content_limit_is_pdf_max_page_content() -> None:
    data = text_form_pdf(200)  # 200 draws of a thousand characters: about 200 kB parsed
    tight = goblin_core.extract(data, name="forms.pdf", ocr="never",
                                pdf={"max_page_content": 100_000})
    assert tight.pages[1].status == "failed"
    assert "Before the forms" in tight.pages[0].text
    loose = goblin_core.extract(data, name="forms.pdf", ocr="never",
                                pdf={"max_page_content": 0})
    assert "x" * 1000 in loose.pages[1].text


@pytest.mark.parametrize("user", ["", "secret"])
def test_encryption_does_not_hide_a_form_bomb(user: str) -> None:
    # encrypted content cannot be counted from the bytes: pypdf weighs the pages
    data = text_form_pdf(MAX_FORM_DRAWS, encryption=pikepdf.Encryption(owner="owner",
                                                                       user=user, R=6))
    with PageCensus(Source.from_bytes(data, "locked.pdf"), user or None) as census:
        assert census.refusal(1) is None
        refusal = census.refusal(2)
    assert refusal is not None and "form bomb" in refusal


def test_a_do_split_between_two_inflated_pieces_is_counted_once() -> None:
    # the "D" ends the first megabyte inflated, its "o" starts the next
    content = b" " * (stream_filters.CHUNK - 4) + b"/Y Do /Y Do"
    data = b"stream\n" + zlib.compress(content) + b"\nendstream"
    tally = page_weight._tally(data, b"<< /Filter /FlateDecode >>", len(b"stream\n"))
    assert tally == (len(content), 2)


def content_pdf(content: bytes, times: int = 1, indirect: bool = False, **save: Any) -> bytes:
    """Page 1 plain; page 2 names one content stream ``times`` times in its /Contents
    (an array held in an object of its own when ``indirect``); page 3 plain again."""
    pdf = pikepdf.new()
    _add_page(pdf, "Before the content")
    _add_page(pdf, "Content page")
    stream = pdf.make_stream(content)
    named = Array([stream] * times)
    pdf.pages[1].obj.Contents = pdf.make_indirect(named) if indirect else (
        named if times > 1 else stream)
    _add_page(pdf, "After the content")
    return _save(pdf, **save)


# two-character strings, the densest content: PDFium holds about 93 bytes per byte
DENSE = b"BT /F1 1 Tf 10 10 Td " + b"(AB) Tj " * (20 * 1024**2 // 8) + b"ET"


def test_a_page_whose_content_inflates_past_the_limit_is_refused_and_the_others_read(
        tmp_path: Path) -> None:
    data = content_pdf(DENSE)  # 20 MiB of text objects in 30 kB
    assert len(data) < 64_000 and len(DENSE) > MAX_PAGE_CONTENT
    _only_page_two_refused(data, "pdf.max_page_content")
    _only_page_two_failed(data, tmp_path, "content", "content or form bomb")


@pytest.mark.parametrize("layout", ["array", "indirect array", "object streams"])
def test_a_page_naming_one_stream_many_times_is_refused(layout: str) -> None:
    # 64 kB of text objects named 1,000 times: 64 MB to parse from a 7 kB file
    chunk = b"BT /F1 1 Tf 10 10 Td " + b"(AB) Tj " * 8000 + b"ET "
    options: dict[str, Any] = ({"object_stream_mode": pikepdf.ObjectStreamMode.generate}
                               if layout == "object streams" else {})
    data = content_pdf(chunk, times=1000, indirect=layout != "array", **options)
    assert len(data) < 16_000
    _only_page_two_refused(data, "pdf.max_page_content")


def test_pages_sharing_one_stream_are_read_and_pypdf_never_opens() -> None:
    pdf = pikepdf.new()
    for _ in range(4):
        _add_page(pdf, "Shared page")
    shared = pdf.pages[0].obj.Contents
    for page in pdf.pages[1:]:
        page.obj.Contents = shared
    data = _save(pdf)
    # every page's content is settled from the bytes: at most what its stream can hold
    assert PageCensus(Source.from_bytes(data, "shared.pdf"))._reader is None
    assert goblin_core.extract(data, name="shared.pdf", ocr="never").text.count(
        "Shared page") == 4


def test_an_escaped_contents_key_still_names_the_content() -> None:
    # a reader decodes /Cont#65nts to /Contents: the page is weighed all the same
    data = content_pdf(b"BT /F1 1 Tf 10 10 Td " + b"(AB) Tj " * 8000 + b"ET ", times=1000)
    escaped = data.replace(b"/Contents [", b"/Cont#65nts [")
    assert escaped != data
    with PageCensus(Source.from_bytes(escaped, "escaped.pdf")) as census:
        assert census.refusal(2) is not None


def test_encryption_does_not_hide_dense_content() -> None:
    data = content_pdf(DENSE, encryption=pikepdf.Encryption(owner="owner", user="", R=6))
    with PageCensus(Source.from_bytes(data, "locked.pdf")) as census:
        assert census.refusal(1) is None
        refusal = census.refusal(2)
    assert refusal is not None and "pdf.max_page_content" in refusal


def test_the_page_limit_is_pdf_max_page_content() -> None:
    data = content_pdf(b"BT /F1 12 Tf 72 700 Td (Heavy page) Tj ET " + b"0 0 m 1 1 l S " * 20_000)
    tight = goblin_core.extract(data, name="heavy.pdf", ocr="never",
                                pdf={"max_page_content": 100_000})
    assert tight.pages[1].status == "failed"
    assert "After the content" in tight.pages[2].text
    assert "Heavy page" in goblin_core.extract(data, name="heavy.pdf", ocr="never").text


def test_content_under_lzw_is_weighed_from_the_bytes() -> None:
    content = b"/Y Do " * 50_000
    data = b"stream\n" + lzw_encoded(content) + b"\nendstream"
    assert page_weight._tally(data, b"<< /Filter /LZWDecode >>", len(b"stream\n")) == (
        len(content), 50_000)
    # a predictor reorders the bytes Do is counted in: left to pypdf
    assert page_weight._tally(data, b"<< /Filter /LZWDecode /DecodeParms << /Predictor 12 >> >>",
                              len(b"stream\n")) is None


def stamp_pdf(levels: int, times: int = 2, states: bool = False) -> bytes:
    """Page 1 plain; page 2 says a line and carries a stamp whose normal appearance is a
    chain of ``levels`` forms each drawing the next ``times`` times, down to "APPROVED"
    (under an /On state of its appearance dictionary when ``states``); page 3 plain."""
    pdf = pikepdf.new()
    form = _form(pdf, b"BT /F1 48 Tf 100 400 Td (APPROVED) Tj ET", Dictionary())
    for _ in range(levels - 1):
        form = _form(pdf, b"/Z Do " * times, Dictionary(Z=pdf.make_indirect(form)))
    appearance = pdf.make_indirect(form)
    stamp = Dictionary(Type=Name.Annot, Subtype=Name.Stamp, Rect=Array([0, 0, 612, 792]),
                       AP=Dictionary(N=Dictionary(On=appearance) if states else appearance))
    if states:
        stamp.AS = Name.On
    _add_page(pdf, "Before the stamp")
    _add_page(pdf, "Stamped page")
    pdf.pages[1].Annots = pdf.make_indirect(Array([pdf.make_indirect(stamp)]))
    _add_page(pdf, "After the stamp")
    return _save(pdf)


@pytest.mark.parametrize("states", [False, True])
def test_annotation_appearances_are_weighed_before_a_page_is_drawn(states: bool) -> None:
    # the page's own content is harmless: it loads and its text is read
    bomb = stamp_pdf(40, states=states)
    with PageCensus(Source.from_bytes(bomb, "stamp.pdf")) as census:
        assert [census.refusal(n) for n in (1, 2, 3)] == [None, None, None]
        assert census.drawing_refusal(1) is None and census.drawing_refusal(3) is None
        undrawn = census.drawing_refusal(2)
    assert undrawn is not None and "annotation appearances" in undrawn and "form bomb" in undrawn
    with PageCensus(Source.from_bytes(stamp_pdf(3, states=states), "stamp.pdf")) as census:
        assert census.drawing_refusal(2) is None


def repeated_page_pdf(fan: int) -> bytes:
    """One stamped page named ``fan`` times by each of ``fan`` page nodes: PDFium meets
    the page node once and counts ``fan`` pages, pypdf counts ``fan`` squared."""
    pdf = pikepdf.new()
    _add_page(pdf, "The one page")
    page = pdf.pages[0]
    stamp = Dictionary(Type=Name.Annot, Subtype=Name.Stamp, Rect=Array([0, 0, 10, 10]))
    page.Annots = pdf.make_indirect(Array([pdf.make_indirect(stamp)]))
    node = pdf.make_indirect(Dictionary(Type=Name.Pages, Kids=Array([page.obj] * fan),
                                        Count=fan))
    pdf.Root.Pages.Kids = Array([node] * fan)
    pdf.Root.Pages.Count = fan * fan
    return _save(pdf)


def test_a_page_tree_pypdf_cannot_list_is_walked_once() -> None:
    # 400 x 400 entries, past pypdf's 100,000: it walked the whole tree again for every
    # page asked, a second and more each, so OCR of the pages timed out
    source = Source.from_bytes(repeated_page_pdf(400), "repetida.pdf")
    with PageCensus(source) as census:
        first = census.drawing_refusal(1)
        assert first is not None and "could not be weighed" in first
        started = time.monotonic()
        assert [census.drawing_refusal(n) for n in range(2, 30)] == [
            first.replace("page 1", f"page {n}") for n in range(2, 30)]
        assert time.monotonic() - started < 2


def test_a_page_without_annotations_is_rendered_without_weighing_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def weighed(self: PageCensus, number: int) -> str | None:
        raise AssertionError("a page without annotations has no appearances to weigh")

    monkeypatch.setattr(PageCensus, "drawing_refusal", weighed)
    registry = goblin_core.default_registry()
    parser = registry.get("pdf.pypdfium2").engine
    source = Source.from_bytes(content_pdf(b"BT /F1 24 Tf 20 20 Td (Plain) Tj ET"), "plain.pdf")
    with parser.open(source, registry.config()) as parsed:
        assert parsed.render(2, 36).getextrema()[0] < 128


RENDER_CHILD = textwrap.dedent(
    """
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))
    import goblin_core
    from goblin_core.source import Source
    registry = goblin_core.default_registry()
    config = registry.config()
    parser = registry.get("pdf.pypdfium2").engine
    with parser.open(Source.from_path(sys.argv[1]), config) as parsed:
        image = parsed.render(2, 36)
        # "APPROVED" lies at (100, 400) in points, 48 high: half that in pixels at 36 dpi
        stamp = image.crop((40, 160, 260, 205)).getextrema()[0]
        print(json.dumps({"darkest": image.getextrema()[0], "stamp": stamp,
                          "warnings": parsed.warnings}))
    """
)


def test_a_page_whose_stamp_is_a_form_bomb_is_rendered_without_its_annotations(
        tmp_path: Path) -> None:
    """Rendered for OCR, the honest stamp is drawn; the bomb is left out with a warning,
    and the page's own text is still drawn."""
    results = []
    for levels in (3, 40):
        path = tmp_path / f"stamp-{levels}.pdf"
        path.write_bytes(stamp_pdf(levels))
        done = subprocess.run([sys.executable, "-c", RENDER_CHILD, str(path)],
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr[-2000:]
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    honest, bomb = results
    assert honest["warnings"] == [] and honest["stamp"] < 128
    assert bomb["stamp"] == 255 and bomb["darkest"] < 128  # "Stamped page" itself
    [(kind, message)] = bomb["warnings"]
    assert kind == "AnnotationsNotDrawn" and "rendered without its annotations" in message


# 600,000 one-character strings: 4.2 MB, under the byte limit, and about 600 MB in PDFium
OBJECTS = b"BT /F1 1 Tf 10 10 Td " + b"(x) Tj " * 600_000 + b"ET"


@pytest.mark.parametrize("encrypted", [False, True])
def test_content_dense_in_operators_is_weighed_by_them(encrypted: bool, tmp_path: Path) -> None:
    assert len(OBJECTS) < MAX_PAGE_CONTENT
    save: dict[str, Any] = ({"encryption": pikepdf.Encryption(owner="owner", user="", R=6)}
                            if encrypted else {})
    data = content_pdf(OBJECTS, **save)
    _only_page_two_refused(data, "each drawing operator as 34 bytes")
    if not encrypted:
        _only_page_two_failed(data, tmp_path, "content", "content or form bomb")
    # half as many operators, and the same bytes in longer strings, pass
    for content in (OBJECTS[:len(OBJECTS) // 2] + b" ET",
                    b"BT /F1 1 Tf 10 10 Td " + b"(xxxxxxxxxxxxx) Tj " * 220_000 + b"ET"):
        assert _refusals(content_pdf(content, **save)) == [None, None, None]


def test_a_form_drawn_many_times_counts_its_operators_per_draw() -> None:
    # 100 strings of one character, 6,000 times: 2.4 MB of content, 600,000 operators
    pdf = pikepdf.new()
    form = _form(pdf, b"BT /F1 1 Tf " + b"(x) Tj " * 100 + b"ET", Dictionary())
    _add_page(pdf, "Before the forms")
    _add_page(pdf, "Forms page", Dictionary(Y=pdf.make_indirect(form)), b"/Y Do " * 6000)
    _add_page(pdf, "After the forms")
    _only_page_two_refused(_save(pdf), "drawing operator")


def test_a_source_is_weighed_once_for_the_parser_and_every_recovery_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    source = Source.from_bytes(content_pdf(DENSE), "dense.pdf")
    with PageCensus(source) as census:
        first = [census.refusal(n) for n in (1, 2, 3)]
    assert first[1] is not None
    # the same source again: verdicts kept, nothing read from the bytes a second time
    monkeypatch.setattr(page_weight, "_Screen", None)
    with PageCensus(source) as again:
        assert [again.refusal(n) for n in (1, 2, 3)] == first
    # another limit, or another source with the same bytes, is weighed afresh
    monkeypatch.undo()
    with PageCensus(source, content_limit=0) as loose:
        assert loose.refusal(2) is None
    with PageCensus(Source.from_bytes(content_pdf(DENSE), "dense.pdf")) as other:
        assert other.refusal(2) == first[1]
