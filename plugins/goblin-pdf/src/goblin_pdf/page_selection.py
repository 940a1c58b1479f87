"""Which pages of a PDF a parser reads: goblin.page_range, then pdf.max_pages."""

from __future__ import annotations


def pages_to_read(page_range: tuple[int, int] | None, pages_in_file: int,
                  max_pages: int) -> range:
    """The 0-based indices of the pages to read: those of ``page_range`` (1-based, both
    ends in; None for all) that the file has, at most ``max_pages`` of them (0: all),
    counted from the range's first page.

    >>> pages_to_read((3, 5), 5, 2), pages_to_read(None, 4, 0), pages_to_read((2, 9), 3, 0)
    (range(2, 4), range(0, 4), range(1, 3))
    """
    first, last = page_range or (1, pages_in_file)
    last = min(last, pages_in_file)
    if max_pages:
        last = min(last, first - 1 + max_pages)
    return range(first - 1, last)
