"""EasyOCR backend for goblin (opt-in local OCR on torch)."""

__version__ = "0.1.0"
