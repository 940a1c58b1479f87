"""Subtitles (SubRip, WebVTT, SubStation Alpha): the words of the cues, in order, never
their numbers, timings or styling."""

from __future__ import annotations

import pysubs2
import pytest
from bounds import bounded

from goblin_core.errors import CorruptDocument
from goblin_office.subtitles import Cue, transcript

SRT = """1
00:00:01,000 --> 00:00:03,500
<i>Licitação</i> pública
número 42

2
00:00:04,000 --> 00:00:06,000
{\\an8}<font color="#ffff00">Coração</font> I <3 you

3
00:00:07,000 --> 00:00:09,000
- Quem ganhou?
- A empresa Alfa.
"""

VTT = """WEBVTT - Reunião de abertura
Kind: captions
Language: pt-BR

NOTE revisado por Ana

STYLE
::cue(.amarelo) { color: yellow }

abertura
00:00:01.000 --> 00:00:04.000 align:start position:10%
<v Roger Bingham>We are in New York City</v>

00:00:04.000 --> 00:00:06.000
<c.amarelo>Olá</c>, <b>mundo</b> &amp; <00:00:05.000>amigos &lt;3

00:00:06.000 --> 00:00:08.000
<v.loud Ana>Leia o <ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby> agora
"""

ASS = """[Script Info]
Title: Episódio 1
Original Script: Equipe Alfa
ScriptType: v4.00+

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, \
Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, \
Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,\
2,2,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:05.00,0:00:06.00,Default,Bob,0,0,0,,Até logo
Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\i1}Olá{\\i0} a\\htodos\\Nsegunda linha
Comment: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,nota do tradutor
Dialogue: 1,0:00:03.00,0:00:04.00,Default,,0,0,0,,{\\p1}m 0 0 l 100 0 100 100 0 100{\\p0}
"""


def test_subrip_cues_without_numbers_timings_or_tags(read) -> None:  # type: ignore[no-untyped-def]
    document = read(SRT.encode(), "filme.srt")
    assert document.mime == "application/x-subrip"
    assert document.parsed_by == ("office.subtitles",)
    assert document.text == ("Licitação pública número 42\nCoração I <3 you\n"
                             "- Quem ganhou?\n- A empresa Alfa.")
    assert [b.kind for b in document.pages[0].blocks] == ["paragraph"] * 3
    assert document.raw_metadata["cues"] == 3
    assert document.raw_metadata["duration_seconds"] == 9.0


def test_webvtt_voices_markup_entities_ruby_and_header(read) -> None:  # type: ignore[no-untyped-def]
    document = read(VTT.encode(), "reuniao.vtt")
    assert document.mime == "text/vtt"
    assert document.text.splitlines() == [
        "Roger Bingham: We are in New York City",
        "Olá, mundo & amigos <3",
        "Ana: Leia o 漢字 agora",
    ]
    assert "revisado" not in document.text and "color" not in document.text
    assert document.metadata["title"] == "Reunião de abertura"
    assert document.metadata["language"] == "pt-BR"


def test_substation_alpha_in_time_order_without_comments_or_drawings(read) -> None:  # type: ignore[no-untyped-def]
    document = read(ASS.encode(), "episodio.ass")
    assert document.mime == "text/x-ssa"
    assert document.text.splitlines() == ["Olá a todos segunda linha", "Bob: Até logo"]
    assert document.metadata["title"] == "Episódio 1"
    assert document.metadata["author"] == "Equipe Alfa"


@pytest.mark.parametrize("encoding", ["utf-16", "cp1252", "utf-8-sig"])
def test_subrip_in_the_encodings_windows_tools_write(read, encoding: str) -> None:  # type: ignore[no-untyped-def]
    data = SRT.replace("\n", "\r\n").encode(encoding, "replace")
    document = read(data, "filme.srt")
    assert document.mime == "application/x-subrip"
    assert "Licitação pública número 42" in document.text


def test_known_by_content_whatever_the_name(read) -> None:  # type: ignore[no-untyped-def]
    assert read(SRT.encode(), "legenda.txt").mime == "application/x-subrip"
    assert read(VTT.encode(), "captions").mime == "text/vtt"
    assert read(ASS.encode(), "x.dat").mime == "text/x-ssa"
    prose = "Notes\n00:00:01,000 --> 00:00:02,000 is how a timing looks\n"
    assert read(prose.encode(), "notes.txt").mime == "text/plain"


def test_roll_up_captions_read_each_line_once(read) -> None:  # type: ignore[no-untyped-def]
    # as video sites write automatic captions: each line shown in two or three cues
    cues = ["00:00:00.000 --> 00:00:02.000\nbom dia a todos",
            "00:00:02.000 --> 00:00:02.010\nbom dia a todos",
            "00:00:02.010 --> 00:00:04.000\nbom dia a todos\nvamos começar",
            "00:00:04.000 --> 00:00:06.000\nvamos começar\ncom o edital",
            # shown again after a pause: said again
            "00:00:09.000 --> 00:00:10.000\ncom o edital"]
    document = read(("WEBVTT\n\n" + "\n\n".join(cues) + "\n").encode(), "auto.vtt")
    assert document.text.splitlines() == ["bom dia a todos", "vamos começar", "com o edital",
                                          "com o edital"]


def test_transcript_joins_wrapped_lines_and_keeps_dialogue_apart() -> None:
    cues = [Cue(0, 1, ("uma frase", "quebrada")), Cue(5, 6, ("- Sim?", "- Não."), "Ana")]
    assert list(transcript(cues)) == ["uma frase quebrada", "Ana: - Sim?\n- Não."]


