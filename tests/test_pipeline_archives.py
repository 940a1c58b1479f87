"""Archive recursion through a registered handler: children, names, limits, isolation."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from typing import Any

import pytest

from goblin_core import CorruptDocument, Source, UnsafeArchive, extract
from goblin_core.engines import BaseEngine, Member
from goblin_example_note import render_note

from scripted_engines import plugin_of, registry_with


class ZipHandler(BaseEngine):
    """A small but real zip handler, as an archives plugin would register it."""

    name = "tests.zip"
    formats = ("application/zip",)

    def members(self, source: Source, limits: Any, config: Any) -> Iterator[Member]:
        try:
            archive = zipfile.ZipFile(source.open())
        except zipfile.BadZipFile as exc:
            raise CorruptDocument(f"not a readable zip ({exc})", file=source.display_name) from exc
        for info in sorted(archive.infolist(), key=lambda i: i.filename):
            yield Member(
                name=info.filename,
                open=lambda info=info: archive.open(info),  # type: ignore[misc]
                size=info.file_size,
                compressed_size=info.compress_size,
                kind="dir" if info.is_dir() else "file",
            )


def zip_of(files: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


REGISTRY = registry_with(ZipHandler())


def test_members_become_children_named_inside_the_archive() -> None:
    inner = zip_of({"deep/note.txt": b"the deepest text"})
    outer = zip_of({"a.txt": b"first member text", "nested/inner.zip": inner})
    document = extract(outer, name="outer.zip", registry=REGISTRY)
    names = [d.name for d in document.walk()]
    assert names == ["outer.zip", "outer.zip/a.txt", "outer.zip/nested/inner.zip",
                     "outer.zip/nested/inner.zip/deep/note.txt"]
    texts = {d.name: d.text for d in document.walk()}
    assert texts["outer.zip/nested/inner.zip/deep/note.txt"] == "the deepest text"
    assert document.text == ""
    assert document.parsed_by == ("tests.zip",)


def test_a_bad_member_is_reported_and_the_others_are_read() -> None:
    broken = zip_of({"x.txt": b"inner text"})[:40]  # a nested zip cut short
    outer = zip_of({"a.txt": b"good member text", "b.zip": broken, "c.bin": bytes(range(256))})
    document = extract(outer, name="mixed.zip", registry=REGISTRY)
    children = {d.name: d for d in document.children}
    assert children["mixed.zip/a.txt"].text == "good member text"
    assert children["mixed.zip/b.zip"].report.error_kinds == ("CorruptDocument",)
    assert children["mixed.zip/c.bin"].report.error_kinds == ("UnsupportedFormat",)


def test_members_of_other_formats_use_other_plugins() -> None:
    from goblin_core import load_registry

    registry = load_registry(load=["example-note"],
                             extra_plugins=[("zips", plugin_of(ZipHandler()))])
    outer = zip_of({"notes/today.gnote": render_note(["a note inside a zip"])})
    document = extract(outer, name="bundle.zip", registry=registry)
    [child] = document.children
    assert child.name == "bundle.zip/notes/today.gnote"
    assert child.pages[0].engine == "note.parser" and child.text == "a note inside a zip"


def test_nesting_deeper_than_the_limit_is_refused_and_the_rest_kept() -> None:
    data = zip_of({"core.txt": b"innermost text here"})
    for level in range(4):
        data = zip_of({f"level{level}.zip": data, f"readme{level}.txt": b"readable level text"})
    document = extract(data, name="russian.zip", registry=REGISTRY, max_depth=2)
    names = [d.name for d in document.walk()]
    assert "russian.zip/readme3.txt" in names
    assert not any(n.endswith("core.txt") for n in names)
    errors = [e for d in document.walk() for e in d.report.errors]
    assert any(e.kind == "UnsafeArchive" and "max_depth" in e.message for e in errors)


def test_path_traversal_member_is_refused() -> None:
    outer = zip_of({"../../etc/evil.txt": b"evil text", "fine.txt": b"fine text here"})
    document = extract(outer, name="sly.zip", registry=REGISTRY)
    assert [d.name for d in document.children] == ["sly.zip/fine.txt"]
    refused = [m for m in document.report.members if m.action == "refused"]
    assert refused and "traversal" in refused[0].reason


def test_compression_bomb_is_stopped_while_reading() -> None:
    bomb = zip_of({"bomb.txt": b"\0" * (8 * 1024 * 1024), "ok.txt": b"small text file"})
    document = extract(bomb, name="bomb.zip", registry=REGISTRY, max_ratio=50,
                       ratio_grace_bytes="64KB")
    names = [d.name for d in document.children]
    assert names == ["bomb.zip/ok.txt"]
    assert any(e.kind == "UnsafeArchive" and "max_ratio" in e.message
               for e in document.report.errors)


def test_too_many_members_stop_the_listing() -> None:
    """The listing stops at the limit; members already read keep their text."""
    many = zip_of({f"f{i:03d}.txt": b"member text number" for i in range(30)})
    document = extract(many, name="many.zip", registry=REGISTRY, max_members=10)
    assert len(document.children) == 10
    assert any(e.kind == "UnsafeArchive" and "max_members" in e.message
               for e in document.report.errors)
    with pytest.raises(UnsafeArchive):
        # A top-level archive over the member limit with nothing read is an error.
        extract(zip_of({f"d{i}/": b"" for i in range(30)}), name="dirs.zip", registry=REGISTRY,
                max_members=10)


def test_unreadable_archive_is_an_error_naming_it() -> None:
    with pytest.raises(CorruptDocument, match=r"broken\.zip: not a readable zip"):
        extract(b"PK\x03\x04 but nothing else", name="broken.zip", registry=REGISTRY)


class CrashingZipHandler(ZipHandler):
    """Lists two members, then its library crashes with a non-goblin exception."""

    name = "tests.crashing_zip"
    priority = 5

    def members(self, source: Source, limits: Any, config: Any) -> Iterator[Member]:
        members = super().members(source, limits, config)
        yield next(members)
        raise KeyError("central directory entry")


def test_a_handler_crashing_mid_listing_keeps_the_members_read() -> None:
    outer = zip_of({"a.txt": b"first member text", "b.txt": b"second member text"})
    document = extract(outer, name="half.zip", registry=registry_with(CrashingZipHandler()))
    assert [d.name for d in document.children] == ["half.zip/a.txt"]
    assert any(e.kind == "CorruptDocument" and "KeyError" in e.message
               for e in document.report.errors)


def test_a_handler_crashing_at_once_falls_back_to_the_next_handler() -> None:
    class Broken(ZipHandler):
        name = "tests.broken_zip"
        priority = 9

        def members(self, source: Source, limits: Any, config: Any) -> Iterator[Member]:
            raise ValueError("unsupported compression")

    outer = zip_of({"a.txt": b"first member text"})
    document = extract(outer, name="z.zip", registry=registry_with(Broken(), ZipHandler()))
    assert [d.text for d in document.children] == ["first member text"]
    assert "tests.zip" in document.parsed_by


def test_an_empty_member_is_an_empty_child_with_a_warning_not_an_error() -> None:
    archive = zip_of({"pkg/__init__.py": b"", "pkg/readme.txt": b"the package text"})
    document = extract(archive, name="source.zip", registry=REGISTRY)
    empty, readme = document.children
    assert (empty.name, empty.status, empty.report.errors) == ("source.zip/pkg/__init__.py",
                                                                "clean", ())
    assert [w.kind for w in empty.report.warnings] == ["EmptyFile"]
    assert readme.text == "the package text"
    assert not any(d.report.errors for d in document.walk())


def test_an_empty_file_on_its_own_is_still_an_error() -> None:
    with pytest.raises(CorruptDocument, match="the file is empty"):
        extract(b"", name="nothing.txt", registry=REGISTRY)


class LinkingHandler(BaseEngine):
    """An archive of one file and links to it, inside and outside the archive."""

    name = "tests.links"
    formats = ("application/zip",)

    def members(self, source: Source, limits: Any, config: Any) -> Iterator[Member]:
        yield Member(name="docs/data.txt", open=lambda: io.BytesIO(b"the linked text"),
                     size=15, kind="file")
        for name, kind, target in (("docs/alias.txt", "symlink", "data.txt"),
                                   ("links/up.txt", "symlink", "../docs/data.txt"),
                                   ("copy.txt", "hardlink", "docs/data.txt"),
                                   ("links/out", "symlink", "../../etc/passwd"),
                                   ("abs", "symlink", "/etc/passwd"),
                                   ("hard-out", "hardlink", "../outside"),
                                   ("unknown", "symlink", None)):
            yield Member(name=name, open=lambda: io.BytesIO(b""), size=0, kind=kind,  # type: ignore[arg-type]
                         link_target=target)


def test_links_to_members_are_skipped_and_links_out_refused() -> None:
    document = extract(zip_of({"x": b"x"}), name="links.zip",
                       registry=registry_with(LinkingHandler()))
    assert [d.text for d in document.children] == ["the linked text"]
    actions = {m.name: m.action for m in document.report.members}
    assert actions == {"docs/data.txt": "extracted", "docs/alias.txt": "skipped",
                       "links/up.txt": "skipped", "copy.txt": "skipped", "links/out": "refused",
                       "abs": "refused", "hard-out": "refused", "unknown": "refused"}
    assert sorted(e.message.split("'")[1] for e in document.report.errors) == [
        "abs", "hard-out", "links/out", "unknown"]


def test_an_archive_whose_only_links_point_inside_reads_in_full() -> None:
    class InsideLinks(LinkingHandler):
        def members(self, source: Source, limits: Any, config: Any) -> Iterator[Member]:
            return (m for m in super().members(source, limits, config)
                    if m.name in ("docs/data.txt", "docs/alias.txt", "copy.txt"))

    document = extract(zip_of({"x": b"x"}), name="inside.zip",
                       registry=registry_with(InsideLinks()))
    assert document.status == "clean" and not document.report.errors


class SloppyHandler(BaseEngine):
    """A third party's handler with bugs: entries that are no Member, an open() that gives
    text, a stream that reads str, between two good members."""

    name = "tests.sloppy"
    formats = ("application/zip",)
    priority = 100

    def members(self, source: Source, limits: Any, config: Any) -> Iterator[Member]:
        def good(text: bytes) -> Any:
            return lambda: io.BytesIO(text)

        yield Member(name="first.txt", open=good(b"first good member"), size=17)
        yield None  # type: ignore[misc]
        yield "second.txt"  # type: ignore[misc]
        yield Member(name="opened-as-text.txt", open=lambda: "not a stream", size=12)  # type: ignore[arg-type,return-value]
        yield Member(name="reads-str.txt", open=lambda: io.StringIO("text, not bytes"), size=15)  # type: ignore[arg-type,return-value]
        yield Member(name="last.txt", open=good(b"last good member"), size=16)


def test_a_handler_s_bad_entries_cost_only_themselves() -> None:
    registry = registry_with(SloppyHandler())
    document = extract(zip_of({"x.txt": b"x"}), name="sloppy.zip", registry=registry)
    texts = {d.name: d.text for d in document.walk() if d is not document}
    assert texts == {"sloppy.zip/first.txt": "first good member",
                     "sloppy.zip/last.txt": "last good member"}
    refused = {m.name: m.reason for m in document.report.members if m.action == "refused"}
    assert refused["#2"] == "tests.sloppy listed NoneType None, not a Member"
    assert refused["#3"] == "tests.sloppy listed str 'second.txt', not a Member"
    assert "opened it as str, not a binary stream" in refused["opened-as-text.txt"]
    assert "gave str, not bytes" in refused["reads-str.txt"]
