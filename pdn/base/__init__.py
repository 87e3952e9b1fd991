"""Layer 1, base: what every layer shares (findings, pickling, the one output module, hooks).

Imports nothing of pdn. Each module here is vocabulary, not work: O(1) to import.
"""
