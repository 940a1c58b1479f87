"""Column titles that are years: a table of figures by year has a header row."""

from __future__ import annotations

import pytest

from goblin_core.table_repair import header_rows, is_years_header

BODY = (("Revenue", "1.204,5", "1.388,0"), ("Net income", "192,4", "274,8"))


@pytest.mark.parametrize("titles", [("", "2022", "2023"), ("Item", "2023", "2022"),
                                    ("Account", "Notes", "2021", "2022", "2023")])
def test_years_in_order_after_titles_in_words_are_a_header(titles: tuple[str, ...]) -> None:
    assert is_years_header(titles)
    assert header_rows((titles, *BODY)) == 1


@pytest.mark.parametrize("row", [
    ("2019", "Company", "2021"),      # a résumé line: years among words
    ("Year", "2022"),                 # one year: a key and its value
    ("", "2022", "2022"),             # the same year twice
    ("", "2021", "2023", "2022"),     # out of order
    ("Total", "12", "2022", "2023"),  # a figure before the years
    ("", "2022", "09:00"),            # a time
])
def test_other_rows_with_years_are_no_header(row: tuple[str, ...]) -> None:
    assert not is_years_header(row)
    assert header_rows((row, *BODY)) == 0
