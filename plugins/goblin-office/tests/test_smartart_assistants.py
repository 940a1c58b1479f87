"""The assistant boxes of a SmartArt organization chart are read with its other nodes.

A diagram's data model types each point (``ST_PtType``): the boxes the author typed
into are ``node`` points, and the assistants an organization chart hangs beside a
box are ``asst`` points; the document, transition and presentation points hold no
text of the author's.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

from packages import R, docx, zip_bytes

from goblin_core import Document

Read = Callable[..., Document]

_DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
_DRAWING = "http://schemas.openxmlformats.org/drawingml/2006/main"


def _org_chart() -> bytes:
    """The data model of an organization chart: a head, an assistant beside it and one
    box under it, with the document, transition and presentation points around them."""

    def point(number: int, kind: str, text: str = "") -> str:
        body = f"<dgm:t><a:bodyPr/><a:p><a:r><a:t>{text}</a:t></a:r></a:p></dgm:t>" if text else ""
        kind = f' type="{kind}"' if kind else ""
        return f'<dgm:pt modelId="{number}"{kind}><dgm:prSet/><dgm:spPr/>{body}</dgm:pt>'

    points = [
        point(0, "doc"),
        point(1, "", "Secretária de Obras"),
        point(2, "asst", "Chefe de Gabinete"),
        point(3, "node", "Diretor de Projetos"),
        point(4, "parTrans"),
        point(5, "sibTrans"),
        point(6, "pres"),
    ]
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><dgm:dataModel xmlns:dgm="{_DGM}" '
        f'xmlns:a="{_DRAWING}"><dgm:ptLst>{"".join(points)}</dgm:ptLst><dgm:cxnLst/>'
        "</dgm:dataModel>"
    ).encode()


_ORG_CHART_LINES = ["Secretária de Obras", "Chefe de Gabinete", "Diretor de Projetos"]


def test_a_docx_org_chart_keeps_its_assistant_box(read: Read) -> None:
    graphic = (
        '<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/'
        f'drawingml/2006/wordprocessingDrawing"><a:graphic xmlns:a="{_DRAWING}">'
        f'<a:graphicData uri="{_DGM}"><dgm:relIds xmlns:dgm="{_DGM}" r:dm="rId7" r:lo="" '
        'r:qs="" r:cs=""/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>'
    )
    with zipfile.ZipFile(io.BytesIO(docx(graphic))) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    rels = "word/_rels/document.xml.rels"
    members[rels] = members[rels].replace(
        b"</Relationships>",
        f'<Relationship Id="rId7" Type="{R}/diagramData" Target="diagrams/data1.xml"/>'
        "</Relationships>".encode())
    members["word/diagrams/data1.xml"] = _org_chart()
    document = read(zip_bytes(members), "organograma.docx")
    assert document.text.splitlines() == _ORG_CHART_LINES


def test_a_pptx_org_chart_keeps_its_assistant_box(read: Read) -> None:
    from lxml import etree
    from pptx import Presentation
    from pptx.opc.package import Part
    from pptx.opc.packuri import PackURI

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    data = Part(PackURI("/ppt/diagrams/data1.xml"),
                "application/vnd.openxmlformats-officedocument.drawingml.diagramData+xml",
                deck.part.package, _org_chart())
    relationship = slide.part.relate_to(data, f"{R}/diagramData")
    slide.shapes._spTree.append(etree.fromstring(
        f'<p:graphicFrame xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
        f'xmlns:a="{_DRAWING}" xmlns:r="{R}"><p:nvGraphicFramePr><p:cNvPr id="9" '
        'name="Organograma"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>'
        '<p:xfrm><a:off x="0" y="0"/><a:ext cx="100" cy="100"/></p:xfrm>'
        f'<a:graphic><a:graphicData uri="{_DGM}"><dgm:relIds xmlns:dgm="{_DGM}" '
        f'r:dm="{relationship}" r:lo="" r:qs="" r:cs=""/></a:graphicData></a:graphic>'
        "</p:graphicFrame>"))
    buffer = io.BytesIO()
    deck.save(buffer)
    page = read(buffer.getvalue(), "organograma.pptx").pages[0]
    assert page.text.splitlines() == _ORG_CHART_LINES
