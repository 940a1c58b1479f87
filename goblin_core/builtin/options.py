"""The core's own config namespaces: ``goblin`` (behaviour) and ``limits`` (safety)."""

from __future__ import annotations

from goblin_core.executors.page_ranges import parse_page_range
from goblin_core.options import LONGEST_WAIT_SECONDS, Option

GOBLIN_OPTIONS = (
    Option(
        "ocr",
        "choice",
        "auto",
        "When to OCR: auto (only pages that draw but yield too little or broken text), "
        "never, always (OCR text used for every page), extract_and_ocr (both kept).",
        choices=("auto", "never", "always", "extract_and_ocr"),
    ),
    Option("ocr_languages", "str", "por+eng", "OCR languages, Tesseract style (por+eng)."),
    Option(
        "ocr_dpi",
        "int",
        300,
        "Resolution page images are rendered at for OCR.",
        minimum=50,
        maximum=1200,
    ),
    Option(
        "ocr_image_regions",
        "bool",
        True,
        "In auto mode, also OCR the images of a page with a text layer that no text covers "
        "(an image of text among text: a pasted scan, a screenshot) and put their text where "
        "the image is; false: only whole pages are OCR'd.",
    ),
    Option(
        "ocr_backends",
        "list",
        (),
        "OCR backends to use first, by engine name (ocr.textract). Cloud backends run only "
        "when named here or enabled in [engines].",
    ),
    Option(
        "ocr_garbage_score",
        "float",
        0.3,
        "In auto mode a page still garbage after recovery is OCR'd when its score is below this.",
        minimum=0.0,
        maximum=1.0,
    ),
    Option(
        "ocr_trusted_confidence",
        "float",
        0.9,
        "OCR text read with less confidence than this (the backend's own, 0 to 1) is "
        "suspect (reason low_ocr_confidence): it still replaces text that is garbage or "
        "empty, but a suspect text layer scoring higher is kept.",
        minimum=0.0,
        maximum=1.0,
    ),
    Option(
        "total_chars_per_page",
        "int",
        10,
        "A page that draws something but yields fewer mapped characters than this needs OCR.",
        minimum=0,
    ),
    Option(
        "vector_segments_per_page",
        "int",
        1000,
        "A page without text or images that draws at least this many path segments (text "
        "turned into outlines, a drawing) is OCR'd in auto mode; 0: never.",
        minimum=0,
    ),
    Option(
        "unmapped_chars_per_page",
        "int",
        10,
        "A page with more unmapped glyphs than this needs OCR (auto mode).",
        minimum=0,
    ),
    Option("password", "str", "", "Password for encrypted documents and archives.",
           secret=True),
    Option(
        "tables",
        "bool",
        False,
        "Extract tables (PDF table engines); tables of "
        "spreadsheets, CSV and Office files are always kept.",
    ),
    Option("max_pages", "int", 0, "Read at most this many pages per document (0: all).", minimum=0),
    Option(
        "page_range",
        "str",
        "",
        "Read only pages FIRST-LAST (1-based, e.g. 101-200); '' reads all. The local "
        "executor sets it to split huge documents across workers.",
        check=parse_page_range,
    ),
    Option(
        "split_pages",
        "int",
        0,
        "The local executor splits a document longer than this across idle workers, in "
        "page ranges merged back into one result (0: never split). Worth it only where the "
        "parser seeks to its range.",
        minimum=0,
    ),
    Option(
        "split_formats",
        "list",
        ("application/pdf",),
        "MIME types split_pages cuts into several ranges: formats whose parsers seek to a "
        "page range (the rest of another format is read as one range).",
    ),
    Option("attachments", "bool", True, "Extract embedded files and attachments as children."),
    Option(
        "recovery_probe",
        "int",
        3,
        "When at least this many pages need a recovery engine, it reads the first of them "
        "alone, and the rest only if that page came out better (0: always read them all).",
        minimum=0,
    ),
)

LIMIT_OPTIONS = (
    Option(
        "max_file_size",
        "bytes",
        2 * 1024**3,
        "Largest input file read (checked before reading).",
        minimum=0,
    ),
    Option("max_pages", "int", 0, "Hard page limit per document (0: none).", minimum=0),
    Option(
        "max_output_chars",
        "int",
        100_000_000,
        "Characters of text kept per document (Tika's writeLimit); the members and attachments "
        "of one input share it too, past it the rest are not read. What is cut is reported.",
        minimum=0,
    ),
    Option("max_depth", "int", 10, "Deepest nesting of archives and attachments.", minimum=0),
    Option(
        "max_members",
        "int",
        10_000,
        "Most members read from one archive, or attachments from one document.",
        minimum=1,
    ),
    Option(
        "max_total_bytes",
        "bytes",
        4 * 1024**3,
        "Most bytes expanded from archives for one input, nested ones included.",
        minimum=0,
    ),
    Option(
        "max_member_size",
        "bytes",
        1024**3,
        "Largest single archive member expanded, or attachment read.",
        minimum=0,
    ),
    Option(
        "max_ratio", "float", 200.0, "Highest compression ratio accepted for a member.", minimum=1.0
    ),
    Option(
        "ratio_grace_bytes",
        "bytes",
        1024**2,
        "Members smaller than this when expanded are exempt from the ratio check.",
        minimum=0,
    ),
    Option("max_xml_depth", "int", 256, "Deepest XML element nesting parsed (RTF groups "
           "nested deeper are read as part of the group holding them).", minimum=8),
    Option("max_image_pixels", "int", 178_956_970, "Largest image (in pixels) decoded.", minimum=1),
    Option(
        "timeout",
        "float",
        300.0,
        "Seconds allowed per document: checked between pages; Python work in an engine "
        "call is interrupted a second past it; hard in worker processes.",
        minimum=0.1,
        maximum=LONGEST_WAIT_SECONDS,
    ),
    Option(
        "max_memory",
        "bytes",
        2 * 1024**3,
        "Memory a worker process may add for a document beyond its idle footprint "
        "(isolate=True, batches): the interpreter and its plugins alone take 60-100 MB.",
        minimum=64 * 1024**2,
    ),
)
