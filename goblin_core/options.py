"""Option schemas: what a config namespace may hold, with types, defaults and help."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from goblin_core.errors import ConfigError

OPTION_TYPES = ("str", "int", "float", "bool", "list", "choice", "bytes")

#: Most seconds a time limit may be set to: a week. The timers the limits are handed to
#: (a subprocess wait, a poll) overflow somewhere past 24 days.
LONGEST_WAIT_SECONDS = 7 * 24 * 3600.0


@dataclass(frozen=True)
class Option:
    """One option of a namespace.

    ``type`` is str, int, float, bool, list (of str), choice (one of
    ``choices``) or bytes (an int that also accepts "10MB"-style strings).

    >>> Option("dpi", "int", 300, "Resolution pages are rendered at.", minimum=72).coerce(150)
    150
    """

    name: str
    type: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    #: Reads the converted value as its users will and raises ConfigError when it cannot
    #: (a page range that is no FIRST-LAST): a value is refused when it is given, before
    #: any document is read, not once per document
    check: Callable[[Any], object] | None = None
    #: A password or a key: ``goblin config`` says whether it is set, never what it is
    secret: bool = False

    def __post_init__(self) -> None:
        if self.type not in OPTION_TYPES:
            raise ValueError(f"option {self.name}: unknown type {self.type!r}")

    def coerce(self, value: Any, where: str = "") -> Any:
        """Check and convert ``value``; raise ConfigError naming the key when wrong."""
        key = where or self.name
        converted = _convert(self, value, key)
        if isinstance(converted, (int, float)) and not isinstance(converted, bool):
            if self.minimum is not None and converted < self.minimum:
                raise ConfigError(f"{key} must be at least {self.minimum}, got {value!r}")
            if self.maximum is not None and converted > self.maximum:
                raise ConfigError(f"{key} must be at most {self.maximum}, got {value!r}")
        if self.check is not None:
            self.check(converted)
        return converted


_UNITS = {
    "": 1,
    "b": 1,
    "kb": 1024,
    "k": 1024,
    "mb": 1024**2,
    "m": 1024**2,
    "gb": 1024**3,
    "g": 1024**3,
    "tb": 1024**4,
}


def _convert(option: Option, value: Any, key: str) -> Any:
    kind = option.type
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
            return value.lower() in ("true", "1", "yes")
        raise ConfigError(f"{key} must be true or false, got {value!r}")
    if kind in ("int", "bytes"):
        if kind == "bytes" and isinstance(value, str):
            return _parse_bytes(value, key)
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                return int(value)
            raise ConfigError(f"{key} must be a whole number, got {value!r}")
        return value
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{key} must be a number, got {value!r}")
        if not math.isfinite(value):
            # NaN passes every bound check (its comparisons are all false), and an
            # infinite time limit overflows the timers it is handed to
            raise ConfigError(f"{key} must be a finite number, got {value!r}")
        return float(value)
    if kind == "str":
        if not isinstance(value, str):
            raise ConfigError(f"{key} must be a string, got {value!r}")
        return value
    if kind == "list":
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{key} must be a list of strings, got {value!r}")
        return tuple(value)
    if value not in option.choices:
        raise ConfigError(f"{key} must be one of {', '.join(option.choices)}; got {value!r}")
    return value


def _parse_bytes(text: str, key: str) -> int:
    cleaned = text.strip().lower().replace(" ", "").replace("ib", "b")
    number = cleaned.rstrip("kmgtb")
    unit = cleaned[len(number) :]
    if unit not in _UNITS:
        raise ConfigError(f"{key}: cannot read size {text!r} (use e.g. 500MB or 2GB)")
    try:
        return int(float(number) * _UNITS[unit])
    except ValueError:
        raise ConfigError(f"{key}: cannot read size {text!r} (use e.g. 500MB or 2GB)") from None


@dataclass(frozen=True)
class Namespace:
    """A declared config namespace and the plugin that declared it."""

    name: str
    options: tuple[Option, ...]
    help: str = ""
    extra: str | None = None
    plugin: str = ""
    by_name: dict[str, Option] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.by_name.update({o.name: o for o in self.options})

    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}


def make_namespace(
    name: str,
    options: Sequence[Option],
    *,
    extra: str | None = None,
    help: str = "",
    plugin: str = "",
) -> Namespace:
    """A namespace whose defaults are checked and converted like any configured value
    (a bytes default of ``"1MB"`` is 1048576 for every reader), so a plugin's bad
    default is its own registration error, never a surprise at run time."""
    checked = []
    for option in options:
        try:
            default = option.coerce(option.default, f"{name}.{option.name}")
        except ConfigError as exc:
            raise ConfigError(f"the default of {exc}") from None
        checked.append(option if default == option.default and type(default) is type(
            option.default) else replace(option, default=default))
    return Namespace(name=name, options=tuple(checked), help=help, extra=extra, plugin=plugin)
