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


def pages_cut(page_range: tuple[int, int] | None, pages_in_file: int,
              max_pages: int) -> str | None:
    """What ``max_pages`` (pdf.max_pages) left unread of the pages ``page_range`` asks
    for, said as the core says it of its own max_pages; None when it left none. It goes
    into the report as a ``PdfMaxPages`` warning: the command line takes a ``MaxPages``
    warning for a cut by limits.max_pages, a loss, where this one was asked for.

    >>> pages_cut(None, 5, 3), pages_cut((2, 3), 5, 2), pages_cut(None, 2, 0)
    ('stopped after 3 pages (pdf.max_pages)', None, None)
    """
    wanted = pages_to_read(page_range, pages_in_file, 0)
    if not max_pages or len(wanted) <= max_pages:
        return None
    return f"stopped after {max_pages} pages (pdf.max_pages)"


def closing_page(page_range: tuple[int, int] | None, pages_in_file: int,
                 max_pages: int) -> int:
    """The page (1-based) after whose text the document's own text goes (the outline,
    the fields no page shows): the last page read when the pages asked for reach the end
    of the file, 0 when they do not (another worker's range holds the end).

    ``pdf.max_pages`` cuts the reading short of the end on purpose, so the document's
    text follows the last page read: after the file's last page, it was lost.

    >>> closing_page(None, 5, 0), closing_page(None, 5, 2), closing_page((1, 3), 5, 0)
    (5, 2, 0)
    >>> closing_page((4, 9), 5, 0), closing_page((4, 5), 5, 1), closing_page(None, 0, 0)
    (5, 4, 0)
    """
    whole = pages_to_read(page_range, pages_in_file, 0)
    read = pages_to_read(page_range, pages_in_file, max_pages)
    if not read or not whole or whole[-1] != pages_in_file - 1:
        return 0
    return read[-1] + 1
