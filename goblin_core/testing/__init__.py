"""Testing support for goblin and its plugins: the conformance kit and corpus access."""
