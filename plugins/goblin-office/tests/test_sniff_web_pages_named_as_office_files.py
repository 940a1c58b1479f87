"""A web page saved under an Excel or Word name is read as the page it is, tags left out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Read = Callable[..., Any]


def test_an_html_table_exported_as_xls_reads_as_its_cells(read: Read) -> None:
    data = (b'<meta http-equiv="Content-Type" content="text/html; charset=utf-8">\n'
            b'<table border="1"><tr><th>Nome</th><th>Valor</th></tr>'
            b"<tr><td>Caf&eacute;</td><td>1,50</td></tr></table>\n")
    document = read(data, "relatorio.xls")
    assert document.text == "Nome\tValor\nCafé\t1,50"
    assert document.status == "clean"
