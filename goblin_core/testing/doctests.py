"""The examples in a package's docstrings, run as tests.

Docstrings show calls and their results; run here, those examples cannot
drift from what the code does. A plugin's tests parametrize over
:func:`modules_of` and call :func:`assert_examples_hold` on each module.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def modules_of(package: ModuleType) -> list[str]:
    """The dotted names of ``package`` and every module under it (``__main__`` modules
    left out: importing one runs the program)."""
    names = [package.__name__]
    names += [info.name for info in pkgutil.walk_packages(package.__path__,
                                                          prefix=package.__name__ + ".")
              if not info.name.endswith(".__main__")]
    return sorted(names)


def assert_examples_hold(module_name: str) -> None:
    """Run the docstring examples of ``module_name``; AssertionError naming the failures."""
    module = importlib.import_module(module_name)
    runner = doctest.DocTestRunner(optionflags=_FLAGS)
    failures: list[str] = []
    for test in doctest.DocTestFinder().find(module, module_name):
        result = runner.run(test, out=failures.append)
        if result.failed:
            failures.insert(0, f"{test.name}: {result.failed} of {result.attempted} failed")
    assert not failures, "\n".join(failures)
