"""PDF text for goblin: PDFium, pypdf, pdfplumber and Poppler engines, broken-text-layer validators, page rendering and tables."""

__version__ = "0.1.0"
