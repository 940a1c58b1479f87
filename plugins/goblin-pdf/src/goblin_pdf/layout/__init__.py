"""Page layout from PDFium: reading order across columns, and tagged-PDF structure."""

from goblin_pdf.layout.page_layout import PageLayout, read_page_layout
from goblin_pdf.layout.settings import LayoutSettings
from goblin_pdf.layout.tags import TagOutcome

__all__ = ["LayoutSettings", "PageLayout", "TagOutcome", "read_page_layout"]
