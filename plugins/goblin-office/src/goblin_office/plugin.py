"""Hook implementations of goblin-office."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goblin_core import hookimpl
from goblin_office.dbf import DBFParser
from goblin_office.delimited import DelimitedParser
from goblin_office.epub import EPUBParser
from goblin_office.fictionbook import FictionBookParser
from goblin_office.flatopc import FlatOpcParser
from goblin_office.legacy import AntiwordParser, CatdocParser, CatpptParser, Xls2csvParser
from goblin_office.libreoffice import LibreOfficeParser
from goblin_office.mail import EMLParser, MSGParser
from goblin_office.markup import HTMLParser, MHTMLParser
from goblin_office.mbox import MboxParser
from goblin_office.notebook import NotebookParser, NotebookSniffer
from goblin_office.odf import FlatODSParser, ODFPresentationParser, ODFTextParser
from goblin_office.options import OFFICE_OPTIONS
from goblin_office.pptrecords import PptRecordsParser, PptSalvageParser
from goblin_office.presentation import PptxParser
from goblin_office.protected import ProtectedPackageParser
from goblin_office.rtf import RTFParser
from goblin_office.salvage import DocxSalvageParser, PackageSalvageParser
from goblin_office.sniffing import (
    CalendarSniffer,
    ContainerSniffer,
    MailSniffer,
    MarkupSniffer,
    OLESniffer,
)
from goblin_office.spreadsheet import (
    CalamineParser,
    OpenpyxlParser,
    XlrdParser,
    XlsbRecordsParser,
)
from goblin_office.structured import CalendarCardParser, JSONParser, MarkdownParser
from goblin_office.subtitles import SubtitleParser, SubtitleSniffer
from goblin_office.tnef import TNEFParser
from goblin_office.visio import VisioParser
from goblin_office.word import DocxParser
from goblin_office.wordperfect import WordPerfectParser
from goblin_office.wordsalvage import Word97SalvageParser
from goblin_office.xml2003 import SpreadsheetML2003Parser, Word2003Parser
from goblin_office.xmltext import SVGParser, XMLParser
from goblin_office.xps import XPSParser


@hookimpl
def goblin_register_sniffers(register: Callable[[Any], None]) -> None:
    register(ContainerSniffer())
    register(OLESniffer())
    register(MarkupSniffer())
    register(MailSniffer())
    register(CalendarSniffer())
    register(NotebookSniffer())
    register(SubtitleSniffer())


@hookimpl
def goblin_register_parsers(register: Callable[[Any], None]) -> None:
    for parser in (
        DocxParser(),
        DocxSalvageParser(),
        PackageSalvageParser(),
        CalamineParser(),
        OpenpyxlParser(),
        XlrdParser(),
        XlsbRecordsParser(),
        ODFTextParser(),
        ODFPresentationParser(),
        FlatODSParser(),
        PptxParser(),
        AntiwordParser(),
        WordPerfectParser(),
        CatdocParser(),
        Word97SalvageParser(),
        CatpptParser(),
        Xls2csvParser(),
        PptRecordsParser(),
        PptSalvageParser(),
        RTFParser(),
        EPUBParser(),
        FictionBookParser(),
        HTMLParser(),
        MHTMLParser(),
        DelimitedParser(),
        XMLParser(),
        SVGParser(),
        JSONParser(),
        NotebookParser(),
        MarkdownParser(),
        SubtitleParser(),
        CalendarCardParser(),
        DBFParser(),
        EMLParser(),
        MSGParser(),
        MboxParser(),
        TNEFParser(),
        ProtectedPackageParser(),
        FlatOpcParser(),
        Word2003Parser(),
        SpreadsheetML2003Parser(),
        VisioParser(),
        XPSParser(),
        LibreOfficeParser(),
    ):
        register(parser)


@hookimpl
def goblin_register_options(register: Callable[..., None]) -> None:
    register(
        "office",
        OFFICE_OPTIONS,
        extra="office",
        help="What goblin-office reads besides body text: headers, comments, notes, "
        "embedded objects.",
    )
