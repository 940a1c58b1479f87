"""goblin_core.compat has GoblinTools 0.13.4's API: every exported name, every public
method, the same parameters, kinds and defaults.

Rules: goblin's parameters start with GoblinTools' own, in the same order,
of the same kind, with equal defaults. goblin may add parameters after them
only when they are optional (a call written for GoblinTools still works).
A dataclass field GoblinTools fills with a fresh empty list may default to an
empty tuple in goblin (its documents are immutable). Annotations are not
compared: they name each library's own classes.

Runs in the ``compat`` nox session, which installs goblintools==0.13.4 beside
goblin-core. Without goblintools the test skips on a developer's machine and
FAILS under CI, so the check can never silently stop running.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Iterator
from typing import Any

import goblin_core.compat as compat


def _empty_container(value: Any) -> bool:
    return isinstance(value, (tuple, list, dict, frozenset, set)) and not value


def _same_default(theirs: Any, ours: Any) -> bool:
    if theirs is ours:
        return True
    factory = dataclasses._HAS_DEFAULT_FACTORY  # type: ignore[attr-defined]
    if theirs is factory:
        return ours is factory or _empty_container(ours)
    try:
        return bool(theirs == ours) and type(theirs) is type(ours)
    except Exception:  # an exotic default that cannot be compared is a mismatch
        return False


def signature_problems(where: str, theirs: inspect.Signature, ours: inspect.Signature) -> list[str]:
    """Every way ``ours`` fails to accept the calls ``theirs`` accepts."""
    problems: list[str] = []
    their_params = list(theirs.parameters.values())
    our_params = list(ours.parameters.values())
    for i, param in enumerate(their_params):
        if i >= len(our_params):
            problems.append(f"{where}: parameter {param.name!r} is missing")
            continue
        mine = our_params[i]
        if mine.name != param.name:
            problems.append(f"{where}: parameter {i} is {mine.name!r}, "
                            f"GoblinTools has {param.name!r}")
        elif mine.kind != param.kind:
            problems.append(f"{where}: {param.name} is {mine.kind.description}, "
                            f"GoblinTools has {param.kind.description}")
        elif not _same_default(param.default, mine.default):
            problems.append(f"{where}: {param.name} defaults to {mine.default!r}, "
                            f"GoblinTools to {param.default!r}")
    for extra in our_params[len(their_params):]:
        optional = extra.default is not inspect.Parameter.empty or extra.kind in (
            inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        if not optional:
            problems.append(f"{where}: extra parameter {extra.name!r} is required")
    return problems


def _public_members(cls: type) -> Iterator[tuple[str, Any]]:
    for name, value in vars(cls).items():
        if name.startswith("_") and name != "__init__":
            continue
        yield name, value


def _kind(value: Any) -> str:
    if isinstance(value, staticmethod):
        return "staticmethod"
    if isinstance(value, classmethod):
        return "classmethod"
    if isinstance(value, property):
        return "property"
    if callable(value):
        return "method"
    return "attribute"


def _find(cls: type, name: str) -> Any:
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name]
    return None


def class_problems(name: str, theirs: type, ours: type) -> list[str]:
    problems = signature_problems(name, inspect.signature(theirs), inspect.signature(ours))
    for member, value in _public_members(theirs):
        where = f"{name}.{member}"
        mine = _find(ours, member)
        if mine is None:
            if not hasattr(ours, member):
                problems.append(f"{where} is missing")
            continue
        if _kind(mine) != _kind(value):
            if not (_kind(value) == "attribute" and _kind(mine) in ("attribute", "property")):
                problems.append(f"{where} is a {_kind(mine)}, GoblinTools has a {_kind(value)}")
            continue
        if _kind(value) in ("staticmethod", "classmethod", "method"):
            problems.extend(signature_problems(where, inspect.signature(getattr(theirs, member)),
                                               inspect.signature(getattr(ours, member))))
    return problems


def test_every_goblintools_name_is_exported(goblintools: Any) -> None:
    missing = [n for n in goblintools.__all__ if n not in compat.__all__]
    assert not missing
    for name in goblintools.__all__:
        assert getattr(compat, name) is not None


def test_the_version_is_the_goblintools_release_the_api_follows(goblintools: Any) -> None:
    assert compat.__version__ == goblintools.__version__


def test_every_signature_matches(goblintools: Any) -> None:
    problems: list[str] = []
    for name in goblintools.__all__:
        theirs, ours = getattr(goblintools, name), getattr(compat, name)
        if inspect.isclass(theirs):
            assert inspect.isclass(ours), f"{name} is not a class in goblin_core.compat"
            problems.extend(class_problems(name, theirs, ours))
        else:
            problems.extend(signature_problems(name, inspect.signature(theirs),
                                               inspect.signature(ours)))
    assert not problems, "\n".join(problems)


def test_table_block_matches(goblintools: Any) -> None:
    from goblintools.structured import TableBlock

    assert not class_problems("TableBlock", TableBlock, compat.TableBlock)


def test_the_checker_catches_a_changed_default() -> None:
    def theirs(a: int, b: str = "x") -> None: ...
    def ours(a: int, b: str = "y", c: int = 0) -> None: ...
    def required_extra(a: int, b: str = "x", c: int = 0, *, d: int) -> None: ...

    assert signature_problems("f", inspect.signature(theirs), inspect.signature(ours)) == [
        "f: b defaults to 'y', GoblinTools to 'x'"
    ]
    assert signature_problems("f", inspect.signature(theirs),
                              inspect.signature(required_extra)) == [
        "f: extra parameter 'd' is required"
    ]
