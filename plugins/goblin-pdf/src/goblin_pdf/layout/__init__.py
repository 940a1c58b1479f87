"""Page layout from PDFium: reading order across columns, and tagged-PDF structure."""

from goblin_pdf.layout.outcome import PageLayout, TagOutcome
from goblin_pdf.layout.page_layout import read_page_layout
from goblin_pdf.layout.settings import LayoutSettings

__all__ = ["LayoutSettings", "PageLayout", "TagOutcome", "read_page_layout"]
