"""Tesseract OCR backend and image parser for goblin."""

__version__ = "0.1.0"
