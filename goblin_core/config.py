"""Configuration: one TOML (or JSON) file, one namespace per plugin.

Namespaces are declared by plugins through ``goblin_register_options``. The
core declares ``goblin`` (pipeline behaviour) and ``limits`` (safety limits);
``engines`` holds per-engine overrides::

    [goblin]
    ocr = "auto"

    [limits]
    max_file_size = "500MB"

    [engines."pdf.pypdf"]
    priority = 5
    enabled = false

    [pdf]
    password = "s3cret"
"""

from __future__ import annotations

import difflib
import json
import logging
import os
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from goblin_core.errors import ConfigError
from goblin_core.options import Namespace

log = logging.getLogger(__name__)

CORE_NAMESPACES = ("goblin", "limits")
ENGINES_KEY = "engines"
CONFIG_ENV = "GOBLIN_CONFIG"

#: Namespaces of goblin's own plugins, and the extra that installs each.
FIRST_PARTY_EXTRAS: Mapping[str, str] = {
    "pdf": "pdf",
    "office": "office",
    "archives": "archives",
    "tesseract": "ocr",
    "textract": "textract",
    "dask": "dask",
}
#: Opt-in plugins outside goblin-core's extras, and the distribution to install.
OPT_IN_DISTRIBUTIONS: Mapping[str, str] = {"easyocr": "goblin-ocr-easyocr"}
#: Engine-name prefixes of goblin's own plugins, and the extra that installs each; an
#: engine named in the first table is matched whole, before its prefix.
FIRST_PARTY_ENGINES: Mapping[str, str] = {"ocr.textract": "textract", "executor.dask": "dask"}
FIRST_PARTY_ENGINE_PREFIXES: Mapping[str, str] = {
    "pdf": "pdf",
    "office": "office",
    "archive": "archives",
    "ocr": "ocr",
    "image": "ocr",
    "djvu": "djvu",
}
OPT_IN_ENGINES: Mapping[str, str] = {"ocr.easyocr": "goblin-ocr-easyocr"}


