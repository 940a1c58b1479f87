"""PHP source is text, not XML: ``<?php`` opens code, not an XML processing instruction."""

from __future__ import annotations

import pytest

import goblin_core
from goblin_core import Source, load_registry
from goblin_core.builtin.sniffer import MagicSniffer
from goblin_core.detect import detect

CORE_ONLY = load_registry(load=[])

_PHP = b"""<?php
// Calcula o valor total da licitacao
function total($itens) {
    $soma = 0;
    foreach ($itens as $i) { $soma += $i['valor']; }
    return $soma;
}
echo "Total: " . total($lista);
?>
<h1>Relatorio</h1>
"""
_TEMPLATE = b"""<!DOCTYPE html>
<html><body>
<h1><?= htmlspecialchars($titulo) ?></h1>
<?php foreach ($itens as $item): ?><p><?php echo $item; ?></p><?php endforeach; ?>
</body></html>
"""


@pytest.mark.parametrize("name", ["calc.php", "calc.inc", "calc.phtml", "calc"])
def test_a_file_opening_with_php_code_is_text(name: str) -> None:
    found = detect(CORE_ONLY, CORE_ONLY.config(), Source.from_bytes(_PHP, name))
    assert found.mime == "text/plain"


@pytest.mark.parametrize("name", ["calc.php", "calc.inc"])
def test_php_code_is_read_whole(name: str) -> None:
    document = goblin_core.extract(_PHP, name=name, ocr="never")
    assert document.metadata["mime"] == "text/plain"
    assert "function total($itens)" in document.text
    assert "<h1>Relatorio</h1>" in document.text


def test_a_php_template_named_php_is_text_with_its_code() -> None:
    document = goblin_core.extract(_TEMPLATE, name="lista.php", ocr="never")
    assert document.metadata["mime"] == "text/plain"
    assert "foreach ($itens as $item)" in document.text


def test_an_html_page_of_another_name_stays_html() -> None:
    found = MagicSniffer().sniff(_TEMPLATE, Source.from_bytes(_TEMPLATE, "lista.html"))
    assert found is not None and found.mime == "text/html"


@pytest.mark.parametrize(
    "data",
    [
        b"<?xml-stylesheet type='text/xsl' href='s.xsl'?>\n<feed><title>t</title></feed>\n",
        b"<?mso-application progid='Word.Document'?>\n<root>x</root>\n",
    ],
)
def test_xml_processing_instructions_still_open_xml(data: bytes) -> None:
    found = MagicSniffer().sniff(data, Source.from_bytes(data, "noext"))
    assert found is not None and found.mime == "application/xml"


@pytest.mark.parametrize(
    "data", [b"\n<?PHP echo 1; ?>\n<root>x</root>\n", b"<!-- c --><?php echo 1; ?><root>x</root>"]
)
def test_a_php_block_before_a_root_element_is_no_xml(data: bytes) -> None:
    found = MagicSniffer().sniff(data, Source.from_bytes(data, "noext"))
    assert found is not None and found.mime == "text/plain"
