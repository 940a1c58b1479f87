"""A feed's HTML (RSS's description and content:encoded, an Atom text of type "html"),
escaped or in CDATA, reads as the text a feed reader shows: no tags, no scripts, its
character references once; other XML keeps its text as written."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Read = Callable[..., Any]
RSS = """<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
<title>Diário</title><description>Notícias da câmara</description>
<item><title>Sessão aberta</title>
<description>&lt;p&gt;Pauta &lt;b&gt;aprovada&lt;/b&gt; &amp;amp; publicada&lt;/p&gt;</description>
<content:encoded><![CDATA[<p>Texto <i>completo</i>.</p><script>track()</script><p>Fim.</p>]]>
</content:encoded></item></channel></rss>"""
ATOM = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atas</title><entry>
<title type="html">Ata &lt;em&gt;12&lt;/em&gt;</title>
<summary type="text">Menor &lt;que&gt; tudo</summary>
<content type="html">&lt;p&gt;Conteúdo &lt;b&gt;da ata&lt;/b&gt;&lt;/p&gt;</content>
</entry></feed>"""


def test_rss_html_reads_as_a_feed_reader_shows_it(read: Read) -> None:
    assert read(RSS.encode(), "diario.xml").text.splitlines() == [
        "Diário", "Notícias da câmara", "Sessão aberta", "Pauta aprovada & publicada",
        "Texto completo.", "Fim."]


def test_atom_html_is_read_as_html_and_atom_text_as_text(read: Read) -> None:
    assert read(ATOM.encode(), "atas.xml").text.splitlines() == [
        "Atas", "Ata 12", "Menor <que> tudo", "Conteúdo da ata"]


def test_a_description_in_other_xml_keeps_its_text(read: Read) -> None:
    data = "<catalog><description>&lt;b&gt; marks bold</description></catalog>"
    assert read(data.encode(), "catalogo.xml").text == "<b> marks bold"
