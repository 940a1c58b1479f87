"""Spacing accents and the combining marks they stand for: kept apart from the NumPy code
that attaches them, since every page's text is scanned for them."""

# Spacing accents and the combining marks they stand for.
SPACING_TO_COMBINING = {
    "\u00b4": "\u0301", "`": "\u0300", "\u02cb": "\u0300", "\u02ca": "\u0301",
    "\u00a8": "\u0308", "\u02c6": "\u0302", "^": "\u0302", "\u02dc": "\u0303", "~": "\u0303",
    "\u02d8": "\u0306", "\u02c7": "\u030c", "\u02d9": "\u0307", "\u00af": "\u0304",
    "\u02c9": "\u0304", "\u02da": "\u030a", "\u02dd": "\u030b", "\u00b8": "\u0327",
    "\u02db": "\u0328",
}

# The dotless letters a typesetter puts an accent above (TeX's ``\\"{\\i}``), and the letters
# they are with it: ``ı`` and a diaeresis are ``ï``, which NFC does not compose.
DOTTED = {"\u0131": "i", "\u0237": "j"}
