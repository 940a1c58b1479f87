"""Hook implementations of goblin-dask."""
