"""Layer 4, arbiter: a record replayed through the engine (variant detection, replay, repair).

Imports ``pdn.base``, ``pdn.engine`` and ``pdn.game``. One game at a time; no files, no text.
"""
