"""The formats goblin-pdf reads."""

PDF_MIME = "application/pdf"
#: PostScript and EPS, read as the PDF Ghostscript makes of them (goblin_pdf.postscript)
POSTSCRIPT_MIME = "application/postscript"
#: The formats whose pages are PDF pages: what the validators, the recovery engines and
#: the table engine read.
PDF_PAGES = (PDF_MIME, POSTSCRIPT_MIME)
