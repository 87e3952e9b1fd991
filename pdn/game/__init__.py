"""Layer 3, game: the game record (``Game``, ``GameNode``), its walk, tags, numbering, commands.

Imports ``pdn.base`` and ``pdn.engine``. A record holds what was written; it judges nothing.
"""
