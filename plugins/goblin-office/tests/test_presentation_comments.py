"""Slide comments: the legacy ones (``p:cmLst``) and PowerPoint 365's modern ones
(``ppt/comments/modernComment_*.xml``, with their replies), each with its author's
name when the presentation's authors part gives it."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

from packages import R, zip_bytes

from goblin_core import Document

Read = Callable[..., Document]

_P = "http://schemas.openxmlformats.org/presentationml/2006/main"
_P188 = "http://schemas.microsoft.com/office/powerpoint/2018/8/main"
_DRAWING = "http://schemas.openxmlformats.org/drawingml/2006/main"
_MODERN_RELS = "http://schemas.microsoft.com/office/2018/10/relationships"
_ANA = "{6E5B7A0C-0D64-4C1E-9E43-3C1A9B2F1E01}"
_RUI = "{0B7D2C55-1F0E-4A8B-8E6D-7C3F4A2B9D02}"


#: a part to add: (member, relationship type, content type, XML)
Part = tuple[str, str, str, bytes]


def _deck(comments: Part, authors: Part | None) -> bytes:
    """A one-slide deck whose slide links the comments part ``comments`` and whose
    presentation links the authors part ``authors``."""
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    slide.shapes.add_textbox(Inches(1), Inches(1), Inches(4), Inches(1)).text_frame.text = (
        "Cronograma da obra")
    buffer = io.BytesIO()
    deck.save(buffer)
    with zipfile.ZipFile(buffer) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    links = [("ppt/slides/_rels/slide1.xml.rels", comments)]
    if authors is not None:
        links.append(("ppt/_rels/presentation.xml.rels", authors))
    for rels, (member, kind, content_type, xml) in links:
        members[rels] = members[rels].replace(
            b"</Relationships>",
            f'<Relationship Id="rId99" Type="{kind}" Target="/{member}"/></Relationships>'.encode())
        members[member] = xml
        members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(
            b"</Types>",
            f'<Override PartName="/{member}" ContentType="{content_type}"/></Types>'.encode())
    return zip_bytes(members)


def _modern_comment(author: str, text: str, replies: str = "") -> str:
    # PowerPoint writes the replies before the comment's own text
    return (
        f'<p188:cm id="{{11111111-2222-3333-4444-555555555555}}" authorId="{author}" '
        'created="2024-05-02T10:00:00.000"><pc:sldMkLst xmlns:pc="http://schemas.microsoft.com/'
        'office/powerpoint/2013/main/command"><pc:docMk/><pc:sldMk cId="0" sldId="256"/>'
        f"</pc:sldMkLst>{replies}{_text_body(text)}</p188:cm>"
    )


def _text_body(*paragraphs: str) -> str:
    runs = "".join(f"<a:p><a:r><a:t>{text}</a:t></a:r></a:p>" for text in paragraphs)
    return f"<p188:txBody><a:bodyPr/><a:lstStyle/>{runs}</p188:txBody>"


def _modern(*comments: str) -> Part:
    xml = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p188:cmLst '
        f'xmlns:a="{_DRAWING}" xmlns:r="{R}" xmlns:p188="{_P188}">{"".join(comments)}'
        "</p188:cmLst>"
    )
    return ("ppt/comments/modernComment_100_0.xml", f"{_MODERN_RELS}/comments",
            "application/vnd.ms-powerpoint.comments+xml", xml.encode())


def _modern_authors() -> Part:
    xml = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p188:authorLst '
        f'xmlns:p188="{_P188}"><p188:author id="{_ANA}" name="Ana Souza" initials="AS" '
        f'userId="ana@example.com" providerId="None"/><p188:author id="{_RUI}" name="Rui Lima" '
        'initials="RL" userId="rui@example.com" providerId="None"/></p188:authorLst>'
    )
    return ("ppt/authors.xml", f"{_MODERN_RELS}/authors",
            "application/vnd.ms-powerpoint.authors+xml", xml.encode())


def _comment_lines(document: Document) -> list[str]:
    return [line for line in document.text.splitlines() if line.startswith("Comment")]


def test_modern_comments_are_read_with_their_replies_and_authors(read: Read) -> None:
    replies = (
        f'<p188:replyLst><p188:reply id="{{66666666-7777-8888-9999-000000000000}}" '
        f'authorId="{_RUI}" created="2024-05-03T09:00:00.000">{_text_body("Ajustado na v2")}'
        "</p188:reply></p188:replyLst>"
    )
    comments = _modern(_modern_comment(_ANA, "Conferir a data de entrega", replies),
                       _modern_comment("{00000000-0000-0000-0000-000000000000}", "Sem autor"))
    document = read(_deck(comments, _modern_authors()), "obra.pptx")
    assert document.pages[0].text.splitlines()[0] == "Cronograma da obra"
    assert _comment_lines(document) == [
        "Comment (Ana Souza): Conferir a data de entrega",
        "Comment (Rui Lima): Ajustado na v2",
        "Comment: Sem autor",
    ]
    assert not document.report.warnings


def test_a_modern_comment_of_several_paragraphs_keeps_them_apart(read: Read) -> None:
    comment = _modern_comment(_ANA, "").replace(
        _text_body(""), _text_body("Primeiro ponto", "Segundo ponto"))
    document = read(_deck(_modern(comment), None), "obra.pptx")
    assert "Comment: Primeiro ponto\nSegundo ponto" in document.text


def test_legacy_comments_are_read_with_their_authors(read: Read) -> None:
    comments = (
        f'<?xml version="1.0" encoding="UTF-8"?><p:cmLst xmlns:p="{_P}">'
        '<p:cm authorId="1" dt="2024-05-02T10:00:00.000" idx="1">'
        '<p:pos x="10" y="10"/><p:text>Conferir a data de entrega</p:text></p:cm>'
        '<p:cm authorId="7" dt="2024-05-02T11:00:00.000" idx="2">'
        '<p:pos x="10" y="10"/><p:text>Autor desconhecido</p:text></p:cm></p:cmLst>'
    )
    authors = (
        f'<?xml version="1.0" encoding="UTF-8"?><p:cmAuthorLst xmlns:p="{_P}">'
        '<p:cmAuthor id="1" name="Ana Souza" initials="AS" lastIdx="1" clrIdx="0"/>'
        "</p:cmAuthorLst>"
    )
    presentationml = "application/vnd.openxmlformats-officedocument.presentationml"
    document = read(_deck(
        ("ppt/comments/comment1.xml", f"{R}/comments", f"{presentationml}.comments+xml",
         comments.encode()),
        ("ppt/commentAuthors.xml", f"{R}/commentAuthors", f"{presentationml}.commentAuthors+xml",
         authors.encode()),
    ), "obra.pptx")
    assert _comment_lines(document) == [
        "Comment (Ana Souza): Conferir a data de entrega",
        "Comment: Autor desconhecido",
    ]
