"""The pieces of borderless table detection: columns, records, title rows and guards."""

from __future__ import annotations

from goblin_pdf.tables.columns import bridges, line_cells, line_spans
from goblin_pdf.tables.plausible import figure_column, label_column, leaders, titled
from goblin_pdf.tables.records import record_rows, spaced_records
from goblin_pdf.tables.rules import Rule, is_white, rule_stacks
from goblin_pdf.tables.text_lines import TextLine, Word, text_lines


def _line(top: float, *cells: tuple[float, str]) -> TextLine:
    words = []
    for x, text in cells:
        for part in text.split():
            words.append(Word(part, x, x + 6 * len(part), top, top + 10))
            x += 6 * len(part) + 3
    return TextLine(tuple(words))


def test_right_aligned_figures_and_their_title_share_a_column() -> None:
    lines = [_line(0, (10, "Item"), (200, "Unit price")),
             _line(14, (10, "Sand"), (236, "9.50")),
             _line(28, (10, "Cement"), (218, "1,250.00"))]

    columns = line_spans(lines, gutter=9)

    assert len(columns) == 2
    assert [line_cells(ln, columns) for ln in lines] == [
        ["Item", "Unit price"], ["Sand", "9.50"], ["Cement", "1,250.00"]]


def test_a_line_across_a_gutter_bridges_it() -> None:
    columns = [(10.0, 60.0), (200.0, 260.0)]

    assert bridges(columns, _line(0, (10, "a sentence running right across the page")), 9)
    assert not bridges(columns, _line(0, (12, "wrapped")), 9)


def test_words_on_one_baseline_form_one_line() -> None:
    words = [Word("right", 200, 230, 0.5, 10.5), Word("left", 10, 34, 0, 10),
             Word("below", 10, 40, 14, 24)]

    lines = text_lines(words)

    assert [[w.text for w in ln.words] for ln in lines] == [["left", "right"], ["below"]]


def test_records_follow_line_spacing_and_keys() -> None:
    lines = [_line(0, (10, "A-1"), (80, "first line")),
             _line(11, (80, "second line")),
             _line(28, (10, "A-2"), (80, "one line"))]
    columns = line_spans(lines, gutter=9)

    records = spaced_records(lines)

    assert [len(r) for r in records] == [2, 1]
    assert record_rows(records[0], columns) == [["A-1", "first line\nsecond line"]]


def test_evenly_spaced_lines_are_records_of_their_own() -> None:
    lines = [_line(0, (10, "x")), _line(12, (10, "y")), _line(24, (10, "z"))]

    assert [len(r) for r in spaced_records(lines)] == [1, 1, 1]


def test_title_rows_may_hold_names_with_digits_but_not_numbers() -> None:
    assert titled([("Method", "Precision", "Recall", "F1")])
    assert not titled([("Insured name", "Gabriel Diaz", "Year", "2022")])
    assert not titled([("SKU-8847", "A-12", "450")])
    assert not titled([("Total",)])
    assert not titled([("09:00", "Welcome", "Room 1")])
    assert not titled([("2019 – 2021", "Software engineer", "Acme Corp")])
    assert titled([("Country", "Area (km2)", "Capital")])


def test_guards_see_labels_leaders_and_figures() -> None:
    assert label_column([("Invoice No:", "1"), ("Date:", "2"), ("Due:", "3")])
    assert not label_column([("Sand", "1"), ("Time 10:30", "2"), ("Lime", "3")])
    assert leaders([("Introduction ..........", "1"), ("Methods ..........", "5")])
    assert figure_column([("Item", "Total"), ("Sand", "$9.50"), ("Lime", "$1.00")], 1)
    assert not figure_column([("Item", "Note"), ("Sand", "dry"), ("Lime", "wet")], 1)


def test_rules_of_one_width_stack_and_white_strokes_are_invisible() -> None:
    rules = [Rule(20, 250, 95), Rule(20, 250, 111), Rule(289, 520, 95), Rule(20, 80, 356),
             Rule(289, 520, 188)]

    stacks = rule_stacks(rules)

    assert [[r.y for r in s] for s in stacks] == [[95, 111], [95, 188]]
    assert is_white((1.0, 1.0, 1.0)) and is_white((0, 0, 0, 0))
    assert not is_white((0.0, 0.62, 0.86)) and not is_white(None)