@dataclass(frozen=True)
class Config:
    """The effective configuration: validated values with defaults filled in.

    >>> from goblin_core import default_registry
    >>> cfg = default_registry().config(ocr="never")
    >>> cfg.get("goblin", "ocr")
    'never'
    """

    values: Mapping[str, Mapping[str, Any]]
    engines: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    namespaces: Mapping[str, Namespace] = field(default_factory=dict, compare=False, repr=False)
    #: Names of the installed engines ([engines] is checked against them; empty: not checked).
    engine_names: frozenset[str] = field(default_factory=frozenset, compare=False, repr=False)

    def section(self, namespace: str) -> Mapping[str, Any]:
        """All values of a namespace (an empty mapping when it is not declared)."""
        return self.values.get(namespace, {})

    def get(self, namespace: str, key: str, default: Any = None) -> Any:
        return self.values.get(namespace, {}).get(key, default)

    @property
    def core(self) -> Mapping[str, Any]:
        return self.section("goblin")

    @property
    def limits(self) -> Mapping[str, Any]:
        return self.section("limits")

    def engine_priority(self, name: str, default: int) -> int:
        return int(self.engines.get(name, {}).get("priority", default))

    def engine_enabled(self, name: str) -> bool | None:
        """True or False when config says so for this engine, else None."""
        value = self.engines.get(name, {}).get("enabled")
        return None if value is None else bool(value)

    def with_options(self, **options: Any) -> Config:
        """A copy with call options applied (same rules as ``extract(**options)``)."""
        return build_config(
            self.namespaces, self.to_dict(), options, engine_names=self.engine_names
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {ns: dict(vals) for ns, vals in self.values.items()}
        if self.engines:
            data[ENGINES_KEY] = {n: dict(v) for n, v in self.engines.items()}
        return data


def read_config_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a TOML or JSON config file; a syntax error is a ConfigError naming the file."""
    file = Path(path)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read config file: {exc.strerror}", file=str(file)) from exc
    try:
        if file.suffix.lower() == ".json":
            data = json.loads(raw)
        else:
            data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file is not valid: {exc}", file=str(file)) from exc
    if not isinstance(data, dict):
        raise ConfigError("config file must hold a table of namespaces", file=str(file))
    return data


def build_config(
    namespaces: Mapping[str, Namespace],
    file_data: Mapping[str, Any] | None = None,
    call_options: Mapping[str, Any] | None = None,
    *,
    file: str | os.PathLike[str] | None = None,
    engine_names: Collection[str] = (),
) -> Config:
    """Validate file data and call options against the declared namespaces.

    ``file`` is where ``file_data`` came from: a wrong key or value in it is a
    ConfigError naming that file as well as the key. ``engine_names`` are the
    installed engines, which ``[engines]`` is checked against (see
    ``unknown_engine_message``); when empty, engine names are not checked.
    """
    values = {name: ns.defaults() for name, ns in namespaces.items()}
    engines: dict[str, dict[str, Any]] = {}
    warnings: list[str] = []
    try:
        _apply_tables(namespaces, file_data or {}, values, engines, warnings)
    except ConfigError as exc:
        if file is None:
            raise
        raise exc.with_file(str(file)) from None
    _apply_call_options(namespaces, call_options or {}, values, engines, warnings)
    known = frozenset(engine_names)
    if known:
        _check_engine_names(engines, known, warnings, file)
    for message in warnings:
        log.warning(message)
    return Config(values=values, engines=engines, warnings=tuple(warnings),
                  namespaces=namespaces, engine_names=known)


def _check_engine_names(
    engines: dict[str, dict[str, Any]],
    known: frozenset[str],
    warnings: list[str],
    file: str | os.PathLike[str] | None,
) -> None:
    """Drop (with a warning) overrides of engines of plugins not installed; raise on typos."""
    for name in [n for n in engines if n not in known]:
        message, fatal = unknown_engine_message(name, known)
        if fatal:
            raise ConfigError(message, file=str(file) if file else None)
        warnings.append(message)
        del engines[name]


def unknown_engine_message(name: str, known: Collection[str]) -> tuple[str, bool]:
    """Why ``[engines."NAME"]`` names no installed engine, and whether that is an error.

    A name with the prefix of an installed plugin's engines (``pdf.pypdfiun2``),
    or with no plugin prefix at all, is a typo: an error listing close names. An
    engine of a goblin plugin that is not installed is a warning naming the extra,
    and an engine of an unknown prefix a warning (a plugin not installed here), as
    for config namespaces; both overrides are ignored.
    """
    prefix = name.split(".", 1)[0] if "." in name else ""
    extra = FIRST_PARTY_ENGINES.get(name)
    if extra is None and name not in OPT_IN_ENGINES and prefix not in _prefixes(known):
        extra = FIRST_PARTY_ENGINE_PREFIXES.get(prefix)
    if extra is not None:
        return (f"engines.{name}: engine of a plugin that is not installed; ignored; "
                f'install it with: pip install "goblin-core[{extra}]"', False)
    if name in OPT_IN_ENGINES:
        distribution = OPT_IN_ENGINES[name]
        return (f"engines.{name}: engine of the opt-in plugin {distribution}, which is not "
                f"installed; ignored; install it with: pip install {distribution}", False)
    if prefix and prefix not in _prefixes(known):
        return (f"engines.{name}: no installed plugin has an engine of that name; ignored", False)
    close = difflib.get_close_matches(name, sorted(known), n=3, cutoff=0.6)
    hint = f"did you mean {', '.join(close)}? " if close else ""
    return (f"engines.{name} is not an installed engine; {hint}"
            "`goblin plugins` lists every engine", True)


def _prefixes(names: Collection[str]) -> set[str]:
    return {n.split(".", 1)[0] for n in names if "." in n}


def _apply_tables(
    namespaces: Mapping[str, Namespace],
    data: Mapping[str, Any],
    values: dict[str, dict[str, Any]],
    engines: dict[str, dict[str, Any]],
    warnings: list[str],
) -> None:
    for ns_name, table in data.items():
        if ns_name == ENGINES_KEY:
            _apply_engines(table, engines)
            continue
        if not isinstance(table, Mapping):
            raise ConfigError(f"[{ns_name}] must be a table of options, got {table!r}")
        namespace = namespaces.get(ns_name)
        if namespace is None:
            warnings.append(_unknown_namespace_message(ns_name))
            continue
        for key, value in table.items():
            option = namespace.by_name.get(key)
            if option is None:
                raise ConfigError(_unknown_key_message(namespace, key))
            values[ns_name][key] = option.coerce(value, f"{ns_name}.{key}")


def _apply_engines(table: Any, engines: dict[str, dict[str, Any]]) -> None:
    if not isinstance(table, Mapping):
        raise ConfigError(f"[engines] must map engine names to tables, got {table!r}")
    for name, override in table.items():
        if not isinstance(override, Mapping):
            raise ConfigError(f"engines.{name} must be a table with priority and/or enabled")
        clean: dict[str, Any] = {}
        for key, value in override.items():
            if key == "priority":
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ConfigError(f"engines.{name}.priority must be a whole number")
            elif key == "enabled":
                if not isinstance(value, bool):
                    raise ConfigError(f"engines.{name}.enabled must be true or false")
            else:
                raise ConfigError(
                    f"engines.{name}.{key} is not an engine setting (use priority or enabled)"
                )
            clean[key] = value
        engines.setdefault(str(name), {}).update(clean)


def flat_option_names(namespaces: Mapping[str, Namespace]) -> dict[str, str]:
    """Map each core option name to its namespace (the names ``extract`` takes flat)."""
    flat: dict[str, str] = {}
    for ns_name in CORE_NAMESPACES:
        namespace = namespaces.get(ns_name)
        if namespace is not None:
            for option in namespace.options:
                flat.setdefault(option.name, ns_name)
    return flat


def _apply_call_options(
    namespaces: Mapping[str, Namespace],
    options: Mapping[str, Any],
    values: dict[str, dict[str, Any]],
    engines: dict[str, dict[str, Any]],
    warnings: list[str],
) -> None:
    flat = flat_option_names(namespaces)
    for key, value in options.items():
        if value is None and (key in flat or key in namespaces or key == ENGINES_KEY):
            continue
        if key == ENGINES_KEY or key in namespaces:
            if not isinstance(value, Mapping):
                raise ConfigError(f"option {key} takes a mapping of its namespace's options")
            _apply_tables(namespaces, {key: _given(value, namespaces.get(key))}, values, engines,
                          warnings)
        elif key in flat:
            ns_name = flat[key]
            values[ns_name][key] = namespaces[ns_name].by_name[key].coerce(value, key)
        elif key in FIRST_PARTY_EXTRAS or key in OPT_IN_DISTRIBUTIONS:
            warnings.append(_unknown_namespace_message(key))
        else:
            known = ", ".join(sorted(flat))
            raise ConfigError(
                f"unknown option {key!r}; options are {known}, or a namespace name "
                "with a mapping (e.g. pdf={'password': '...'})"
            )


def _given(table: Mapping[str, Any], namespace: Namespace | None) -> dict[str, Any]:
    """``table`` without the None values of its options (of the engines' tables when
    ``namespace`` is None); a key no option has keeps its value, to be refused by name.

    A call option passed as None is one not given, as a Python keyword argument
    defaulting to None is: ``extract(path, password=maybe_password)`` reads the
    configured password when ``maybe_password`` is None, not an error.
    """
    if namespace is None:
        return {key: _given(value, None) if isinstance(value, Mapping) else value
                for key, value in table.items() if value is not None}
    return {key: value for key, value in table.items()
            if value is not None or key not in namespace.by_name}


def _unknown_namespace_message(ns_name: str) -> str:
    extra = FIRST_PARTY_EXTRAS.get(ns_name)
    if extra:
        return (
            f"config namespace [{ns_name}] belongs to a plugin that is not installed; "
            f'install it with: pip install "goblin-core[{extra}]"'
        )
    distribution = OPT_IN_DISTRIBUTIONS.get(ns_name)
    if distribution:
        return (
            f"config namespace [{ns_name}] belongs to the opt-in plugin {distribution}, "
            f"which is not installed; install it with: pip install {distribution}"
        )
    return f"config namespace [{ns_name}] is not declared by any installed plugin; ignored"


def _unknown_key_message(namespace: Namespace, key: str) -> str:
    known = ", ".join(sorted(namespace.by_name))
    return f"{namespace.name}.{key} is not an option of [{namespace.name}]; known: {known}"


def config_file(path: str | os.PathLike[str] | None) -> str | os.PathLike[str] | None:
    """The config file to read: ``path``, else $GOBLIN_CONFIG, else None."""
    return path or os.environ.get(CONFIG_ENV) or None


def load_config_data(path: str | os.PathLike[str] | None) -> dict[str, Any]:
    """The file named by ``path`` or $GOBLIN_CONFIG, or an empty dict."""
    chosen = config_file(path)
    return read_config_file(chosen) if chosen else {}
