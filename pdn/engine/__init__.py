"""Layer 2, engine: the rules of every variant (boards, moves, positions, draw rules, keys).

Imports only ``pdn.base``. Knows nothing of records, files or text beyond FEN and move text.
"""
