"""Tagged pages whose layout shows columns that are no columns of text: a sidebar that the
text flows around is read whole, in the structure tree's order, not between the lines
beside it and the lines under it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from pdf_builders import chromium_pdf

from goblin_core import extract
from goblin_pdf.layout.lines import Run
from goblin_pdf.layout.reading_order import Line, order_lines
from goblin_pdf.layout.rebuild import in_tag_order

MAIN = " ".join(["Harbour stones carry the weight of old ships and the tide brings copper "
                 "light into the narrow streets where lanterns glow at dusk"] * 5)
SIDEBAR = ("SIDEBAR Meadow grass bends under summer rain while the miller counts sacks of "
           "grain beside the turning wheel")


def test_text_flowing_around_a_float_is_read_whole(tmp_path: Path) -> None:
    """Chrome prints an aside floated right beside a paragraph that flows on under it; the
    rebuild found two columns beside the float and read the sidebar in the middle of the
    paragraph. Chrome tags the page, and the tree has the aside before the paragraph."""
    body = ('<h1>Article title</h1><aside style="float: right; width: 180px; '
            f'margin-left: 20px; border: 1px solid #ccc">{SIDEBAR}</aside><p>{MAIN}</p>')
    document = extract(chromium_pdf(body, tmp_path, "11pt"), name="float.pdf", ocr="never")
    text = " ".join(document.text.split())
    assert text == f"Article title {SIDEBAR} {MAIN}"
    layout = document.raw_metadata["layout"][0]
    assert layout["columns"] == 2 and layout["tags"].startswith("tags used")


GUTTER = (300.0, 320.0)


def _float_page() -> list[Line]:
    """A float's page as the rebuild reads it, column by column: text beside the float
    (column 0, glyphs 10 to 13), the float (column 1, glyphs 0 to 3), text under both
    across the gutter (glyphs 20 and 21)."""
    boxes = ([(f"beside{k}", 50.0, 700 - 12 * k, 300.0, 10 + k) for k in range(4)]
             + [(f"float{k}", 320.0, 700 - 12 * k, 450.0, k) for k in range(4)]
             + [(f"under{k}", 50.0, 640 - 12 * k, 450.0, 20 + k) for k in range(2)])
    runs = [Run((name,), x0, top - 9, x1, top, 9.0, 30, first)
            for name, x0, top, x1, first in boxes]
    return order_lines(runs, [GUTTER])


def _ranks(blocks: dict[range, int]) -> np.ndarray:
    ranks = np.full(30, -1, dtype=np.int64)
    for glyphs, block in blocks.items():
        ranks[list(glyphs)] = block
    return ranks


def _texts(lines: list[Line]) -> list[str]:
    return [line.text for line in lines]


def test_the_page_as_laid_out_reads_the_float_between_the_text() -> None:
    lines = _float_page()
    assert _texts(lines) == ["beside0", "beside1", "beside2", "beside3", "float0", "float1",
                             "float2", "float3", "under0", "under1"]


def test_lines_take_their_blocks_order_and_are_laid_out_inside_a_block() -> None:
    lines = _float_page()
    ranks = _ranks({range(0, 4): 0, range(10, 14): 1, range(20, 22): 1})
    assert _texts(in_tag_order(lines, ranks)) == [
        "float0", "float1", "float2", "float3", "beside0", "beside1", "beside2", "beside3",
        "under0", "under1"]


def test_a_line_outside_the_tree_goes_with_the_line_before_it() -> None:
    lines = _float_page()
    # the float's third line untagged (an artifact): it stays in the float's block; the
    # last line under both (a page number) stays last
    ranks = _ranks({range(0, 2): 0, range(3, 4): 0, range(10, 14): 1, range(20, 21): 1})
    ordered = _texts(in_tag_order(lines, ranks))
    assert ordered[:4] == ["float0", "float1", "float2", "float3"]
    assert ordered[-1] == "under1"


def test_a_tree_that_reads_columns_upwards_is_not_followed() -> None:
    lines = _float_page()
    # each line beside the float a block of its own, the last line first
    ranks = _ranks({range(0, 4): 0, range(10, 11): 4, range(11, 12): 3, range(12, 13): 2,
                    range(13, 14): 1, range(20, 22): 5})
    assert in_tag_order(lines, ranks) == lines
