"""An Outlook .msg whose body is only HTML: read in the charset its markup declares."""

from __future__ import annotations

import pytest

from goblin_office.mail import msg_body


class _HtmlOnly:
    """The parts of an extract-msg message the body reader uses: no plain text, an
    HTML body of ``html`` bytes, no RTF."""

    def __init__(self, html: bytes | None) -> None:
        self.body = None
        self.htmlBody = html
        self.rtfBody = None


@pytest.mark.parametrize(("charset", "words"), [
    ("iso-8859-7", "Καλημέρα"),
    ("koi8-r", "Счёт оплачен"),
])
def test_an_html_only_msg_is_read_in_the_charset_its_markup_declares(
    charset: str, words: str,
) -> None:
    html = (f'<html><head><meta http-equiv="Content-Type" content="text/html; '
            f'charset={charset}"></head><body><p>{words}</p></body></html>').encode(charset)
    assert msg_body(_HtmlOnly(html)) == words


def test_a_msg_without_plain_html_or_rtf_body_reads_empty() -> None:
    assert msg_body(_HtmlOnly(None)) == ""
