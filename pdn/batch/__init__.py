"""Layer 7, batch: work over many files and games (paths, ordered process and Dask maps, the verbs).

Imports the layers below it (``base`` to ``views``). Each verb is one library call here or above.
"""
