"""The GoblinError family: stable kinds, messages that name the file and say what to do."""

from __future__ import annotations

import pickle
import re
from pathlib import Path
from typing import Any

import pytest

import goblin_core
from goblin_core.engines import BaseEngine
from goblin_core.errors import ERROR_KINDS, GoblinError, UnsupportedFormat

from scripted_engines import registry_with


def test_every_error_is_a_goblin_error_with_a_stable_kind() -> None:
    for kind, cls in ERROR_KINDS.items():
        assert issubclass(cls, GoblinError)
        assert cls.kind == kind == cls.__name__
        assert getattr(goblin_core, kind) is cls


def test_message_names_the_file() -> None:
    error = goblin_core.CorruptDocument("the xref table is damaged", file="dir/a.pdf")
    assert str(error) == "dir/a.pdf: the xref table is damaged"
    assert error.file == "dir/a.pdf" and error.message == "the xref table is damaged"


def test_with_file_names_a_file_once() -> None:
    error = goblin_core.PasswordRequired("give the password with password=...")
    named = error.with_file("secret.pdf")
    assert str(named) == "secret.pdf: give the password with password=..."
    assert isinstance(named, goblin_core.PasswordRequired)
    assert named.with_file("other.pdf") is named


def test_unsupported_format_says_which_extra_to_install() -> None:
    error = UnsupportedFormat("no installed plugin reads application/pdf", file="a.pdf",
                              mime="application/pdf", extra="pdf")
    assert str(error) == ('a.pdf: no installed plugin reads application/pdf; '
                          'install it with: pip install "goblin-core[pdf]"')


@pytest.mark.parametrize("cls", list(ERROR_KINDS.values()), ids=list(ERROR_KINDS))
def test_errors_survive_pickling(cls: type[GoblinError]) -> None:
    error = cls("something went wrong", file="f.bin")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is cls and str(copy) == str(error) and copy.file == "f.bin"


def test_extract_errors_name_the_file_and_what_to_do(tmp_path: object) -> None:
    registry = goblin_core.load_registry(load=[])
    cases = {
        "scan.png": (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, 'pip install "goblin-core[ocr]"'),
        "a.zip": (b"PK\x05\x06" + b"\x00" * 18, 'pip install "goblin-core[archives]"'),
        "big.txt": (b"x" * 2048, "raise the limit"),
    }
    for name, (data, advice) in cases.items():
        with pytest.raises(GoblinError) as caught:
            goblin_core.extract(data, name=name, registry=registry, max_file_size=1024)
        assert str(caught.value).startswith(f"{name}: ")
        assert advice in str(caught.value)


def test_a_type_whose_engines_are_all_disabled_says_so_instead_of_asking_to_install() -> None:
    registry = goblin_core.load_registry(load=[])
    with pytest.raises(UnsupportedFormat) as caught:
        goblin_core.extract(b"hello", name="a.txt", registry=registry,
                            engines={"text.plain": {"enabled": False}})
    message = str(caught.value)
    assert "disabled in config" in message and "text.plain" in message
    assert "install" not in message


def test_an_error_about_a_path_names_it_as_the_caller_gave_it(tmp_path: Path) -> None:
    missing = tmp_path / "inbox" / "x.pdf"
    with pytest.raises(goblin_core.UnreadableFile) as caught:
        goblin_core.extract(missing)
    assert caught.value.file == str(missing)
    assert str(caught.value).startswith(f"{missing}: cannot read it")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    with pytest.raises(goblin_core.CorruptDocument, match=f"^{re.escape(str(empty))}: "):
        goblin_core.extract(str(empty))
    with pytest.raises(goblin_core.CorruptDocument, match=r"^chosen\.txt: "):
        goblin_core.extract(empty, name="chosen.txt")
    assert goblin_core.extract(b"hi", name="a.txt").name == "a.txt"


@pytest.mark.parametrize("isolate", [False, True])
def test_an_unreadable_path_is_also_the_operating_systems_own_error(
    tmp_path: Path, isolate: bool
) -> None:
    # code written around open() keeps working around extract()
    with pytest.raises(FileNotFoundError) as missing:
        goblin_core.extract(tmp_path / "gone.pdf", isolate=isolate)
    assert isinstance(missing.value, goblin_core.UnreadableFile)
    assert missing.value.kind == "UnreadableFile"
    with pytest.raises(IsADirectoryError) as folder:
        goblin_core.extract(tmp_path, isolate=isolate)
    assert isinstance(folder.value, goblin_core.GoblinError)


def test_an_isolated_error_about_a_path_names_it_as_given_too(tmp_path: Path) -> None:
    unknown = tmp_path / "inbox" / "x.bin"
    unknown.parent.mkdir()
    unknown.write_bytes(b"\x00\x01garbage" * 10)
    with pytest.raises(goblin_core.UnsupportedFormat) as caught:
        goblin_core.extract(unknown, isolate=True)
    assert caught.value.file == str(unknown)
    assert str(caught.value).startswith(f"{unknown}: no installed plugin reads")
    assert caught.value.mime == "application/octet-stream"


_OLE_HEADER_ONLY = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)


class _NoDoc(BaseEngine):
    """A Word 97 reader, as goblin-office registers one."""

    name = "test.doc"
    formats = ("application/msword",)

    def open(self, source: Any, config: Any) -> Any:
        raise AssertionError("an unnamed OLE2 file is no Word file")


def test_an_unnamed_ole2_file_says_it_is_damaged_not_that_a_plugin_is_missing() -> None:
    # the office plugin names the kind inside an OLE2 file when it can; with it installed,
    # "no installed plugin reads application/x-ole-storage" sent readers looking for one
    with pytest.raises(UnsupportedFormat) as caught:
        goblin_core.extract(_OLE_HEADER_ONLY, name="anexo", registry=registry_with(_NoDoc()))
    message = str(caught.value)
    assert "OLE2 compound file" in message and "damaged" in message
    assert "pip install" not in message and caught.value.extra is None


def test_without_the_plugin_for_ole2_kinds_its_extra_is_named() -> None:
    with pytest.raises(UnsupportedFormat) as caught:
        goblin_core.extract(_OLE_HEADER_ONLY, name="anexo", registry=registry_with())
    assert caught.value.extra == "office"
    assert 'pip install "goblin-core[office]"' in str(caught.value)
