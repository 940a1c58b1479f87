"""The ``office`` config namespace: what goblin-office reads besides the body text."""

from __future__ import annotations

from goblin_core.options import Option

OFFICE_OPTIONS = (
    Option(
        "headers_footers",
        "bool",
        True,
        "Include page headers and footers (Word, OpenDocument, spreadsheet print headers).",
    ),
    Option(
        "comments", "bool", True, "Include comments and annotations (Word, Excel, ODF, PowerPoint)."
    ),
    Option("notes", "bool", True, "Include footnotes, endnotes and presentation speaker notes."),
    Option("hidden_sheets", "bool", True, "Read hidden spreadsheet sheets too."),
    Option(
        "embedded",
        "bool",
        True,
        "Extract embedded objects (an xlsx inside a docx, a PDF inside an OLE object) as children.",
    ),
    Option(
        "images",
        "bool",
        False,
        "Extract embedded images as children so an OCR plugin reads them "
        "(off: images are skipped).",
    ),
    Option(
        "cell_values",
        "choice",
        "display",
        "Spreadsheet cells as Excel shows them under their number format (display: 1,234.50, "
        "25%, R$ 10.00, (300.00)) or as stored (raw: 1234.5, 0.25, 10, -300). xlsx family only; "
        "other workbooks and General cells are always written raw.",
        choices=("display", "raw"),
    ),
    Option(
        "cell_dates",
        "choice",
        "iso",
        "Date and time cells in ISO 8601 (iso: 2024-03-15, 14:30:00) or as their format shows "
        "them (display: 15/03/2024, 2:30 PM; needs cell_values = display).",
        choices=("iso", "display"),
    ),
    Option(
        "decimal_comma",
        "bool",
        False,
        "Display numbers with a decimal comma and dot grouping (1.234,50), as Excel shows them "
        "in Brazil and most of Europe (with cell_values = display).",
    ),
    Option(
        "max_sheet_cells",
        "int",
        5_000_000,
        "Most cells read from one sheet or CSV table, and fields from one CSV row; the rest "
        "is cut and reported in metadata.",
        minimum=1,
    ),
    Option(
        "libreoffice",
        "str",
        "soffice",
        "LibreOffice binary for the optional office.libreoffice engine (lowest priority).",
    ),
)
