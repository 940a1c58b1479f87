"""A Dask executor for goblin."""

__version__ = "0.1.0"
