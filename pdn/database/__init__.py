"""Layer 8, database: what is known of many games (facts, filters, duplicates, statistics, the
index).

Imports the layers below it (``base`` to ``batch``).
"""
