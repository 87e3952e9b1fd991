"""Layer 9, cli: the ``pdn`` command: one module per verb parses arguments, calls the library,
prints.

Imports any layer below; a verb module never imports another verb module (shared parts:
``arguments``).
"""
