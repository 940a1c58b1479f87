"""A Word ruby (phonetic guide) reads as its base text, as the line shows it; the
reading set above it is left out."""

from __future__ import annotations

from packages import docx


def test_ruby_reads_as_its_base(read) -> None:  # type: ignore[no-untyped-def]
    ruby = (
        '<w:r><w:ruby><w:rubyPr><w:rubyAlign w:val="distributeSpace"/><w:hps w:val="10"/>'
        '<w:lid w:val="ja-JP"/></w:rubyPr><w:rt><w:r><w:t>かんじ</w:t></w:r></w:rt>'
        "<w:rubyBase><w:r><w:t>漢字</w:t></w:r></w:rubyBase></w:ruby></w:r>"
    )
    body = (f'<w:p><w:r><w:t xml:space="preserve">Base: </w:t></w:r>{ruby}'
            "<w:r><w:t>です</w:t></w:r></w:p>")
    assert read(docx(body), "ruby.docx").text == "Base: 漢字です"