def test_webvtt_timing_with_subrip_comma_is_read(read) -> None:  # type: ignore[no-untyped-def]
    text = ("WEBVTT\n\n00:00:01,000 --> 00:00:02,000\nvírgula\n\n"
            "00:00:03.000 --> 00:00:04.000\n<v Ana>ponto\n")
    document = read(text.encode(), "convertido.vtt")
    assert document.text.splitlines() == ["vírgula", "Ana: ponto"]
    assert not document.report.warnings


def test_a_cue_webvtt_py_cannot_read_is_read_leniently(read) -> None:  # type: ignore[no-untyped-def]
    # webvtt-py drops a cue whose seconds pass 59, or whose arrow is a dash
    text = ("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nprimeira\n\n"
            "00:00:73.000 --> 00:00:74.000\n<v Ana>segundos demais\n\n"
            "00:01:15.000 \u2014> 00:01:16.000\ntravessão\n")
    document = read(text.encode(), "estranho.vtt")
    assert document.text.splitlines() == ["primeira", "Ana: segundos demais", "travessão"]
    assert [w.kind for w in document.report.warnings] == ["CorruptDocument"]
    assert "read again leniently" in document.report.warnings[0].message


def test_unreadable_cues_fall_back_to_the_whole_text(read) -> None:  # type: ignore[no-untyped-def]
    text = ("WEBVTT\n\nxx:00:01.000 --> 00:00:02.000\nnada se perde\n\n"
            "00:00:03.000 --> 00:00:04.000\nsegunda\n")
    document = read(text.encode(), "quebrado.vtt")
    assert "nada se perde" in document.text and "segunda" in document.text
    assert [w.kind for w in document.report.warnings] == ["CorruptDocument"]
    assert "read as plain text" in document.report.warnings[0].message
    assert "1 of 2" in document.report.warnings[0].message


def test_a_file_with_no_cue_is_read_as_text(read) -> None:  # type: ignore[no-untyped-def]
    document = read(b"WEBVTT\n\nsem nenhuma marca de tempo\n", "vazio.vtt")
    assert "sem nenhuma marca de tempo" in document.text
    assert [w.kind for w in document.report.warnings] == ["CorruptDocument"]
    assert "no cue found" in document.report.warnings[0].message


def test_what_pysubs2_warns_of_is_in_the_report(read, recwarn) -> None:  # type: ignore[no-untyped-def]
    damaged = ASS.replace("0,0:00:05.00,0:00:06.00,Default,Bob,0,0,0",
                          "0,0:00:05.00,0:00:06.00,Default,Bob,x,0,0")
    document = read(damaged.encode(), "episodio.ass")
    assert "Bob: Até logo" in document.text
    assert [(w.kind, w.message) for w in document.report.warnings] == [
        ("CorruptDocument", "ASS: Failed to parse marginl, using default")]
    assert not [w for w in recwarn if "marginl" in str(w.message)]


def test_binary_content_is_refused_with_the_file_named(read) -> None:  # type: ignore[no-untyped-def]
    data = b"WEBVTT\n\n" + bytes(range(256)) * 8
    with pytest.raises(CorruptDocument, match=r"lixo\.vtt.*binary content"):
        read(data, "lixo.vtt")


def test_files_written_by_pysubs2_read_back(read) -> None:  # type: ignore[no-untyped-def]
    subtitles = pysubs2.SSAFile()
    subtitles.append(pysubs2.SSAEvent(start=0, end=1500, text="Licitação{\\i1} pública{\\i0}"))
    subtitles.append(pysubs2.SSAEvent(start=2000, end=3000, text="número 42", name="Rui"))
    for extension in ("srt", "vtt", "ass", "ssa"):
        document = read(subtitles.to_string(extension).encode(), f"x.{extension}")
        assert "Licitação pública" in document.text, extension
        assert document.text.endswith("número 42"), extension


@pytest.mark.parametrize(("name", "line"), [
    ("unclosed.vtt", "<" * 200_000),
    ("voices.vtt", "<v " * 100_000),
    ("ruby.vtt", "<rt>" * 100_000),
    ("tags.srt", "<font " * 100_000),
    ("spaces.srt", "<" + " " * 200_000 + "x" + "< " * 100_000 + ">"),
    ("braces.srt", "{" * 200_000),
    ("braces.ass", "{" * 200_000 + "\\N" * 50_000),
    ("lines.vtt", "\n".join(["palavra"] * 300_000)),  # one cue of many lines
    ("lines.srt", "\n".join(["palavra"] * 300_000)),
])
def test_a_long_line_of_open_markup_takes_linear_time(read, name: str, line: str) -> None:  # type: ignore[no-untyped-def]
    # the readers' own tag patterns take minutes on these (quadratic time)
    if name.endswith(".ass"):
        head = ("[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, "
                "Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
                "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,")
    elif name.endswith(".vtt"):
        head = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n"
    else:
        head = "1\n00:00:01,000 --> 00:00:02,000\n"
    with bounded(seconds=10, megabytes=300):
        # a SubStation Alpha event is one line of the file
        end = "\\Nfim\n" if name.endswith(".ass") else "\nfim\n"
        document = read((head + line + end).encode(), name)
    assert document.status == "clean"
    assert "fim" in document.text


def test_subtitles_over_the_cue_limit_are_read_as_text(read) -> None:  # type: ignore[no-untyped-def]
    cue = "00:00:01.000 --> 00:00:02.000\n<v Ana>linha repetida de legenda\n\n"
    data = ("WEBVTT\n\n" + cue * (9 * 2**20 // len(cue))).encode()
    with bounded(seconds=20, megabytes=400):
        document = read(data, "enorme.vtt")
    assert "linha repetida de legenda" in document.text
    assert [w.kind for w in document.report.warnings] == ["FileTooLarge"]
