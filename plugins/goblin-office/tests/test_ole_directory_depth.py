"""A compound file whose directory entries are chained sibling after sibling, deeper than
olefile's recursive walk of the directory tree can go, is refused clearly by every engine
of the 97-2003 formats, not lost in a RecursionError."""

from __future__ import annotations

import io

import olefile
import pytest
from bounds import bounded
from packages import compound_file, xls

from goblin_core.errors import CorruptDocument
from goblin_core.source import Source
from goblin_office.olecheck import check_ole_chains

pytestmark = pytest.mark.usefixtures("warm_plugins")

# olefile walks one level a sibling: well past Python's default limit of 1,000 frames
CHAINED_PAST_THE_LIMIT = 1_500


def _workbook_with_siblings(count: int) -> bytes:
    """A one-sheet .xls whose Workbook stream is followed by ``count`` empty streams,
    all of them chained by their right-sibling pointers."""
    with olefile.OleFileIO(io.BytesIO(xls("Planilha", ["Valor contratado"], [(0, 0, 0)]))) as ole:
        workbook = ole.openstream("Workbook").read()
    fillers = {f"Filler{number}": b"" for number in range(count)}
    return compound_file({"Workbook": workbook, **fillers})


@pytest.fixture(scope="module")
def chained() -> bytes:
    return _workbook_with_siblings(CHAINED_PAST_THE_LIMIT)


@pytest.mark.parametrize("name", ["planilha.xls", "relatorio.doc", "apresentacao.ppt"])
def test_directory_chained_past_the_recursion_limit_is_refused_clearly(read, chained, name) -> None:  # type: ignore[no-untyped-def]
    with bounded(seconds=20), pytest.raises(CorruptDocument) as caught:
        read(chained, name)
    message = str(caught.value)
    assert name in message
    assert "OLE directory's entries are chained too deep" in message
    assert "RecursionError" not in message
    assert "recursion depth" not in message


def test_directory_check_names_the_file_and_the_cause_and_passes_a_shorter_chain(chained) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(CorruptDocument, match="chained too deep") as caught:
        check_ole_chains(Source.from_bytes(chained, "orcamento.xls"))
    assert caught.value.file == "orcamento.xls"
    # a chain olefile can walk is no reason to refuse the file
    check_ole_chains(Source.from_bytes(_workbook_with_siblings(300), "planilha.xls"))


def test_a_docx_embedding_such_a_compound_file_keeps_its_text_and_the_object(
        read, chained) -> None:  # type: ignore[no-untyped-def]
    import zipfile

    from packages import docx

    buffer = io.BytesIO(docx("<w:p><w:r><w:t>Texto do contrato</w:t></w:r></w:p>"))
    with zipfile.ZipFile(buffer, "a") as archive:
        archive.writestr("word/embeddings/oleObject1.bin", chained)
    with bounded(seconds=20):
        document = read(buffer.getvalue(), "contrato.docx")
    assert "Texto do contrato" in document.text
    # the object cannot be unwrapped: it comes out as it is stored, for the pipeline to refuse
    assert [child.name for child in document.children] == ["contrato.docx/oleObject1.bin"]

