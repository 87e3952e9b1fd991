"""Layer 5, pdnfile: PDN files read into records and records written back (PDN or JSON).

Imports the layers below (``base``, ``engine``, ``game``, ``arbiter``: a rewrite asks the replay).
"""
