"""Config: TOML and JSON files, declared namespaces, clear errors naming the key."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from goblin_core import ConfigError, extract, load_registry
from goblin_core.config import read_config_file

CORE_ONLY = load_registry(load=[])


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_toml_file_sets_options_of_each_namespace(tmp_path: Path) -> None:
    path = _write(tmp_path, "goblin.toml", """
[goblin]
ocr = "never"
ocr_languages = "por"

[limits]
max_file_size = "10MB"
timeout = 12

[engines."text.plain"]
priority = 3
""")
    config = CORE_ONLY.config(path)
    assert config.get("goblin", "ocr") == "never"
    assert config.get("goblin", "ocr_languages") == "por"
    assert config.limits["max_file_size"] == 10 * 1024**2
    assert config.limits["timeout"] == 12.0
    assert config.engine_priority("text.plain", 10) == 3
    assert config.get("goblin", "ocr_dpi") == 300  # defaults fill the rest


def test_json_file_is_accepted(tmp_path: Path) -> None:
    path = _write(tmp_path, "goblin.json",
                  '{"goblin": {"ocr": "always"}, "limits": {"max_pages": 5}}')
    config = CORE_ONLY.config(path)
    assert config.get("goblin", "ocr") == "always"
    assert config.limits["max_pages"] == 5


def test_a_mapping_shaped_as_the_file_is_a_config_in_python() -> None:
    config = CORE_ONLY.config({"goblin": {"ocr": "never"}, "limits": {"max_pages": 7}},
                              timeout=9)
    assert (config.get("goblin", "ocr"), config.limits["max_pages"]) == ("never", 7)
    assert config.limits["timeout"] == 9
    assert extract(b"hello", name="a.txt", config={"goblin": {"ocr": "never"}}).text == "hello"
    with pytest.raises(ConfigError, match=r"limits\.max_pagez"):
        extract(b"hello", name="a.txt", config={"limits": {"max_pagez": 1}})


def test_config_env_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path, "env.toml", "[limits]\nmax_output_chars = 5\n")
    monkeypatch.setenv("GOBLIN_CONFIG", str(path))
    document = extract(b"hello world, longer than five", name="a.txt", registry=CORE_ONLY)
    assert document.text == "hello"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("[goblin]\nocr_langauges = 'por'\n", "goblin.ocr_langauges"),
        ("[limits]\nmax_filesize = 5\n", "limits.max_filesize"),
        ("[engines.'text.plain']\npriorty = 5\n", "engines.text.plain.priorty"),
    ],
    ids=["goblin", "limits", "engines"],
)
def test_unknown_key_in_a_known_namespace_is_an_error_naming_it(
    tmp_path: Path, text: str, named: str
) -> None:
    path = _write(tmp_path, "bad.toml", text)
    with pytest.raises(ConfigError, match=named.replace(".", r"\.")):
        CORE_ONLY.config(path)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("[goblin]\nocr = 'sometimes'\n", "ocr"),
        ("[goblin]\nocr_dpi = 'high'\n", "ocr_dpi"),
        ("[goblin]\nocr_dpi = 10\n", "ocr_dpi"),
        ("[goblin]\ntables = 'perhaps'\n", "tables"),
        ("[limits]\nmax_file_size = 'huge'\n", "max_file_size"),
        ("[engines.'text.plain']\nenabled = 'no'\n", "engines.text.plain.enabled"),
        ("[engines.'text.plain']\npriority = 1.5\n", "engines.text.plain.priority"),
        ("goblin = 3\n", "[goblin]"),
    ],
    ids=["choice", "int", "minimum", "bool", "bytes", "enabled", "priority", "not-a-table"],
)
def test_bad_value_is_an_error_naming_the_key(tmp_path: Path, text: str, named: str) -> None:
    path = _write(tmp_path, "bad.toml", text)
    with pytest.raises(ConfigError) as caught:
        CORE_ONLY.config(path)
    assert named in str(caught.value)


def test_syntax_error_names_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "broken.toml", "[goblin\nocr = 'never'\n")
    with pytest.raises(ConfigError, match=r"broken\.toml: config file is not valid"):
        read_config_file(path)


def test_missing_config_file_names_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nowhere\.toml"):
        CORE_ONLY.config(tmp_path / "nowhere.toml")


def test_namespace_of_an_uninstalled_first_party_plugin_warns_with_its_extra(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _write(tmp_path, "goblin.toml", "[pdf]\npassword = 'x'\n\n[tesseract]\npsm = 3\n")
    with caplog.at_level(logging.WARNING, logger="goblin_core.config"):
        config = CORE_ONLY.config(path)
    joined = " ".join(config.warnings)
    assert 'pip install "goblin-core[pdf]"' in joined
    assert 'pip install "goblin-core[ocr]"' in joined
    assert "goblin-core[pdf]" in caplog.text


def test_namespace_nobody_declares_warns_that_it_is_ignored(tmp_path: Path) -> None:
    path = _write(tmp_path, "goblin.toml", "[frobnicate]\nlevel = 3\n")
    config = CORE_ONLY.config(path)
    assert any("[frobnicate]" in w and "ignored" in w for w in config.warnings)


def test_a_plugin_namespace_is_validated_when_the_plugin_is_installed(tmp_path: Path) -> None:
    from collections.abc import Callable

    from goblin_core import Option, hookimpl

    class NotePlugin:
        @hookimpl
        def goblin_register_options(self, register: Callable[..., None]) -> None:
            register("note", [Option("strict", "bool", False, "Refuse notes without a title.")],
                     extra=None, help="The note reader.")

    registry = load_registry(load=[], extra_plugins=[("note", NotePlugin())])
    assert registry.config(_write(tmp_path, "a.toml", "[note]\nstrict = true\n")).get(
        "note", "strict") is True
    with pytest.raises(ConfigError, match=r"note\.strickt"):
        registry.config(_write(tmp_path, "b.toml", "[note]\nstrickt = true\n"))


def test_extract_accepts_documented_options() -> None:
    document = extract(b"some words in a file", name="a.txt", registry=CORE_ONLY,
                       ocr="never", max_output_chars=4, goblin={"tables": True})
    assert document.text == "some"


@pytest.mark.parametrize(
    "options",
    [{"ocr_language": "por"}, {"verbose": True}, {"goblin": {"nope": 1}}, {"goblin": "never"}],
    ids=["misspelled", "undocumented", "unknown-key", "not-a-mapping"],
)
def test_extract_rejects_undocumented_options(options: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        extract(b"text", name="a.txt", registry=CORE_ONLY, **options)  # type: ignore[arg-type]


def test_extract_option_error_lists_the_known_options() -> None:
    with pytest.raises(ConfigError) as caught:
        extract(b"text", name="a.txt", registry=CORE_ONLY, ocr_language="por")
    assert "'ocr_language'" in str(caught.value) and "ocr_languages" in str(caught.value)


def test_call_options_override_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "goblin.toml", "[goblin]\nocr = 'never'\n")
    config = CORE_ONLY.config(path, ocr="always")
    assert config.get("goblin", "ocr") == "always"


@pytest.mark.parametrize(
    "text",
    ["[goblin]\nocrr = 'never'\n", "[limits]\nmax_file_size = 'huge'\n", "goblin = 3\n"],
    ids=["unknown-key", "bad-value", "not-a-table"],
)
def test_a_wrong_key_or_value_in_a_file_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    path = _write(tmp_path, "team.toml", text)
    with pytest.raises(ConfigError, match=r"team\.toml: ") as given:
        CORE_ONLY.config(path)
    assert given.value.file == str(path)
    monkeypatch.setenv("GOBLIN_CONFIG", str(path))
    with pytest.raises(ConfigError, match=r"team\.toml: "):
        extract(b"hello", name="a.txt", registry=CORE_ONLY)


def test_a_wrong_call_option_names_no_file() -> None:
    with pytest.raises(ConfigError) as caught:
        CORE_ONLY.config(goblin={"ocrr": "never"})
    assert caught.value.file is None and str(caught.value).startswith("goblin.ocrr")


def test_a_misspelt_engine_of_an_installed_plugin_is_an_error_naming_it(tmp_path: Path) -> None:
    path = _write(tmp_path, "t.toml", '[engines."text.plian"]\nenabled = false\n')
    with pytest.raises(ConfigError, match=r"t\.toml: engines\.text\.plian .*text\.plain"):
        CORE_ONLY.config(path)
    with pytest.raises(ConfigError, match=r"engines\.plain .*did you mean text\.plain"):
        extract(b"x", name="a.txt", registry=CORE_ONLY, engines={"plain": {"priority": 1}})


def test_an_engine_of_a_plugin_not_installed_warns_naming_its_extra_and_is_ignored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _write(tmp_path, "t.toml", '[engines."pdf.nonexistent"]\nenabled = false\n'
                  '[engines."ocr.textract"]\nenabled = true\n'
                  '[engines."thirdparty.reader"]\npriority = 3\n')
    with caplog.at_level(logging.WARNING, logger="goblin_core.config"):
        config = CORE_ONLY.config(path)
    joined = " ".join(config.warnings)
    assert 'engines.pdf.nonexistent' in joined and 'goblin-core[pdf]' in joined
    assert 'engines.ocr.textract' in joined and 'goblin-core[textract]' in joined
    assert 'engines.thirdparty.reader' in joined and "ignored" in joined
    assert "engines.pdf.nonexistent" in caplog.text
    assert not config.engines


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"timeout": float("nan")}, "timeout must be a finite number"),
        ({"timeout": float("inf")}, "timeout must be a finite number"),
        ({"timeout": 1e12}, "timeout must be at most"),
        ({"limits": {"max_ratio": float("nan")}}, "limits.max_ratio must be a finite number"),
    ],
    ids=["nan", "infinite", "past-a-week", "nan-in-a-namespace"],
)
def test_a_number_no_limit_can_hold_is_refused(options: dict[str, object], said: str) -> None:
    # NaN passes every bound check, and a timer overflows on an infinite or huge wait
    with pytest.raises(ConfigError) as caught:
        extract(b"text", name="a.txt", registry=CORE_ONLY, **options)  # type: ignore[arg-type]
    assert said in str(caught.value)
    assert extract(b"text", name="a.txt", registry=CORE_ONLY, timeout=86400).text == "text"


def test_isolate_and_name_take_only_their_own_types() -> None:
    with pytest.raises(ConfigError, match="isolate must be True or False, not 'no'"):
        extract(b"text", name="a.txt", registry=CORE_ONLY, isolate="no")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="name must be a string, not int"):
        extract(b"text", name=5, registry=CORE_ONLY)  # type: ignore[arg-type]


def test_an_option_given_as_none_keeps_its_configured_value(tmp_path: Path) -> None:
    path = _write(tmp_path, "goblin.toml", "[goblin]\nocr = 'never'\npassword = 's3cret'\n")
    config = CORE_ONLY.config(path, ocr=None, password=None, timeout=None,
                              goblin={"max_pages": None}, limits=None, engines=None)
    assert config.get("goblin", "ocr") == "never"
    assert config.get("goblin", "password") == "s3cret"
    assert config.get("limits", "timeout") == 300.0
    assert config.get("goblin", "max_pages") == 0
    document = extract(b"some words", name="a.txt", registry=CORE_ONLY, password=None,
                       max_output_chars=None)
    assert document.text == "some words"


@pytest.mark.parametrize(
    "options", [{"pasword": None}, {"goblin": {"pasword": None}}],
    ids=["flat", "in-a-namespace"])
def test_a_misspelt_option_given_as_none_is_still_refused(options: dict[str, object]) -> None:
    with pytest.raises(ConfigError, match="pasword"):
        extract(b"text", name="a.txt", registry=CORE_ONLY, **options)  # type: ignore[arg-type]
