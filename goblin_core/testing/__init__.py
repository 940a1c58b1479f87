"""Testing support for goblin and its plugins: the conformance kit and corpus access.

``goblin_core.testing.conformance`` holds the checks every plugin's tests run
on its engines; ``goblin_core.testing.corpus`` finds the shared document corpus.
"""

from goblin_core.testing.conformance import (
    ConformanceError,
    LoadedPlugin,
    Problem,
    assert_engine_conformance,
    assert_formats_have_fixtures,
    assert_plugin_conforms,
    check_plugin,
    load_plugin,
)

__all__ = [
    "ConformanceError",
    "LoadedPlugin",
    "Problem",
    "assert_engine_conformance",
    "assert_formats_have_fixtures",
    "assert_plugin_conforms",
    "check_plugin",
    "load_plugin",
]
