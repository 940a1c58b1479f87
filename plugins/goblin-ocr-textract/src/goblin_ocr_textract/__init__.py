"""AWS Textract OCR backend for goblin (opt-in cloud OCR)."""

__version__ = "0.1.0"
