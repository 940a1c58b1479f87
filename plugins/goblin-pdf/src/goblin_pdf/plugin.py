"""Hook implementations of goblin-pdf: parsers, recovery engines, validators, a table engine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goblin_core import hookimpl
from goblin_pdf.options import PDF_OPTIONS


@hookimpl
def goblin_register_parsers(register: Callable[[Any], None]) -> None:
    from goblin_pdf.pdfium_parser import PdfiumParser
    from goblin_pdf.postscript import PostScriptParser
    from goblin_pdf.pypdf_parser import PypdfParser

    register(PdfiumParser())
    register(PypdfParser())
    register(PostScriptParser())


@hookimpl
def goblin_register_recovery_engines(register: Callable[[Any], None]) -> None:
    from goblin_pdf.byte_order import ByteOrderRecovery
    from goblin_pdf.glyph_order import GlyphOrderRecovery
    from goblin_pdf.plumber_recovery import PdfplumberRecovery
    from goblin_pdf.poppler_recovery import PopplerRecovery

    register(GlyphOrderRecovery())
    register(ByteOrderRecovery())
    register(PdfplumberRecovery())
    register(PopplerRecovery())


@hookimpl
def goblin_register_validators(register: Callable[[Any], None]) -> None:
    from goblin_pdf.validators.cipher import CipherValidator
    from goblin_pdf.validators.cjk_mapping import CJKMappingValidator
    from goblin_pdf.validators.code_page import CodePageValidator
    from goblin_pdf.validators.fragments import FragmentationValidator
    from goblin_pdf.validators.glyph_codes import GlyphCodeValidator
    from goblin_pdf.validators.mixed_scripts import MixedScriptsValidator

    register(GlyphCodeValidator())
    register(CipherValidator())
    register(FragmentationValidator())
    register(CJKMappingValidator())
    register(CodePageValidator())
    register(MixedScriptsValidator())


@hookimpl
def goblin_register_options(register: Callable[..., None]) -> None:
    register("pdf", PDF_OPTIONS, extra="pdf",
             help="PDF reading (Tika's PDF options), rendering and text-layer validator "
                  "thresholds.")


@hookimpl
def goblin_register_table_engines(register: Callable[[Any], None]) -> None:
    from goblin_pdf.tables import PdfPlumberTableEngine

    register(PdfPlumberTableEngine())
