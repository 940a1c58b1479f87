"""The ``[pdf]`` config namespace: Tika's PDF options plus validator thresholds."""

from __future__ import annotations

from goblin_core.options import LONGEST_WAIT_SECONDS, Option

PDF_OPTIONS = (
    Option("layout", "choice", "auto",
           "Reading order: auto rebuilds it from glyph boxes on pages where columns are found "
           "(and on pages with a line of both Latin and right-to-left letters, which PDFium "
           "may misorder, or with text drawn twice over itself), reading_order on every "
           "page, raw keeps PDFium's content-stream order.",
           choices=("auto", "reading_order", "raw")),
    Option("marked_content", "choice", "auto",
           "Tagged PDFs: auto follows the structure tree on pages that pass the gate "
           "(min_coverage, max_dangling_ratio), tags whenever there is one, none never.",
           choices=("auto", "tags", "none")),
    Option("min_coverage", "float", 0.5,
           "Share of a page's text (artifacts aside) the structure tree must cover to be followed.",
           minimum=0.0, maximum=1.0),
    Option("max_dangling_ratio", "float", 0.2,
           "Largest share of a page's structure leaves that may point at nothing.",
           minimum=0.0, maximum=1.0),
    Option("suppress_duplicate_text", "bool", True,
           "Read glyphs drawn twice at (nearly) one place (fake bold, shadows) once, where the "
           "page goes through the layout reader."),
    Option("password", "str", "",
           "Password for encrypted PDFs; goblin.password is tried too. Documents encrypted "
           "with an empty user password open without one.", secret=True),
    Option("max_pages", "int", 0, "Read at most this many pages of a PDF (0: all; the core's "
           "goblin.max_pages applies too).", minimum=0),
    Option("annotations", "bool", True,
           "Append annotation text (comments, free text, stamps) and the web links whose "
           "address the page does not print to its page, as Tika does."),
    Option("forms", "bool", True, "Append AcroForm field values to the page that shows them "
           "(a widget on a page whose document lost its AcroForm gives its own value)."),
    Option("borderless_tables", "bool", True,
           "With goblin.tables on, also look for tables drawn without grid lines (framed by "
           "horizontal rules only, or aligned by white space); false keeps ruled grids only."),
    Option("max_table_operators", "int", 25_000,
           "Tables are not searched on a page that runs more drawing operators than this "
           "(text shown, paths painted, forms drawn as often as drawn): pdfplumber keeps a "
           "Python object per glyph and rectangle. 0: no limit.", minimum=0),
    Option("outline", "bool", True,
           "Append the outline (bookmarks) after the last page's text; it is always in "
           "metadata['outline']."),
    Option("max_stream_size", "bytes", 64 * 1024**2,
           "Largest size a Flate stream of a PDF (page content, form, font, object stream) may "
           "inflate to; a PDF with a bigger one is refused as a decompression bomb before any "
           "reader opens it (FileTooLarge). Images and embedded files are not counted. 0: no "
           "check.", minimum=0),
    Option("max_page_content", "bytes", 16 * 1024**2,
           "Bytes of content one page may make a reader parse: its content streams, each "
           "as often as the page names it, and each form XObject's content once per draw; "
           "content dense in drawing operators weighs each one as this over 500,000 bytes. "
           "A page past it (a content or form bomb) is not loaded and fails with the reason; "
           "the other pages are read. 0: no limit on the bytes or operators (form draws stay "
           "limited).",
           minimum=0),
    Option("count_images_below", "int", 200,
           "Count a page's image objects only when it draws fewer glyphs than this (where the "
           "count decides whether the page needs OCR); 0 counts them on every page.", minimum=0),
    Option("render_dpi", "int", 300,
           "Default resolution of page images from ParsedDocument.render when none is given.",
           minimum=36, maximum=1200),
    Option("render_timeout", "float", 30.0,
           "Seconds PDFium may spend drawing one page for OCR or a thumbnail; a page that "
           "takes longer (tens of thousands of paths across the page) is not rendered, and a "
           "RenderFailed warning says so. A render also stops when the document's "
           "limits.timeout runs out.", minimum=1.0, maximum=LONGEST_WAIT_SECONDS),
    Option("page_timeout", "float", 30.0,
           "Seconds the pure-Python engines (the pypdf parser, pdfplumber recovery, the "
           "table search) may spend on one page; past it the page is left to the next "
           "engine, and the engine goes on with its next page. The document's "
           "limits.timeout still bounds them all.",
           minimum=0.1, maximum=LONGEST_WAIT_SECONDS),
    Option("poppler_timeout", "float", 60.0,
           "Seconds pdftotext may spend on one page, or on one call over a range of "
           "consecutive pages (a range past it keeps the pages it finished and reads the "
           "others one call each).",
           minimum=1.0, maximum=LONGEST_WAIT_SECONDS),
    Option("poppler_max_output", "bytes", 16 * 1024**2,
           "Most bytes of text read from pdftotext for one page.", minimum=1024),
    Option("glyph_name_min_tokens", "int", 8,
           "Glyph-name check: fewest tokens on a page before it judges.", minimum=1),
    Option("glyph_name_share", "float", 0.4,
           "Share of tokens shaped like glyph names (/g143, /120) that makes a page garbage.",
           minimum=0.0, maximum=1.0),
    Option("cid_share", "float", 0.3,
           "Share of the text taken by (cid:N) markers that makes a page garbage.",
           minimum=0.0, maximum=1.0),
    Option("min_letter_share", "float", 0.3,
           "Below this share of letters among non-space, non-number characters a page is garbage "
           "(numbers and amounts are left out, so a table of quantities stays clean).",
           minimum=0.0, maximum=1.0),
    Option("cipher_window", "int", 400, "Cipher check: word tokens per sliding window.",
           minimum=20),
    Option("cipher_step", "int", 200, "Cipher check: tokens the window moves each step.",
           minimum=10),
    Option("cipher_min_tokens", "int", 80,
           "Cipher check: fewest word tokens for a confident verdict; shorter pages get a "
           "low-confidence verdict.", minimum=10),
    Option("cipher_rate", "float", 0.05,
           "Share of tokens with a broken case pattern (LICITAgAO) that, with a low dictionary "
           "hit rate, makes a window garbage.", minimum=0.0, maximum=1.0),
    Option("cipher_hit_rate", "float", 0.72,
           "Dictionary hit rate below which a window with cipher_rate broken tokens is garbage.",
           minimum=0.0, maximum=1.0),
    Option("cipher_soft_rate", "float", 0.035,
           "A lower broken-token share that is garbage when the hit rate is below "
           "cipher_soft_hit_rate.", minimum=0.0, maximum=1.0),
    Option("cipher_soft_hit_rate", "float", 0.55,
           "Hit rate paired with cipher_soft_rate.", minimum=0.0, maximum=1.0),
    Option("gibberish_hit_rate", "float", 0.15,
           "Latin-script text whose dictionary hit rate is below this, and whose letters are "
           "nearly all capitals or mixed with digits, is garbage (shifted glyph codes).",
           minimum=0.0, maximum=1.0),
    Option("fragment_share", "float", 0.3,
           "Share of tokens in runs of 1-2 letter pieces that join into dictionary words "
           "(L I C I T A Ç Ã O) above which a page is garbage; above half of it, suspect.",
           minimum=0.0, maximum=1.0),
    Option("dictionaries", "list", ("pt", "en", "es", "fr", "de", "it"),
           "pyspellchecker word lists the dictionary checks use (pt first)."),
)
