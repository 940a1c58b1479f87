"""PDF tables: pdfplumber grid detection, cleaning, dedupe and page-break joins."""

from goblin_pdf.tables.engine import PdfPlumberTableEngine

__all__ = ["PdfPlumberTableEngine"]
