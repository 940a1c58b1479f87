"""PDF text for goblin: PDFium, pypdf, pdfplumber and Poppler engines, broken-text-layer
validators and page rendering."""

__version__ = "0.1.0"
