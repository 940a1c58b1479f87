"""Text a plugin hands over with lone surrogates (half a UTF-16 pair, from a damaged file
or a lenient decoder) comes out as valid Unicode, so every writer can encode it."""

from __future__ import annotations

import json

from goblin_core import extract
from goblin_core.model import json_safe

from scripted_engines import TEST_BYTES, ScriptedParser, registry_with, text_page


def test_a_lone_surrogate_in_page_text_becomes_a_replacement_character() -> None:
    parser = ScriptedParser("tests.parser", [text_page(1, "caf\ud800e au lait \udfff")])
    document = extract(TEST_BYTES, name="a.test", registry=registry_with(parser), ocr="never")
    assert document.pages[0].text == "caf\ufffde au lait \ufffd"
    document.text.encode("utf-8")
    json.dumps(document.to_dict(), ensure_ascii=False).encode("utf-8")


def test_metadata_strings_are_made_valid_too() -> None:
    assert json_safe({"title": "R\ud83dsum\u00e9", "pages": ("ok",)}) == {
        "title": "R\ufffdsum\u00e9", "pages": ["ok"]}
